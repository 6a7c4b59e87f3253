// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from "@testing-library/react"
import { Effect, SubscriptionRef } from "effect"
import { StrictMode } from "react"
import { afterEach, describe, expect, it } from "vitest"
import { ChainNotSupported, ProviderNotFound, UserRejected } from "../../../../src/domain/errors"
import { localChainA, solanaDevnet } from "../../../../src/domain/networks"
import { WalletError } from "../../../../src/domain/walletErrors"
import type { WalletRuntime } from "../../../../src/runtime"
import { Connection } from "../../../../src/services/Connection"
import { makeFakeWallet } from "../../../../src/services/fakes/FakeWallet"
import { Modal } from "../../../../src/services/Modal"
import { AccountButton } from "../../../../src/ui/buttons/AccountButton/AccountButton"
import { ConnectButton } from "../../../../src/ui/buttons/ConnectButton/ConnectButton"
import { WalletModal } from "../../../../src/ui/modal/WalletModal"
import { useAccount } from "../../../../src/ui/react/hooks"
import { WalletRuntimeProvider } from "../../../../src/ui/react/WalletRuntimeProvider"
import { ALICE, ALICE_SHORT, dialogClosed, findDialog, findView, holdConnects, renderHost, runtimeFor, testWallet } from "./support"

let runtime: WalletRuntime | undefined

afterEach(async () => {
  cleanup()
  await runtime?.dispose()
  runtime = undefined
})

const connectDirectly = (wallet: WalletRuntime) =>
  act(() => wallet.run(Effect.flatMap(Connection, (c) => c.connect({ connectorId: "test-wallet", networks: [localChainA] }))))

const connectionState = () => runtime!.run(Effect.flatMap(Connection, (c) => SubscriptionRef.get(c.state)))

const openOn = (route: Parameters<Modal["Service"]["open"]>[0]) => act(() => runtime!.run(Effect.flatMap(Modal, (m) => m.open(route))))

/** Opens the modal from the host's button and chooses the test wallet's row. */
const chooseTestWallet = async () => {
  const trigger = await screen.findByRole("button", { name: "Connect wallet" })
  trigger.focus()
  fireEvent.click(trigger)
  fireEvent.click(await within(await findView("Connect")).findByRole("button", { name: /Test Wallet/ }))
  return trigger
}

