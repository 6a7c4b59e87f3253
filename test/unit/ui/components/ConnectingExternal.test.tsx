// @vitest-environment happy-dom
/**
 * The connecting view of an installed wallet that does not answer: after 15 s (test time) it says so and offers Try
 * again, which asks the wallet again.
 */
import { act, cleanup, fireEvent, within } from "@testing-library/react"
import { Effect, Layer } from "effect"
import { TestClock } from "effect/testing"
import { afterEach, describe, expect, it } from "vitest"
import { localChainA, localChainB } from "../../../../src/domain/networks"
import { testLayer } from "../../../../src/layers/Test"
import { makeWalletRuntime, type WalletRuntime } from "../../../../src/runtime"
import { Modal } from "../../../../src/services/Modal"
import { findView, renderHost, testWallet } from "./support"

let runtime: WalletRuntime | undefined

afterEach(async () => {
  cleanup()
  await runtime?.dispose()
  runtime = undefined
})

describe("ConnectingExternal", () => {
  it("a wallet that has not answered after 15 s is said to be silent, with Try again that asks it again", async () => {
    const wallet = testWallet({ connectGate: new Promise<void>(() => undefined) })
    const host = makeWalletRuntime(
      { projectId: "test", networks: [localChainA, localChainB] },
      { layer: (decoded, alerts) => testLayer(decoded, { wallets: [wallet], alerts }).pipe(Layer.provideMerge(TestClock.layer())) }
    )
    runtime = host
    renderHost(host)
    await act(() => host.run(Effect.flatMap(Modal, (modal) => modal.open())))
    const connect = await findView("Connect")
    const row = await within(connect).findByRole("button", { name: /Test Wallet/ })
    await act(async () => fireEvent.click(row))
    await act(() => host.run(TestClock.adjust(100)))
    const view = await findView("ConnectingExternal")
    expect(within(view).getByRole("heading", { name: "Continue in Test Wallet" })).toBeTruthy()
    await act(() => host.run(TestClock.adjust(14_899)))
    expect(within(view).queryByText(/has not answered/)).toBeNull()
    await act(() => host.run(TestClock.adjust(1)))
    expect(await within(view).findByRole("heading", { name: "Test Wallet has not answered" })).toBeTruthy()
    const calls = wallet.calls.filter((call) => call.startsWith("connect:")).length
    await act(async () => fireEvent.click(within(view).getByRole("button", { name: "Try again" })))
    await act(() => host.run(Effect.yieldNow))
    expect(wallet.calls.filter((call) => call.startsWith("connect:")).length).toBe(calls + 1)
    expect(await within(view).findByRole("heading", { name: "Continue in Test Wallet" })).toBeTruthy()
  })
})
