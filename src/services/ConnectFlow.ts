/**
 * ConnectFlow: what happens after the visitor chooses a wallet, decided here rather than in views. It runs
 * choose → connect → (sign-in, when the host configures it) → close, remembers recent wallets and the wallet link
 * followed, and exposes its progress as state the views render. It follows the modal's route: entering a
 * connecting view starts connecting, leaving it (Back, Close, Escape) stops, so a wallet that never answers can
 * always be left and its late answer takes nothing over. Hosts connect programmatically with `connect`, which gives
 * the connected wallet or a typed error and stops when interrupted.
 */
import { Context, Effect, Exit, Fiber, Layer, Option, Stream, SubscriptionRef } from "effect"
import type { ChainNamespace } from "../domain/Caip"
import { ProviderNotFound, SomethingWentWrong } from "../domain/errors"
import type { SiwxSession } from "../domain/Siwx"
import { type CaipNetwork, isUnsupportedNetwork } from "../domain/Network"
import { type ConnectorInfo, isSameWallet, type WalletCatalogEntry } from "../domain/Wallet"
import { Config, namespacesOf } from "./Config"
import { Analytics } from "./Analytics"
import { type ConnectedWallet, Connection } from "./Connection"
import type { ConnectError } from "./connectors/Connector"
import { answersTo, Connectors } from "./connectors/Connectors"
import { currentEntry, type HistoryEntry, Modal, type Route, type RouteOf } from "./Modal"
import { Networks } from "./Networks"
import { Platform } from "./Platform"
import { Storage } from "./Storage/Storage"
import * as Keys from "./Storage/keys"
import { TaggedError } from "../domain/taggedError"

/** The visitor left the connecting view, or a host cancelled, before the wallet answered. */
export class ConnectCancelled extends TaggedError<ConnectCancelled>()("ConnectCancelled", {}) {
  override get message() {
    return "The connection was cancelled."
  }
}

/**
 * How long a wallet chosen in a list has to answer before its connecting view opens. A wallet that has authorised
 * the site already answers well within it, and the modal goes from the list straight to closed: a view shown for a
 * frame or two would cost those frames before the address shows (and flash). A wallet that prompts the visitor
 * takes longer, and "Continue in …" shows once this has passed, too soon for the visitor to wonder.
 */
export const CONNECTING_VIEW_DELAY_MS = 100

/**
 * How long an installed wallet may take to answer a connect before its view says it has not answered and offers Try
 * again. The request stays open meanwhile (a wallet's own bound is minutes): the visitor may still answer it there.
 */
export const WALLET_LATE_MS = 15_000

/** Why a connect flow ended without a wallet. */
export type ConnectFlowError = ConnectError | ProviderNotFound | ConnectCancelled

/** Where the connect flow stands, for the connecting views (`key`: the history entry it runs for). */
export type ConnectProgress =
  | { readonly _tag: "Idle" }
  | { readonly _tag: "Connecting"; readonly key: number; readonly late?: boolean }
  | { readonly _tag: "Failed"; readonly key: number; readonly error: ConnectFlowError }
  | { readonly _tag: "Connected"; readonly key: number; readonly wallet: ConnectedWallet }

/** What the visitor chose in a wallet list: a connector the page has, a catalogue wallet, or both. */
export interface WalletChoice {
  readonly connector?: ConnectorInfo | undefined
  readonly wallet?: WalletCatalogEntry | undefined
}

/** Whether a catalogue wallet can be reached by a link carrying a WalletConnect URI (phone, desktop or web app). */
const hasWalletLinks = (wallet: WalletCatalogEntry | undefined): boolean =>
  [wallet?.mobile_link, wallet?.desktop_link, wallet?.webapp_link].some((link) => typeof link === "string" && link !== "")

/**
 * The view a choice opens: WalletConnect's own row the basic WalletConnect view (on a phone, the list of wallets to
 * open by their links); a connector the connecting view; a
 * catalogue wallet not installed here that has a phone, desktop or web app the WalletConnect view for that wallet;
 * any other the connecting view, which says it is not installed.
 */
