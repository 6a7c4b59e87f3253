// @vitest-environment happy-dom
/** The visitor's first press of a pointer or key anywhere loads the runtime's code, without waiting for idle. */
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react"
import { afterEach, describe, expect, it } from "vitest"
import { NetworkButton } from "../../../src/ui/buttons/NetworkButton/NetworkButton"
import { WalletRuntimeProvider } from "../../../src/ui/react/WalletRuntimeProvider"
import { controlIdle, idle, options, restoreIdle } from "./lazyCore.support"

afterEach(() => {
  cleanup()
  restoreIdle()
})

describe("the runtime's code on the visitor's first press", () => {
  it("is fetched when the visitor presses anywhere on the page, before the page is idle", async () => {
    controlIdle()
    render(
      <WalletRuntimeProvider options={options}>
        <p>page</p>
        <NetworkButton />
      </WalletRuntimeProvider>
    )
    // Nothing loads by itself before idle: the network button needs the runtime, and stays away.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)))
    expect(screen.queryByRole("button", { name: /Network: Local Chain A/ })).toBeNull()
    expect(idle).toHaveLength(1)

    fireEvent.pointerDown(screen.getByText("page"))
    expect(await screen.findByRole("button", { name: /Network: Local Chain A/ }, { timeout: 5000 })).toBeTruthy()
  })
})
