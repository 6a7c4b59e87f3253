/**
 * The EVM wallets a page has: every EIP-6963 announced wallet (ANNOUNCED, one entry per rdns, updated live as
 * wallets announce) and the legacy `window.ethereum` (INJECTED) when it is not one of them. Finding them loads no
 * chain library and sends nothing over the network.
 */
import { Effect, Option, Scope, SubscriptionRef } from "effect"
import type { ConnectorInfo } from "../../domain/Wallet"
import type { Eip1193Provider, Eip6963Info } from "./eip1193"

/** Wallets by connector id, with their providers. */
export interface ProviderDirectory {
  readonly connectors: SubscriptionRef.SubscriptionRef<ReadonlyArray<ConnectorInfo>>
  /** The provider of a connector, if that wallet is (still) there. */
  readonly provider: (connectorId: string) => Option.Option<Eip1193Provider>
}

/** The connector id of the legacy injected provider. */
export const INJECTED_CONNECTOR_ID = "injected"

interface Entry {
  readonly info: ConnectorInfo
  readonly provider: Eip1193Provider
}

/** A directory over a fixed list (Node tests, a host that hands its providers over). */
export const makeStaticDirectory = (
  wallets: ReadonlyArray<{ readonly info: Eip6963Info; readonly provider: Eip1193Provider }>
): Effect.Effect<ProviderDirectory> =>
  Effect.gen(function* () {
    const entries = new Map<string, Entry>(wallets.map((wallet) => [wallet.info.rdns, { info: announcedInfo(wallet.info), provider: wallet.provider }]))
    const connectors = yield* SubscriptionRef.make<ReadonlyArray<ConnectorInfo>>([...entries.values()].map((e) => e.info))
    return { connectors, provider: (id: string) => Option.fromNullishOr(entries.get(id)?.provider) }
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

/**
 * The browser directory: listens for `eip6963:announceProvider` for as long as the scope lives, asks wallets to
 * announce, and adds `window.ethereum` as INJECTED when it is not an announced wallet. Off the browser it is empty.
 */
export const makeBrowserDirectory = (options: { readonly enableEIP6963: boolean }): Effect.Effect<ProviderDirectory, never, Scope.Scope> =>
  Effect.gen(function* () {
    const entries = new Map<string, Entry>()
    const connectors = yield* SubscriptionRef.make<ReadonlyArray<ConnectorInfo>>([])
    const publish = () => SubscriptionRef.set(connectors, [...entries.values()].map((entry) => entry.info))
    if (typeof window === "undefined") return { connectors, provider: () => Option.none() }

    const legacy = (window as { ethereum?: unknown }).ethereum
    const refresh = () => {
      const announced = [...entries.values()].filter((entry) => entry.info.type === "ANNOUNCED")
      entries.delete(INJECTED_CONNECTOR_ID)
      if (isProvider(legacy) && !announced.some((entry) => entry.provider === legacy)) {
        entries.set(INJECTED_CONNECTOR_ID, {
          provider: legacy,
          info: { id: INJECTED_CONNECTOR_ID, name: "Browser Wallet", type: "INJECTED", chain: "eip155", chains: [] }
        })
      }
      Effect.runSync(publish())
    }

    if (options.enableEIP6963) {
      const onAnnounce = (event: Event) => {
        const detail = (event as CustomEvent<unknown>).detail as { info?: unknown; provider?: unknown } | undefined
        // Announcements come from any script on the page: only well-formed ones are listed, one per rdns.
        if (detail === undefined || !isInfo(detail.info) || !isProvider(detail.provider)) return
        entries.set(detail.info.rdns, { info: announcedInfo(detail.info), provider: detail.provider })
        refresh()
      }
      yield* Effect.acquireRelease(
        Effect.sync(() => window.addEventListener("eip6963:announceProvider", onAnnounce)),
        () => Effect.sync(() => window.removeEventListener("eip6963:announceProvider", onAnnounce))
      )
      window.dispatchEvent(new Event("eip6963:requestProvider"))
    }
    refresh()
    return { connectors, provider: (id: string) => Option.fromNullishOr(entries.get(id)?.provider) }
  })
