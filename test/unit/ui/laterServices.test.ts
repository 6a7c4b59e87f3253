// @vitest-environment happy-dom
/**
 * The Swap and Buy forms are not built with the React provider's runtime: their atoms add them, through the
 * runtime's MemoMap, the first time one of them is read; there is one of each per runtime, kept while the runtime
 * lives; and the `wallet-runtime` entry's runtime gives them to `run`, the very instances its atoms read.
 */
import { Effect, Option, SubscriptionRef } from "effect"
import { afterEach, describe, expect, it, vi } from "vitest"
import { localChainA } from "../../../src/domain/networks"
import { makeWalletRuntime as makeReactRuntime } from "../../../src/runtime"
import { Onramp } from "../../../src/services/Onramp"
import { Swap } from "../../../src/services/Swap"
import { onrampAtom } from "../../../src/ui/atoms/onramp"
import { setSwapAmountFn, swapAtom } from "../../../src/ui/atoms/swap"
import { makeWalletRuntime } from "../../../src/walletRuntime"

const options = { networks: [localChainA], endpoints: { walletCatalog: "http://127.0.0.1:9", blockchainApi: "http://127.0.0.1:9", rpcProxy: "http://127.0.0.1:9" } }
const cleanups: Array<() => unknown> = []

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  localStorage.clear()
})

const eventually = (check: () => void) => vi.waitFor(check, { timeout: 4_000, interval: 10 })

describe("the Swap and Buy forms' services", () => {
  it("are not in the React runtime at start; their atoms build them on first read, one of each, kept while the runtime lives", async () => {
    const runtime = makeReactRuntime(options)
    cleanups.push(() => runtime.dispose())
    const forms = Effect.all([Effect.map(Effect.serviceOption(Swap), Option.isSome), Effect.map(Effect.serviceOption(Onramp), Option.isSome)])
    expect(await runtime.run(forms)).toEqual([false, false])

    const unmountSwap = runtime.registry.mount(swapAtom)
    const unmountBuy = runtime.registry.mount(onrampAtom)
    await eventually(() => expect(runtime.registry.get(swapAtom)?.amount).toBe(""))
    await eventually(() => expect(runtime.registry.get(onrampAtom)?.currency).toBe("USD"))
    // The action's atom is mounted while it runs, as the view's hook mounts it.
    const unmountSet = runtime.registry.mount(setSwapAmountFn)
    runtime.registry.set(setSwapAmountFn, "0.25")
    await eventually(() => expect(runtime.registry.get(swapAtom)?.amount).toBe("0.25"))
    // Nothing reads the form now (its view closed): the same form is there when something reads it again.
    unmountSet()
    unmountSwap()
    unmountBuy()
    await eventually(() => expect(runtime.registry.getNodes().has(swapAtom)).toBe(false))
    const again = runtime.registry.mount(swapAtom)
    cleanups.push(again)
    await eventually(() => expect(runtime.registry.get(swapAtom)?.amount).toBe("0.25"))
  })

  it("are given to `run` by the wallet-runtime entry's runtime, the same ones its atoms read", async () => {
    const runtime = makeWalletRuntime(options)
    cleanups.push(() => runtime.dispose())
    await runtime.run(Effect.flatMap(Swap, (swap) => SubscriptionRef.update(swap.state, (state) => ({ ...state, amount: "1.5" }))))
    cleanups.push(runtime.registry.mount(swapAtom))
    await eventually(() => expect(runtime.registry.get(swapAtom)?.amount).toBe("1.5"))
    const currency = await runtime.run(Effect.flatMap(Onramp, (onramp) => Effect.map(SubscriptionRef.get(onramp.state), (state) => state.currency)))
    expect(currency).toBe("USD")
  })
})
