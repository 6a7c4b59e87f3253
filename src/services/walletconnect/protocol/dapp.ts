/**
 * The dapp's side of WalletConnect's sign protocol (specs: sign/rpc-methods, sign/session-proposal,
 * sign/wallet-authentication, core/pairing): a pairing URI with a proposal (and, for one-click sign-in, a
 * `wc_sessionAuthenticate` beside it), the session the wallet settles, kept across reloads, requests on it, and
 * what the wallet tells it (events, updates, extensions, pings, deletes). Everything the wallet sends is decoded and
 * checked before it changes anything: a settle or update granting a namespace or chain that was not proposed, an
 * event about an account outside the session, an answer to a request never made, are refused and reported.
 */
import { Clock, Data, Deferred, Effect, Fiber, Option, PubSub, Schema, Scope } from "effect"
import type * as KeyValueStore from "effect/persistence/KeyValueStore"
import { cacaoSession } from "./cacao"
import { generateKeyPair, hashKey, hashText, type KeyAgreementFailed, randomKey } from "./crypto"
import { agree, type Answer, type BeforeRequest, type Engine, type Incoming, makeEngine, NoAnswer, PeerMessageInvalid, PeerRefused, type Problem } from "./engine"
import { makeRelayClient, type RelayUnavailable, type SocketConstructor } from "./relay"
import { generateClientSeed } from "./relayJwt"
import { SDK_ERRORS } from "./rpc"
import {
  AuthenticateResult,
  type Cacao,
  chainOfAccount,
  EventParams,
  Metadata,
  namespacesBreak,
  ProposalNamespaces,
  SessionNamespaces,
  sessionChains,
  SettleParams
} from "./sign"
import { formatPairingUri } from "./uri"

/** A session with a wallet, as kept across reloads. */
export const DappSession = Schema.Struct({
  topic: Schema.String,
  symKey: Schema.String,
  namespaces: SessionNamespaces,
  /** Seconds since the epoch. */
  expiry: Schema.Number,
  peer: Schema.Struct({ publicKey: Schema.String, metadata: Metadata }),
  pairingTopic: Schema.optionalKey(Schema.String),
  requiredNamespaces: Schema.optionalKey(ProposalNamespaces),
  optionalNamespaces: Schema.optionalKey(ProposalNamespaces)
})
/** A session with a wallet. */
export type DappSession = typeof DappSession.Type

/** No session to use: none, ended, expired, or the chain asked for is not one of it. */
export class SessionUnavailable extends Data.TaggedError("SessionUnavailable")<{ readonly code: number; readonly message: string }> {}

/** What may stop a dapp's call. */
export type DappError = PeerRefused | NoAnswer | RelayUnavailable | PeerMessageInvalid | KeyAgreementFailed | SessionUnavailable

/** What the wallet did to the session. */
export type DappEvent =
  | { readonly _tag: "SessionEvent"; readonly name: string; readonly data: unknown; readonly chainId: string }
  | { readonly _tag: "SessionUpdated"; readonly session: DappSession }
  | { readonly _tag: "SessionDeleted"; readonly topic: string }

/** One-click sign-in's fields (CAIP-122 without the account), as the dapp asks for them. */
export interface AuthenticateAsk {
  readonly chains: ReadonlyArray<string>
  readonly domain: string
  readonly uri: string
  readonly nonce: string
  readonly statement?: string | undefined
  readonly exp?: string | undefined
  readonly nbf?: string | undefined
  readonly requestId?: string | undefined
  readonly resources?: ReadonlyArray<string> | undefined
  readonly methods: ReadonlyArray<string>
}

/**
 * A pairing shown to the visitor: its URI, made at once, and its outcome once a wallet answers. The proposal (with
 * the one-click request beside it) is published in the background while the URI is shown: a wallet that scans the
 * URI first finds it at the relay as soon as it is there. A failure to publish ends `approval`.
 */
export interface Pairing {
  readonly topic: string
  readonly uri: string
  /** The session, with the messages the wallet signed when it answered a one-click sign-in. */
  readonly approval: Effect.Effect<{ readonly session: DappSession; readonly cacaos: ReadonlyArray<Cacao> }, DappError>
}

