// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react"
import { Effect, Layer, Stream, SubscriptionRef } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { UserRejected } from "../../../../src/domain/errors"
import { localChainA, localChainB } from "../../../../src/domain/Network"
import type { ConnectorInfo, WalletCatalogEntry } from "../../../../src/domain/Wallet"
import { testLayer } from "../../../../src/layers/Test"
import { makeWalletRuntime, type WalletRuntime } from "../../../../src/runtime"
import { type FakeChainAdapter, makeFakeChainAdapter } from "../../../../src/services/ChainAdapter"
import { Connection } from "../../../../src/services/Connection"
import { Modal } from "../../../../src/services/Modal"
import { Storage } from "../../../../src/services/Storage/Storage"
import * as Keys from "../../../../src/services/Storage/keys"
import { walletLink } from "../../../../src/services/walletconnect/links"
import { type PairingState, WALLET_CONNECT_CONNECTOR_ID, WalletConnect } from "../../../../src/services/walletconnect/WalletConnect"
import { ALICE, findView, renderHost } from "./support"

const WC: ConnectorInfo = {
  id: WALLET_CONNECT_CONNECTOR_ID,
  name: "WalletConnect",
  type: "WALLET_CONNECT",
  chain: "eip155",
  chains: [localChainA.caipNetworkId, localChainB.caipNetworkId]
}

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

/** A WalletConnect service whose pairing the test drives; the session itself is the fake adapter's. */
const fakeWalletConnect = (connector: ConnectorInfo | undefined) => {
  const pairing = Effect.runSync(SubscriptionRef.make<PairingState>({ _tag: "Idle" }))
  const calls: Array<string> = []
  const service: WalletConnect["Service"] = {
    connector,
    pairing,
    provider: { request: () => Promise.reject(new Error("not used in these tests")) },
    pair: () => Effect.succeed([]),
    freshUri: Effect.succeed(undefined),
    replaceUri: Effect.sync(() => void calls.push("replaceUri")),
    cancel: Effect.sync(() => void calls.push("cancel")),
    disconnect: Effect.void,
    alerts: Stream.empty,
    loaded: Effect.succeed(false)
  }
  const show = (uri: string) => Effect.runSync(SubscriptionRef.set(pairing, { _tag: "Ready", uri, expiresAt: 230_000 }))
  return { service, calls, show }
}

/** A wallet adapter whose connect waits for `release()`: the pairing is on screen meanwhile. */
const gatedAdapter = () => {
  const adapter = Effect.runSync(
    makeFakeChainAdapter("eip155", { accounts: [{ address: ALICE, type: "eoa" }], chainId: 31337, connectors: [WC] }, "WALLET_CONNECT")
  )
  let release = () => {}
  const asked: Array<string> = []
  const gate = () =>
    new Promise<void>((resolve) => {
      release = resolve
    })
  const held: FakeChainAdapter = {
    ...adapter,
    connect: (id, network) =>
      Effect.sync(() => void asked.push(id)).pipe(
        Effect.andThen(Effect.promise(gate)),
        Effect.andThen(adapter.connect(id, network))
      )
  }
  return { adapter: held, asked, release: () => release() }
}

let runtime: WalletRuntime | undefined
afterEach(async () => {
  cleanup()
  await runtime?.dispose()
  runtime = undefined
})

const makeRuntime = (adapter: FakeChainAdapter, walletConnect: WalletConnect["Service"] | undefined, mobile = false) =>
  makeWalletRuntime(
    { projectId: "test", networks: [localChainA, localChainB] },
    {
      layer: (decoded, alerts) => {
        const base = testLayer(decoded, [adapter], { isMobile: mobile }, alerts)
        return walletConnect === undefined ? base : Layer.merge(base, Layer.succeed(WalletConnect)(walletConnect))
      }
    }
  )

const openOn = (view: "WalletConnectBasic" | "ConnectingWalletConnect", data = {}) =>
  act(() => runtime!.run(Effect.flatMap(Modal, (m) => m.open({ view, data }))))

