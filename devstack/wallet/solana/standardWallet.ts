/**
 * A Solana wallet in the shape of the Wallet Standard (`@wallet-standard/base` 1.1): the object an app finds
 * through `getWallets()`, with `standard:connect` / `disconnect` / `events` and the `solana:` signing features,
 * built over a small {@link SolanaWalletBackend} that holds the keys and asks the visitor. Browser-safe (no `node:`
 * imports, nothing touches `window` at import): the Node test wallet, the page of the browser tests and the demo
 * share it.
 */
import { address as toAddress, getAddressEncoder } from "@solana/kit"
import {
  SolanaSignAndSendTransaction,
  type SolanaSignAndSendTransactionFeature,
  type SolanaSignAndSendTransactionInput,
  type SolanaSignAndSendTransactionOptions,
  type SolanaSignAndSendTransactionOutput,
  SolanaSignMessage,
  type SolanaSignMessageFeature,
  type SolanaSignMessageInput,
  type SolanaSignMessageOutput,
  SolanaSignTransaction,
  type SolanaSignTransactionFeature,
  type SolanaSignTransactionInput,
  type SolanaSignTransactionOutput
} from "@solana/wallet-standard-features"
import type {
  IdentifierString,
  Wallet,
  WalletAccount,
  WalletIcon,
  WindowAppReadyEvent,
  WindowAppReadyEventAPI,
  WindowRegisterWalletEventCallback
} from "@wallet-standard/base"

/** The Wallet Standard ids of the Solana clusters. */
export const SOLANA_CHAINS = ["solana:mainnet", "solana:devnet", "solana:testnet", "solana:localnet"] as const
/** A Wallet Standard Solana cluster id. */
export type SolanaChain = (typeof SOLANA_CHAINS)[number]
/** The cluster of the local stack, the one this wallet serves by default. */
export const SOLANA_LOCALNET_CHAIN: SolanaChain = "solana:localnet"

// The three `standard:` features, typed here as `@wallet-standard/features` 1.1 defines them (that package is only a
// transitive dependency, so its types are not imported).
/** `standard:connect`: `{ silent: true }` gives the accounts only if the site is already authorised, never a prompt. */
export type StandardConnectFeature = {
  readonly "standard:connect": {
    readonly version: "1.0.0"
    readonly connect: (input?: { readonly silent?: boolean }) => Promise<{ readonly accounts: ReadonlyArray<WalletAccount> }>
  }
}
/** `standard:disconnect`: the site gives up its authorisation. */
export type StandardDisconnectFeature = {
  readonly "standard:disconnect": { readonly version: "1.0.0"; readonly disconnect: () => Promise<void> }
}
/** What a `change` event of `standard:events` carries. */
export interface StandardChangeProperties {
  readonly chains?: Wallet["chains"]
  readonly features?: Wallet["features"]
  readonly accounts?: Wallet["accounts"]
}
/** `standard:events`: `on("change", listener)` returns the unsubscribe. */
export type StandardEventsFeature = {
  readonly "standard:events": {
    readonly version: "1.0.0"
    readonly on: (event: "change", listener: (properties: StandardChangeProperties) => void) => () => void
  }
}

/** Every feature of the wallet. */
export type StandardSolanaWalletFeatures = StandardConnectFeature &
  StandardDisconnectFeature &
  StandardEventsFeature &
  SolanaSignMessageFeature &
  SolanaSignTransactionFeature &
  SolanaSignAndSendTransactionFeature

/** A Wallet Standard wallet with the features above. */
export interface StandardSolanaWallet extends Wallet {
  readonly features: StandardSolanaWalletFeatures
}

/**
 * An error a wallet throws, with the EIP-1193 style code Solana wallets use: 4001 the visitor refused, 4100 the
 * account or method is not authorised, -32602 bad input, -32603 anything else.
 */
export class WalletStandardError extends Error {
  override readonly name = "WalletStandardError"
  constructor(
    readonly code: number,
    message: string
  ) {
    super(message)
  }
}

/**
 * What the wallet object needs from the side that holds the keys and asks the visitor. Accounts are base58
 * addresses; transactions are wire bytes.
 */
