/** A wallet runtime over a scripted fake eip155 wallet, and the host page of the component tests. */
import { render, screen, waitFor } from "@testing-library/react"
import { Effect, type Layer } from "effect"
import type * as HttpClient from "effect/http/HttpClient"
import type { ReactNode } from "react"
import { expect } from "vitest"
import { localChainA, localChainB } from "../../../../src/domain/Network"
import type { ConnectorInfo } from "../../../../src/domain/Wallet"
import { testLayer } from "../../../../src/layers/Test"
import { makeWalletRuntime, type WalletRuntime } from "../../../../src/runtime"
import { type FakeChainAdapter, makeFakeChainAdapter } from "../../../../src/services/ChainAdapter"
import { AccountButton } from "../../../../src/ui/components/AccountButton/AccountButton"
import { ConnectButton } from "../../../../src/ui/components/ConnectButton/ConnectButton"
import { WalletModal } from "../../../../src/ui/components/Modal/WalletModal"
import { NetworkButton } from "../../../../src/ui/components/NetworkButton/NetworkButton"
import { WalletRuntimeProvider } from "../../../../src/ui/react/WalletRuntimeProvider"

export const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
export const ALICE_SHORT = "0xf3…b92266"

/** The wallet the fake adapter announces (EIP-6963 style). */
export const TEST_WALLET: ConnectorInfo = {
  id: "test-wallet",
  name: "Test Wallet",
  type: "ANNOUNCED",
  chain: "eip155",
  chains: [localChainA.caipNetworkId, localChainB.caipNetworkId],
  info: { rdns: "dev.wallet-runtime.test" }
}

/** A wallet whose next connect waits until the test releases it. */
export interface GatedWallet {
  readonly adapter: FakeChainAdapter
  /** Lets the waiting connect answer (with the script's accounts, or its `connectError`). */
  readonly release: () => void
}

/** The fake wallet, its first connect held until `release()` when `gated`. */
export const fakeWallet = (gated = false): GatedWallet => {
  const adapter = Effect.runSync(
    makeFakeChainAdapter("eip155", {
      accounts: [{ address: ALICE, type: "eoa" }],
      chainId: 31337,
      connectors: [TEST_WALLET]
    })
  )
  if (!gated) return { adapter, release: () => {} }
  let release = () => {}
  const gate = new Promise<void>((resolve) => {
    release = resolve
  })
  const held: FakeChainAdapter = {
    ...adapter,
    connect: (connectorId, network) => Effect.andThen(Effect.promise(() => gate), adapter.connect(connectorId, network))
  }
  return { adapter: held, release: () => release() }
}

/**
 * A runtime over the fake wallet, on the two local chains; the hosted services (catalogue, blockchain API) are
 * unreachable unless a fake HTTP client is given.
 */
export const runtimeFor = (
  adapter: FakeChainAdapter,
  options: Record<string, unknown> = {},
  http?: Layer.Layer<HttpClient.HttpClient>
): WalletRuntime =>
  makeWalletRuntime(
    { projectId: "test", networks: [localChainA, localChainB], ...options },
    { layer: (decoded, alerts) => testLayer(decoded, [adapter], {}, alerts, http) }
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
