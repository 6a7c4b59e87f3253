// @vitest-environment happy-dom
/** A part of the host that needs the runtime itself suspends until its code is there, then renders with it. */
import { act, cleanup, render, screen } from "@testing-library/react"
import { afterEach, describe, expect, it } from "vitest"
import { controlIdle, host, restoreIdle } from "./lazyCore.support"

afterEach(() => {
  cleanup()
  restoreIdle()
})

describe("useWalletRuntime while the runtime's code loads", () => {
  it("suspends (the host's fallback shows, the rest of the page renders), then gives the runtime", async () => {
    controlIdle()
    await act(async () => {
      render(host(undefined, true))
    })
    expect(screen.getByText("runtime:loading")).toBeTruthy()
    expect(screen.getByRole("button", { name: "Connect wallet" })).toBeTruthy()
    expect(await screen.findByText("runtime:Local Chain A", undefined, { timeout: 5000 })).toBeTruthy()
  })
})