export interface SolanaWalletBackend {
  /** The accounts the site may use; `silent`: only if already authorised (else none), never a prompt. */
  readonly connect: (silent: boolean) => Promise<ReadonlyArray<string>>
  /** Forgets the site's authorisation. */
  readonly disconnect: () => Promise<void>
  /** The ed25519 signature (64 bytes) of `message` by `account`. */
  readonly signMessage: (account: string, message: Uint8Array) => Promise<Uint8Array>
  /** `transaction` with `account`'s signature added. */
  readonly signTransaction: (account: string, transaction: Uint8Array, chain: string | undefined) => Promise<Uint8Array>
  /** Signs `transaction` and sends it to `chain`; returns its first signature (64 bytes). */
  readonly signAndSendTransaction: (
    account: string,
    transaction: Uint8Array,
    chain: string,
    options: SolanaSignAndSendTransactionOptions | undefined
  ) => Promise<Uint8Array>
  /** Calls `listener` when the wallet itself changes the accounts the site sees; returns the unsubscribe. */
  readonly onAccountsChanged: (listener: (accounts: ReadonlyArray<string>) => void) => () => void
}

/** Options of {@link createStandardWallet}. */
export interface StandardWalletOptions {
  /** Default "Solana Test Wallet". */
  readonly name?: string
  readonly icon?: WalletIcon
  /** The clusters served; default `["solana:localnet"]`. */
  readonly chains?: ReadonlyArray<IdentifierString>
}

/** The default icon: a generated square, no third-party logo. */
export const SOLANA_TEST_WALLET_ICON: WalletIcon = `data:image/svg+xml;base64,${btoa(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#7a4bfb"/><path d="M9 11h14l-3 3H6zm3 4h14l-3 3H9zm-3 4h14l-3 3H6z" fill="#fff"/></svg>'
)}`

const addressEncoder = getAddressEncoder()

const FEATURE_NAMES = [SolanaSignMessage, SolanaSignTransaction, SolanaSignAndSendTransaction] as const
const TRANSACTION_VERSIONS = ["legacy", 0] as const

/** Makes the Wallet Standard object of a Solana wallet over `backend`. */
export const createStandardWallet = (backend: SolanaWalletBackend, options: StandardWalletOptions = {}): StandardSolanaWallet => {
  const chains: ReadonlyArray<IdentifierString> = options.chains ?? [SOLANA_LOCALNET_CHAIN]
  const listeners = new Set<(properties: StandardChangeProperties) => void>()
  // One object per address, so an app comparing accounts by identity sees the same account across events.
  const accountObjects = new Map<string, WalletAccount>()
  let accounts: ReadonlyArray<WalletAccount> = []

  const accountOf = (address: string): WalletAccount => {
    let account = accountObjects.get(address)
    if (account === undefined) {
      account = Object.freeze({
        address,
        publicKey: new Uint8Array(addressEncoder.encode(toAddress(address))),
        chains: [...chains] as WalletAccount["chains"],
        features: [...FEATURE_NAMES]
      })
      accountObjects.set(address, account)
    }
    return account
  }

  const setAccounts = (addresses: ReadonlyArray<string>): void => {
    const next = addresses.map(accountOf)
    if (next.length === accounts.length && next.every((account, i) => account === accounts[i])) return
    accounts = next
    for (const listener of [...listeners]) listener({ accounts })
  }
  backend.onAccountsChanged(setAccounts)

  const authorised = (account: WalletAccount): string => {
    if (!accounts.some((a) => a.address === account.address)) {
      throw new WalletStandardError(4100, `The account ${account.address} is not connected to this site.`)
    }
    return account.address
  }
  const served = (chain: string): void => {
    if (!chains.includes(chain as IdentifierString)) {
      throw new WalletStandardError(-32602, `The wallet does not serve ${chain}; it serves ${chains.join(", ")}.`)
    }
  }
  // The Wallet Standard methods take several inputs; each is its own prompt, one after the other.
  const each = async <I, O>(inputs: ReadonlyArray<I>, run: (input: I) => Promise<O>): Promise<ReadonlyArray<O>> => {
    const outputs: Array<O> = []
    for (const input of inputs) outputs.push(await run(input))
    return outputs
  }

  const features: StandardSolanaWalletFeatures = {
    "standard:connect": {
      version: "1.0.0",
      connect: async (input) => {
        setAccounts(await backend.connect(input?.silent === true))
        return { accounts }
      }
    },
    "standard:disconnect": {
      version: "1.0.0",
      disconnect: async () => {
        await backend.disconnect()
        setAccounts([])
      }
    },
    "standard:events": {
      version: "1.0.0",
      on: (_event, listener) => {
        listeners.add(listener)
        return () => {
          listeners.delete(listener)
        }
      }
    },
    [SolanaSignMessage]: {
      version: "1.1.0",
      signMessage: (...inputs: ReadonlyArray<SolanaSignMessageInput>) =>
        each(inputs, async ({ account, message }): Promise<SolanaSignMessageOutput> => ({
          signedMessage: message,
          signature: await backend.signMessage(authorised(account), message),
          signatureType: "ed25519"
        }))
    },
    [SolanaSignTransaction]: {
      version: "1.0.0",
      supportedTransactionVersions: TRANSACTION_VERSIONS,
      signTransaction: (...inputs: ReadonlyArray<SolanaSignTransactionInput>) =>
        each(inputs, async ({ account, transaction, chain }): Promise<SolanaSignTransactionOutput> => {
          if (chain !== undefined) served(chain)
          return { signedTransaction: await backend.signTransaction(authorised(account), transaction, chain) }
        })
    },
    [SolanaSignAndSendTransaction]: {
      version: "1.0.0",
      supportedTransactionVersions: TRANSACTION_VERSIONS,
      signAndSendTransaction: (...inputs: ReadonlyArray<SolanaSignAndSendTransactionInput>) =>
        each(inputs, async ({ account, transaction, chain, options }): Promise<SolanaSignAndSendTransactionOutput> => {
          served(chain)
          return { signature: await backend.signAndSendTransaction(authorised(account), transaction, chain, options) }
        })
    }
  }

  return {
    version: "1.0.0",
    name: options.name ?? "Solana Test Wallet",
    icon: options.icon ?? SOLANA_TEST_WALLET_ICON,
    chains: [...chains] as Wallet["chains"],
    features,
    get accounts() {
      return accounts
    }
  }
}