/** What a dapp client is made from. */
export interface DappClientOptions {
  readonly relayUrl: string
  readonly projectId: string
  readonly metadata: Metadata
  readonly store: KeyValueStore.KeyValueStore
  /** Keeps this client's stored data apart from another's on the same store. */
  readonly storagePrefix?: string | undefined
  readonly WebSocket: SocketConstructor
  /** The relay closed on us with these words (an unknown project, an origin not allowed). */
  readonly onRefusal?: (message: string) => void
  /**
   * WalletConnect's Verify, only when the host names a Verify server: each proposal, one-click request and session
   * request is registered there (its attestation id, the SHA-256 of the JSON-RPC text sent) before it is published,
   * for at most VERIFY_REGISTER_WITHIN_MS; a server that fails or is slow delays nothing further. Without it, nothing
   * is registered anywhere.
   */
  readonly verify?: { readonly register: (attestationId: string) => Effect.Effect<void> } | undefined
}

/** The dapp's client. */
export interface DappClient {
  /** The session, if there is one. */
  readonly session: () => DappSession | undefined
  /** Makes a pairing whose URI lives until `expiresAt` (ms), proposing these namespaces (and one-click sign-in). */
  readonly pair: (ask: {
    readonly optionalNamespaces: ProposalNamespaces
    readonly requiredNamespaces?: ProposalNamespaces
    readonly authenticate?: AuthenticateAsk | undefined
    readonly expiresAt: number
  }) => Effect.Effect<Pairing, DappError>
  /** Forgets a pairing nobody answered. */
  readonly dropPairing: (topic: string) => Effect.Effect<void>
  /** Asks the wallet `method` on `chainId`; the answer is awaited for at most `within` ms (5 minutes by default). */
  readonly request: (ask: { readonly method: string; readonly params: unknown; readonly chainId: string; readonly within?: number }) => Effect.Effect<unknown, DappError>
  /** Whether the wallet answers (within 30 s). */
  readonly ping: Effect.Effect<void, DappError>
  /** Ends the session on both sides. */
  readonly disconnect: Effect.Effect<void>
  readonly events: PubSub.PubSub<DappEvent>
  readonly problems: PubSub.PubSub<Problem>
}

/** How long a request waits for its Verify attestation to be registered before it is published anyway. */
export const VERIFY_REGISTER_WITHIN_MS = 2000
const ATTESTED: ReadonlySet<string> = new Set(["wc_sessionPropose", "wc_sessionAuthenticate", "wc_sessionRequest"])

const SEVEN_DAYS = 7 * 86_400
const SETTLE_WITHIN_MS = 60_000
const REQUEST_WITHIN_MS = 300_000
const REQUEST_EXPIRY_SECONDS = 300

const decodeSession = Schema.decodeUnknownOption(Schema.fromJsonString(DappSession))
const decodeSettle = Schema.decodeUnknownOption(SettleParams)
const decodeAuthenticated = Schema.decodeUnknownOption(AuthenticateResult)
const decodeEvent = Schema.decodeUnknownOption(EventParams)
const decodeUpdate = Schema.decodeUnknownOption(Schema.Struct({ namespaces: SessionNamespaces }))
const decodeExtend = Schema.decodeUnknownOption(Schema.Struct({ expiry: Schema.optionalKey(Schema.Number) }))
const decodeReason = Schema.decodeUnknownOption(Schema.Struct({ code: Schema.Number, message: Schema.String }))
const decodeProposalAnswer = Schema.decodeUnknownOption(Schema.Struct({ responderPublicKey: Schema.String }))

const invalid = (reason: string): Answer => ({ error: { code: -32602, message: reason } })

