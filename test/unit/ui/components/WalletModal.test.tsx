// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react"
import { Effect } from "effect"
import { StrictMode } from "react"
import { afterEach, describe, expect, it } from "vitest"
import { ChainNotSupported, ProviderNotFound, UserRejected } from "../../../../src/domain/errors"
import { localChainA } from "../../../../src/domain/Network"
import type { WalletRuntime } from "../../../../src/runtime"
import { Connection } from "../../../../src/services/Connection"
import { Modal } from "../../../../src/services/Modal"
import { WalletModal } from "../../../../src/ui/components/Modal/WalletModal"
import { WalletRuntimeProvider } from "../../../../src/ui/react/WalletRuntimeProvider"
import { ALICE_SHORT, fakeWallet, findDialog, findView, renderHost, runtimeFor } from "./support"

let runtime: WalletRuntime | undefined

afterEach(async () => {
  cleanup()
  await runtime?.dispose()
  runtime = undefined
})

const connectDirectly = (wallet: WalletRuntime) =>
  act(() =>
    wallet.run(
      Effect.flatMap(Connection, (c) => c.connect({ namespace: "eip155", connectorId: "test-wallet", network: localChainA }))
    )
  )

describe("WalletModal: connecting", () => {
  it("opens from the button, lists the announced wallet, connects it and shows the account", async () => {
    const { adapter } = fakeWallet()
    runtime = runtimeFor(adapter)
    renderHost(runtime)
    fireEvent.click(await screen.findByRole("button", { name: "Connect wallet" }))

    const dialog = await findView("Connect")
    const row = await within(dialog).findByRole("button", { name: /Test Wallet/ })
    expect(row.textContent).toContain("Installed")
    expect(within(dialog).getByRole("button", { name: "All wallets" })).toBeTruthy()
    fireEvent.click(row)

    const account = await findView("Account")
    expect(await within(account).findByRole("heading", { name: ALICE_SHORT })).toBeTruthy()
    expect(adapter.calls).toEqual(["connect:test-wallet"])
    // Back does not return to the connecting view once connected.
    expect(within(account).queryByRole("button", { name: "Back" })).toBeNull()
    // The host's buttons follow: the connect button now names the account, the account button appears.
    expect(screen.getAllByText(ALICE_SHORT).length).toBeGreaterThanOrEqual(3)
  })

  it("waits for the wallet, shows its refusal, and connects on Try again", async () => {
    const { adapter, release } = fakeWallet(true)
    adapter.script.connectError = new UserRejected({ code: 4001 })
    runtime = runtimeFor(adapter)
    renderHost(runtime)
    fireEvent.click(await screen.findByRole("button", { name: "Connect wallet" }))
    fireEvent.click(await within(await findView("Connect")).findByRole("button", { name: /Test Wallet/ }))

    const connecting = await findView("ConnectingExternal")
    expect(await within(connecting).findByRole("heading", { name: "Continue in Test Wallet" })).toBeTruthy()
    // While the wallet is asked, the host's button says so.
    expect(document.body.textContent).toContain("Connecting…")

    release()
    expect(await within(connecting).findByRole("heading", { name: "Connection declined" })).toBeTruthy()
    expect(within(connecting).getByRole("alert").textContent).toContain("User rejected the request.")

    adapter.script.connectError = undefined
    fireEvent.click(within(connecting).getByRole("button", { name: "Try again" }))
    const account = await findView("Account")
    expect(await within(account).findByRole("heading", { name: ALICE_SHORT })).toBeTruthy()
    expect(adapter.calls).toEqual(["connect:test-wallet", "connect:test-wallet"])
  })

  it("a wallet that connects on a chain outside the networks shows UnsupportedChain", async () => {
    const { adapter } = fakeWallet()
    adapter.script.chainId = 999
    runtime = runtimeFor(adapter)
    renderHost(runtime)
    fireEvent.click(await screen.findByRole("button", { name: "Connect wallet" }))
    fireEvent.click(await within(await findView("Connect")).findByRole("button", { name: /Test Wallet/ }))
    const dialog = await findView("UnsupportedChain")
    expect(await within(dialog).findByRole("button", { name: "Disconnect" })).toBeTruthy()
    expect(adapter.calls).toEqual(["connect:test-wallet"])
  })

  it("shows any other failure's catalogue message", async () => {
    const { adapter } = fakeWallet()
    adapter.script.connectError = new ProviderNotFound()
    runtime = runtimeFor(adapter)
    renderHost(runtime)
    await act(() => runtime!.run(Effect.flatMap(Modal, (m) => m.open({ view: "ConnectingExternal", data: { connectorId: "test-wallet", namespace: "eip155" } }))))
    const dialog = await findView("ConnectingExternal")
    expect((await within(dialog).findByRole("alert")).textContent).toContain("Provider not found.")
    expect(within(dialog).getByRole("heading", { name: "Wallet not found" })).toBeTruthy()
  })

  it("asks the wallet once even under StrictMode", async () => {
    const { adapter } = fakeWallet()
    runtime = runtimeFor(adapter)
    const wallet = runtime
    const { render } = await import("@testing-library/react")
    render(
      <StrictMode>
        <WalletRuntimeProvider runtime={wallet}>
          <WalletModal />
        </WalletRuntimeProvider>
      </StrictMode>
    )
    await act(() => wallet.run(Effect.flatMap(Modal, (m) => m.open({ view: "ConnectingExternal", data: { connectorId: "test-wallet", namespace: "eip155" } }))))
    await findView("Account")
    expect(adapter.calls).toEqual(["connect:test-wallet"])
  })

  it("says so when a catalogue wallet is not installed", async () => {
    const { adapter } = fakeWallet()
    runtime = runtimeFor(adapter)
    renderHost(runtime)
    const wallet = { id: "far", name: "Far Wallet", image_id: "", homepage: "https://far.example", chains: [] }
    await act(() => runtime!.run(Effect.flatMap(Modal, (m) => m.open({ view: "ConnectingExternal", data: { wallet } }))))
    const dialog = await findView("ConnectingExternal")
    expect(await within(dialog).findByRole("heading", { name: "Far Wallet is not installed" })).toBeTruthy()
    expect(within(dialog).getByRole("link", { name: "Get Far Wallet" }).getAttribute("href")).toBe("https://far.example")
    expect(adapter.calls).toEqual([])
  })
})

