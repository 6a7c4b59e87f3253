/**
 * An injected EVM wallet for tests (`wallet-runtime/testing`): an EIP-1193 provider over a small
 * {@link Eip1193WalletBackend} that holds the keys and asks the visitor (the devstack's test wallet signs in Node; a
 * host brings its own), announced through EIP-6963 as a browser extension announces itself. Browser-safe (no `node:`
 * imports, no chain library, nothing touches `window` at import).
 */

/** The four events an EIP-1193 provider emits. */
export type Eip1193Event = "accountsChanged" | "chainChanged" | "connect" | "disconnect"

/**
 * What the provider needs from the side that holds the keys: every request, and the events the wallet emits.
 * Errors are thrown with their EIP-1193 / JSON-RPC `code` (4001 refused, 4100, 4200, 4900, 4902, -32602, …).
 */
export interface Eip1193WalletBackend {
  readonly request: (args: { readonly method: string; readonly params?: unknown }) => Promise<unknown>
  /** Calls `listener` for each event the wallet emits; returns the unsubscribe. */
  readonly onEvent?: (listener: (event: Eip1193Event, args: ReadonlyArray<unknown>) => void) => () => void
}

/** An EIP-1193 provider, as far as a site uses it. */
export interface Eip1193TestProvider {
  readonly isWalletRuntimeTestWallet: true
  readonly request: (args: { readonly method: string; readonly params?: unknown }) => Promise<unknown>
  readonly on: (event: string, listener: (...args: ReadonlyArray<unknown>) => void) => void
  readonly removeListener: (event: string, listener: (...args: ReadonlyArray<unknown>) => void) => void
}

/** The EIP-6963 `info` of a wallet: `rdns` is its reverse-DNS id, `icon` a data URI. */
export interface Eip6963Info {
  readonly uuid: string
  readonly name: string
  readonly icon: string
  readonly rdns: string
}

/** Makes an EIP-1193 provider over `backend`. */
export const createEip1193Provider = (backend: Eip1193WalletBackend): Eip1193TestProvider => {
  const listeners = new Map<string, Set<(...args: ReadonlyArray<unknown>) => void>>()
  backend.onEvent?.((event, args) => {
    for (const listener of [...(listeners.get(event) ?? [])]) listener(...args)
  })
  return {
    isWalletRuntimeTestWallet: true,
    request: (args) => backend.request(args),
    on: (event, listener) => {
      let set = listeners.get(event)
      if (set === undefined) listeners.set(event, (set = new Set()))
      set.add(listener)
    },
    removeListener: (event, listener) => {
      listeners.get(event)?.delete(listener)
    }
  }
}

/**
 * Announces `provider` through EIP-6963 (now, and again on every `eip6963:requestProvider`) and, unless
 * `setWindowEthereum` is false, sets it as `window.ethereum`. Returns a function that stops answering requests.
 * @example announceEip6963Provider(createEip1193Provider(backend), { uuid, name: "MetaMask", icon, rdns: "io.metamask" })
 */
export const announceEip6963Provider = (
  provider: Eip1193TestProvider,
  info: Eip6963Info,
  options: { readonly setWindowEthereum?: boolean } = {}
): (() => void) => {
  const detail = Object.freeze({ info: Object.freeze({ ...info }), provider })
  if (options.setWindowEthereum !== false) (window as unknown as { ethereum?: unknown }).ethereum = provider
  const announce = () => window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail }))
  window.addEventListener("eip6963:requestProvider", announce)
  announce()
  return () => window.removeEventListener("eip6963:requestProvider", announce)
}
