// @vitest-environment happy-dom
/** Focus on the network button while the runtime's code loads stays on it when the code arrives and it is replaced. */
import { cleanup, render, screen, waitFor } from "@testing-library/react"
import { afterEach, describe, expect, it } from "vitest"
import { NetworkButton } from "../../../src/ui/buttons/NetworkButton/NetworkButton"
import { WalletRuntimeProvider } from "../../../src/ui/react/WalletRuntimeProvider"
import { controlIdle, options, restoreIdle } from "./lazyCore.support"

afterEach(() => {
  cleanup()
  restoreIdle()
})

describe("the network button while the runtime's code loads", () => {
  it("focused (which loads the code), it is replaced by the runtime's button, and focus moves with it", async () => {
    controlIdle()
    render(
      <WalletRuntimeProvider options={options}>
        <NetworkButton />
      </WalletRuntimeProvider>
    )
    const waiting = screen.getByRole("button", { name: /^Network: Local Chain A/ })
    waiting.focus()
    await waitFor(() => expect(waiting.isConnected).toBe(false), { timeout: 5000 })
    const replaced = screen.getByRole("button", { name: /^Network: Local Chain A/ })
    expect(document.activeElement).toBe(replaced)
  })
})