describe("WalletModal: connecting", () => {
  it("opens from the button, lists the announced wallet, connects it, closes, and focus returns to the button", async () => {
    const wallet = testWallet()
    const held = holdConnects(wallet)
    runtime = runtimeFor(wallet)
    renderHost(runtime)
    const trigger = await screen.findByRole("button", { name: "Connect wallet" })
    trigger.focus()
    fireEvent.click(trigger)

    const dialog = await findView("Connect")
    const row = await within(dialog).findByRole("button", { name: /Test Wallet/ })
    expect(row.textContent).toContain("Installed")
    expect(within(dialog).getByRole("button", { name: "All wallets" })).toBeTruthy()
    fireEvent.click(row)

    const connecting = await findView("ConnectingExternal")
    expect(await within(connecting).findByRole("heading", { name: "Continue in Test Wallet" })).toBeTruthy()
    held.release()
    // The flow closes the modal once the wallet is connected (there is no Account step after connecting).
    await dialogClosed()
    expect(wallet.calls).toEqual(["connect:test-wallet"])
    // The host's buttons follow: the connect button now names the account, the account button appears.
    await waitFor(() => expect(screen.getAllByText(ALICE_SHORT)).toHaveLength(2))
    expect(trigger.textContent).toContain(ALICE_SHORT)
    expect(document.activeElement).toBe(trigger)
  })

  it("a host that shows the account button in place of the connect button gets focus back on it", async () => {
    const wallet = testWallet()
    runtime = runtimeFor(wallet)
    function Host() {
      const { isConnected } = useAccount()
      return <main>{isConnected ? <AccountButton /> : <ConnectButton />}</main>
    }
    render(
      <WalletRuntimeProvider runtime={runtime}>
        <Host />
        <WalletModal />
      </WalletRuntimeProvider>
    )
    const trigger = await chooseTestWallet()
    await dialogClosed()
    expect(trigger.isConnected).toBe(false)
    const account = await screen.findByRole("button", { name: new RegExp(ALICE_SHORT) })
    expect(document.activeElement).toBe(account)
  })

  it("waits for the wallet, shows its refusal, and asks the wallet again on Try again", async () => {
    const wallet = testWallet({ connectError: new UserRejected({ code: 4001 }) })
    const held = holdConnects(wallet)
    runtime = runtimeFor(wallet)
    renderHost(runtime)
    await chooseTestWallet()

    const connecting = await findView("ConnectingExternal")
    expect(await within(connecting).findByRole("heading", { name: "Continue in Test Wallet" })).toBeTruthy()
    // While the wallet is asked, the host's button says so.
    expect(screen.getByRole("button", { name: "Connecting…", hidden: true })).toBeTruthy()

    held.release()
    expect(await within(connecting).findByRole("heading", { name: "Connection declined" })).toBeTruthy()
    expect(within(connecting).getByText("The connection was declined in Test Wallet.")).toBeTruthy()
    // A refusal leaves the visitor where they were: not connected.
    expect(await screen.findByRole("button", { name: "Connect wallet", hidden: true })).toBeTruthy()

    wallet.script.connectError = undefined
    fireEvent.click(within(connecting).getByRole("button", { name: "Try again" }))
    await dialogClosed()
    expect(wallet.calls).toEqual(["connect:test-wallet", "connect:test-wallet"])
    expect((await connectionState()).namespaces.eip155?.account.address).toBe(ALICE)
  })

  it("Back from a wallet that never answers: the button says Connect wallet again and a late answer takes nothing over", async () => {
    const wallet = testWallet()
    const held = holdConnects(wallet)
    runtime = runtimeFor(wallet)
    renderHost(runtime)
    await chooseTestWallet()
    const connecting = await findView("ConnectingExternal")
    expect(await screen.findByRole("button", { name: "Connecting…", hidden: true })).toBeTruthy()

    fireEvent.click(within(connecting).getByRole("button", { name: "Back" }))
    await findView("Connect")
    expect(await screen.findByRole("button", { name: "Connect wallet", hidden: true })).toBeTruthy()

    // The wallet answers at last: it resumes after the one awaiting its answer, had that one not been stopped.
    held.release()
    await act(() => runtime!.run(Effect.promise(() => held.answered)))
    expect((await connectionState()).namespaces.eip155?.account.status).toBe("disconnected")
    expect(screen.getByRole("dialog").getAttribute("data-view")).toBe("Connect")
    expect(screen.getByRole("button", { name: "Connect wallet", hidden: true })).toBeTruthy()

    // Choosing it again connects it.
    fireEvent.click(within(screen.getByRole("dialog")).getByRole("button", { name: /Test Wallet/ }))
    await dialogClosed()
    expect(wallet.calls).toEqual(["connect:test-wallet", "connect:test-wallet"])
  })

  it("a failure shows the wallet's own words, not 'Something went wrong'", async () => {
    const wallet = testWallet({ connectError: new WalletError({ code: -32603, details: "The wallet is locked. Unlock it and try again." }) })
    runtime = runtimeFor(wallet)
    renderHost(runtime)
    await chooseTestWallet()
    const connecting = await findView("ConnectingExternal")
    expect((await within(connecting).findByRole("alert")).textContent).toContain("The wallet is locked. Unlock it and try again.")
    expect(within(connecting).getByRole("heading", { name: "The wallet could not do it" })).toBeTruthy()
    expect(connecting.textContent).not.toContain("Something went wrong")
    expect(within(connecting).getByRole("button", { name: "Try again" })).toBeTruthy()
  })

  it("shows any other failure's catalogue message", async () => {
    runtime = runtimeFor(testWallet({ connectError: new ProviderNotFound() }))
    renderHost(runtime)
    await openOn({ view: "ConnectingExternal", connectorId: "test-wallet" })
    const dialog = await findView("ConnectingExternal")
    expect((await within(dialog).findByRole("alert")).textContent).toContain("Provider not found.")
    expect(within(dialog).getByRole("heading", { name: "Wallet not found" })).toBeTruthy()
  })

  it("a wallet that connects on a chain outside the networks shows UnsupportedChain", async () => {
    const wallet = testWallet({ families: { eip155: { accounts: [{ address: ALICE, type: "eoa" }], chainId: 999 } } })
    runtime = runtimeFor(wallet)
    renderHost(runtime)
    await chooseTestWallet()
    const dialog = await findView("UnsupportedChain")
    expect(await within(dialog).findByRole("button", { name: "Disconnect" })).toBeTruthy()
    expect(wallet.calls).toEqual(["connect:test-wallet"])
    expect((await connectionState()).namespaces.eip155?.account.status).toBe("connected")
  })

  it("asks the wallet once even under StrictMode", async () => {
    const wallet = testWallet()
    runtime = runtimeFor(wallet)
    render(
      <StrictMode>
        <WalletRuntimeProvider runtime={runtime}>
          <WalletModal />
        </WalletRuntimeProvider>
      </StrictMode>
    )
    await openOn({ view: "ConnectingExternal", connectorId: "test-wallet" })
    await waitFor(() => expect(wallet.calls).not.toHaveLength(0))
    await dialogClosed()
    expect(wallet.calls).toEqual(["connect:test-wallet"])
  })

  it("says so when a catalogue wallet is not installed", async () => {
    const wallet = testWallet()
    runtime = runtimeFor(wallet)
    renderHost(runtime)
    const far = { id: "far", name: "Far Wallet", image_id: "", homepage: "https://far.example", chains: [] }
    await openOn({ view: "ConnectingExternal", wallet: far })
    const dialog = await findView("ConnectingExternal")
    expect(await within(dialog).findByRole("heading", { name: "Far Wallet is not installed" })).toBeTruthy()
    expect(within(dialog).getByRole("link", { name: "Get Far Wallet" }).getAttribute("href")).toBe("https://far.example")
    expect(wallet.calls).toEqual([])
  })

  it("a wallet announced in two families is one row, and connecting it connects both", async () => {
    const SOL_ALICE = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"
    const evm = testWallet({ id: "app.phantom", name: "Phantom", rdns: "app.phantom" })
    // The Wallet Standard side of the same wallet: no rdns, the same name.
    const sol = Effect.runSync(
      makeFakeWallet({
        id: "phantom-solana",
        name: "Phantom",
        families: { solana: { accounts: [{ address: SOL_ALICE, type: "eoa" }], chainId: solanaDevnet.id } }
      })
    )
    runtime = runtimeFor([evm, sol], { options: { networks: [localChainA, solanaDevnet] } })
    renderHost(runtime)
    fireEvent.click(await screen.findByRole("button", { name: "Connect wallet" }))
    const dialog = await findView("Connect")
    const rows = await within(dialog).findAllByRole("button", { name: /Phantom/ })
    expect(rows).toHaveLength(1)
    expect(rows[0]?.textContent).toContain("Installed")

    fireEvent.click(rows[0]!)
    await dialogClosed()
    expect([evm.calls, sol.calls]).toEqual([["connect:app.phantom"], ["connect:phantom-solana"]])
    const state = await connectionState()
    expect(state.namespaces.eip155?.account).toMatchObject({ status: "connected", address: ALICE })
    expect(state.namespaces.solana?.account).toMatchObject({ status: "connected", address: SOL_ALICE })
    expect(state.namespaces.solana?.connector).toEqual({ id: "app.phantom", type: "MULTI_CHAIN" })
  })
})