describe("WalletModal: a dialog like Radix", () => {
  it("is labelled, traps the page, and Escape closes it with focus back on the trigger", async () => {
    const { adapter } = fakeWallet()
    runtime = runtimeFor(adapter)
    renderHost(runtime)
    const trigger = await screen.findByRole("button", { name: "Connect wallet" })
    const host = screen.getByTestId("host")
    trigger.focus()
    fireEvent.click(trigger)

    const dialog = await findView("Connect")
    expect(dialog.getAttribute("aria-modal")).toBe("true")
    expect(document.getElementById(dialog.getAttribute("aria-labelledby")!)?.textContent).toBe("Connect a wallet")
    expect(document.getElementById(dialog.getAttribute("aria-describedby")!)?.textContent).toBe(
      "Choose the wallet to connect to this site."
    )
    // Appended to the body, the page behind is inert and does not scroll.
    expect(dialog.closest("[data-wallet-runtime]")?.parentElement).toBe(document.body)
    expect(host.closest("[inert]")).not.toBeNull()
    expect(document.body.style.overflow).toBe("hidden")
    // Focus moved in, onto the first wallet.
    await waitFor(() => expect(document.activeElement?.textContent).toContain("Test Wallet"))

    fireEvent.keyDown(document.activeElement!, { key: "Escape" })
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull())
    expect(document.activeElement).toBe(trigger)
    expect(host.closest("[inert]")).toBeNull()
    expect(host.closest("[aria-hidden]")).toBeNull()
    expect(document.body.style.overflow).toBe("")
  })

  it("Tab and Shift+Tab cycle inside the dialog", async () => {
    const { adapter } = fakeWallet()
    runtime = runtimeFor(adapter)
    renderHost(runtime)
    fireEvent.click(await screen.findByRole("button", { name: "Connect wallet" }))
    const dialog = await findView("Connect")
    await within(dialog).findByRole("button", { name: /Test Wallet/ })
    // In document order: Close (no Back on the first view), the wallets, "All wallets".
    const controls = within(dialog).getAllByRole("button")
    const [close, firstWallet] = controls
    const allWallets = controls[controls.length - 1]!
    const beforeLast = controls[controls.length - 2]!
    expect(close?.getAttribute("aria-label")).toBe("Close")
    expect(firstWallet?.textContent).toContain("Test Wallet")
    expect(allWallets.textContent).toBe("All wallets")

    allWallets.focus()
    fireEvent.keyDown(allWallets, { key: "Tab" })
    expect(document.activeElement).toBe(close)
    fireEvent.keyDown(close!, { key: "Tab" })
    expect(document.activeElement).toBe(firstWallet)
    fireEvent.keyDown(firstWallet!, { key: "Tab", shiftKey: true })
    expect(document.activeElement).toBe(close)
    fireEvent.keyDown(close!, { key: "Tab", shiftKey: true })
    expect(document.activeElement).toBe(allWallets)
    // Arrow keys move between the rows of the list.
    fireEvent.keyDown(allWallets, { key: "ArrowUp" })
    expect(document.activeElement).toBe(beforeLast)
    fireEvent.keyDown(beforeLast, { key: "Home" })
    expect(document.activeElement).toBe(firstWallet)
  })

  it("closes from the close button and the backdrop; Back returns to the previous view", async () => {
    const { adapter } = fakeWallet()
    runtime = runtimeFor(adapter)
    renderHost(runtime)
    fireEvent.click(await screen.findByRole("button", { name: "Connect wallet" }))
    fireEvent.click(within(await findView("Connect")).getByRole("button", { name: "All wallets" }))
    const allWallets = await findView("AllWallets")
    fireEvent.click(within(allWallets).getByRole("button", { name: "Back" }))
    const connect = await findView("Connect")
    fireEvent.click(within(connect).getByRole("button", { name: "Close" }))
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull())

    fireEvent.click(screen.getByRole("button", { name: "Connect wallet" }))
    const again = await findDialog()
    fireEvent.click(again.parentElement!)
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull())
  })

  it("shakes instead of closing when sign-in is required", async () => {
    const { adapter } = fakeWallet()
    runtime = runtimeFor(adapter)
    renderHost(runtime)
    await act(() => runtime!.run(Effect.flatMap(Modal, (m) => Effect.andThen(m.setSignInRequired(true), m.open()))))
    const dialog = await findView("Connect")
    fireEvent.keyDown(dialog, { key: "Escape" })
    await waitFor(() => expect(dialog.getAttribute("data-shake")).toBe("true"))
    expect(screen.getByRole("dialog")).toBe(dialog)
  })

  it("renders in place, modal, with disableAppend; in place and non-modal with enableEmbedded", async () => {
    const { adapter } = fakeWallet()
    runtime = runtimeFor(adapter, { disableAppend: true })
    const { container } = renderHost(runtime)
    await act(() => runtime!.run(Effect.flatMap(Modal, (m) => m.open())))
    const inPlace = await findView("Connect")
    expect(container.contains(inPlace)).toBe(true)
    expect(inPlace.getAttribute("aria-modal")).toBe("true")
    expect(screen.getByTestId("host").closest("[inert]")).not.toBeNull()
    cleanup()
    await runtime.dispose()

    runtime = runtimeFor(fakeWallet().adapter, { enableEmbedded: true })
    const embedded = renderHost(runtime)
    await act(() => runtime!.run(Effect.flatMap(Modal, (m) => m.open())))
    const dialog = await findView("Connect")
    expect(embedded.container.contains(dialog)).toBe(true)
    expect(dialog.getAttribute("aria-modal")).toBe("false")
    expect(screen.getByTestId("host").closest("[inert]")).toBeNull()
    expect(document.body.style.overflow).toBe("")
  })
})