export const routeForChoice = (choice: WalletChoice, isMobile = false): Route => {
  // On a phone there is nothing to scan: WalletConnect's row lists the wallets, each opened by its own link.
  if (choice.connector?.type === "WALLET_CONNECT") return isMobile ? { view: "AllWallets" } : { view: "WalletConnectBasic" }
  if (choice.connector !== undefined) return { view: "ConnectingExternal", connectorId: choice.connector.id, wallet: choice.wallet }
  if (choice.wallet !== undefined && hasWalletLinks(choice.wallet)) return { view: "ConnectingWalletConnect", wallet: choice.wallet }
  return { view: "ConnectingExternal", wallet: choice.wallet }
}

/** The connector a connecting route connects through (WalletConnect's for the WalletConnect views). */
const connectorIdOf = (route: Route, walletConnectId: string | undefined): string | undefined => {
  switch (route.view) {
    case "ConnectingExternal":
      return route.connectorId
    case "WalletConnectBasic":
    case "ConnectingWalletConnect":
      return walletConnectId
    default:
      return undefined
  }
}

const walletOf = (route: Route): WalletCatalogEntry | undefined =>
  route.view === "ConnectingExternal" || route.view === "ConnectingWalletConnect" ? route.wallet : undefined

/**
 * The step between connecting and closing where sign-in comes (issue: sign in with the wallet). A runtime without
 * it goes straight on; with it, the flow waits for it and fails with its error.
 */
export class SignInStep extends Context.Service<
  SignInStep,
  {
    /** The session of the account in front once it has one; `undefined` when the visitor went on without. */
    readonly afterConnect: (wallet: ConnectedWallet) => Effect.Effect<SiwxSession | undefined, ConnectFlowError>
  }
>()("wallet-runtime/SignInStep") {}

/** What a host's connect gives: each family's account, and the sign-in session when the host asks for sign-in. */
export interface ConnectResult extends ConnectedWallet {
  readonly session?: SiwxSession | undefined
}

/** The connect flow. */
export class ConnectFlow extends Context.Service<
  ConnectFlow,
  {
    /** Where the flow stands. */
    readonly progress: SubscriptionRef.SubscriptionRef<ConnectProgress>
    /**
     * The visitor chose a wallet: connecting starts at once. An installed wallet's connecting view opens only when it
     * has not answered within CONNECTING_VIEW_DELAY_MS, or to say why it failed; any other choice opens its view.
     */
    readonly choose: (choice: WalletChoice) => Effect.Effect<void>
    /** Asks the wallet again, on the view the visitor is on (after a refusal or a failure). */
    readonly retry: Effect.Effect<void>
    /** The visitor followed a wallet's link (a WalletConnect deep link): remembered once the wallet connects. */
    readonly followedLink: (href: string) => Effect.Effect<void>
    /**
     * Connects a wallet for a host: by connector id, rdns or name (`"walletConnect"` opens the modal's QR code).
     * Gives the connected wallet (with its sign-in session when the host configured sign-in), or fails with the
     * wallet's refusal, 'Provider not found.' or ConnectCancelled (also when required sign-in was cancelled).
     */
    readonly connect: (wallet: string) => Effect.Effect<ConnectResult, ConnectFlowError>
  }
