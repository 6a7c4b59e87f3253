// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react"
import { Effect, SubscriptionRef } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { UserRejected } from "../../../../src/domain/errors"
import type { WalletCatalogEntry } from "../../../../src/domain/Wallet"
import type { WalletRuntime } from "../../../../src/runtime"
import { Connection } from "../../../../src/services/Connection"
import type { FakeWallet } from "../../../../src/services/fakes/FakeWallet"
import { Modal, type Route } from "../../../../src/services/Modal"
import { Storage } from "../../../../src/services/Storage/Storage"
import * as Keys from "../../../../src/services/Storage/keys"
import { walletLink } from "../../../../src/services/walletconnect/links"
import { WALLET_CONNECT_CONNECTOR_ID } from "../../../../src/services/walletconnect/WalletConnect"
import { dialogClosed, fakeWalletConnect, findView, holdConnects, remoteWallet, renderHost, runtimeFor, testWallet } from "./support"

const URI_1 = "wc:7f6e5d4c@2?relay-protocol=irn&symKey=aaaa&expiryTimestamp=1"
const URI_2 = "wc:1a2b3c4d@2?relay-protocol=irn&symKey=bbbb&expiryTimestamp=2"

const devWallet: WalletCatalogEntry = {
  id: "devstack-test-wallet-mobile",
  name: "Devstack Mobile",
  image_id: "x",
  mobile_link: "http://127.0.0.1:9/test-wallet/",
  desktop_link: null,
  webapp_link: "http://127.0.0.1:9/web/",
  chains: ["eip155:31337"]
}

let runtime: WalletRuntime | undefined
afterEach(async () => {
  cleanup()
  await runtime?.dispose()
  runtime = undefined
})

/** A page with the test wallet installed and WalletConnect configured over `remote`. */
const start = (remote: FakeWallet, mobile = false) => {
  const wc = fakeWalletConnect(remote)
  runtime = runtimeFor([remote, testWallet()], { walletConnect: wc.service, platform: { isMobile: mobile } })
  renderHost(runtime)
  return wc
}

const openOn = (route: Route) => act(() => runtime!.run(Effect.flatMap(Modal, (m) => m.open(route))))

const connectionState = () => runtime!.run(Effect.flatMap(Connection, (c) => SubscriptionRef.get(c.state)))

