// @vitest-environment happy-dom
/**
 * Options that throw when read (a revoked Proxy, throwing getters) while the runtime's code loads: the page still
 * renders, then the provider fails with the typed options error for the host's error boundary.
 */
import { act, cleanup, render, screen } from "@testing-library/react"
import { afterEach, describe, expect, it } from "vitest"
import { controlIdle, host, idle, restoreIdle } from "./lazyCore.support"

afterEach(() => {
  cleanup()
  restoreIdle()
})

describe("options that throw when read, before the runtime's code is there", () => {
  it("render the page (no throw from the provider's first reads), then fail it with InvalidOptions", async () => {
    controlIdle()
    const { proxy, revoke } = Proxy.revocable({ projectId: "test" }, {})
    revoke()
    render(host(proxy))
    expect(screen.getByRole("button", { name: "Connect wallet" })).toBeTruthy()
    await act(async () => idle.forEach((task) => task()))
    expect((await screen.findByText(/^failed:/)).textContent).toMatch(/InvalidOptions|options/i)
  })
})
