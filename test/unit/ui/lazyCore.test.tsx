// @vitest-environment happy-dom
/**
 * The runtime's code is not part of what a host's page loads at start: the provider renders its children at once
 * (the hooks say "disconnected", the Connect button "Connect wallet") and fetches the code when the page is idle or
 * when the visitor acts first.
 */
import { cleanup, fireEvent, render, screen, within } from "@testing-library/react"
import { afterEach, describe, expect, it } from "vitest"
import { controlIdle, host, idle, restoreIdle } from "./lazyCore.support"

afterEach(() => {
  cleanup()
  restoreIdle()
})

describe("the runtime's code, loaded after the page's first render", () => {
  it("renders the page without it; a click before the page is idle loads it and opens the modal", async () => {
    controlIdle()
    render(host())
    expect(screen.getByRole("button", { name: "Connect wallet" })).toBeTruthy()
    expect(screen.getByTestId("status").textContent).toBe("disconnected|closed")
    expect(screen.queryByRole("dialog")).toBeNull()
    expect(idle).toHaveLength(1)

    fireEvent.click(screen.getByRole("button", { name: "Connect wallet" }))
    const dialog = await screen.findByRole("dialog")
    expect(await within(dialog).findByText("Test Wallet")).toBeTruthy()
    expect(screen.getByTestId("status").textContent).toBe("disconnected|Connect")
  })

  it("once the code is on the page, a new provider has its runtime from the first render and waits for no idle", () => {
    controlIdle()
    render(host(undefined, true))
    expect(screen.getByText("runtime:Local Chain A")).toBeTruthy()
    // The modal's own idle tasks (its first views, its font), not a second load of the code.
    expect(idle).toHaveLength(2)
  })
})