describe("WalletConnect views", () => {
  it("Connect lists WalletConnect first and leads to the QR code, which follows the URI and connects", async () => {
    const { adapter, asked, release } = gatedAdapter()
    const wc = fakeWalletConnect(WC)
    runtime = makeRuntime(adapter, wc.service)
    renderHost(runtime)
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
    expect(asked).toEqual([WALLET_CONNECT_CONNECTOR_ID])

    release()
    await findView("Account")
  })

  it("shows the wallet's refusal and asks again on Try again", async () => {
    const { adapter, asked, release } = gatedAdapter()
    adapter.script.connectError = new UserRejected({ code: 5000 })
    const wc = fakeWalletConnect(WC)
    runtime = makeRuntime(adapter, wc.service)
    renderHost(runtime)
    await openOn("WalletConnectBasic")
    const view = await findView("WalletConnectBasic")
    await waitFor(() => expect(asked).toHaveLength(1))
    release()
    expect(await within(view).findByRole("heading", { name: "Connection declined" })).toBeTruthy()
    adapter.script.connectError = undefined
    fireEvent.click(within(view).getByRole("button", { name: "Try again" }))
    await waitFor(() => expect(asked).toHaveLength(2))
    release()
    await findView("Account")
  })

  it("says WalletConnect is not available when it is not configured", async () => {
    const { adapter, asked } = gatedAdapter()
    runtime = makeRuntime(adapter, fakeWalletConnect(undefined).service)
    renderHost(runtime)
    await openOn("WalletConnectBasic")
    const view = await findView("WalletConnectBasic")
    expect(await within(view).findByRole("alert")).toHaveProperty(
      "textContent",
      expect.stringContaining("set a projectId to enable WalletConnect")
    )
    expect(asked).toEqual([])
  })

  it("on a phone opens the catalogue wallet by its link, and remembers the wallet and the link on success", async () => {
    const { adapter, release } = gatedAdapter()
    const wc = fakeWalletConnect(WC)
    runtime = makeRuntime(adapter, wc.service, true)
    renderHost(runtime)
    await openOn("ConnectingWalletConnect", { wallet: devWallet })
    const view = await findView("ConnectingWalletConnect")
    act(() => wc.show(URI_1))
    const open = await within(view).findByRole("link", { name: "Open Devstack Mobile" })
    expect(open.getAttribute("href")).toBe(walletLink("http://127.0.0.1:9/test-wallet/", URI_1))
    expect(open.getAttribute("href")).toBe(`http://127.0.0.1:9/test-wallet/wc?uri=${encodeURIComponent(URI_1)}`)
    expect(within(view).queryByRole("img", { name: /QR code/ })).toBeNull()
    open.addEventListener("click", (event) => event.preventDefault())
    fireEvent.click(open)

    release()
    await findView("Account")
    const stored = await runtime.run(
      Effect.flatMap(Storage, (s) => Effect.all([s.get(Keys.walletConnectDeepLink), s.get(Keys.recentWallets)]))
    )
    expect(stored).toEqual([{ href: open.getAttribute("href"), name: "Devstack Mobile" }, [devWallet]])
    await runtime.run(Effect.flatMap(Connection, (c) => c.disconnect()))
    expect(await runtime.run(Effect.flatMap(Storage, (s) => s.get(Keys.walletConnectDeepLink)))).toBeNull()
  })

  it("on a desktop shows the wallet's QR code and its web app", async () => {
    const { adapter } = gatedAdapter()
    const wc = fakeWalletConnect(WC)
    runtime = makeRuntime(adapter, wc.service)
    renderHost(runtime)
    await openOn("ConnectingWalletConnect", { wallet: devWallet })
    const view = await findView("ConnectingWalletConnect")
    act(() => wc.show(URI_1))
    expect(await within(view).findByRole("img", { name: "QR code to connect with Devstack Mobile" })).toBeTruthy()
    expect(within(view).getByRole("link", { name: "Open web app" }).getAttribute("href")).toBe(
      `http://127.0.0.1:9/web/wc?uri=${encodeURIComponent(URI_1)}`
    )
    expect(within(view).queryByRole("link", { name: "Open desktop app" })).toBeNull()
  })
})
