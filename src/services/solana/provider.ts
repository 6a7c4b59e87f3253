/**
 * A Solana wallet as the solana family sees it, whichever way it is reached (a Wallet Standard wallet, a
 * WalletConnect session): sign a message, sign a transaction, sign and send one. Bytes in, bytes out; the adapter
 * turns them into the family's encodings. Also the names Wallet Standard wallets give Solana clusters. Light:
 * nothing here loads a chain library.
 */
import type { CaipNetwork } from "../../domain/Network"
import type { SolanaSendOptions } from "../../domain/Requests"

/** A Solana wallet's signing, as promises (the wallet is outside the product). */
export interface SolanaProvider {
  /** Signs `message` with `account`; the 64-byte ed25519 signature. */
  readonly signMessage: (account: string, message: Uint8Array) => Promise<Uint8Array>
  /** Signs a wire transaction for `chain` (a Wallet Standard chain); the signed wire transaction. */
  readonly signTransaction: ((account: string, transaction: Uint8Array, chain: string) => Promise<Uint8Array>) | undefined
  /** Signs a wire transaction and sends it to `chain`; the transaction's signature. */
  readonly signAndSendTransaction:
    | ((account: string, transaction: Uint8Array, chain: string, options?: SolanaSendOptions) => Promise<Uint8Array>)
    | undefined
  /** Signs several wire transactions at once; the signed ones in order. */
  readonly signAllTransactions:
    | ((account: string, transactions: ReadonlyArray<Uint8Array>, chain: string) => Promise<ReadonlyArray<Uint8Array>>)
    | undefined
}

const CLUSTERS: Readonly<Record<string, string>> = {
  "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp": "solana:mainnet",
  EtWTRABZaYq6iMfeYKouRu166VU2xqa1: "solana:devnet",
  "4uhcVJyU9pJkvQyS88uRDiswHXSCkY3z": "solana:testnet"
}

/** The Wallet Standard chain of a Solana network: mainnet, devnet, testnet by genesis hash, else the local cluster. */
export const walletStandardChainOf = (network: Pick<CaipNetwork, "id">): string => CLUSTERS[String(network.id)] ?? "solana:localnet"
