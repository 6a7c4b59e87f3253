// @vitest-environment happy-dom
import { act, cleanup, screen, waitFor, within } from "@testing-library/react"
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { localChainA } from "../../../../src/domain/networks"
import type { WalletRuntime } from "../../../../src/runtime"
import { Connection } from "../../../../src/services/Connection"
import { Modal } from "../../../../src/services/Modal"
import { WalletActions } from "../../../../src/services/WalletActions"
import { ALICE, renderHost, runtimeFor, testWallet } from "./support"

let runtime: WalletRuntime | undefined

afterEach(async () => {
  cleanup()
  await runtime?.dispose()
  runtime = undefined
})

const region = () => {
  const found = document.querySelector<HTMLElement>('[data-wallet-runtime="notifications"]')
  if (found === null) throw new Error("no notifications region on the page")
  return found
}

const connected = async () => {
  const wallet = testWallet()
  runtime = runtimeFor(wallet)
  renderHost(runtime)
  const run = runtime.run
  await act(() => run(Effect.flatMap(Connection, (c) => c.connect({ connectorId: "test-wallet", networks: [localChainA] }))))
  return { wallet, run }
}

describe("notifications while the modal is closed", () => {
  it("a host-initiated send's result reaches the visitor in a polite region outside the modal", async () => {
    const { run } = await connected()
    expect(region().getAttribute("role")).toBe("status")
    expect(region().getAttribute("aria-live")).toBe("polite")
    // The host only sends; following it to its end is the runtime's. (The fake chain confirms at once, so the result
    // replaces 'Transaction started' straight away; the services' tests hold the chain back to see both.)
    await act(() => run(Effect.flatMap(WalletActions, (actions) => actions.send({ to: ALICE, value: 1n }))))
    await waitFor(() => expect(within(region()).getByText("Transaction confirmed")).toBeTruthy())
    expect(screen.queryByRole("dialog")).toBeNull()
  })

  it("while the modal is open the message shows in the modal only, never twice", async () => {
    const { run } = await connected()
    await act(() => run(Effect.flatMap(Modal, (modal) => modal.open())))
    await act(() => run(Effect.flatMap(WalletActions, (actions) => actions.send({ to: ALICE, value: 1n }))))
    const dialog = await screen.findByRole("dialog")
    await waitFor(() => expect(within(dialog).getByText("Transaction confirmed")).toBeTruthy())
    expect(region().textContent).toBe("")
    expect(screen.getAllByText("Transaction confirmed")).toHaveLength(1)
  })

  it("a refused send says the wallet's words outside the modal", async () => {
    const { wallet, run } = await connected()
    const { InsufficientFunds } = await import("../../../../src/domain/walletErrors")
    wallet.script.sendError = new InsufficientFunds({ details: "insufficient funds for gas * price + value" })
    await act(() => run(Effect.flatMap(WalletActions, (actions) => Effect.ignore(actions.send({ to: ALICE, value: 1n })))))
    await waitFor(() => expect(within(region()).getByText("insufficient funds for gas * price + value")).toBeTruthy())
  })
})
