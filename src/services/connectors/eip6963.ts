/**
 * EVM wallets of the page as connectors: every EIP-6963 announced wallet (ANNOUNCED, one per rdns, live as wallets
 * announce) and the legacy `window.ethereum` (INJECTED) when it is not one of them. Each hands the eip155 adapter
 * its EIP-1193 provider. Finding them loads no chain library and sends nothing over the network.
 */
import { Effect, Queue, type Scope, Stream, SubscriptionRef } from "effect"
import type { Account } from "../../domain/Account"
import { SomethingWentWrong } from "../../domain/errors"
import { toChecksumAddress } from "../../domain/validation"
import type { ConnectorInfo } from "../../domain/Wallet"
import { fromWalletError } from "../../domain/walletErrors"
import { type Eip1193Provider, type Eip6963Info, parseChainId, providerCodeOf } from "../eip155/eip1193"
import type { Connector, FamilySession, WalletEvent } from "./Connector"
import type { ConnectorSource } from "./Connectors"

/** The connector id of the legacy injected provider. */
export const INJECTED_CONNECTOR_ID = "injected"

const call = (provider: Eip1193Provider, method: string, params?: unknown) =>
  Effect.tryPromise({
    try: () => provider.request(params === undefined ? { method } : { method, params }),
    catch: fromWalletError
  })

/** The accounts a wallet answered, checksummed; anything that is not an address is dropped. */
export const evmAccountsOf = (value: unknown): ReadonlyArray<Account> =>
  (Array.isArray(value) ? value : [])
    .filter((a): a is string => typeof a === "string" && /^0x[0-9a-fA-F]{40}$/.test(a))
    .map((address) => ({ address: toChecksumAddress(address), type: "eoa" as const }))

/** The EIP-1193 events of a provider as wallet events of the eip155 family, for as long as the stream is run. */
export const eip1193Events = (provider: Eip1193Provider): Stream.Stream<WalletEvent> =>
  Stream.callback<WalletEvent>((queue) =>
    Effect.acquireRelease(
      Effect.sync(() => {
        const onAccounts = (list: unknown) =>
          Queue.offerUnsafe(queue, { _tag: "AccountsChanged", namespace: "eip155", accounts: evmAccountsOf(list) })
        const onChain = (value: unknown) => {
          const chainId = parseChainId(value)
          if (chainId !== undefined) Queue.offerUnsafe(queue, { _tag: "ChainChanged", namespace: "eip155", chainId })
        }
        const onDisconnect = (error: unknown) => {
          // 1013 means the wallet is reconnecting to its node, not that the visitor left (EIP-1193).
          if (providerCodeOf(error) === 1013) return
          Queue.offerUnsafe(queue, { _tag: "Disconnected", namespace: "eip155" })
        }
        provider.on?.("accountsChanged", onAccounts)
        provider.on?.("chainChanged", onChain)
        provider.on?.("disconnect", onDisconnect)
        return () => {
          provider.removeListener?.("accountsChanged", onAccounts)
          provider.removeListener?.("chainChanged", onChain)
          provider.removeListener?.("disconnect", onDisconnect)
        }
      }),
      (detach) => Effect.sync(detach)
    )
  )

const sessionOf = (provider: Eip1193Provider, accounts: ReadonlyArray<Account>) =>
  Effect.gen(function* () {
    if (accounts.length === 0) return yield* new SomethingWentWrong({ reason: "The wallet gave no account" })
    const chainId = parseChainId(yield* call(provider, "eth_chainId"))
    if (chainId === undefined) return yield* new SomethingWentWrong({ reason: "The wallet gave no chain id" })
    const session: FamilySession = { accounts, chainId, provider: { namespace: "eip155", provider } }
    return session
  })