>()("wallet-runtime/ConnectFlow") {
  /** The live flow over the modal, the connection and the connectors. */
  static readonly layer = Layer.effect(ConnectFlow)(
    Effect.gen(function* () {
      const modal = yield* Modal
      const connection = yield* Connection
      const networks = yield* Networks
      const registry = yield* Connectors
      const storage = yield* Storage
      const analytics = yield* Analytics
      const config = yield* Config
      const platform = yield* Platform
      const signIn = yield* Effect.serviceOption(SignInStep)
      const progress = yield* SubscriptionRef.make<ConnectProgress>({ _tag: "Idle" })
      const scope = yield* Effect.scope
      // The run of the connecting view in front, if any; a new one waits until the previous has stopped.
      let running: Fiber.Fiber<void> | undefined
      // The history entry whose connect was started last (each entry's view starts one; Try again starts it again).
      let startedKey: number | undefined
      // True while a chosen wallet's run opens its connecting view (the entry it pushes is that run's).
      let opening = false
      const links = new Map<number, string>()

      const walletConnectId = Effect.map(SubscriptionRef.get(registry.connectors), (list) =>
        list.find((connector) => connector.info.type === "WALLET_CONNECT")?.info.id
      )

      // The network each family connects on, the family in front first (so the wallet is asked for it).
      const networksToConnect = Effect.gen(function* () {
        const current = yield* SubscriptionRef.get(networks.state)
        const families = namespacesOf(config)
        const order: ReadonlyArray<ChainNamespace> = [current.activeNamespace, ...families.filter((n) => n !== current.activeNamespace)]
        return order.flatMap((namespace): ReadonlyArray<CaipNetwork> => {
          const active = current.active[namespace]
          // The unsupported placeholder is no network to ask a wallet for: its family's first requested one is.
          const usable = active !== undefined && !isUnsupportedNetwork(active) ? active : current.requested.find((n) => n.chainNamespace === namespace)
          return usable === undefined ? [] : [usable]
        })
      })

      const connectWith = (connectorId: string, wallet: WalletCatalogEntry | undefined, link: () => string | undefined) =>
        Effect.gen(function* () {
          const wanted = yield* networksToConnect
          const connected = yield* connection.connect({ connectorId, networks: wanted })
          // The network the visitor is on (picked before connecting) is the one the wallet is asked for; a wallet
          // that refuses stays where it is, and the networks follow it.
          for (const network of wanted) {
            const account = connected.accounts[network.chainNamespace]
            if (account === undefined || account.chainId === network.id) continue
            yield* networks.switchNetwork(network.caipNetworkId).pipe(
              Effect.catch((error) => Effect.logInfo(`The wallet stayed on its chain: ${error.message}`))
            )
          }
          if (wallet !== undefined) yield* connection.addRecentWallet(wallet)
          const href = link()
          if (connected.connector.type === "WALLET_CONNECT" && wallet !== undefined && href !== undefined) {
            yield* storage.set(Keys.walletConnectDeepLink, { href, name: wallet.name })
          }
          return connected
        }).pipe(
          // A wallet's answer our own code could not read (a throwing getter or Proxy) is a failure the view shows
          // with Try again, never a defect that leaves "Continue in …" spinning.
          Effect.catchDefect((defect) =>
            Effect.logError("The connect failed unexpectedly", defect).pipe(
              Effect.andThen(Effect.fail(new SomethingWentWrong({ reason: "The wallet's answer could not be read" })))
            )
          ),
          Effect.tap((connected) =>
            analytics.record("CONNECT_SUCCESS", {
              name: connected.connector.name ?? connected.connector.id,
              method: connected.connector.type,
              namespaces: Object.keys(connected.accounts)
            })
          ),
          Effect.tapError((error) => analytics.record("CONNECT_ERROR", { name: wallet?.name ?? connectorId, message: error.message }))
        )

      // How a run ends for its history entry: the view shows it; success closes the modal if it still shows that entry.
      const settle = (key: number, exit: Exit.Exit<ConnectedWallet, ConnectFlowError>) =>
        Effect.gen(function* () {
          if (Exit.isSuccess(exit)) {
            yield* SubscriptionRef.set(progress, { _tag: "Connected", key, wallet: exit.value })
            // Sign-in comes after the progress says connected: its view replaces this one without stopping this run.
            if (Option.isSome(signIn)) {
              const signedIn = yield* Effect.exit(signIn.value.afterConnect(exit.value))
              if (Exit.isFailure(signedIn)) return
            }
            const now = yield* SubscriptionRef.get(modal.state)
            if (now.open && currentEntry(now).key === key) yield* modal.close
            return
          }
          const error = Option.getOrUndefined(Exit.findErrorOption(exit))
          if (error !== undefined) yield* SubscriptionRef.set(progress, { _tag: "Failed", key, error })
        })

      const idleUnlessMoved = (key: number) =>
        SubscriptionRef.update(progress, (p): ConnectProgress => (p._tag === "Connecting" && p.key === key ? { _tag: "Idle" } : p))

      // While `effect` waits on an installed wallet: past WALLET_LATE_MS, the progress of the entry `keyOf()` says the
      // wallet is late (its view then offers Try again); the wait itself goes on.
      const noticingLate = <A, E, R>(effect: Effect.Effect<A, E, R>, keyOf: () => number) =>
        Effect.scoped(
          Effect.andThen(
            Effect.forkScoped(
              Effect.sleep(WALLET_LATE_MS).pipe(
                Effect.andThen(
                  Effect.suspend(() => {
                    const key = keyOf()
                    return SubscriptionRef.update(progress, (p): ConnectProgress => (p._tag === "Connecting" && p.key === key ? { ...p, late: true } : p))
                  })
                )
              )
            ),
            effect
          )
        )

      // One run for one history entry: the view shows its progress. A QR code waits for a scan, not for an answer.
      const runFor = (entry: HistoryEntry, connectorId: string) =>
        Effect.exit(
          entry.route.view === "ConnectingExternal"
            ? noticingLate(connectWith(connectorId, walletOf(entry.route), () => links.get(entry.key)), () => entry.key)
            : connectWith(connectorId, walletOf(entry.route), () => links.get(entry.key))
        ).pipe(
          Effect.flatMap((exit) => settle(entry.key, exit)),
          Effect.onInterrupt(() => idleUnlessMoved(entry.key))
        )

      // A wallet chosen in a list is asked from that list's entry; its connecting view opens only if the wallet has
      // not answered within CONNECTING_VIEW_DELAY_MS (a prompt), or to show why it failed. Until then the run
      // belongs to the list's entry, so leaving the list (Back, Close, another view) stops it as leaving the
      // connecting view would.
      const runChosen = (from: HistoryEntry, route: RouteOf<"ConnectingExternal">, connectorId: string) => {
        let key = from.key
        return Effect.gen(function* () {
          const attempt = yield* Effect.forkChild(Effect.exit(noticingLate(connectWith(connectorId, route.wallet, () => links.get(key)), () => key)))
          const exit = yield* Effect.gen(function* () {
            const early = yield* Fiber.join(attempt).pipe(Effect.timeoutOption(CONNECTING_VIEW_DELAY_MS))
            if (Option.isSome(early) && Exit.isSuccess(early.value)) return early.value
            // The follower, which may see the new entry before push returns, leaves it to this run: the wallet is
            // not asked twice.
            opening = true
            yield* modal.push(route).pipe(Effect.ensuring(Effect.sync(() => (opening = false))))
            const moved = key
            key = currentEntry(yield* SubscriptionRef.get(modal.state)).key
            startedKey = key
            yield* SubscriptionRef.update(progress, (p): ConnectProgress =>
              p._tag === "Connecting" && p.key === moved ? { _tag: "Connecting", key } : p
            )
            return Option.isSome(early) ? early.value : yield* Fiber.join(attempt)
          }).pipe(
            // Stopping waits until the wallet's attempt has stopped too (its family is as before), as for runFor.
            Effect.onInterrupt(() => Fiber.interrupt(attempt))
          )
          yield* settle(key, exit)
        }).pipe(Effect.onInterrupt(() => Effect.suspend(() => idleUnlessMoved(key))))
      }

      // A run stopped before it began has no interruption handler of its own yet: its progress is reset here too.
      const stop = Effect.suspend(() => {
        const fiber = running
        running = undefined
        return fiber === undefined
          ? Effect.void
          : Fiber.interrupt(fiber).pipe(
              Effect.andThen(SubscriptionRef.update(progress, (p): ConnectProgress => (p._tag === "Connecting" ? { _tag: "Idle" } : p)))
            )
      })

      const start = (entry: HistoryEntry) =>
        Effect.gen(function* () {
          yield* stop
          const connectorId = connectorIdOf(entry.route, yield* walletConnectId)
          // A connecting view without a way to connect (a wallet not installed, WalletConnect not configured).
          if (connectorId === undefined) return yield* SubscriptionRef.set(progress, { _tag: "Idle" })
          startedKey = entry.key
          yield* SubscriptionRef.set(progress, { _tag: "Connecting", key: entry.key })
          running = yield* Effect.forkIn(runFor(entry, connectorId), scope)
        })

      // Entering a connecting view starts its connect; leaving it stops a connect still waiting on the wallet.
      const follow = (entry: HistoryEntry | undefined) =>
        Effect.gen(function* () {
          // This entry's connect has started already: the choice itself started it.
          if (entry !== undefined && (entry.key === startedKey || opening)) return
          const current = yield* SubscriptionRef.get(progress)
          if (current._tag === "Connecting" && current.key !== entry?.key) yield* stop
          if (entry !== undefined && connectorIdOf(entry.route, "any") !== undefined) yield* start(entry)
        })

      yield* SubscriptionRef.changes(modal.state).pipe(
        Stream.map((state) => (state.open ? currentEntry(state) : undefined)),
        Stream.changesWith((a, b) => a?.key === b?.key),
        Stream.runForEach(follow),
        Effect.forkScoped
      )

      const retry = Effect.gen(function* () {
        const state = yield* SubscriptionRef.get(modal.state)
        if (state.open) yield* start(currentEntry(state))
      }).pipe(Effect.withSpan("ConnectFlow.retry"))

      // The wallet is asked at once, not once the view change has gone round to the follower below.
      const choose = Effect.fn("ConnectFlow.choose")(function* (choice: WalletChoice) {
        yield* analytics.record("SELECT_WALLET", { name: choice.connector?.name ?? choice.wallet?.name ?? "", platform: platform.isMobile ? "mobile" : "desktop" })
        const route = routeForChoice(choice, platform.isMobile)
        const state = yield* SubscriptionRef.get(modal.state)
        if (route.view === "ConnectingExternal" && route.connectorId !== undefined && state.open) {
          yield* stop
          const from = currentEntry(state)
          yield* SubscriptionRef.set(progress, { _tag: "Connecting", key: from.key })
          running = yield* Effect.forkIn(runChosen(from, route, route.connectorId), scope)
          return
        }
        yield* modal.push(route)
        yield* follow(currentEntry(yield* SubscriptionRef.get(modal.state)))
      })

      const followedLink = Effect.fn("ConnectFlow.followedLink")(function* (href: string) {
        const state = yield* SubscriptionRef.get(modal.state)
        links.set(currentEntry(state).key, href)
      })

      const connect = Effect.fn("ConnectFlow.connect")(function* (wallet: string) {
        const list = yield* SubscriptionRef.get(registry.connectors)
        const connector =
          list.find((c) => answersTo(c, wallet)) ??
          list.find((c) => c.info.info?.rdns === wallet) ??
          list.find((c) => isSameWallet({ name: c.info.name }, { name: wallet }))
        if (connector === undefined) return yield* new ProviderNotFound()
        const withSession = (wallet: ConnectedWallet) =>
          Option.isSome(signIn)
            ? Effect.map(signIn.value.afterConnect(wallet), (session): ConnectResult => (session === undefined ? wallet : { ...wallet, session }))
            : Effect.succeed<ConnectResult>(wallet)
        if (connector.info.type !== "WALLET_CONNECT") return yield* Effect.flatMap(connectWith(connector.info.id, undefined, () => undefined), withSession)
        // WalletConnect needs its QR code: the modal shows it, and the flow that runs there is awaited.
        yield* modal.open({ view: "WalletConnectBasic" })
        const key = currentEntry(yield* SubscriptionRef.get(modal.state)).key
        const settled = (p: ConnectProgress) => (p._tag === "Connected" || p._tag === "Failed") && p.key === key
        // Either the flow there settles, or the visitor leaves that view (closes, goes back): whichever comes first.
        yield* Stream.merge(
          SubscriptionRef.changes(progress).pipe(Stream.filter(settled)),
          SubscriptionRef.changes(modal.state).pipe(Stream.filter((state) => !state.open || currentEntry(state).key !== key))
        ).pipe(Stream.runHead, Effect.onInterrupt(() => modal.close))
        const outcome = yield* SubscriptionRef.get(progress)
        if (outcome._tag === "Connected" && outcome.key === key) return yield* withSession(outcome.wallet)
        if (outcome._tag === "Failed" && outcome.key === key) return yield* Effect.fail(outcome.error)
        return yield* new ConnectCancelled()
      })

      return { progress, choose, retry, followedLink, connect }
    })
  )
}
