/**
 * Every value the product keeps in the browser, each with its Schema and default (spec 7.6). Names are stable:
 * changing a stored shape incompatibly means bumping `STORAGE_VERSION`, which drops the older entries.
 */
import { Schema } from "effect"
import { Balance, ConnectionStatus, Profile, SocialLogin } from "../../domain/Account"
import { CaipNetworkId, type ChainNamespace } from "../../domain/Caip"
import { BALANCE_CACHE_MS, IDENTITY_CACHE_MS } from "../../domain/constants"
import { NftsResponse, TokenBalance } from "../../domain/Portfolio"
import { RemoteSiwxSession } from "../../domain/Siwx"
import { addRecentWallet as addRecent, ConnectorType, RecentWallets, type WalletCatalogEntry } from "../../domain/Wallet"
import { CONNECTION_STATUS_KEY } from "./paths"
import { cacheKey, type CacheKey, storageKey, type StorageKey } from "./Storage"

// One key object per namespace, so codecs are derived once and a key can be compared by identity.
const perNamespace = <A>(make: (namespace: ChainNamespace) => StorageKey<A>) => {
  const made = new Map<ChainNamespace, StorageKey<A>>()
  return (namespace: ChainNamespace): StorageKey<A> => {
    const existing = made.get(namespace)
    if (existing !== undefined) return existing
    const key = make(namespace)
    made.set(namespace, key)
    return key
  }
}

/** The network last active in a namespace; restored on the next visit. */
export const activeNetwork: (namespace: ChainNamespace) => StorageKey<CaipNetworkId | null> = perNamespace((namespace) =>
  storageKey({ name: `activeNetwork:${namespace}`, schema: Schema.NullOr(CaipNetworkId), defaultValue: null })
)

/** The wallets used last, newest first, at most 2. */
export const recentWallets: StorageKey<RecentWallets> = storageKey({
  name: "recentWallets",
  schema: RecentWallets,
  defaultValue: []
})

/** An update for `Storage.modify(recentWallets, …)`: `wallet` moves to the front, the list keeps 2. */
export const addRecentWallet = (wallet: WalletCatalogEntry) => (recent: RecentWallets): RecentWallets =>
  addRecent(recent, wallet)

/** The connector a namespace is connected through, kept so the session can be restored. */
export const ConnectedConnector = Schema.Struct({ id: Schema.String, type: ConnectorType })
/** The connector a namespace is connected through. */
export type ConnectedConnector = typeof ConnectedConnector.Type

/** The connector a namespace was connected through, or none. */
export const connectedConnector: (namespace: ChainNamespace) => StorageKey<ConnectedConnector | null> = perNamespace(
  (namespace) =>
    storageKey({
      name: `connectedConnector:${namespace}`,
      schema: Schema.NullOr(ConnectedConnector),
      defaultValue: null
    })
)

/** The connection status of a namespace when the page was left (a stored `connected` is restored at start). */
export const connectionStatus: (namespace: ChainNamespace) => StorageKey<ConnectionStatus> = perNamespace((namespace) =>
  storageKey({ name: `${CONNECTION_STATUS_KEY}${namespace}`, schema: ConnectionStatus, defaultValue: "disconnected" })
)

/** The mobile or desktop wallet chosen for the WalletConnect deep link. */
export const WalletConnectDeepLink = Schema.Struct({ href: Schema.String, name: Schema.String })
/** The wallet chosen for the WalletConnect deep link. */
export type WalletConnectDeepLink = typeof WalletConnectDeepLink.Type

/** The WalletConnect deep link last chosen, cleared on disconnect. */
export const walletConnectDeepLink: StorageKey<WalletConnectDeepLink | null> = storageKey({
  name: "walletConnectDeepLink",
  schema: Schema.NullOr(WalletConnectDeepLink),
  defaultValue: null
})

/** What the embedded wallet remembers between visits (spec 4, login cache). */
export const EmbeddedLogin = Schema.Struct({
  email: Schema.NullOr(Schema.String),
  emailLoginUsed: Schema.Boolean,
  /** Epoch milliseconds of the last one-time-code request, for the 30 s cooldown. */
  lastEmailLoginTime: Schema.NullOr(Schema.Finite),
  lastChain: Schema.NullOr(CaipNetworkId),
  socialUsername: Schema.NullOr(Schema.String),
  /** The provider of the social login the name is from (kept beside it, forgotten with it). */
  socialProvider: Schema.optionalKey(Schema.NullOr(SocialLogin))
})
/** What the embedded wallet remembers between visits. */
export type EmbeddedLogin = typeof EmbeddedLogin.Type

/** The embedded-wallet login cache. */
export const embeddedLogin: StorageKey<EmbeddedLogin> = storageKey({
  name: "embeddedLogin",
  schema: EmbeddedLogin,
  defaultValue: { email: null, emailLoginUsed: false, lastEmailLoginTime: null, lastChain: null, socialUsername: null }
})

/** A sign-in session on our services that this browser kept: its `pci`, and the secret that revokes it. */
export const KeptSiwxSession = Schema.Struct({
  ...RemoteSiwxSession.fields,
  revocationKey: Schema.optionalKey(Schema.String)
})
/** A sign-in session this browser kept. */
export type KeptSiwxSession = typeof KeptSiwxSession.Type

/** Sign-in sessions on our services that this browser signed, each with the `pci` and the secret that revoke it. */
export const siwxSessions: StorageKey<ReadonlyArray<KeptSiwxSession>> = storageKey({
  name: "siwxSessions",
  schema: Schema.Array(KeptSiwxSession),
  defaultValue: []
})

/** Native balances, by CAIP-10 address, for 30 s. */
export const balanceCache: CacheKey<Balance> = cacheKey({ name: "balance", schema: Balance, ttlMillis: BALANCE_CACHE_MS })

/** Token balances (portfolio), by CAIP-10 address, for 30 s. */
export const portfolioCache: CacheKey<ReadonlyArray<TokenBalance>> = cacheKey({
  name: "portfolio",
  schema: Schema.Array(TokenBalance),
  ttlMillis: BALANCE_CACHE_MS
})

/** The first page of an account's NFTs, by CAIP-10 address, for 30 s like its balances. */
export const nftsCache: CacheKey<NftsResponse> = cacheKey({ name: "nfts", schema: NftsResponse, ttlMillis: BALANCE_CACHE_MS })

/** Identity (name and avatar) of an address, for 5 minutes. */
export const identityCache: CacheKey<Profile> = cacheKey({ name: "identity", schema: Profile, ttlMillis: IDENTITY_CACHE_MS })

/** Names registered for an address, for 5 minutes. */
export const namesCache: CacheKey<ReadonlyArray<string>> = cacheKey({
  name: "names",
  schema: Schema.Array(Schema.String),
  ttlMillis: IDENTITY_CACHE_MS
})
