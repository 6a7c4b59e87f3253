/** A wallet runtime over scripted fake wallets, and the host page of the component tests. */
import { render, screen, waitFor } from "@testing-library/react"
import { Effect, Layer, Stream, SubscriptionRef } from "effect"
import type * as HttpClient from "effect/http/HttpClient"
import type { ReactNode } from "react"
import { expect } from "vitest"
import { localChainA, localChainB } from "../../../../src/domain/networks"
import { testLayer } from "../../../../src/layers/Test"
import { makeWalletRuntime, type WalletRuntime } from "../../../../src/runtime"
import { type FakeWallet, makeFakeWallet } from "../../../../src/services/fakes/FakeWallet"
import type { PlatformInfo } from "../../../../src/services/Platform"
import { type PairingState, WALLET_CONNECT_CONNECTOR_ID, WalletConnect } from "../../../../src/services/walletconnect/WalletConnect"
import { AccountButton } from "../../../../src/ui/buttons/AccountButton/AccountButton"
import { ConnectButton } from "../../../../src/ui/buttons/ConnectButton/ConnectButton"
import { NetworkButton } from "../../../../src/ui/buttons/NetworkButton/NetworkButton"
import { WalletModal } from "../../../../src/ui/modal/WalletModal"
import { loadCore } from "../../../../src/ui/react/shell"
import { WalletRuntimeProvider } from "../../../../src/ui/react/WalletRuntimeProvider"
import { ALICE } from "./testWallet"

// The runtime's code is on the page before these hosts render, so each renders with its runtime at once.
await loadCore()
// So is the code it fetches on its first service call (the catalogue's, the blockchain service's and their derived
// client): the tests' time limits then wait for what the views do, not for the first load of that code.
await Promise.all([
  import("../../../../src/services/WalletCatalogLive"),
  import("../../../../src/services/BlockchainApiLive"),
  import("../../../../src/services/servicesApiClient")
])

export { ALICE, ALICE_SHORT, testWallet } from "./testWallet"

/**
 * Holds the wallet's next connects (its prompt stays open) until the returned function is called; connects after
 * that answer at once. `answered` resolves once released.
 */
export const holdConnects = (wallet: FakeWallet): { readonly release: () => void; readonly answered: Promise<void> } => {
  let release = () => {}
  const answered = new Promise<void>((resolve) => {
    release = resolve
  })
  wallet.script.connectGate = answered
  return { release: () => release(), answered }
}

/** What else a test runtime is made with. */
export interface TestHost {
  readonly options?: Record<string, unknown>
  readonly http?: Layer.Layer<HttpClient.HttpClient> | undefined
  readonly platform?: Partial<PlatformInfo> | undefined
  /** A WalletConnect service the WalletConnect views read (its pairing); its connector must be one of the wallets. */
  readonly walletConnect?: WalletConnect["Service"] | undefined
}

/**
 * A runtime over the fake wallets, on the two local chains; the hosted services (catalogue, blockchain API) are
 * unreachable unless a fake HTTP client is given.
 */
export const runtimeFor = (wallets: FakeWallet | ReadonlyArray<FakeWallet>, host: TestHost = {}): WalletRuntime =>
  makeWalletRuntime(
    { projectId: "test", networks: [localChainA, localChainB], ...host.options },
    {
      layer: (decoded, alerts) => {
        const base = testLayer(decoded, {
          wallets: Array.isArray(wallets) ? wallets : [wallets as FakeWallet],
          alerts,
          httpClient: host.http,
          platform: host.platform
        })
        return host.walletConnect === undefined ? base : Layer.merge(base, Layer.succeed(WalletConnect)(host.walletConnect))
      }
    }
  )

/** A host page: its buttons in a `main`, and the modal. */
export const renderHost = (runtime: WalletRuntime, extra?: ReactNode) =>
  render(
    <WalletRuntimeProvider runtime={runtime}>
      <main data-testid="host">
        <ConnectButton />
        <AccountButton />
        <NetworkButton />
        {extra}
      </main>
      <WalletModal />
    </WalletRuntimeProvider>
  )

/** The open dialog. */
export const findDialog = () => screen.findByRole("dialog")

/** Waits for the dialog to show a view (its `data-view`), and returns the dialog. */
export const findView = (view: string): Promise<HTMLElement> =>
  waitFor(() => {
    const dialog = screen.getByRole("dialog")
    expect(dialog.getAttribute("data-view")).toBe(view)
    return dialog
  })

/** Waits until the dialog is gone. */
export const dialogClosed = () => waitFor(() => expect(screen.queryByRole("dialog")).toBeNull())

/** The wallet at the other end of WalletConnect: a fake wallet behind WalletConnect's connector. */
export const remoteWallet = (): FakeWallet =>
  Effect.runSync(
    makeFakeWallet({
      id: WALLET_CONNECT_CONNECTOR_ID,
      name: "WalletConnect",
      type: "WALLET_CONNECT",
      families: { eip155: { accounts: [{ address: ALICE, type: "eoa" }], chainId: 31337 } }
    })
  )

/** A WalletConnect service whose pairing URI the test shows; its connector (when configured) is the remote wallet's. */
export const fakeWalletConnect = (remote: FakeWallet | undefined) => {
  const pairing = Effect.runSync(SubscriptionRef.make<PairingState>({ _tag: "Idle" }))
  const preloads = { count: 0 }
  const service: WalletConnect["Service"] = {
    connector: remote?.connector,
    pairing,
    freshUri: Effect.succeed(undefined),
    replaceUri: Effect.void,
    cancel: Effect.void,
    alerts: Stream.empty,
    loaded: Effect.succeed(false),
    preload: Effect.sync(() => void preloads.count++),
    useSignIn: () => Effect.void
  }
  const show = (uri: string) => Effect.runSync(SubscriptionRef.set(pairing, { _tag: "Ready", uri, expiresAt: 230_000 }))
  /** How many times the session's code was asked for ahead of a choice. */
  return { service, show, preloads }
}
