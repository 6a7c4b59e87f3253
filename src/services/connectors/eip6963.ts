/**
 * EVM wallets of the page as connectors: every EIP-6963 announced wallet (ANNOUNCED, one per rdns and one per uuid,
 * live as wallets announce) and the legacy `window.ethereum` (INJECTED) when it is not one of them. Each hands the
 * eip155 adapter its EIP-1193 provider. Finding them loads no chain library and sends nothing over the network.
 * Announcements and events come from any script or wallet on the page: they are decoded before they are used, what
 * makes no sense is ignored and reported, and nothing they hold is fetched or run.
 */
import { Effect, Exit, Queue, Schema, type Scope, Stream, SubscriptionRef } from "effect"
import type { Account } from "../../domain/Account"
import { SomethingWentWrong } from "../../domain/errors"
import { toChecksumAddress } from "../../domain/validation"
import type { ConnectorInfo } from "../../domain/Wallet"
import { fromWalletError } from "../../domain/walletErrors"
import { type Eip1193Provider, type Eip6963Info, parseChainId, providerCodeOf } from "../eip155/eip1193"
import { walletIcon } from "../generatedIcon"
import { withinQuickAnswerTime } from "../walletAnswer"
import type { Connector, FamilySession, WalletEvent } from "./Connector"
import type { ConnectorSource } from "./Connectors"

/** The connector id of the legacy injected provider. */
export const INJECTED_CONNECTOR_ID = "injected"

const call = (provider: Eip1193Provider, method: string, params?: unknown) =>
  Effect.tryPromise({
    try: () => provider.request(params === undefined ? { method } : { method, params }),
    catch: fromWalletError
  })

// The most accounts read from one answer or event: a wallet holding more shows its first ones.
const MAX_ACCOUNTS = 100

const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/

// A list as it arrives: read once, so a list whose reads throw (a Proxy) is refused instead of throwing.
const AnyList = Schema.Array(Schema.Unknown)

/**
 * The accounts of a wallet's answer or `accountsChanged`, checksummed, or undefined when it is not a list of
 * addresses (not a list, or a list holding no address). An empty list is a list: the wallet gives the site no account.
 */
export const evmAccountsOf = (value: unknown): ReadonlyArray<Account> | undefined => {
  const list = Schema.decodeUnknownExit(AnyList)(value)
  if (Exit.isFailure(list)) return undefined
  const addresses = list.value.filter((entry): entry is string => typeof entry === "string" && EVM_ADDRESS.test(entry))
  if (list.value.length > 0 && addresses.length === 0) return undefined
  return addresses.slice(0, MAX_ACCOUNTS).map((address) => ({ address: toChecksumAddress(address), type: "eoa" as const }))
}

/** What a provider's listener hands on: a wallet event, or the name of an event whose payload made no sense. */
type Delivery = WalletEvent | { readonly _tag: "Malformed"; readonly event: string }

// Listeners only hand on what they heard; when the consumer falls behind, the latest events are the ones that count.
const EVENT_BUFFER = 1_024

/**
 * The EIP-1193 events of a provider as wallet events of the eip155 family, for as long as the stream is run. A
 * payload that makes no sense (`accountsChanged` with something other than a list of addresses, `chainChanged`
 * with something other than a safe chain id) is ignored and reported once per event name: it is not a disconnect.
 */
