import { Effect } from "effect"
import * as AsyncResult from "effect/reactivity/AsyncResult"
import * as Atom from "effect/reactivity/Atom"
import * as AtomRegistry from "effect/reactivity/AtomRegistry"
import { renderToString } from "react-dom/server"
import { describe, expect, it, vi } from "vitest"
import { RegistryProvider, useAtom, useAtomMount, useAtomValue } from "../../../src/ui/atom-react/hooks"

describe("atom hooks on the server", () => {
  it("renderToString renders atom values with no browser globals and no subscription", () => {
    expect(typeof window).toBe("undefined")
    expect(typeof document).toBe("undefined")
    const count = Atom.make(3)
    const account = Atom.make({ address: "0xabcdef" })
    const registry = AtomRegistry.make()
    const subscribe = vi.spyOn(registry, "subscribe")
    const mount = vi.spyOn(registry, "mount")
    function Page() {
      const [value] = useAtom(count)
      const short = useAtomValue(account, (a) => a.address.slice(0, 4))
      useAtomMount(count)
      return <p>count {value}, address {short}</p>
    }
    const html = renderToString(<RegistryProvider registry={registry}><Page /></RegistryProvider>)
    expect(html).toBe("<p>count <!-- -->3<!-- -->, address <!-- -->0xab</p>")
    expect(subscribe).not.toHaveBeenCalled()
    expect(mount).not.toHaveBeenCalled()
  })

  it("reads an atom's server value where it has one, so effects need not run on the server", () => {
    let runs = 0
    const balance = Atom.make(Effect.sync(() => ++runs)).pipe(Atom.withServerValueInitial)
    function Balance() {
      const result = useAtomValue(balance)
      return <p>{AsyncResult.isInitial(result) ? "loading" : "ready"}</p>
    }
    const html = renderToString(<RegistryProvider><Balance /></RegistryProvider>)
    expect(html).toBe("<p>loading</p>")
    expect(runs).toBe(0)
  })
})