// The event a wallet dispatches to announce itself; like the app's `app-ready`, it cannot be stopped or cancelled,
// so every app on the page hears it.
class RegisterWalletEvent extends Event {
  readonly #callback: WindowRegisterWalletEventCallback
  constructor(callback: WindowRegisterWalletEventCallback) {
    super("wallet-standard:register-wallet", { bubbles: false, cancelable: false, composed: false })
    this.#callback = callback
  }
  get detail(): WindowRegisterWalletEventCallback {
    return this.#callback
  }
  override get type(): "wallet-standard:register-wallet" {
    return "wallet-standard:register-wallet"
  }
  override preventDefault(): never {
    throw new Error("preventDefault cannot be called")
  }
  override stopImmediatePropagation(): never {
    throw new Error("stopImmediatePropagation cannot be called")
  }
  override stopPropagation(): never {
    throw new Error("stopPropagation cannot be called")
  }
}

/**
 * Registers `wallet` with every Wallet Standard app of the page, whether the app loaded before (it hears
 * `wallet-standard:register-wallet`) or loads after (the wallet answers its `wallet-standard:app-ready`), as
 * `@wallet-standard/wallet`'s `registerWallet` does. Returns a function that unregisters it from every app.
 */
export const registerStandardWallet = (wallet: Wallet): (() => void) => {
  const unregister = new Set<() => void>()
  const callback: WindowRegisterWalletEventCallback = (api: WindowAppReadyEventAPI) => {
    unregister.add(api.register(wallet))
  }
  const onAppReady = (event: Event) => callback((event as WindowAppReadyEvent).detail)
  try {
    window.dispatchEvent(new RegisterWalletEvent(callback))
  } catch (error) {
    console.error("wallet-standard:register-wallet event could not be dispatched\n", error)
  }
  try {
    window.addEventListener("wallet-standard:app-ready", onAppReady)
  } catch (error) {
    console.error("wallet-standard:app-ready event listener could not be added\n", error)
  }
  return () => {
    window.removeEventListener("wallet-standard:app-ready", onAppReady)
    for (const off of unregister) off()
    unregister.clear()
  }
}
