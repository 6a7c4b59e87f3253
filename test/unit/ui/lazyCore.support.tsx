/**
 * A host page for the tests of the runtime's code loaded after the first render: a Connect button, a status line from
 * the hooks, the modal, an error boundary, and optionally a part that needs the runtime itself (suspending meanwhile). Each test
 * file that uses it starts without the code loaded (module state): one scenario before loading per file.
 */
import { Component, type ReactNode, Suspense } from "react"
import { localChainA } from "../../../src/domain/networks"
import { testLayer } from "../../../src/layers/Test"
import type { WalletRuntimeSettings } from "../../../src/runtime"
import { ConnectButton } from "../../../src/ui/buttons/ConnectButton/ConnectButton"
import { WalletModal } from "../../../src/ui/modal/WalletModal"
import { useWalletRuntime } from "../../../src/ui/react/context"
import { useAccount, useModal } from "../../../src/ui/react/hooks"
import { WalletRuntimeProvider } from "../../../src/ui/react/WalletRuntimeProvider"
import { testWallet } from "./components/testWallet"

export const options = { projectId: "test", networks: [localChainA] }

const settings: WalletRuntimeSettings = {
  layer: (decoded, alerts) => testLayer(decoded, { alerts, wallets: [testWallet()] })
}

/** Idle callbacks the test runs itself: the page is idle when the test says so. */
export const idle: Array<() => void> = []
const original = { request: window.requestIdleCallback, cancel: window.cancelIdleCallback }

export const controlIdle = () => {
  window.requestIdleCallback = ((callback: () => void) => idle.push(callback)) as typeof window.requestIdleCallback
  window.cancelIdleCallback = ((id: number) => {
    idle[id - 1] = () => {}
  }) as typeof window.cancelIdleCallback
}

export const restoreIdle = () => {
  idle.splice(0)
  window.requestIdleCallback = original.request
  window.cancelIdleCallback = original.cancel
}

function Status(): ReactNode {
  const account = useAccount()
  const modal = useModal()
  return <p data-testid="status">{`${account.status}|${modal.isOpen ? modal.view : "closed"}`}</p>
}

/** The runtime's decoded options once there: suspends until the code has loaded. */
function RuntimeNetworks(): ReactNode {
  return <p>{`runtime:${useWalletRuntime().options.networks.map((network) => network.name).join(",")}`}</p>
}

class Boundary extends Component<{ readonly children: ReactNode }, { readonly error: unknown }> {
  override state = { error: undefined as unknown }
  static getDerivedStateFromError(error: unknown) {
    return { error }
  }
  override render(): ReactNode {
    return this.state.error === undefined ? this.props.children : <p>{`failed:${String(this.state.error)}`}</p>
  }
}

/** The host page, with the given options; with `probe`, a part that needs the runtime itself (and so loads it). */
export const host = (given: unknown = options, probe = false) => (
  <Boundary>
    <WalletRuntimeProvider options={given} settings={settings}>
      <ConnectButton />
      <Status />
      {probe && (
        <Suspense fallback={<p>runtime:loading</p>}>
          <RuntimeNetworks />
        </Suspense>
      )}
      <WalletModal />
    </WalletRuntimeProvider>
  </Boundary>
)
