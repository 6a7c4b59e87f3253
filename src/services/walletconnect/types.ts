/** What the WalletConnect connector and its session (fetched later) share: the pairing, the settings, the errors. */
import { Data, type Effect, type PubSub, type SubscriptionRef } from "effect"
import type * as KeyValueStore from "effect/persistence/KeyValueStore"
import type { Alert } from "../../domain/alerts"
import type { CaipNetworkId, ChainNamespace } from "../../domain/Caip"
import type { CaipNetwork } from "../../domain/Network"
import type { HostOptions } from "../../domain/Options"
import type { ConnectError, FamilySession, WalletEvent } from "../connectors/Connector"
import type { SocketConstructor } from "./protocol/relay"

/** Where the pairing stands, for the QR code and the links of the views. */
export type PairingState =
  | { readonly _tag: "Idle" }
  /** The library loads or the relay is asked for a pairing: no URI to show yet. */
  | { readonly _tag: "Pairing" }
  /** A URI to show; it is replaced at `expiresAt` (epoch ms, 10 s before its real expiry). */
  | { readonly _tag: "Ready"; readonly uri: string; readonly expiresAt: number }
  | { readonly _tag: "Failed"; readonly message: string }

/**
 * The families one WalletConnect session can serve here. Kept here, not with their methods in `namespaces.ts`: the
 * connector needs only this list at start, and the method lists travel with the session code that proposes them.
 */
export const WALLET_CONNECT_NAMESPACES: ReadonlyArray<ChainNamespace> = ["eip155", "solana", "polkadot", "bip122"]

/** How the sign client is made, beyond the options (tests run several clients in one process). */
export interface WalletConnectSettings {
  /** Keeps this client's stored data apart from other clients on the same store. */
  readonly customStoragePrefix?: string
  /** Where the client keeps its session across reloads; the browser's localStorage (else memory) by default. */
  readonly storage?: KeyValueStore.KeyValueStore
  /** The WebSocket class to reach the relay with; the global one by default (Node 20 has none: pass `ws`'s). */
  readonly WebSocket?: SocketConstructor
}

/** A request on the session failed: the wallet's code (5000 when the visitor refused) and message, as EIP-1193 has them. */
export class WalletConnectRequestFailed extends Data.TaggedError("WalletConnectRequestFailed")<{
  readonly code: number | undefined
  readonly message: string
}> {}

/**
 * The fields of a one-click sign-in message (WalletConnect's `wc_sessionAuthenticate`) that the site's sign-in gives:
 * who asks (domain, uri), its nonce, and the rest of the message but the account, its chain and the time of issue,
 * which the wallet's answer and WalletConnect fill.
 */
export interface OneClickFields {
  readonly domain: string
  readonly uri: string
  readonly nonce: string
  readonly statement?: string | undefined
  readonly expirationTime?: string | undefined
  readonly notBefore?: string | undefined
  readonly requestId?: string | undefined
  readonly resources?: ReadonlyArray<string> | undefined
}

/**
 * The sign-in message data a one-click answer says (a CACAO's payload, CAIP-74, in CAIP-122's fields), unchecked:
 * the site's sign-in decodes it and keeps it only when the signed text is exactly the text of this data.
 */
export interface OneClickMessageData {
  readonly domain: string
  readonly uri?: string
  readonly version?: string
  readonly chainId: string
  readonly accountAddress?: string
  readonly nonce: string
  readonly issuedAt?: string
  readonly expirationTime?: string
  readonly notBefore?: string
  readonly statement?: string
  readonly requestId?: string
  readonly resources?: ReadonlyArray<string>
}

/** A message the wallet signed in a one-click sign-in: what it says, the exact text it signed, and its signature. */
export interface OneClickSigned {
  readonly data: OneClickMessageData
  readonly message: string
  readonly signature: string
}

/**
 * Sign-in as the WalletConnect connector needs it for one-click sign-in: given to the connector (`useSignIn`) by the
 * runtime's composition when the host configured sign-in, so the connector imports nothing of the sign-in service.
 */
export interface OneClickSignIn {
  /** The message fields for a sign-in on these eip155 chains; `undefined` when this sign-in is not done in one step. */
  readonly fields: (chains: ReadonlyArray<CaipNetworkId>) => Effect.Effect<OneClickFields | undefined>
  /** Keeps what the wallet signed as sessions, before the connect goes on; gives how many were kept. */
  readonly keep: (signed: ReadonlyArray<OneClickSigned>) => Effect.Effect<number>
}

/** What the connector shares with its session: the options, and the state the views and the registry read. */
export interface SessionContext {
  readonly options: HostOptions
  readonly settings: WalletConnectSettings
  readonly projectId: string
  readonly served: ReadonlyArray<ChainNamespace>
  readonly pairing: SubscriptionRef.SubscriptionRef<PairingState>
  readonly alerts: PubSub.PubSub<Alert>
  readonly events: PubSub.PubSub<WalletEvent>
  /** Sign-in for a one-click sign-in, when the runtime gave one. */
  readonly signIn: () => OneClickSignIn | undefined
}

/** The session's side of the connector. */
export interface WalletConnectSession {
  readonly connect: (networks: ReadonlyArray<CaipNetwork>) => Effect.Effect<ReadonlyArray<FamilySession>, ConnectError>
  readonly reconnect: (networks: ReadonlyArray<CaipNetwork>) => Effect.Effect<ReadonlyArray<FamilySession>, ConnectError>
  readonly disconnect: Effect.Effect<void>
  readonly freshUri: Effect.Effect<string | undefined>
  readonly replaceUri: Effect.Effect<void>
  readonly cancel: Effect.Effect<void>
  readonly loaded: Effect.Effect<boolean>
}
