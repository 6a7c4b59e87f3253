/**
 * The Wallet Standard features of a Bitcoin wallet, in one place: their names and the shapes of their inputs and
 * outputs. `bitcoin:connect`, `bitcoin:signMessage` and `bitcoin:signTransaction` are those of the Bitcoin
 * extension of the Wallet Standard (github.com/ExodusMovement/bitcoin-wallet-standard, listed by
 * wallet-standard/extensions/bitcoin.md); `bitcoin:sendTransfer` is ours — the Bitcoin wallet method every peer
 * uses (sats-connect's and WalletConnect's `sendTransfer`: the wallet picks the UTXOs, pays the fee, signs and
 * broadcasts) as a feature, since the extension has only `bitcoin:signAndSendTransaction` of a PSBT the app built.
 * Chains are `bitcoin:mainnet`, `bitcoin:testnet` and `bitcoin:regtest`. Types only and names: nothing loads.
 */
import type { IdentifierString, WalletAccount } from "@wallet-standard/base"

/** The feature names. */
export const BITCOIN_FEATURES = {
  /** Ask for the addresses of some purposes: `connect({ purposes })` → `{ accounts }`, in the purposes' order. */
  connect: "bitcoin:connect",
  /** Sign a message with an account: BIP-322 simple for segwit and taproot addresses (`signature`: its witness). */
  signMessage: "bitcoin:signMessage",
  /** Sign some inputs of a PSBT: `signTransaction({ psbt, chain, inputsToSign })` → `{ signedPsbt }`. */
  signTransaction: "bitcoin:signTransaction",
  /** Ours: build, sign and broadcast a payment of `amount` satoshis to each recipient → `{ txid }`. */
  sendTransfer: "bitcoin:sendTransfer"
} as const

/** What an address is for. */
export type BitcoinPurpose = "payment" | "ordinals"

/** `bitcoin:connect` 1.0.0. */
export type BitcoinConnectFeature = {
  readonly "bitcoin:connect": {
    readonly version: "1.0.0"
    readonly connect: (input: { readonly purposes: ReadonlyArray<BitcoinPurpose> }) => Promise<{ readonly accounts: ReadonlyArray<WalletAccount> }>
  }
}

/** One input of `bitcoin:signMessage`. */
export interface BitcoinSignMessageInput {
  readonly account: WalletAccount
  readonly message: Uint8Array
}
/** One output of `bitcoin:signMessage`: the bytes signed and the signature (BIP-322 simple: the witness, serialised). */
export interface BitcoinSignMessageOutput {
  readonly signedMessage: Uint8Array
  readonly signature: Uint8Array
}
/** `bitcoin:signMessage` 1.0.0. */
export type BitcoinSignMessageFeature = {
  readonly "bitcoin:signMessage": {
    readonly version: "1.0.0"
    readonly signMessage: (...inputs: ReadonlyArray<BitcoinSignMessageInput>) => Promise<ReadonlyArray<BitcoinSignMessageOutput>>
  }
}

/** Inputs of a PSBT to sign with one account. */
export interface BitcoinInputToSign {
  readonly account: WalletAccount
  readonly signingIndexes: ReadonlyArray<number>
  readonly sigHash?: number
}
/** One input of `bitcoin:signTransaction`. */
export interface BitcoinSignTransactionInput {
  readonly psbt: Uint8Array
  readonly chain: IdentifierString
  readonly inputsToSign: ReadonlyArray<BitcoinInputToSign>
}
/** `bitcoin:signTransaction` 1.0.0. */
export type BitcoinSignTransactionFeature = {
  readonly "bitcoin:signTransaction": {
    readonly version: "1.0.0"
    readonly signTransaction: (
      ...inputs: ReadonlyArray<BitcoinSignTransactionInput>
    ) => Promise<ReadonlyArray<{ readonly signedPsbt: Uint8Array }>>
  }
}

/** One input of `bitcoin:sendTransfer`: from which account, on which chain, how many satoshis to whom. */
export interface BitcoinSendTransferInput {
  readonly account: WalletAccount
  readonly chain: IdentifierString
  readonly recipients: ReadonlyArray<{ readonly address: string; readonly amount: bigint }>
}
/** `bitcoin:sendTransfer` 1.0.0 (ours). */
export type BitcoinSendTransferFeature = {
  readonly "bitcoin:sendTransfer": {
    readonly version: "1.0.0"
    readonly sendTransfer: (...inputs: ReadonlyArray<BitcoinSendTransferInput>) => Promise<ReadonlyArray<{ readonly txid: string }>>
  }
}

/** Every Bitcoin feature. */
export type BitcoinWalletFeatures = BitcoinConnectFeature & BitcoinSignMessageFeature & BitcoinSignTransactionFeature & BitcoinSendTransferFeature
