// @vitest-environment happy-dom
/** A returning visitor's stored session: the code is fetched at once, and the button never says "Connect wallet" first. */
import { cleanup, render, screen, waitFor } from "@testing-library/react"
import { afterEach, describe, expect, it } from "vitest"
import { controlIdle, host, idle, restoreIdle } from "./lazyCore.support"

afterEach(() => {
  cleanup()
  restoreIdle()
  localStorage.clear()
})

describe("a stored session while the runtime's code loads", () => {
  it("says Reconnecting… from the first render and loads the code without waiting for the page to be idle", async () => {
    controlIdle()
    // A session whose wallet is gone: once the code is there, restoring it ends disconnected.
    localStorage.setItem("wr:v1:connectionStatus:eip155", JSON.stringify("connected"))
    render(host())
    expect(screen.getByRole("button", { name: /Reconnecting/ })).toBeTruthy()
    expect(screen.getByTestId("status").textContent).toBe("reconnecting|closed")
    expect(idle).toHaveLength(0)
    await waitFor(() => expect(screen.getByTestId("status").textContent).toBe("disconnected|closed"), { timeout: 5000 })
    expect(screen.getByRole("button", { name: "Connect wallet" })).toBeTruthy()
  })
})