describe("WalletConnect views", () => {
  it("Connect lists WalletConnect first; its QR code follows the URI; the wallet's approval connects and closes", async () => {
    const remote = remoteWallet()
    const held = holdConnects(remote)
    const wc = start(remote)
    fireEvent.click(await screen.findByRole("button", { name: "Connect wallet" }))
    const connect = await findView("Connect")
    const rows = await within(connect).findAllByRole("listitem")
    expect(rows[0]?.textContent).toContain("WalletConnect")
    fireEvent.click(within(connect).getByRole("button", { name: /WalletConnect/ }))

    const view = await findView("WalletConnectBasic")
    expect((await within(view).findByRole("button", { name: "Copy link" })).hasAttribute("disabled")).toBe(true)
    act(() => wc.show(URI_1))
    const qr = await within(view).findByRole("img", { name: "QR code to connect with WalletConnect" })
    expect(qr.getAttribute("data-qr-value")).toBe(URI_1)
    expect(qr.querySelector("path")?.getAttribute("d")?.length).toBeGreaterThan(100)
    expect(within(view).getByRole("button", { name: "Copy link" }).hasAttribute("disabled")).toBe(false)

    // A replaced URI (expired, or after Retry) is what the code shows at once.
    act(() => wc.show(URI_2))
    await waitFor(() => expect(within(view).getByRole("img").getAttribute("data-qr-value")).toBe(URI_2))
    // The flow asked WalletConnect once, when the view opened.
    expect(remote.calls).toEqual([`connect:${WALLET_CONNECT_CONNECTOR_ID}`])

    held.release()
    await dialogClosed()
    expect((await connectionState()).namespaces.eip155?.connector).toEqual({ id: WALLET_CONNECT_CONNECTOR_ID, type: "WALLET_CONNECT" })
  })

  it("pointing at or touching WalletConnect's row fetches its session code ahead; other rows, and the focus the dialog puts on its first row, do not; nothing connects before the click", async () => {
    const remote = remoteWallet()
    const wc = start(remote)
    fireEvent.click(await screen.findByRole("button", { name: "Connect wallet" }))
    const connect = await findView("Connect")
    const walletConnectRow = await within(connect).findByRole("button", { name: /WalletConnect/ })
    const installedRow = within(connect).getByRole("button", { name: /Test Wallet/ })
    fireEvent.focus(walletConnectRow)
    fireEvent.pointerEnter(installedRow)
    fireEvent.touchStart(installedRow)
    expect(wc.preloads.count).toBe(0)
    fireEvent.pointerEnter(walletConnectRow)
    await waitFor(() => expect(wc.preloads.count).toBe(1))
    fireEvent.touchStart(walletConnectRow)
    await waitFor(() => expect(wc.preloads.count).toBe(2))
    expect(remote.calls).toEqual([])
  })

  it("leaving the QR code stops waiting for a wallet: nothing connects when one approves late", async () => {
    const remote = remoteWallet()
    const held = holdConnects(remote)
    start(remote)
    await openOn({ view: "WalletConnectBasic" })
    const view = await findView("WalletConnectBasic")
    await waitFor(() => expect(remote.calls).toHaveLength(1))
    expect(await screen.findByRole("button", { name: "Connecting…", hidden: true })).toBeTruthy()

    fireEvent.click(within(view).getByRole("button", { name: "Close" }))
    await dialogClosed()
    expect(await screen.findByRole("button", { name: "Connect wallet" })).toBeTruthy()
    held.release()
    await act(() => runtime!.run(Effect.promise(() => held.answered)))
    expect((await connectionState()).namespaces.eip155?.account.status).toBe("disconnected")
    expect(screen.getByRole("button", { name: "Connect wallet" })).toBeTruthy()
  })

  it("shows the wallet's refusal and asks again on Try again", async () => {
    const remote = remoteWallet()
    remote.script.connectError = new UserRejected({ code: 5000 })
    const first = holdConnects(remote)
    start(remote)
    await openOn({ view: "WalletConnectBasic" })
    const view = await findView("WalletConnectBasic")
    await waitFor(() => expect(remote.calls).toHaveLength(1))
    first.release()
    expect(await within(view).findByRole("heading", { name: "Connection declined" })).toBeTruthy()
    expect(within(view).getByText("The connection was declined in WalletConnect.")).toBeTruthy()

    remote.script.connectError = undefined
    const second = holdConnects(remote)
    fireEvent.click(within(view).getByRole("button", { name: "Try again" }))
    await waitFor(() => expect(remote.calls).toHaveLength(2))
    second.release()
    await dialogClosed()
  })

  it("says WalletConnect is not available when it is not configured", async () => {
    const installed = testWallet()
    for (const walletConnect of [fakeWalletConnect(undefined).service, undefined]) {
      runtime = runtimeFor(installed, { walletConnect })
      renderHost(runtime)
      await openOn({ view: "WalletConnectBasic" })
      const view = await findView("WalletConnectBasic")
      expect(await within(view).findByRole("alert")).toHaveProperty(
        "textContent",
        expect.stringContaining("set a projectId to enable WalletConnect")
      )
      cleanup()
      await runtime.dispose()
    }
    expect(installed.calls).toEqual([])
  })

  it("on a phone WalletConnect's row lists the wallets to open by their links, not a code to scan", async () => {
    const remote = remoteWallet()
    start(remote, true)
    await openOn({ view: "Connect" })
    const connect = await findView("Connect")
    fireEvent.click(await within(connect).findByRole("button", { name: /^WalletConnect/ }))
    const all = await findView("AllWallets")
    expect(within(all).queryByRole("img", { name: /QR code/ })).toBeNull()
    expect(remote.calls).toEqual([])
  })

  it("on a phone the WalletConnect view itself (a host's connect('walletConnect')) offers the wallets, not a code to scan", async () => {
    const remote = remoteWallet()
    holdConnects(remote)
    const wc = start(remote, true)
    await openOn({ view: "WalletConnectBasic" })
    const view = await findView("WalletConnectBasic")
    act(() => wc.show(URI_1))
    expect(await within(view).findByRole("heading", { name: "Continue in WalletConnect" })).toBeTruthy()
    expect(within(view).queryByRole("img", { name: /QR code/ })).toBeNull()
    fireEvent.click(within(view).getByRole("button", { name: "Choose your wallet" }))
    await findView("AllWallets")
  })

  it("on a phone opens the catalogue wallet by its link, and remembers the wallet and the link on success", async () => {
    const remote = remoteWallet()
    const held = holdConnects(remote)
    const wc = start(remote, true)
    await openOn({ view: "ConnectingWalletConnect", wallet: devWallet })
    const view = await findView("ConnectingWalletConnect")
    act(() => wc.show(URI_1))
    const open = await within(view).findByRole("link", { name: "Open Devstack Mobile" })
    expect(open.getAttribute("href")).toBe(walletLink("http://127.0.0.1:9/test-wallet/", URI_1))
    expect(open.getAttribute("href")).toBe(`http://127.0.0.1:9/test-wallet/wc?uri=${encodeURIComponent(URI_1)}`)
    expect(within(view).queryByRole("img", { name: /QR code/ })).toBeNull()
    open.addEventListener("click", (event) => event.preventDefault())
    fireEvent.click(open)

    held.release()
    await dialogClosed()
    const stored = await runtime!.run(
      Effect.flatMap(Storage, (s) => Effect.all([s.get(Keys.walletConnectDeepLink), s.get(Keys.recentWallets)]))
    )
    expect(stored).toEqual([{ href: open.getAttribute("href"), name: "Devstack Mobile" }, [devWallet]])
    await runtime!.run(Effect.flatMap(Connection, (c) => c.disconnect()))
    expect(await runtime!.run(Effect.flatMap(Storage, (s) => s.get(Keys.walletConnectDeepLink)))).toBeNull()
  })

  it("on a desktop shows the wallet's QR code and its web app", async () => {
    const remote = remoteWallet()
    holdConnects(remote)
    const wc = start(remote)
    await openOn({ view: "ConnectingWalletConnect", wallet: devWallet })
    const view = await findView("ConnectingWalletConnect")
    act(() => wc.show(URI_1))
    expect(await within(view).findByRole("img", { name: "QR code to connect with Devstack Mobile" })).toBeTruthy()
    expect(within(view).getByRole("link", { name: "Open web app" }).getAttribute("href")).toBe(
      `http://127.0.0.1:9/web/wc?uri=${encodeURIComponent(URI_1)}`
    )
    expect(within(view).queryByRole("link", { name: "Open desktop app" })).toBeNull()
  })
})