/** A connector over one EIP-1193 provider (an announced, injected or host-given EVM wallet). */
export const makeEip1193Connector = (info: ConnectorInfo, provider: Eip1193Provider): Connector => ({
  info,
  namespaces: ["eip155"],
  memberIds: [],
  connect: () =>
    Effect.gen(function* () {
      const accounts = evmAccountsOf(yield* call(provider, "eth_requestAccounts"))
      return [yield* sessionOf(provider, accounts)]
    }).pipe(Effect.withSpan("Eip1193Connector.connect")),
  reconnect: () =>
    Effect.gen(function* () {
      const accounts = evmAccountsOf(yield* call(provider, "eth_accounts"))
      if (accounts.length === 0) return []
      return [yield* sessionOf(provider, accounts)]
    }).pipe(Effect.withSpan("Eip1193Connector.reconnect")),
  // Wallets that support it forget the site's permission; the others simply stop being used.
  disconnect: call(provider, "wallet_revokePermissions", [{ eth_accounts: {} }]).pipe(
    Effect.ignore,
    Effect.withSpan("Eip1193Connector.disconnect")
  ),
  events: eip1193Events(provider)
})

const announcedInfo = (info: Eip6963Info): ConnectorInfo => ({
  id: info.rdns,
  name: info.name,
  type: "ANNOUNCED",
  chain: "eip155",
  chains: [],
  imageUrl: info.icon,
  info: { rdns: info.rdns }
})

const isProvider = (value: unknown): value is Eip1193Provider =>
  typeof value === "object" && value !== null && typeof (value as { request?: unknown }).request === "function"

const isInfo = (value: unknown): value is Eip6963Info => {
  if (typeof value !== "object" || value === null) return false
  const info = value as Record<string, unknown>
  return typeof info["rdns"] === "string" && info["rdns"].length > 0 && typeof info["name"] === "string" &&
    typeof info["uuid"] === "string" && typeof info["icon"] === "string"
}

/** Connectors over a fixed list of announced wallets (Node tests, a host handing its providers over). */
export const staticEip155Source = (
  wallets: ReadonlyArray<{ readonly info: Eip6963Info; readonly provider: Eip1193Provider }>
): Effect.Effect<ConnectorSource> =>
  SubscriptionRef.make<ReadonlyArray<Connector>>(wallets.map((wallet) => makeEip1193Connector(announcedInfo(wallet.info), wallet.provider)))

/**
 * The page's EVM wallets: listens for `eip6963:announceProvider` for as long as the scope lives, asks wallets to
 * announce, and adds `window.ethereum` as INJECTED when it is not an announced wallet. Off the browser it is empty.
 */
export const browserEip155Source = (options: { readonly enableEIP6963: boolean }): Effect.Effect<ConnectorSource, never, Scope.Scope> =>
  Effect.gen(function* () {
    const connectors = yield* SubscriptionRef.make<ReadonlyArray<Connector>>([])
    if (typeof window === "undefined") return connectors
    const announced = new Map<string, { readonly connector: Connector; readonly provider: Eip1193Provider }>()
    const legacy = (window as { ethereum?: unknown }).ethereum
    let injected: Connector | undefined
    const publish = () => {
      const list = [...announced.values()]
      injected = isProvider(legacy) && !list.some((entry) => entry.provider === legacy)
        ? (injected ?? makeEip1193Connector(
            { id: INJECTED_CONNECTOR_ID, name: "Browser Wallet", type: "INJECTED", chain: "eip155", chains: [] },
            legacy
          ))
        : undefined
      Effect.runSync(SubscriptionRef.set(connectors, [...list.map((entry) => entry.connector), ...(injected !== undefined ? [injected] : [])]))
    }

    if (options.enableEIP6963) {
      const onAnnounce = (event: Event) => {
        const detail = (event as CustomEvent<unknown>).detail as { info?: unknown; provider?: unknown } | undefined
        // Announcements come from any script on the page: only well-formed ones are listed, one per rdns.
        if (detail === undefined || detail === null || !isInfo(detail.info) || !isProvider(detail.provider)) return
        const existing = announced.get(detail.info.rdns)
        if (existing?.provider === detail.provider) return
        announced.set(detail.info.rdns, {
          connector: makeEip1193Connector(announcedInfo(detail.info), detail.provider),
          provider: detail.provider
        })
        publish()
      }
      yield* Effect.acquireRelease(
        Effect.sync(() => window.addEventListener("eip6963:announceProvider", onAnnounce)),
        () => Effect.sync(() => window.removeEventListener("eip6963:announceProvider", onAnnounce))
      )
      window.dispatchEvent(new Event("eip6963:requestProvider"))
    }
    publish()
    return connectors
  })
