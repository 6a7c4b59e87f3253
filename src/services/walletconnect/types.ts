/** What the WalletConnect connector and its session (fetched later) share: the pairing, the settings, the errors. */
import { Data, type Effect, type PubSub, type SubscriptionRef } from "effect"
import type { Alert } from "../../domain/alerts"
import type { ChainNamespace } from "../../domain/Caip"
import type { CaipNetwork } from "../../domain/Network"
import type { HostOptions } from "../../domain/Options"
import type { ConnectError, FamilySession, WalletEvent } from "../connectors/Connector"

/** Where the pairing stands, for the QR code and the links of the views. */
export type PairingState =
  | { readonly _tag: "Idle" }
  /** The library loads or the relay is asked for a pairing: no URI to show yet. */
  | { readonly _tag: "Pairing" }
  /** A URI to show; it is replaced at `expiresAt` (epoch ms, 10 s before its real expiry). */
  | { readonly _tag: "Ready"; readonly uri: string; readonly expiresAt: number }
  | { readonly _tag: "Failed"; readonly message: string }

/** How the universal provider is made, beyond the options (tests run several clients in one process). */
export interface WalletConnectSettings {
  /** Keeps this client's stored data apart from other clients on the same storage. */
  readonly customStoragePrefix?: string
  /** Where the client keeps its sessions (Node needs one; browsers use IndexedDB). */
  readonly storageOptions?: { readonly database?: string }
  /** The universal provider's log level. */
  readonly logger?: string
}

/** A request on the session failed: the wallet's code (5000 when the visitor refused) and message, as EIP-1193 has them. */
export class WalletConnectRequestFailed extends Data.TaggedError("WalletConnectRequestFailed")<{
  readonly code: number | undefined
  readonly message: string
}> {}

/** What the connector shares with its session: the options, and the state the views and the registry read. */
export interface SessionContext {
  readonly options: HostOptions
  readonly settings: WalletConnectSettings
  readonly projectId: string
  readonly served: ReadonlyArray<ChainNamespace>
  readonly pairing: SubscriptionRef.SubscriptionRef<PairingState>
  readonly alerts: PubSub.PubSub<Alert>
  readonly events: PubSub.PubSub<WalletEvent>
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
