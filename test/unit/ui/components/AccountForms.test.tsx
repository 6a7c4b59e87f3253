// @vitest-environment happy-dom
/**
 * The Swap and Buy views' entries come with the Account view's chunk, not with the page's start: a view opened by name
 * before that chunk is there (a host's own button, `Modal.open`) still shows, with its title and description, once
 * the chunk has arrived.
 */
import { act, cleanup, within } from "@testing-library/react"
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import type { WalletRuntime } from "../../../../src/runtime"
import { Modal } from "../../../../src/services/Modal"
import { VIEWS } from "../../../../src/ui/views/registry"
import { findView, renderHost, runtimeFor, testWallet } from "./support"

let runtime: WalletRuntime | undefined

afterEach(async () => {
  cleanup()
  await runtime?.dispose()
  runtime = undefined
})

describe("Swap and Buy opened before the Account view's chunk is there", () => {
  it("show with their titles and descriptions once it has arrived", async () => {
    runtime = runtimeFor(testWallet())
    const wallet = runtime
    renderHost(wallet)
    // Nothing has fetched the Account view yet: the page's start does not list Swap or Buy.
    expect(VIEWS.Account.Component.loaded()).toBeUndefined()
    expect(Object.keys(VIEWS)).not.toContain("Swap")
    await act(() => wallet.run(Effect.flatMap(Modal, (modal) => modal.open({ view: "Swap" }))))
    const swap = await findView("Swap")
    expect(await within(swap).findByRole("heading", { level: 2, name: "Swap" })).toBeTruthy()
    expect(swap.getAttribute("aria-describedby") ?? "").not.toBe("")
    expect(document.getElementById(swap.getAttribute("aria-describedby") ?? "")?.textContent).toBe(
      "Choose the tokens and the amount, check the quote, then swap in your wallet."
    )
    expect(VIEWS.Account.Component.loaded()).toBeDefined()
    await act(() => wallet.run(Effect.flatMap(Modal, (modal) => modal.open({ view: "Buy" }))))
    const buy = await findView("Buy")
    expect(await within(buy).findByRole("heading", { level: 2, name: "Buy crypto" })).toBeTruthy()
  })
})
