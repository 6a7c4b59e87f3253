/**
 * A Bitcoin wallet as the bip122 family sees it, whichever way it is reached (a Wallet Standard wallet with the
 * `bitcoin:` features, a sats-connect-style provider): its addresses by purpose, message signing, PSBT signing and
 * a transfer it builds and sends itself. Also the names Wallet Standard wallets give Bitcoin networks. Light:
 * nothing here loads a chain library.
 */
import { bitcoinNetworkKindOf } from "../../domain/bitcoinNetwork"
import type { CaipNetwork } from "../../domain/Network"

/** What an address is for: payments (the default account, spec 6), or ordinals (inscriptions, a taproot address). */
export type BitcoinAddressPurpose = "payment" | "ordinals"

/** One address a Bitcoin wallet lets the site use. */
export interface BitcoinAccountAddress {
  readonly address: string
  /** The address's public key, hex (33 bytes compressed, or 32 x-only for taproot), when the wallet gives it. */
  readonly publicKey?: string | undefined
  readonly purpose: BitcoinAddressPurpose
}

/** Inputs of a PSBT the wallet is asked to sign with one of its addresses. */
export interface BitcoinInputsToSign {
  readonly address: string
  readonly indexes: ReadonlyArray<number>
  /** A SIGHASH type to sign with, when not the default. */
  readonly sigHash?: number | undefined
}

/** A Bitcoin wallet's signing and sending, as promises (the wallet is outside the product). */
export interface BitcoinProvider {
  /** The addresses the site may use, as the wallet answers now. */
  readonly getAccountAddresses: () => Promise<ReadonlyArray<BitcoinAccountAddress>>
  /** Signs a text message with `address`: BIP-322 simple for segwit and taproot addresses; the signature in base64. */
  readonly signMessage: (address: string, message: string) => Promise<string>
  /** Signs the given inputs of a PSBT for `chain` (a Wallet Standard chain); the PSBT with the wallet's signatures. */
  readonly signPsbt: ((psbt: Uint8Array, inputs: ReadonlyArray<BitcoinInputsToSign>, chain: string) => Promise<Uint8Array>) | undefined
  /** Builds, signs and broadcasts a transfer of `amount` satoshis from `from` to `recipient` on `chain`; its txid. */
  readonly sendTransfer:
    | ((from: string, recipient: string, amount: bigint, chain: string) => Promise<string>)
    | undefined
}

/** The Wallet Standard chain of a Bitcoin network: `bitcoin:mainnet`, `bitcoin:regtest`, else `bitcoin:testnet`. */
export const walletStandardBitcoinChainOf = (network: Pick<CaipNetwork, "caipNetworkId">): string =>
  `bitcoin:${bitcoinNetworkKindOf(network.caipNetworkId)}`
