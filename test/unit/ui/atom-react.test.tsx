// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react"
import { Deferred, Effect } from "effect"
import * as AsyncResult from "effect/reactivity/AsyncResult"
import * as Atom from "effect/reactivity/Atom"
import * as AtomRegistry from "effect/reactivity/AtomRegistry"
import { StrictMode } from "react"
import { afterEach, describe, expect, it } from "vitest"
import {
  RegistryProvider,
  useAtom,
  useAtomMount,
  useAtomRefresh,
  useAtomSet,
  useAtomValue
} from "../../../src/ui/atom-react/hooks"

afterEach(cleanup)

const withRegistry = (registry: AtomRegistry.AtomRegistry) => ({ children }: { children: React.ReactNode }) => (
  <RegistryProvider registry={registry}>{children}</RegistryProvider>
)

describe("atom hooks", () => {
  it("re-render a reader when the atom changes through the registry", () => {
    const count = Atom.make(1)
    const registry = AtomRegistry.make()
    function Count() {
      return <p>count {useAtomValue(count)}</p>
    }
    render(<Count />, { wrapper: withRegistry(registry) })
    expect(screen.getByText("count 1")).toBeDefined()
    act(() => registry.set(count, 2))
    expect(screen.getByText("count 2")).toBeDefined()
  })

  it("useAtomSet writes values and function updates, and useAtom reads them back", () => {
    const count = Atom.make(0)
    function Counter() {
      const [value, setValue] = useAtom(count)
      const set = useAtomSet(count)
      return (
        <>
          <p>value {value}</p>
          <button onClick={() => set((n) => n + 1)}>increment</button>
          <button onClick={() => setValue(10)}>ten</button>
        </>
      )
    }
    const registry = AtomRegistry.make()
    render(<Counter />, { wrapper: withRegistry(registry) })
    fireEvent.click(screen.getByText("increment"))
    fireEvent.click(screen.getByText("increment"))
    expect(screen.getByText("value 2")).toBeDefined()
    fireEvent.click(screen.getByText("ten"))
    expect(screen.getByText("value 10")).toBeDefined()
    expect(registry.get(count)).toBe(10)
  })

  it("the setter keeps its identity across renders", () => {
    const count = Atom.make(0)
    const setters = new Set<unknown>()
    function Counter() {
      const [value, set] = useAtom(count)
      setters.add(set)
      return <button onClick={() => set(value + 1)}>value {value}</button>
    }
    render(<Counter />, { wrapper: withRegistry(AtomRegistry.make()) })
    fireEvent.click(screen.getByText("value 0"))
    fireEvent.click(screen.getByText("value 1"))
    expect(screen.getByText("value 2")).toBeDefined()
    expect(setters.size).toBe(1)
  })

  it("a selector re-renders only when the selected part changes, even when it builds a new object", () => {
    const account = Atom.make({ address: "0xabc", balance: "1.0" })
    const registry = AtomRegistry.make()
    let renders = 0
    function Address() {
      renders++
      const view = useAtomValue(account, (a) => ({ short: a.address.slice(0, 4) }))
      return <p>address {view.short}</p>
    }
    render(<Address />, { wrapper: withRegistry(registry) })
    const afterMount = renders
    act(() => registry.set(account, { address: "0xabc", balance: "2.0" }))
    act(() => registry.set(account, { address: "0xabc", balance: "3.0" }))
    expect(renders).toBe(afterMount)
    act(() => registry.set(account, { address: "0xdef", balance: "3.0" }))
    expect(screen.getByText("address 0xde")).toBeDefined()
    expect(renders).toBe(afterMount + 1)
  })

  it("a selector's result keeps its identity when the parent re-renders with a new inline selector", () => {
    const account = Atom.make({ address: "0xabc" })
    const seen = new Set<unknown>()
    function Address({ tick }: { tick: number }) {
      const view = useAtomValue(account, (a) => ({ address: a.address }))
      seen.add(view)
      return <p>tick {tick}</p>
    }
    const registry = AtomRegistry.make()
    const { rerender } = render(<Address tick={1} />, { wrapper: withRegistry(registry) })
    rerender(<Address tick={2} />)
    rerender(<Address tick={3} />)
    expect(screen.getByText("tick 3")).toBeDefined()
    expect(seen.size).toBe(1)
  })

  it("an effectful atom shows initial, then success", async () => {
    const gate = Effect.runSync(Deferred.make<number>())
    const balance = Atom.make(Deferred.await(gate))
    function Balance() {
      const result = useAtomValue(balance)
      return <p>{AsyncResult.isSuccess(result) ? `balance ${result.value}` : result._tag}</p>
    }
    render(<Balance />, { wrapper: withRegistry(AtomRegistry.make()) })
    expect(screen.getByText("Initial")).toBeDefined()
    await act(async () => {
      Effect.runSync(Deferred.succeed(gate, 42))
    })
    expect(await screen.findByText("balance 42")).toBeDefined()
  })

  it("useAtomRefresh re-runs an atom's effect", async () => {
    let runs = 0
    const fetched = Atom.make(Effect.sync(() => ++runs))
    function Fetched() {
      const result = useAtomValue(fetched)
      const refresh = useAtomRefresh(fetched)
      return <button onClick={refresh}>{AsyncResult.isSuccess(result) ? `run ${result.value}` : "loading"}</button>
    }
    render(<Fetched />, { wrapper: withRegistry(AtomRegistry.make()) })
    fireEvent.click(await screen.findByText("run 1"))
    expect(await screen.findByText("run 2")).toBeDefined()
  })

  it("unmounting unsubscribes: the registry keeps no node and the atom's finalizer runs", async () => {
    let finalized = 0
    const tracked = Atom.make((get) => {
      get.addFinalizer(() => finalized++)
      return "live"
    })
    const registry = AtomRegistry.make()
    function Reader() {
      return <p>{useAtomValue(tracked)}</p>
    }
    const { unmount } = render(<Reader />, { wrapper: withRegistry(registry) })
    expect(screen.getByText("live")).toBeDefined()
    expect(registry.getNodes().get(tracked)?.listeners.size).toBe(1)
    unmount()
    await waitFor(() => expect(finalized).toBe(1))
    expect(registry.getNodes().has(tracked)).toBe(false)
  })

  it("useAtomMount keeps an atom alive while mounted", async () => {
    let finalized = 0
    const tracked = Atom.make((get) => {
      get.addFinalizer(() => finalized++)
      return 1
    })
    const registry = AtomRegistry.make()
    function Keeper() {
      useAtomMount(tracked)
      return null
    }
    const { unmount } = render(<Keeper />, { wrapper: withRegistry(registry) })
    expect(registry.getNodes().has(tracked)).toBe(true)
    unmount()
    await waitFor(() => expect(finalized).toBe(1))
  })

  it("hooks outside a provider say so", () => {
    const count = Atom.make(0)
    function Orphan() {
      return <p>{useAtomValue(count)}</p>
    }
    const error = console.error
    console.error = () => undefined
    try {
      expect(() => render(<Orphan />)).toThrow("Atom hooks must be used inside a <RegistryProvider>")
    } finally {
      console.error = error
    }
  })
})