describe("WalletModal: a dialog like Radix", () => {
  it("is labelled, traps the page, and Escape closes it with focus back on the trigger", async () => {
    runtime = runtimeFor(testWallet())
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
    await dialogClosed()
    expect(document.activeElement).toBe(trigger)
    expect(host.closest("[inert]")).toBeNull()
    expect(host.closest("[aria-hidden]")).toBeNull()
    expect(document.body.style.overflow).toBe("")
  })

  it("Tab and Shift+Tab cycle inside the dialog", async () => {
    runtime = runtimeFor(testWallet())
    renderHost(runtime)
    fireEvent.click(await screen.findByRole("button", { name: "Connect wallet" }))
    const dialog = await findView("Connect")
    await within(dialog).findByRole("button", { name: /Test Wallet/ })
    // In document order: Close (no Back on the first view), the wallets, "All wallets", then "What is a wallet?".
    const controls = within(dialog).getAllByRole("button")
    const [close, firstWallet] = controls
    const last = controls[controls.length - 1]!
    const allWallets = controls[controls.length - 2]!
    const beforeLast = controls[controls.length - 3]!
    expect(close?.getAttribute("aria-label")).toBe("Close")
    expect(firstWallet?.textContent).toContain("Test Wallet")
    expect(allWallets.textContent).toBe("All wallets")
    expect(last.textContent).toBe("What is a wallet?")

    last.focus()
    fireEvent.keyDown(last, { key: "Tab" })
    expect(document.activeElement).toBe(close)
    fireEvent.keyDown(close!, { key: "Tab" })
    expect(document.activeElement).toBe(firstWallet)
    fireEvent.keyDown(firstWallet!, { key: "Tab", shiftKey: true })
    expect(document.activeElement).toBe(close)
    fireEvent.keyDown(close!, { key: "Tab", shiftKey: true })
    expect(document.activeElement).toBe(last)
    allWallets.focus()
    // Arrow keys move between the rows of the list.
    fireEvent.keyDown(allWallets, { key: "ArrowUp" })
    expect(document.activeElement).toBe(beforeLast)
    fireEvent.keyDown(beforeLast, { key: "Home" })
    expect(document.activeElement).toBe(firstWallet)
  })

  it("closes from the close button and the backdrop; Back returns to the previous view", async () => {
    runtime = runtimeFor(testWallet())
    renderHost(runtime)
    fireEvent.click(await screen.findByRole("button", { name: "Connect wallet" }))
    fireEvent.click(within(await findView("Connect")).getByRole("button", { name: "All wallets" }))
    const allWallets = await findView("AllWallets")
    fireEvent.click(within(allWallets).getByRole("button", { name: "Back" }))
    const connect = await findView("Connect")
    fireEvent.click(within(connect).getByRole("button", { name: "Close" }))
    await dialogClosed()

    fireEvent.click(screen.getByRole("button", { name: "Connect wallet" }))
    const again = await findDialog()
    fireEvent.click(again.parentElement!)
    await dialogClosed()
  })

  it("shakes instead of closing when sign-in is required, and offers no Close on any view then (it could only shake)", async () => {
    runtime = runtimeFor(testWallet())
    renderHost(runtime)
    await act(() => runtime!.run(Effect.flatMap(Modal, (m) => Effect.andThen(m.setSignInRequired(true), m.open()))))
    const dialog = await findView("Connect")
    fireEvent.keyDown(dialog, { key: "Escape" })
    await waitFor(() => expect(dialog.getAttribute("data-shake")).toBe("true"))
    expect(screen.getByRole("dialog")).toBe(dialog)
    expect(within(dialog).queryByRole("button", { name: "Close" })).toBeNull()
    await act(() => runtime!.run(Effect.flatMap(Modal, (m) => m.setSignInRequired(false))))
    expect(within(dialog).getByRole("button", { name: "Close" })).toBeTruthy()
  })

  it("renders in place, modal, with disableAppend; in place and non-modal with enableEmbedded", async () => {
    runtime = runtimeFor(testWallet(), { options: { disableAppend: true } })
    const { container } = renderHost(runtime)
    await openOn(undefined)
    const inPlace = await findView("Connect")
    expect(container.contains(inPlace)).toBe(true)
    expect(inPlace.getAttribute("aria-modal")).toBe("true")
    expect(screen.getByTestId("host").closest("[inert]")).not.toBeNull()
    cleanup()
    await runtime.dispose()

    runtime = runtimeFor(testWallet(), { options: { enableEmbedded: true } })
    const embedded = renderHost(runtime)
    await openOn(undefined)
    const dialog = await findView("Connect")
    expect(embedded.container.contains(dialog)).toBe(true)
    expect(dialog.getAttribute("aria-modal")).toBe("false")
    expect(screen.getByTestId("host").closest("[inert]")).toBeNull()
    expect(document.body.style.overflow).toBe("")
  })
})

