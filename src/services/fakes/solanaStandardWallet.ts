/**
 * A Solana wallet in the shape of the Wallet Standard (`@wallet-standard/base` 1.1), for tests
 * (`wallet-runtime/testing`): the object an app finds through `getWallets()`, with the `standard:` features and the
 * `solana:` signing features, built over a small {@link SolanaWalletBackend} that holds the keys and asks the visitor
 * (the devstack's test wallet signs in Node; a host brings its own). Browser-safe (no `node:` imports, nothing touches
 * `window` at import): the Node test wallet, the page of the browser tests and the demo share it.
 */
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
import type { IdentifierString, Wallet, WalletAccount, WalletIcon } from "@wallet-standard/base"
import { fromBase58 } from "../../domain/encoding"
import { eachInput, makeStandardAccounts, type StandardFeatures, WalletStandardError } from "./standardWallet"

/** The Wallet Standard ids of the Solana clusters. */
export const SOLANA_CHAINS = ["solana:mainnet", "solana:devnet", "solana:testnet", "solana:localnet"] as const
/** A Wallet Standard Solana cluster id. */
export type SolanaChain = (typeof SOLANA_CHAINS)[number]
/** The cluster of the local stack, the one this wallet serves by default. */
export const SOLANA_LOCALNET_CHAIN: SolanaChain = "solana:localnet"

/** Every feature of the wallet. */
export type StandardSolanaWalletFeatures = StandardFeatures &
  SolanaSignMessageFeature &
  SolanaSignTransactionFeature &
  SolanaSignAndSendTransactionFeature

/** A Wallet Standard wallet with the features above. */
export interface StandardSolanaWallet extends Wallet {
  readonly features: StandardSolanaWalletFeatures
}

/**
 * What the wallet object needs from the side that holds the keys and asks the visitor. Accounts are base58
 * addresses; transactions are wire bytes. Refusals are thrown as a `WalletStandardError` with code 4001.
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

/** Options of {@link createSolanaStandardWallet}. */
export interface SolanaStandardWalletOptions {
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

// A Solana address is its ed25519 public key in base58; no chain library needed to read it back.
const publicKeyOf = (address: string): Uint8Array => {
  const bytes = fromBase58(address)
  if (bytes?.length !== 32) throw new WalletStandardError(-32602, `${address} is not a Solana address.`)
  return bytes
}

const FEATURE_NAMES = [SolanaSignMessage, SolanaSignTransaction, SolanaSignAndSendTransaction] as const
const TRANSACTION_VERSIONS = ["legacy", 0] as const

/**
 * Makes the Wallet Standard object of a Solana wallet over `backend`; `registerStandardWallet` puts it in the page.
 * @example registerStandardWallet(createSolanaStandardWallet(backend, { name: "Phantom" }))
 */
export const createSolanaStandardWallet = (backend: SolanaWalletBackend, options: SolanaStandardWalletOptions = {}): StandardSolanaWallet => {
  const chains: ReadonlyArray<IdentifierString> = options.chains ?? [SOLANA_LOCALNET_CHAIN]
  const state = makeStandardAccounts<string>(
    backend,
    chains,
    (address) => address,
    (address) => ({
      address,
      publicKey: publicKeyOf(address),
      chains: [...chains] as WalletAccount["chains"],
      features: [...FEATURE_NAMES]
    })
  )
  const { authorised, served } = state

  const features: StandardSolanaWalletFeatures = {
    ...state.features,
    [SolanaSignMessage]: {
      version: "1.1.0",
      signMessage: (...inputs: ReadonlyArray<SolanaSignMessageInput>) =>
        eachInput(inputs, async ({ account, message }): Promise<SolanaSignMessageOutput> => ({
          signedMessage: message,
          signature: await backend.signMessage(authorised(account), message),
          signatureType: "ed25519"
        }))
    },
    [SolanaSignTransaction]: {
      version: "1.0.0",
      supportedTransactionVersions: TRANSACTION_VERSIONS,
      signTransaction: (...inputs: ReadonlyArray<SolanaSignTransactionInput>) =>
        eachInput(inputs, async ({ account, transaction, chain }): Promise<SolanaSignTransactionOutput> => {
          if (chain !== undefined) served(chain)
          return { signedTransaction: await backend.signTransaction(authorised(account), transaction, chain) }
        })
    },
    [SolanaSignAndSendTransaction]: {
      version: "1.0.0",
      supportedTransactionVersions: TRANSACTION_VERSIONS,
      signAndSendTransaction: (...inputs: ReadonlyArray<SolanaSignAndSendTransactionInput>) =>
        eachInput(inputs, async ({ account, transaction, chain, options }): Promise<SolanaSignAndSendTransactionOutput> => {
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
      return state.accounts()
    }
  }
}