export const eip1193Events = (provider: Eip1193Provider): Stream.Stream<WalletEvent> =>
  Stream.suspend(() => {
    const reported = new Set<string>()
    const report = (event: string) =>
      Effect.suspend(() => {
        if (reported.has(event)) return Effect.void
        reported.add(event)
        return Effect.logWarning(`Wallet sent a malformed ${event} event: ignored (further ones are ignored silently)`)
      })
    return Stream.callback<Delivery>(
      (queue) =>
        Effect.acquireRelease(
          Effect.sync(() => {
            const onAccounts = (list: unknown) => {
              const accounts = evmAccountsOf(list)
              Queue.offerUnsafe(
                queue,
                accounts === undefined
                  ? { _tag: "Malformed", event: "accountsChanged" }
                  : { _tag: "AccountsChanged", namespace: "eip155", accounts }
              )
            }
            const onChain = (value: unknown) => {
              const chainId = parseChainId(value)
              Queue.offerUnsafe(
                queue,
                chainId === undefined ? { _tag: "Malformed", event: "chainChanged" } : { _tag: "ChainChanged", namespace: "eip155", chainId }
              )
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
        ),
      { bufferSize: EVENT_BUFFER, strategy: "sliding" }
    ).pipe(
      Stream.tap((delivery) => (delivery._tag === "Malformed" ? report(delivery.event) : Effect.void)),
      Stream.filter((delivery): delivery is WalletEvent => delivery._tag !== "Malformed")
    )
  })

const sessionOf = (provider: Eip1193Provider, accounts: ReadonlyArray<Account>) =>
  Effect.gen(function* () {
    if (accounts.length === 0) return yield* new SomethingWentWrong({ reason: "The wallet gave no account" })
    // Asked of a wallet that has just given its accounts: no visitor answers it, so it gets seconds, not minutes.
    const chainId = parseChainId(yield* withinQuickAnswerTime(call(provider, "eth_chainId")))
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
      const accounts = evmAccountsOf(yield* call(provider, "eth_requestAccounts")) ?? []
      return [yield* sessionOf(provider, accounts)]
    }).pipe(Effect.withSpan("Eip1193Connector.connect")),
  reconnect: () =>
    Effect.gen(function* () {
      const accounts = evmAccountsOf(yield* call(provider, "eth_accounts")) ?? []
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

/** Connectors over a fixed list of announced wallets (Node tests, a host handing its providers over). */
export const staticEip155Source = (
  wallets: ReadonlyArray<{ readonly info: Eip6963Info; readonly provider: Eip1193Provider }>
): Effect.Effect<ConnectorSource> =>
  SubscriptionRef.make<ReadonlyArray<Connector>>(wallets.map((wallet) => makeEip1193Connector(announcedInfo(wallet.info), wallet.provider)))

// Read once through a Schema: a provider whose `request` cannot be read (a throwing getter, a Proxy) is no provider.
const Provider = Schema.declare(
  (value: unknown): value is Eip1193Provider =>
    typeof value === "object" && value !== null && typeof (value as { request?: unknown }).request === "function"
)

const Text = (maxLength: number) => Schema.String.pipe(Schema.check(Schema.isNonEmpty(), Schema.isMaxLength(maxLength)))

/**
 * An `eip6963:announceProvider` event as any script on the page may dispatch it. Decoding copies the identity out
 * of the event, so nothing the announcer changes (or throws) later reaches the list.
 */
const Announcement = Schema.Struct({
  detail: Schema.Struct({
    info: Schema.Struct({ uuid: Text(128), name: Text(100), icon: Schema.String, rdns: Text(253) }),
    provider: Provider
  })
})

/** The most wallets listed from announcements: a script announcing more is ignored past this, and reported. */
const MAX_ANNOUNCED_WALLETS = 1_000

/** Announcements waiting to be read: a script dispatching more than this in one go loses the rest, and is reported. */
const MAX_WAITING_ANNOUNCEMENTS = 2_000

/** Announcements are read and the list published at most once per frame, however many arrive. */
const ANNOUNCE_FRAME_MS = 16

/** A wallet listed from its announcement: its uuid, its rdns (trimmed, lower case), its provider and its connector. */
export interface AnnouncedWallet {
  readonly uuid: string
  readonly rdns: string
  readonly provider: Eip1193Provider
  readonly connector: Connector
}

/**
 * The rules of the announced list, one announcement at a time: the first announcement of an rdns wins (a later one
 * with another provider is ignored and reported, so a script cannot take a listed wallet's row); one row per uuid
 * (a uuid announced again under another rdns or provider is ignored and reported); at most
 * MAX_ANNOUNCED_WALLETS rows; an icon that is not a `data:` image is replaced by a generated one; anything that
 * does not decode is ignored and reported once. A wallet announcing itself again (on `eip6963:requestProvider`)
 * changes nothing. Each report is made once.
 */
export const makeAnnouncedList = () => {
  const byRdns = new Map<string, AnnouncedWallet>()
  const byUuid = new Map<string, AnnouncedWallet>()
  const reported = new Set<string>()
  const report = (key: string, message: string) =>
    Effect.suspend(() => {
      if (reported.has(key)) return Effect.void
      reported.add(key)
      return Effect.logWarning(`EIP-6963: ${message}`)
    })

  const add = (event: unknown): Effect.Effect<boolean> =>
    Effect.gen(function* () {
      const decoded = Schema.decodeUnknownExit(Announcement)(event)
      if (Exit.isFailure(decoded)) {
        yield* report("malformed", "ignored a malformed announcement (further ones are ignored silently)")
        return false
      }
      const { info, provider } = decoded.value.detail
      const rdns = info.rdns.trim().toLowerCase()
      const sameUuid = byUuid.get(info.uuid)
      if (sameUuid !== undefined) {
        if (sameUuid.rdns !== rdns || sameUuid.provider !== provider) {
          yield* report(`uuid:${info.uuid}`, `ignored a second wallet announced with the uuid of ${sameUuid.rdns}`)
        }
        return false
      }
      const sameRdns = byRdns.get(rdns)
      if (sameRdns !== undefined) {
        if (sameRdns.provider !== provider) {
          yield* report(`rdns:${rdns}`, `ignored another provider announced as ${rdns}: the first one stays listed`)
        }
        return false
      }
      if (byRdns.size >= MAX_ANNOUNCED_WALLETS) {
        yield* report("full", `ignored announcements past ${MAX_ANNOUNCED_WALLETS} wallets`)
        return false
      }
      const icon = walletIcon(info.icon, rdns, info.name)
      if (icon !== info.icon) yield* report(`icon:${rdns}`, `${rdns} announced an icon that is not a data: image; showing a generated one`)
      const listed: AnnouncedWallet = {
        uuid: info.uuid,
        rdns,
        provider,
        connector: makeEip1193Connector(announcedInfo({ ...info, icon }), provider)
      }
      byRdns.set(rdns, listed)
      byUuid.set(info.uuid, listed)
      return true
    })

  return {
    /** Takes one announcement (the event as dispatched); succeeds with whether the list changed. */
    add,
    /** Reports once that announcements were dropped before they could be read. */
    overflowed: report("overflow", `ignored announcements past ${MAX_WAITING_ANNOUNCEMENTS} in one go`),
    /** The listed wallets, in the order they first announced themselves. */
    wallets: (): ReadonlyArray<AnnouncedWallet> => [...byRdns.values()]
  }
}

/**
 * The page's EVM wallets: listens for `eip6963:announceProvider` for as long as the scope lives, asks wallets to
 * announce, and adds `window.ethereum` as INJECTED when it is not an announced wallet. The listener only queues what
 * it hears, so no announcement can make it throw; the queue is read and the list published at most once per frame,
 * so hundreds of announcements cost one update. Off the browser it is empty.
 */
export const browserEip155Source = (options: { readonly enableEIP6963: boolean }): Effect.Effect<ConnectorSource, never, Scope.Scope> =>
  Effect.gen(function* () {
    const connectors = yield* SubscriptionRef.make<ReadonlyArray<Connector>>([])
    if (typeof window === "undefined") return connectors
    const list = makeAnnouncedList()
    // `window.ethereum` is any script's to define: one that cannot be read, or is no provider, is not listed.
    const legacy = yield* Effect.try(() => (window as { ethereum?: unknown }).ethereum).pipe(
      Effect.map((value) => {
        const provider = Schema.decodeUnknownExit(Provider)(value)
        return Exit.isSuccess(provider) ? provider.value : undefined
      }),
      Effect.orElseSucceed(() => undefined)
    )
    const injected =
      legacy === undefined
        ? undefined
        : makeEip1193Connector({ id: INJECTED_CONNECTOR_ID, name: "Browser Wallet", type: "INJECTED", chain: "eip155", chains: [] }, legacy)
    const publish = Effect.suspend(() => {
      const wallets = list.wallets()
      const alsoInjected = injected !== undefined && !wallets.some((wallet) => wallet.provider === legacy)
      return SubscriptionRef.set(connectors, [...wallets.map((wallet) => wallet.connector), ...(alsoInjected ? [injected] : [])])
    })

    if (options.enableEIP6963) {
      const inbox = yield* Queue.dropping<Event>(MAX_WAITING_ANNOUNCEMENTS)
      let dropped = false
      const onAnnounce = (event: Event) => {
        if (!Queue.offerUnsafe(inbox, event)) dropped = true
      }
      const read = (events: ReadonlyArray<Event>) =>
        Effect.gen(function* () {
          let changed = false
          for (const event of events) changed = (yield* list.add(event)) || changed
          if (dropped) yield* list.overflowed
          if (changed) yield* publish
        })
      yield* Effect.acquireRelease(
        Effect.sync(() => window.addEventListener("eip6963:announceProvider", onAnnounce)),
        () => Effect.sync(() => window.removeEventListener("eip6963:announceProvider", onAnnounce))
      )
      window.dispatchEvent(new Event("eip6963:requestProvider"))
      // Wallets answer the request at once: they are listed before the source is handed over.
      yield* read(yield* Queue.clear(inbox))
      yield* Queue.takeAll(inbox).pipe(
        Effect.flatMap(read),
        Effect.andThen(Effect.sleep(ANNOUNCE_FRAME_MS)),
        Effect.forever,
        Effect.forkScoped
      )
    }
    yield* publish
    return connectors
  })
