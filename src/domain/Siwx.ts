/**
 * Sign-in with the wallet (spec points 3 and 4): the message a wallet signs to prove it owns an address, and the
 * session kept once it did.
 */
import { Schema } from "effect"
import { CaipNetworkId } from "./Caip"

/** What the sign-in message says: who asks (domain, uri), for which account and chain, and when it is valid. */
export const SiwxMessageData = Schema.Struct({
  domain: Schema.String,
  uri: Schema.String,
  version: Schema.String,
  chainId: CaipNetworkId,
  accountAddress: Schema.String,
  nonce: Schema.String,
  issuedAt: Schema.String,
  expirationTime: Schema.optionalKey(Schema.String),
  notBefore: Schema.optionalKey(Schema.String),
  statement: Schema.optionalKey(Schema.String),
  requestId: Schema.optionalKey(Schema.String),
  resources: Schema.optionalKey(Schema.Array(Schema.String))
})
/** What the sign-in message says. */
export type SiwxMessageData = typeof SiwxMessageData.Type

/** A sign-in session: the message data, the exact text signed and the wallet's signature. */
export const SiwxSession = Schema.Struct({
  data: SiwxMessageData,
  message: Schema.String,
  signature: Schema.String.pipe(Schema.check(Schema.isNonEmpty()))
})
/** A sign-in session. */
export type SiwxSession = typeof SiwxSession.Type

/** A sign-in session the service keeps for an account, with `pci`, the id by which it is revoked. */
export const RemoteSiwxSession = Schema.Struct({ ...SiwxSession.fields, pci: Schema.String })
/** A sign-in session the service keeps. */
export type RemoteSiwxSession = typeof RemoteSiwxSession.Type

/**
 * What a sign-in made while connecting (one-click: WalletConnect's `wc_sessionAuthenticate`) asks the wallet to sign:
 * every field of the message but the account and its chain, which the wallet's answer gives, and the version and time
 * of issue, which the protocol sets.
 */
export type SiwxAuthenticateFields = Omit<SiwxMessageData, "accountAddress" | "chainId" | "version" | "issuedAt">

/** What the runtime asks a sign-in message for: the account and its network, and when it may start to be valid. */
export interface SiwxMessageInput {
  readonly accountAddress: string
  readonly chainId: CaipNetworkId
  readonly notBefore?: string | undefined
}

/** A sign-in message a host's configuration made: its data, and its text (what the wallet signs) from `toString()`. */
export type SiwxMessage = SiwxMessageData & { readonly toString: () => string }

/**
 * The `siwx` option: sign-in with the host's own backend, in the shape of AppKit's SIWX configuration. The runtime
 * asks for a message after a wallet connects, has the wallet sign it, and hands the signed session to `addSession`;
 * `getSessions` says whether an account is signed in already (after a reload, on a switch of account or network).
 * A method that throws or rejects fails the sign-in with its message; each call is given 30 s.
 *
 * @example
 * ```ts
 * const siwx: SiwxConfig = {
 *   createMessage: async (input) => myBackend.message(input),
 *   addSession: (session) => myBackend.verifyAndStore(session),
 *   revokeSession: (chainId, address) => myBackend.revoke(chainId, address),
 *   setSessions: (sessions) => myBackend.replace(sessions),
 *   getSessions: (chainId, address) => myBackend.sessions(chainId, address),
 *   getRequired: () => true
 * }
 * ```
 */
export interface SiwxConfig {
  readonly createMessage: (input: SiwxMessageInput) => Promise<SiwxMessage>
  readonly addSession: (session: SiwxSession) => Promise<void>
  readonly revokeSession: (chainId: CaipNetworkId, address: string) => Promise<void>
  readonly setSessions: (sessions: ReadonlyArray<SiwxSession>) => Promise<void>
  readonly getSessions: (chainId: CaipNetworkId, address: string) => Promise<ReadonlyArray<SiwxSession>>
  /** When true, the modal cannot be closed while the account in front has no session. */
  readonly getRequired?: () => boolean
  /** When true, disconnecting revokes the account's session. */
  readonly signOutOnDisconnect?: boolean
}

/** What the legacy `siweConfig.createMessage` is given: an EVM account (plain address, numeric chain id) and the message fields. */
export interface SiweCreateMessageArgs {
  readonly address: string
  readonly chainId: number
  readonly nonce: string
  readonly domain: string
  readonly uri: string
  readonly version: string
  readonly issuedAt: string
  readonly statement?: string | undefined
  readonly expirationTime?: string | undefined
  readonly notBefore?: string | undefined
  readonly requestId?: string | undefined
  readonly resources?: ReadonlyArray<string> | undefined
}

/** What the legacy `siweConfig.getMessageParams` may give; a missing domain or uri is the page's own. */
export interface SiweMessageParams {
  readonly domain?: string
  readonly uri?: string
  readonly statement?: string
  readonly chains?: ReadonlyArray<number>
  /** Seconds from issue until the message expires. */
  readonly expiry?: number
  readonly resources?: ReadonlyArray<string>
}

/**
 * The legacy `siweConfig` option (sign-in with Ethereum, AppKit's older shape), mapped onto {@link SiwxConfig}: the
 * nonce and the text come from the host, `verifyMessage` decides, `getSession` says who is signed in.
 */
export interface SiweConfig {
  readonly getNonce: (address?: string) => Promise<string>
  readonly createMessage: (args: SiweCreateMessageArgs) => string
  readonly verifyMessage: (args: { readonly message: string; readonly signature: string }) => Promise<boolean>
  readonly getSession: () => Promise<{ readonly address: string; readonly chainId: number } | null>
  readonly signOut: () => Promise<boolean>
  readonly getMessageParams?: () => Promise<SiweMessageParams>
  readonly onSignIn?: (session?: { readonly address: string; readonly chainId: number }) => void
  readonly onSignOut?: () => void
  readonly signOutOnDisconnect?: boolean
  readonly required?: boolean
}