describe("WalletModal: notifications", () => {
  it("shows the configuration alerts until dismissed", async () => {
    const { adapter } = fakeWallet()
    runtime = runtimeFor(adapter, { projectId: "" })
    renderHost(runtime)
    await act(() => runtime!.run(Effect.flatMap(Modal, (m) => m.open())))
    const dialog = await findView("Connect")
    const alert = await within(dialog).findByText("Project ID Not Configured (WR009)")
    expect(alert.closest("[role=alert]")).not.toBeNull()
    fireEvent.click(within(dialog).getByRole("button", { name: "Dismiss: Project ID Not Configured" }))
    await waitFor(() => expect(within(dialog).queryByText("Project ID Not Configured (WR009)")).toBeNull())
  })
})

describe("WalletModal: account and networks", () => {
  it("the account view copies the address with a snackbar and disconnects", async () => {
    const { adapter } = fakeWallet()
    runtime = runtimeFor(adapter)
    renderHost(runtime)
    await connectDirectly(runtime)
    // The connect button has become the account: it opens the Account view.
    fireEvent.click((await screen.findAllByRole("button", { name: new RegExp(ALICE_SHORT) }))[0]!)
    const account = await findView("Account")
    expect(await within(account).findByRole("button", { name: /Local Chain A/ })).toBeTruthy()
    expect(within(account).getByRole("tab", { name: "Tokens" }).getAttribute("aria-selected")).toBe("true")
    expect(within(account).getByRole("tabpanel").textContent).toContain("coming release")
    fireEvent.keyDown(within(account).getByRole("tab", { name: "Tokens" }), { key: "ArrowRight" })
    expect(within(account).getByRole("tab", { name: "NFTs" }).getAttribute("aria-selected")).toBe("true")

    fireEvent.click(within(account).getByRole("button", { name: "Copy address" }))
    expect(await within(account).findByText("Address copied")).toBeTruthy()

    fireEvent.click(within(account).getByRole("button", { name: "Disconnect" }))
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull())
    expect(adapter.calls).toContain("disconnect")
    expect(await screen.findByRole("button", { name: "Connect wallet" })).toBeTruthy()
  })

  it("the network button opens Networks, which switches (asking the wallet when connected)", async () => {
    const { adapter } = fakeWallet()
    runtime = runtimeFor(adapter)
    renderHost(runtime)
    await connectDirectly(runtime)
    fireEvent.click(await screen.findByRole("button", { name: "Network: Local Chain A. Change network" }))
    const networks = await findView("Networks")
    const active = await within(networks).findByRole("button", { name: /Local Chain A/ })
    expect(active.getAttribute("aria-current")).toBe("true")

    adapter.script.switchError = new ChainNotSupported()
    fireEvent.click(within(networks).getByRole("button", { name: /Local Chain B/ }))
    expect((await within(networks).findByRole("alert")).textContent).toContain("Chain is not supported")

    adapter.script.switchError = undefined
    fireEvent.click(within(networks).getByRole("button", { name: /Local Chain B/ }))
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull())
    expect(await screen.findByRole("button", { name: "Network: Local Chain B. Change network" })).toBeTruthy()
    expect(adapter.calls).toEqual(["connect:test-wallet", "switch:eip155:31338", "switch:eip155:31338"])
  })

  it("shows UnsupportedChain when the wallet moves to an unknown chain, and switching back closes it", async () => {
    const { adapter } = fakeWallet()
    runtime = runtimeFor(adapter)
    renderHost(runtime)
    await connectDirectly(runtime)
    await act(() => Effect.runPromise(adapter.emit({ _tag: "ChainChanged", chainId: 999 })))

    const dialog = await findView("UnsupportedChain")
    expect(await within(dialog).findByRole("button", { name: "Disconnect" })).toBeTruthy()
    expect(within(dialog).getByText(/Switch to one of these networks/)).toBeTruthy()
    // The page behind is hidden from assistive technology while the dialog is open.
    expect(await screen.findByRole("button", { name: "Network: Unsupported Network. Change network", hidden: true })).toBeTruthy()
    fireEvent.click(within(dialog).getByRole("button", { name: /Local Chain A/ }))
    await waitFor(() => expect(screen.queryByRole("dialog")).toBeNull())
    expect(adapter.calls).toContain("switch:eip155:31337")
    expect(await screen.findByRole("button", { name: "Network: Local Chain A. Change network" })).toBeTruthy()
  })
})
