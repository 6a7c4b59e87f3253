/**
 * A Bitcoin wallet in the shape of the Wallet Standard, for tests (`wallet-runtime/testing`): the `standard:`
 * features and the `bitcoin:` features the runtime looks for (`../bip122/walletStandardFeatures.ts`), built over a
 * small {@link BitcoinWalletBackend} that holds the keys and asks the visitor (the devstack's test wallet signs in Node
 * with btc-signer; a host brings its own). Browser-safe (no `node:` imports, nothing touches `window` at import, no
 * chain library): the Node test wallet and the page of the browser tests share it.
 */
import type { IdentifierString, Wallet, WalletAccount, WalletIcon } from "@wallet-standard/base"
import {
  BITCOIN_FEATURES,
  type BitcoinPurpose,
  type BitcoinSendTransferInput,
  type BitcoinSignMessageInput,
  type BitcoinSignTransactionInput,
  type BitcoinWalletFeatures
} from "../bip122/walletStandardFeatures"
import { eachInput, makeStandardAccounts, type StandardFeatures } from "./standardWallet"

/** The Wallet Standard chain of a regtest node (the devstack's), the one this wallet serves by default. */
export const BITCOIN_REGTEST_CHAIN = "bitcoin:regtest"

/** An address the wallet gives a site: its public key (hex) and purpose. */
export interface BitcoinWalletAddress {
  readonly address: string
  readonly publicKey: string
  readonly purpose: BitcoinPurpose
}

/**
 * What the wallet object needs from the side that holds the keys and asks the visitor. Refusals are thrown as a
 * `WalletStandardError` with code 4001.
 */
export interface BitcoinWalletBackend {
  /** The addresses the site may use; `silent`: only if already authorised (else none), never a prompt. */
  readonly connect: (silent: boolean) => Promise<ReadonlyArray<BitcoinWalletAddress>>
  readonly disconnect: () => Promise<void>
  /** The BIP-322 simple signature of `message` by `address`: the `to_sign` witness, serialised. */
  readonly signMessage: (address: string, message: Uint8Array) => Promise<Uint8Array>
  /** `psbt` with the given inputs signed by the given addresses. */
  readonly signPsbt: (
    psbt: Uint8Array,
    inputs: ReadonlyArray<{ readonly address: string; readonly indexes: ReadonlyArray<number>; readonly sigHash?: number | undefined }>,
    chain: string
  ) => Promise<Uint8Array>
  /** Builds, signs and broadcasts a payment from `address`; its txid. */
  readonly sendTransfer: (
    address: string,
    recipients: ReadonlyArray<{ readonly address: string; readonly amount: bigint }>,
    chain: string
  ) => Promise<string>
  /** Calls `listener` when the wallet itself changes the addresses the site sees; returns the unsubscribe. */
  readonly onAccountsChanged: (listener: (addresses: ReadonlyArray<BitcoinWalletAddress>) => void) => () => void
}

/** Options of {@link createBitcoinStandardWallet}. */
export interface BitcoinStandardWalletOptions {
  /** Default "Bitcoin Test Wallet". */
  readonly name?: string
  readonly icon?: WalletIcon
  /** The chains served; default `["bitcoin:regtest"]`. */
  readonly chains?: ReadonlyArray<IdentifierString>
  /** Leave out features, to stand for wallets that lack them (e.g. `bitcoin:sendTransfer`: PSBTs only). */
  readonly without?: ReadonlyArray<string>
}

/** The default icon: a generated square, no third-party logo. */
export const BITCOIN_TEST_WALLET_ICON: WalletIcon = `data:image/svg+xml;base64,${btoa(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#f7931a"/><path d="M12 8v16M15 8v3m0 10v3M11 11h7a3 3 0 0 1 0 6h-7m0 0h8a3 3 0 0 1 0 6h-8" stroke="#fff" stroke-width="2" fill="none"/></svg>'
)}`

const fromHex = (text: string): Uint8Array => Uint8Array.from(text.match(/../g) ?? [], (byte) => parseInt(byte, 16))

/**
 * Makes the Wallet Standard object of a Bitcoin wallet over `backend`; `registerStandardWallet` puts it in the page.
 * @example registerStandardWallet(createBitcoinStandardWallet(backend, { name: "Xverse" }))
 */
export const createBitcoinStandardWallet = (backend: BitcoinWalletBackend, options: BitcoinStandardWalletOptions = {}): Wallet => {
  const chains: ReadonlyArray<IdentifierString> = options.chains ?? [BITCOIN_REGTEST_CHAIN]
  const without = new Set(options.without ?? [])
  const featureNames = Object.values(BITCOIN_FEATURES).filter((name) => !without.has(name))
  const state = makeStandardAccounts<BitcoinWalletAddress>(
    backend,
    chains,
    (entry) => entry.address,
    (entry) => ({
      address: entry.address,
      publicKey: fromHex(entry.publicKey),
      chains: [...chains] as WalletAccount["chains"],
      features: [...featureNames] as WalletAccount["features"]
    })
  )
  const { authorised, served } = state

  const features: StandardFeatures & BitcoinWalletFeatures = {
    ...state.features,
    "bitcoin:connect": {
      version: "1.0.0",
      connect: async ({ purposes }) => {
        const given = await backend.connect(false)
        state.setAccounts(given)
        // The extension answers the accounts of the purposes asked, in their order.
        const ordered = purposes.flatMap((purpose) => given.filter((entry) => entry.purpose === purpose).map(state.accountOf))
        return { accounts: ordered }
      }
    },
    "bitcoin:signMessage": {
      version: "1.0.0",
      signMessage: (...inputs: ReadonlyArray<BitcoinSignMessageInput>) =>
        eachInput(inputs, async ({ account, message }) => ({ signedMessage: message, signature: await backend.signMessage(authorised(account), message) }))
    },
    "bitcoin:signTransaction": {
      version: "1.0.0",
      signTransaction: (...inputs: ReadonlyArray<BitcoinSignTransactionInput>) =>
        eachInput(inputs, async ({ psbt, chain, inputsToSign }) => {
          served(chain)
          const byAccount = inputsToSign.map((entry) => ({ address: authorised(entry.account), indexes: entry.signingIndexes, sigHash: entry.sigHash }))
          return { signedPsbt: await backend.signPsbt(psbt, byAccount, chain) }
        })
    },
    "bitcoin:sendTransfer": {
      version: "1.0.0",
      sendTransfer: (...inputs: ReadonlyArray<BitcoinSendTransferInput>) =>
        eachInput(inputs, async ({ account, chain, recipients }) => {
          served(chain)
          return { txid: await backend.sendTransfer(authorised(account), recipients, chain) }
        })
    }
  }
  for (const name of without) delete (features as Record<string, unknown>)[name]

  return {
    version: "1.0.0",
    name: options.name ?? "Bitcoin Test Wallet",
    icon: options.icon ?? BITCOIN_TEST_WALLET_ICON,
    chains: [...chains] as Wallet["chains"],
    features,
    get accounts() {
      return state.accounts()
    }
  }
}
