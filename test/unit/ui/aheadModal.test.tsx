// @vitest-environment happy-dom
/**
 * The first click only shows the modal: once the page is idle, its Connect view is laid out ahead, hidden — out of
 * reach (inert, hidden from assistive technology), asking no server for anything, leaving focus and the page alone —
 * and the click shows that very view; the catalogue is asked then.
 */
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react"
import { afterEach, describe, expect, it } from "vitest"
import type { WalletRuntime } from "../../../src/runtime"
import { LaidOutAhead } from "../../../src/ui/components/laidOutAhead"
import { WalletIcon } from "../../../src/ui/components/WalletIcon/WalletIcon"
import { makeFakeHttp } from "../support/fakeHttpClient"
import { findView, renderHost, runtimeFor, testWallet } from "./components/support"
import { controlIdle, idle, restoreIdle } from "./lazyCore.support"

let runtime: WalletRuntime | undefined

afterEach(async () => {
  cleanup()
  restoreIdle()
  await runtime?.dispose()
  runtime = undefined
})

const modalRoot = () => document.querySelector<HTMLElement>("[data-wallet-runtime=modal]")

describe("the modal laid out ahead of the first click", () => {
  it("is in the page but out of reach and asks for nothing; the click shows that very view, and the catalogue is asked then", async () => {
    controlIdle()
    const http = makeFakeHttp(() => ({ status: 200, json: { count: 0, data: [] } }))
    runtime = runtimeFor(testWallet(), { http: http.layer })
    renderHost(runtime)
    expect(modalRoot()).toBeNull()

    await act(async () => idle.splice(0).forEach((task) => task()))
    await waitFor(() => expect(modalRoot()?.querySelector("[role=list] button")?.textContent).toContain("Test Wallet"))
    const root = modalRoot()!
    const laidOut = root.querySelector<HTMLElement>("[role=dialog]")!
    expect(root.getAttribute("aria-hidden")).toBe("true")
    expect(root.hasAttribute("inert")).toBe(true)
    expect(laidOut.getAttribute("data-view")).toBe("Connect")
    expect(screen.queryByRole("dialog")).toBeNull()
    expect(http.requests).toHaveLength(0)
    expect(screen.getByTestId("host").closest("[inert]")).toBeNull()
    expect(document.body.style.overflow).toBe("")
    expect(document.activeElement).toBe(document.body)
    const row = within(laidOut).getByText("Test Wallet").closest("button")

    const button = screen.getByRole("button", { name: "Connect wallet" })
    button.focus()
    fireEvent.click(button)
    const dialog = await findView("Connect")
    expect(dialog).toBe(laidOut)
    expect(within(dialog).getByText("Test Wallet").closest("button")).toBe(row)
    expect(root.hasAttribute("inert")).toBe(false)
    expect(screen.getByTestId("host").closest("[inert]")).not.toBeNull()
    expect(document.body.style.overflow).toBe("hidden")
    await waitFor(() => expect(http.to("/getWallets").length).toBeGreaterThan(0))

    fireEvent.keyDown(document, { key: "Escape" })
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull())
    expect(document.activeElement).toBe(button)
    // Laid out again for the next click, a fresh view: nothing of the last visit carried over.
    expect(modalRoot()?.getAttribute("aria-hidden")).toBe("true")
    await waitFor(() => expect(modalRoot()?.querySelector("[role=list] button")?.textContent).toContain("Test Wallet"))
    expect(modalRoot()?.querySelector("[role=list] button")).not.toBe(row)
  })

  it("shows a wallet's picture from another host only once shown, a picture carried in the page at once", () => {
    const remote = "https://images.example/wallet.png"
    const inline = "data:image/png;base64,iVBORw0KGgo="
    const { container, rerender } = render(
      <LaidOutAhead.Provider value={true}>
        <WalletIcon name="Remote" src={remote} />
        <WalletIcon name="Inline" src={inline} />
      </LaidOutAhead.Provider>
    )
    expect([...container.querySelectorAll("img")].map((img) => img.getAttribute("src"))).toEqual([inline])
    expect(container.textContent).toBe("R")
    rerender(
      <LaidOutAhead.Provider value={false}>
        <WalletIcon name="Remote" src={remote} />
        <WalletIcon name="Inline" src={inline} />
      </LaidOutAhead.Provider>
    )
    expect([...container.querySelectorAll("img")].map((img) => img.getAttribute("src"))).toEqual([remote, inline])
  })
})