describe("RegistryProvider", () => {
  it("makes its own registry, survives StrictMode's double effects, and disposes it on unmount", async () => {
    let finalized = 0
    const kept = Atom.keepAlive(Atom.make((get) => {
      get.addFinalizer(() => finalized++)
      return "kept"
    }))
    function Reader() {
      return <p>{useAtomValue(kept)}</p>
    }
    const { unmount } = render(
      <StrictMode>
        <RegistryProvider>
          <Reader />
        </RegistryProvider>
      </StrictMode>
    )
    await act(async () => {
      await Promise.resolve()
    })
    expect(screen.getByText("kept")).toBeDefined()
    expect(finalized).toBe(0)
    unmount()
    await waitFor(() => expect(finalized).toBe(1))
  })

  it("leaves a registry it was given alone", async () => {
    const registry = AtomRegistry.make()
    const kept = Atom.keepAlive(Atom.make(5))
    function Reader() {
      return <p>{useAtomValue(kept)}</p>
    }
    const { unmount } = render(<RegistryProvider registry={registry}><Reader /></RegistryProvider>)
    unmount()
    await act(async () => {
      await Promise.resolve()
    })
    expect(registry.get(kept)).toBe(5)
  })

  it("seeds initial values into the registry it makes", () => {
    const theme = Atom.make<"light" | "dark">("light")
    function Theme() {
      return <p>theme {useAtomValue(theme)}</p>
    }
    render(<RegistryProvider initialValues={[[theme, "dark"]]}><Theme /></RegistryProvider>)
    expect(screen.getByText("theme dark")).toBeDefined()
  })
})
