/**
 * Connectors: the ways the product reaches wallets, as plug-ins. A connector is one wallet (an EIP-6963 extension, a
 * Wallet Standard wallet, WalletConnect, later the embedded wallet), the families it serves, how to connect, restore
 * and disconnect it, what it does on its own (events), and the family provider it hands each family's ChainAdapter
 * (an EIP-1193 provider, a Solana wallet…). How a family works (signing, sending, switching) is the adapter's
 * business, not the connector's. Finding connectors loads no chain library.
 */
import type { Effect, Stream } from "effect"
import type { Account } from "../../domain/Account"
import type { ChainNamespace } from "../../domain/Caip"
import type { DisconnectFailed, ProviderNotFound, SomethingWentWrong, WalletConnectConnectorMissing } from "../../domain/errors"
import type { CaipNetwork, NetworkChainId } from "../../domain/Network"
import type { ConnectorInfo } from "../../domain/Wallet"
import type { WalletRequestError } from "../../domain/walletErrors"
import type { BitcoinProvider } from "../bip122/provider"
import type { Eip1193Provider } from "../eip155/eip1193"
import type { PolkadotProvider } from "../polkadot/provider"
import type { SolanaProvider } from "../solana/provider"

/** What a connector hands a family's adapter: the wallet's provider for that family. */
export type FamilyProvider =
  | { readonly namespace: "eip155"; readonly provider: Eip1193Provider }
  | { readonly namespace: "solana"; readonly provider: SolanaProvider }
  | { readonly namespace: "polkadot"; readonly provider: PolkadotProvider }
  | { readonly namespace: "bip122"; readonly provider: BitcoinProvider }

/** The families a connector can hand a provider for today. */
export type ProvidedNamespace = FamilyProvider["namespace"]

/** One family's side of a connected wallet: its accounts (the one in use first), its chain and its provider. */
export interface FamilySession {
  readonly accounts: ReadonlyArray<Account>
  /** The chain the wallet is on (may be outside the host's networks). */
  readonly chainId: NetworkChainId
  readonly provider: FamilyProvider
}

/** The family of a session. */
export const namespaceOf = (session: FamilySession): ChainNamespace => session.provider.namespace

/** Something the wallet did on its own, in one of its families (or, for `Disconnected` without one, in all). */
export type WalletEvent =
  | { readonly _tag: "AccountsChanged"; readonly namespace: ChainNamespace; readonly accounts: ReadonlyArray<Account> }
  | { readonly _tag: "ChainChanged"; readonly namespace: ChainNamespace; readonly chainId: NetworkChainId }
  | { readonly _tag: "Disconnected"; readonly namespace: ChainNamespace | undefined }

/** Why a connect failed: the wallet's refusal or failure, no wallet, or nothing to connect through. */
export type ConnectError = WalletRequestError | ProviderNotFound | SomethingWentWrong | WalletConnectConnectorMissing

/** One way to reach one wallet. */
export interface Connector {
  /** What is shown and stored: id, name, icon, type, the family in front and the networks served. */
  readonly info: ConnectorInfo
  /** The families this connector connects (several for WalletConnect and multi-chain wallets). */
  readonly namespaces: ReadonlyArray<ChainNamespace>
  /** Ids this connector also answers to (a multi-chain wallet's per-family connectors), for restoring sessions. */
  readonly memberIds: ReadonlyArray<string>
  /**
   * Asks the wallet for its accounts in each family of `networks` it serves (one network per family: the one to
   * start on). The sessions it gives may be fewer than asked (a wallet without that family); none is a failure.
   */
  readonly connect: (networks: ReadonlyArray<CaipNetwork>) => Effect.Effect<ReadonlyArray<FamilySession>, ConnectError>
  /** Restores without prompting: the sessions the wallet still authorises, none when it no longer does. */
  readonly reconnect: (networks: ReadonlyArray<CaipNetwork>) => Effect.Effect<ReadonlyArray<FamilySession>, ConnectError>
  /** Ends the session in every family it serves and clears the connector's own data (a pairing…). */
  readonly disconnect: Effect.Effect<void, DisconnectFailed>
  /** What the wallet does on its own while connected. */
  readonly events: Stream.Stream<WalletEvent>
}

/** The networks of `networks` this connector serves, one per family. */
export const networksFor = (connector: Pick<Connector, "namespaces">, networks: ReadonlyArray<CaipNetwork>): ReadonlyArray<CaipNetwork> =>
  networks.filter((network) => connector.namespaces.includes(network.chainNamespace))