describe("WalletModal: notifications", () => {
  it("shows the configuration alerts until dismissed", async () => {
    runtime = runtimeFor(testWallet(), { options: { projectId: "" } })
    renderHost(runtime)
    await openOn(undefined)
    const dialog = await findView("Connect")
    const alert = await within(dialog).findByText("Project ID Not Configured (WR009)")
    expect(alert.closest("[role=alert]")).not.toBeNull()
    fireEvent.click(within(dialog).getByRole("button", { name: "Dismiss: Project ID Not Configured" }))
    await waitFor(() => expect(within(dialog).queryByText("Project ID Not Configured (WR009)")).toBeNull())
  })
})

describe("WalletModal: account and networks", () => {
  it("the account view copies the address with a snackbar and disconnects", async () => {
    const wallet = testWallet()
    runtime = runtimeFor(wallet)
    renderHost(runtime)
    await connectDirectly(runtime)
    // The connect button has become the account: it opens the Account view.
    fireEvent.click((await screen.findAllByRole("button", { name: new RegExp(ALICE_SHORT) }))[0]!)
    const account = await findView("Account")
    expect(await within(account).findByRole("heading", { name: ALICE_SHORT })).toBeTruthy()
    expect(await within(account).findByRole("button", { name: /Local Chain A/ })).toBeTruthy()
    expect(within(account).getByRole("tab", { name: "Tokens" }).getAttribute("aria-selected")).toBe("true")
    fireEvent.keyDown(within(account).getByRole("tab", { name: "Tokens" }), { key: "ArrowRight" })
    expect(within(account).getByRole("tab", { name: "NFTs" }).getAttribute("aria-selected")).toBe("true")

    fireEvent.click(within(account).getByRole("button", { name: "Copy address" }))
    expect(await within(account).findByText("Address copied")).toBeTruthy()

    fireEvent.click(within(account).getByRole("button", { name: "Disconnect" }))
    await dialogClosed()
    expect(wallet.calls).toContain("disconnect")
    expect(await screen.findByRole("button", { name: "Connect wallet" })).toBeTruthy()
  })

  it("the network button opens Networks, which switches (asking the wallet when connected)", async () => {
    const wallet = testWallet()
    runtime = runtimeFor(wallet)
    renderHost(runtime)
    await connectDirectly(runtime)
    fireEvent.click(await screen.findByRole("button", { name: "Network: Local Chain A. Change network" }))
    const networks = await findView("Networks")
    const active = await within(networks).findByRole("button", { name: /Local Chain A/ })
    expect(active.getAttribute("aria-current")).toBe("true")

    wallet.script.switchError = new ChainNotSupported()
    fireEvent.click(within(networks).getByRole("button", { name: /Local Chain B/ }))
    expect((await within(networks).findByRole("alert")).textContent).toContain("Chain is not supported")

    wallet.script.switchError = undefined
    fireEvent.click(within(networks).getByRole("button", { name: /Local Chain B/ }))
    await dialogClosed()
    expect(await screen.findByRole("button", { name: "Network: Local Chain B. Change network" })).toBeTruthy()
    expect(wallet.calls).toEqual(["connect:test-wallet", "switch:eip155:31338", "switch:eip155:31338"])
  })

  it("shows UnsupportedChain when the wallet moves to an unknown chain, and switching back closes it", async () => {
    const wallet = testWallet()
    runtime = runtimeFor(wallet)
    renderHost(runtime)
    await connectDirectly(runtime)
    await act(() => Effect.runPromise(wallet.emit({ _tag: "ChainChanged", namespace: "eip155", chainId: 999 })))

    const dialog = await findView("UnsupportedChain")
    expect(await within(dialog).findByRole("button", { name: "Disconnect" })).toBeTruthy()
    expect(within(dialog).getByText(/Switch to one of these networks/)).toBeTruthy()
    // The page behind is hidden from assistive technology while the dialog is open.
    expect(await screen.findByRole("button", { name: "Network: Unsupported Network. Change network", hidden: true })).toBeTruthy()
    fireEvent.click(within(dialog).getByRole("button", { name: /Local Chain A/ }))
    await dialogClosed()
    expect(wallet.calls).toContain("switch:eip155:31337")
    expect(await screen.findByRole("button", { name: "Network: Local Chain A. Change network" })).toBeTruthy()
  })
})
