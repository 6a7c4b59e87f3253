/**
 * A Polkadot wallet as the polkadot family sees it, whichever way it is reached (an `injectedWeb3` extension, later a
 * WalletConnect session): the key type of each account and the polkadot-js signer — `signRaw` for bytes, and
 * `signPayload` for a transaction payload. What the wallet answers is `unknown`: the adapter decodes it. Light:
 * nothing here loads a chain library.
 */
import type { CaipNetwork } from "../../domain/Network"
import type { PolkadotSignerPayload } from "../../domain/Requests"
import { UserRejected } from "../../domain/errors"
import { fromWalletError, type WalletRequestError, walletErrorPartsOf } from "../../domain/walletErrors"
import { RPC_ERROR_CODES } from "../../domain/constants"

/** The key types Polkadot accounts are made with (polkadot-js `KeypairType`). */
export const POLKADOT_KEY_TYPES = ["sr25519", "ed25519", "ecdsa", "ethereum"] as const
/** A Polkadot account's key type. */
export type PolkadotKeyType = (typeof POLKADOT_KEY_TYPES)[number]

/** True for a key type Polkadot accounts are made with. */
export const isPolkadotKeyType = (value: unknown): value is PolkadotKeyType =>
  typeof value === "string" && (POLKADOT_KEY_TYPES as ReadonlyArray<string>).includes(value)

/** What polkadot-js's `signer.signRaw` takes: the signing account, hex data and what the data is. */
export interface PolkadotSignRawInput {
  readonly address: string
  /** 0x-hex of the bytes to sign. */
  readonly data: string
  /** `bytes`: a message (the wallet signs it wrapped in `<Bytes>…</Bytes>`); `payload`: an encoded extrinsic payload. */
  readonly type: "bytes" | "payload"
}

/** A Polkadot wallet's signing, as promises (the wallet is outside the product); answers are decoded by the adapter. */
export interface PolkadotProvider {
  /** The key type the wallet gave for an account (`undefined` when it gave none). */
  readonly keyTypeOf: (address: string) => PolkadotKeyType | undefined
  /** polkadot-js `signer.signRaw`: answers `{ id, signature }`; `undefined` when the wallet has none. */
  readonly signRaw: ((input: PolkadotSignRawInput) => Promise<unknown>) | undefined
  /** polkadot-js `signer.signPayload`: answers `{ id, signature, signedTransaction? }`; `undefined` when the wallet has none. */
  readonly signPayload: ((payload: PolkadotSignerPayload) => Promise<unknown>) | undefined
  /**
   * The site now uses the wallet on `network`: the connection hears the accounts again in that network's address
   * format (the same keys are written differently on Polkadot, Kusama and Westend).
   */
  readonly onNetwork: (network: Pick<CaipNetwork, "id" | "caipNetworkId">) => void
}

// polkadot-js extensions refuse with a bare word and no code: 'Cancelled' (a signature), 'Rejected' (the site).
const BARE_REFUSAL = /^\s*(cancell?ed|rejected)\.?\s*$/i

/** Whatever a Polkadot wallet threw, as the named error: its bare 'Cancelled' or 'Rejected' is the visitor's refusal. */
export const fromPolkadotWalletError = (error: unknown): WalletRequestError => {
  const { code, message } = walletErrorPartsOf(error)
  return code === undefined && BARE_REFUSAL.test(message) ? new UserRejected({ code: RPC_ERROR_CODES.userRejected }) : fromWalletError(error)
}