/** Makes the dapp's client; a session stored by an earlier page is restored at once and its topic followed. */
export const makeDappClient = (options: DappClientOptions): Effect.Effect<DappClient, never, Scope.Scope> =>
  Effect.gen(function* () {
    const prefix = `${options.storagePrefix ?? ""}wc@2:`
    const store = options.store
    const read = (key: string) => Effect.orElseSucceed(store.get(`${prefix}${key}`), () => undefined)
    const write = (key: string, value: string | undefined) =>
      Effect.ignore(value === undefined ? store.remove(`${prefix}${key}`) : store.set(`${prefix}${key}`, value))

    let seed = yield* read("relay-seed")
    if (seed === undefined || !/^[0-9a-f]{64}$/.test(seed)) {
      seed = generateClientSeed()
      yield* write("relay-seed", seed)
    }
    const relay = yield* makeRelayClient({
      relayUrl: options.relayUrl,
      projectId: options.projectId,
      seed,
      WebSocket: options.WebSocket,
      ...(options.onRefusal === undefined ? {} : { onRefusal: options.onRefusal })
    })
    const events = yield* PubSub.unbounded<DappEvent>()
    let current: DappSession | undefined
    const awaitingSettle = new Map<
      string,
      { readonly proposed: Pick<DappSession, "requiredNamespaces" | "optionalNamespaces">; readonly pairingTopic: string; readonly symKey: string; readonly done: Deferred.Deferred<DappSession, PeerMessageInvalid> }
    >()
    const pairings = new Set<string>()
    let engine: Engine | undefined

    const save = (session: DappSession | undefined) =>
      Effect.andThen(
        Effect.sync(() => (current = session)),
        write("session", session === undefined ? undefined : JSON.stringify(Schema.encodeSync(DappSession)(session)))
      )

    const ended = (topic: string) =>
      Effect.gen(function* () {
        if (current?.topic !== topic) return
        yield* save(undefined)
        yield* engine!.forget(topic)
        yield* PubSub.publish(events, { _tag: "SessionDeleted", topic })
      })

    // A delete is answered before its topic is forgotten (the answer is sealed with the topic's key).
    const acknowledged = (incoming: Incoming) =>
      Effect.ignore(engine!.respond(incoming.topic, incoming.request, { result: true }))

    const onSettle = (incoming: Incoming): Effect.Effect<Answer> =>
      Effect.gen(function* () {
        const waiting = awaitingSettle.get(incoming.topic)
        if (waiting === undefined) return invalid("No settlement expected on this topic")
        const params = decodeSettle(incoming.request.params)
        const broken = Option.isNone(params) ? "the settlement is malformed" : namespacesBreak(waiting.proposed, params.value.namespaces)
        if (broken !== undefined || Option.isNone(params)) {
          yield* Deferred.fail(waiting.done, new PeerMessageInvalid({ reason: `The wallet's session does not answer the proposal: ${broken}` }))
          return { error: { code: SDK_ERRORS.UNSUPPORTED_NAMESPACE_KEY.code, message: broken ?? "malformed" } }
        }
        awaitingSettle.delete(incoming.topic)
        const session: DappSession = {
          topic: incoming.topic,
          symKey: waiting.symKey,
          namespaces: params.value.namespaces,
          expiry: params.value.expiry,
          peer: params.value.controller,
          pairingTopic: waiting.pairingTopic,
          ...waiting.proposed
        }
        yield* save(session)
        yield* Deferred.succeed(waiting.done, session)
        return { result: true }
      })

    const onSessionMessage = (incoming: Incoming, session: DappSession): Effect.Effect<Answer | undefined> =>
      Effect.gen(function* () {
        const { method, params } = incoming.request
        switch (method) {
          case "wc_sessionEvent": {
            const event = decodeEvent(params)
            if (Option.isNone(event)) return invalid("malformed event")
            const chains = sessionChains(session.namespaces)
            const { name, data } = event.value.event
            const outside =
              !chains.includes(event.value.chainId) ||
              (name === "accountsChanged" && Array.isArray(data) && data.some((a) => typeof a === "string" && a.split(":").length === 3 && !chains.includes(chainOfAccount(a))))
            if (outside) {
              yield* PubSub.publish(engine!.problems, new PeerMessageInvalid({ reason: `an event on a chain outside the session (${event.value.chainId})` }))
              return { error: SDK_ERRORS.UNSUPPORTED_CHAINS }
            }
            yield* PubSub.publish(events, { _tag: "SessionEvent", name, data, chainId: event.value.chainId })
            return { result: true }
          }
          case "wc_sessionUpdate": {
            const update = decodeUpdate(params)
            const broken = Option.isNone(update) ? "malformed update" : namespacesBreak(session, update.value.namespaces)
            if (broken !== undefined || Option.isNone(update)) {
              yield* PubSub.publish(engine!.problems, new PeerMessageInvalid({ reason: `an update outside the proposal: ${broken}` }))
              return { error: { code: SDK_ERRORS.UNSUPPORTED_NAMESPACE_KEY.code, message: broken ?? "malformed" } }
            }
            const updated = { ...session, namespaces: update.value.namespaces }
            yield* save(updated)
            yield* PubSub.publish(events, { _tag: "SessionUpdated", session: updated })
            return { result: true }
          }
          case "wc_sessionExtend": {
            const extend = decodeExtend(params)
            if (Option.isNone(extend)) return invalid("malformed extension")
            const now = Math.floor((yield* Clock.currentTimeMillis) / 1000)
            const asked = extend.value.expiry
            // The spec's wallet names the new expiry; WalletConnect's own (sign-client 2.21) sends none and counts
            // seven days from now on each side.
            if (asked === undefined) {
              yield* save({ ...session, expiry: Math.max(session.expiry, now + SEVEN_DAYS) })
              return { result: true }
            }
            if (asked <= session.expiry || asked > now + SEVEN_DAYS + 60) return invalid("expiry out of bounds")
            yield* save({ ...session, expiry: asked })
            return { result: true }
          }
          case "wc_sessionDelete":
            yield* acknowledged(incoming)
            yield* ended(session.topic)
            return undefined
          case "wc_sessionPing":
            return { result: true }
          default:
            return { error: SDK_ERRORS.METHOD_NOT_FOUND }
        }
      })

    const handle = (incoming: Incoming): Effect.Effect<Answer | undefined> =>
      Effect.gen(function* () {
        const { method } = incoming.request
        if (method === "wc_sessionSettle") return yield* onSettle(incoming)
        if (current !== undefined && incoming.topic === current.topic) return yield* onSessionMessage(incoming, current)
        if (pairings.has(incoming.topic)) {
          if (method === "wc_pairingPing") return { result: true }
          if (method === "wc_pairingDelete") {
            // The wallet deleted the pairing before answering the proposal: the connect waiting on it ends with
            // the wallet's reason.
            const reason = decodeReason(incoming.request.params)
            pairings.delete(incoming.topic)
            yield* acknowledged(incoming)
            yield* engine!.forget(incoming.topic, Option.getOrElse(reason, () => SDK_ERRORS.USER_DISCONNECTED))
            return undefined
          }
        }
        return { error: SDK_ERRORS.METHOD_NOT_FOUND }
      })

    const verify = options.verify
    const attest: BeforeRequest | undefined =
      verify === undefined
        ? undefined
        : (method, text) =>
            ATTESTED.has(method)
              ? Effect.flatMap(hashText(text), verify.register).pipe(Effect.timeout(VERIFY_REGISTER_WITHIN_MS), Effect.ignore)
              : Effect.void
    engine = yield* makeEngine(relay, handle, attest)
    const peer = engine
    const scope = yield* Effect.scope
    // Each pairing's proposal being published, until its outcome (interrupted when the pairing is dropped).
    const publishing = new Map<string, Fiber.Fiber<unknown, unknown>>()

    // A session an earlier page kept: restored now, its topic followed in the background (the relay may be away).
    const stored = decodeSession(yield* read("session"))
    const now = Math.floor((yield* Clock.currentTimeMillis) / 1000)
    if (Option.isSome(stored) && stored.value.expiry > now) {
      current = stored.value
      peer.keep(stored.value.topic, stored.value.symKey)
      yield* Effect.forkScoped(Effect.ignore(peer.follow(stored.value.topic, stored.value.symKey)))
    } else if (Option.isSome(stored)) yield* write("session", undefined)

    const pair: DappClient["pair"] = (ask) =>
      Effect.gen(function* () {
        const symKey = randomKey()
        const topic = yield* hashKey(symKey)
        const self = yield* generateKeyPair
        const expiryTimestamp = Math.floor(ask.expiresAt / 1000)
        const authenticate = ask.authenticate
        const uri = formatPairingUri({ topic, symKey, expiryTimestamp, methods: authenticate === undefined ? [] : ["wc_sessionAuthenticate"] })
        const proposed = {
          ...(ask.requiredNamespaces === undefined ? {} : { requiredNamespaces: ask.requiredNamespaces }),
          optionalNamespaces: ask.optionalNamespaces
        }
        pairings.add(topic)
        peer.keep(topic, symKey)
        const within = Math.max(ask.expiresAt - (yield* Clock.currentTimeMillis), 1000)
        const proposer = { publicKey: self.publicKey, metadata: options.metadata }
        const responseTopic = authenticate === undefined ? undefined : yield* hashKey(self.publicKey)

        // The pairing's topic (and the one-click answer's) followed in one subscription, then the proposal and the
        // one-click request published: each gives the effect awaiting its answer.
        const publish = Effect.gen(function* () {
          yield* peer.follow(topic, symKey, {
            fresh: true,
            ...(responseTopic === undefined ? {} : { sealedTo: { topic: responseTopic, privateKey: self.privateKey } })
          })
          const proposalAnswer = yield* peer.send(
            topic,
            "wc_sessionPropose",
            { relays: [{ protocol: "irn" }], proposer, requiredNamespaces: proposed.requiredNamespaces ?? {}, optionalNamespaces: proposed.optionalNamespaces, expiryTimestamp, pairingTopic: topic },
            { within }
          )
          if (authenticate === undefined) return { proposalAnswer, authenticateAnswer: undefined }
          const iat = new Date(yield* Clock.currentTimeMillis).toISOString()
          const authenticateAnswer = yield* peer.send(
            topic,
            "wc_sessionAuthenticate",
            {
              requester: proposer,
              authPayload: {
                type: "caip122",
                chains: authenticate.chains,
                statement: authenticate.statement ?? "",
                aud: authenticate.uri,
                domain: authenticate.domain,
                version: "1",
                nonce: authenticate.nonce,
                iat,
                ...(authenticate.exp === undefined ? {} : { exp: authenticate.exp }),
                ...(authenticate.nbf === undefined ? {} : { nbf: authenticate.nbf }),
                ...(authenticate.requestId === undefined ? {} : { requestId: authenticate.requestId }),
                resources: authenticate.resources ?? []
              },
              expiryTimestamp
            },
            { within }
          )
          return { proposalAnswer, authenticateAnswer }
        })
        const published = yield* Effect.forkIn(publish, scope)
        publishing.set(topic, published)

        const viaProposal = (awaited: Effect.Effect<unknown, PeerRefused | NoAnswer>) =>
          Effect.gen(function* () {
            const responder = decodeProposalAnswer(yield* awaited)
            if (Option.isNone(responder)) return yield* new PeerMessageInvalid({ reason: "The wallet's answer to the proposal has no key" })
            const agreed = yield* agree(self.privateKey, responder.value.responderPublicKey)
            const done = yield* Deferred.make<DappSession, PeerMessageInvalid>()
            awaitingSettle.set(agreed.topic, { proposed, pairingTopic: topic, symKey: agreed.symKey, done })
            yield* peer.follow(agreed.topic, agreed.symKey)
            const session = yield* Deferred.await(done).pipe(
              Effect.timeoutOrElse({ duration: SETTLE_WITHIN_MS, orElse: () => Effect.fail(new NoAnswer({ method: "wc_sessionSettle", message: "The wallet did not settle the session in time" })) }),
              Effect.tapError(() => Effect.andThen(Effect.sync(() => awaitingSettle.delete(agreed.topic)), peer.forget(agreed.topic)))
            )
            return { session, cacaos: [] as ReadonlyArray<Cacao> }
          })

        const viaAuthenticate = (fields: AuthenticateAsk, awaited: Effect.Effect<unknown, PeerRefused | NoAnswer>) =>
          Effect.gen(function* () {
            const answer = yield* awaited.pipe(
              // A wallet without one-click sign-in says so; the proposal sent beside it is then its answer.
              Effect.catchIf((error) => error._tag === "PeerRefused" && error.code === 10001, () => Effect.never)
            )
            const result = decodeAuthenticated(answer)
            if (Option.isNone(result)) return yield* new PeerMessageInvalid({ reason: "The wallet's one-click answer is malformed" })
            const agreed = yield* agree(self.privateKey, result.value.responder.publicKey)
            const namespaces = cacaoSession(result.value.cacaos, fields.chains)
            if (namespaces === undefined) return yield* new PeerMessageInvalid({ reason: "The wallet signed in on no chain that was asked" })
            const session: DappSession = {
              topic: agreed.topic,
              symKey: agreed.symKey,
              namespaces,
              expiry: Math.floor((yield* Clock.currentTimeMillis) / 1000) + SEVEN_DAYS,
              peer: result.value.responder,
              pairingTopic: topic,
              optionalNamespaces: { eip155: { chains: [...fields.chains], methods: [...fields.methods], events: ["chainChanged", "accountsChanged"] } }
            }
            yield* peer.follow(agreed.topic, agreed.symKey)
            yield* save(session)
            return { session, cacaos: result.value.cacaos }
          })

        const approval = Effect.gen(function* () {
          const { proposalAnswer, authenticateAnswer } = yield* Fiber.join(published)
          return yield* authenticate === undefined || authenticateAnswer === undefined
            ? viaProposal(proposalAnswer)
            : Effect.raceFirst(viaProposal(proposalAnswer), viaAuthenticate(authenticate, authenticateAnswer))
        }).pipe(
          Effect.ensuring(
            Effect.gen(function* () {
              pairings.delete(topic)
              publishing.delete(topic)
              yield* Fiber.interrupt(published)
              yield* peer.forget(topic)
              if (responseTopic !== undefined) yield* peer.forget(responseTopic)
            })
          )
        )
        return { topic, uri, approval }
      })

    const request: DappClient["request"] = (ask) =>
      Effect.gen(function* () {
        const session = current
        const now = yield* Clock.currentTimeMillis
        if (session === undefined || session.expiry * 1000 <= now) return yield* new SessionUnavailable({ code: 4900, message: "WalletConnect session not found" })
        if (!sessionChains(session.namespaces).includes(ask.chainId)) {
          return yield* new SessionUnavailable({ code: 4901, message: `${ask.chainId} is not a chain of this session` })
        }
        return yield* peer
          .request(
            session.topic,
            "wc_sessionRequest",
            { request: { method: ask.method, params: ask.params, expiryTimestamp: Math.floor(now / 1000) + REQUEST_EXPIRY_SECONDS }, chainId: ask.chainId },
            { within: ask.within ?? REQUEST_WITHIN_MS }
          )
          .pipe(Effect.tap(() => (current === undefined ? new SessionUnavailable({ code: 4900, message: "The session ended" }) : Effect.void)))
      })

    return {
      session: () => current,
      pair,
      dropPairing: (topic) =>
        Effect.gen(function* () {
          pairings.delete(topic)
          const publishingNow = publishing.get(topic)
          publishing.delete(topic)
          if (publishingNow !== undefined) yield* Fiber.interrupt(publishingNow)
          yield* peer.forget(topic)
        }),
      request,
      ping: Effect.suspend((): Effect.Effect<void, DappError> =>
        current === undefined ? Effect.fail(new SessionUnavailable({ code: 4900, message: "WalletConnect session not found" })) : Effect.asVoid(peer.request(current.topic, "wc_sessionPing", {}))
      ),
      disconnect: Effect.gen(function* () {
        const session = current
        if (session === undefined) return
        yield* Effect.ignore(peer.notify(session.topic, "wc_sessionDelete", SDK_ERRORS.USER_DISCONNECTED).pipe(Effect.timeout(2000)))
        yield* save(undefined)
        yield* peer.forget(session.topic)
      }),
      events,
      problems: peer.problems
    }
  })
