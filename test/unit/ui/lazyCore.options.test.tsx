// @vitest-environment happy-dom
/** Bad options while the runtime's code loads: the page renders, then the provider fails for the host's error boundary. */
import { act, cleanup, render, screen } from "@testing-library/react"
import { afterEach, describe, expect, it } from "vitest"
import { controlIdle, host, idle, restoreIdle } from "./lazyCore.support"

afterEach(() => {
  cleanup()
  restoreIdle()
})

describe("bad options while the runtime's code loads", () => {
  it("render the page, then fail the provider with the options error once the code is there", async () => {
    controlIdle()
    render(host({ projectId: "test", networks: [] }))
    expect(screen.getByRole("button", { name: "Connect wallet" })).toBeTruthy()
    await act(async () => idle.forEach((task) => task()))
    expect((await screen.findByText(/^failed:/)).textContent).toMatch(/networks/)
  })
})
