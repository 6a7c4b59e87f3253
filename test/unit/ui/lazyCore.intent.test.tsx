// @vitest-environment happy-dom
/**
 * The visitor's first press of a pointer or key anywhere loads the runtime's code, without waiting for idle; until
 * then the network button shows the network the runtime starts on.
 */
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react"
import type { ReactNode } from "react"
import { afterEach, describe, expect, it } from "vitest"
import { NetworkButton } from "../../../src/ui/buttons/NetworkButton/NetworkButton"
import { useNetwork } from "../../../src/ui/react/hooks"
import { WalletRuntimeProvider } from "../../../src/ui/react/WalletRuntimeProvider"
import { controlIdle, idle, options, restoreIdle } from "./lazyCore.support"

afterEach(() => {
  cleanup()
  restoreIdle()
})

function Network(): ReactNode {
  return <p data-testid="network">{useNetwork().network?.name ?? "not yet"}</p>
}

describe("the runtime's code on the visitor's first press", () => {
  it("is fetched when the visitor presses anywhere on the page, before the page is idle", async () => {
    controlIdle()
    render(
      <WalletRuntimeProvider options={options}>
        <p>page</p>
        <NetworkButton />
        <Network />
      </WalletRuntimeProvider>
    )
    // Nothing loads by itself before idle; the network button meanwhile shows the network the runtime starts on.
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)))
    expect(screen.getByTestId("network").textContent).toBe("not yet")
    expect(idle).toHaveLength(1)
    expect(screen.getByRole("button", { name: "Network: Local Chain A. Change network" })).toBeTruthy()

    fireEvent.pointerDown(screen.getByText("page"))
    await screen.findByText("Local Chain A", { selector: "[data-testid=network]" }, { timeout: 5000 })
    expect(screen.getAllByRole("button", { name: /^Network: Local Chain A/ })).toHaveLength(1)
  })
})
