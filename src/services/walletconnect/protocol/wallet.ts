/**
 * The wallet's side of WalletConnect's sign protocol, on the same engine as the dapp's: pairing from a URI, session
 * proposals and one-click sign-in requests to approve or refuse, the session settled, requests to answer, and the
 * wallet's own events, updates, extensions and deletes. It serves the devstack's test wallet and the integration
 * tests; hosts receive none of it (the library's entry points do not import it).
 */
import { Clock, Data, Effect, Option, PubSub, Schema, type Scope } from "effect"
import type * as KeyValueStore from "effect/persistence/KeyValueStore"
import { cacaoSession } from "./cacao"
import { generateKeyPair, hashKey, hashText, type KeyAgreementFailed } from "./crypto"
import { agree, type Answer, type Engine, type Incoming, makeEngine, type NoAnswer, type PeerRefused, type Problem } from "./engine"
import { makeRelayClient, type RelayUnavailable, type SocketConstructor } from "./relay"
import { generateClientSeed } from "./relayJwt"
import { type RpcError, SDK_ERRORS } from "./rpc"
import {
  AuthenticateParams,
  type Cacao,
  EventParams,
  Metadata,
  ProposeParams,
  RequestParams,
  SessionNamespaces,
  sessionChains
} from "./sign"
import { parsePairingUri } from "./uri"
import { resolveAttestation, type Validation, validationOf } from "./verify"

/** A session as the wallet keeps it. */
export const WalletSession = Schema.Struct({
  topic: Schema.String,
  symKey: Schema.String,
  namespaces: SessionNamespaces,
  expiry: Schema.Number,
  peer: Schema.Struct({ publicKey: Schema.String, metadata: Metadata }),
  pairingTopic: Schema.optionalKey(Schema.String)
})
/** A session as the wallet keeps it. */
export type WalletSession = typeof WalletSession.Type

/** A request of the wallet's that cannot be made: an unknown proposal, request or session, or a bad URI. */
export class WalletActionFailed extends Data.TaggedError("WalletActionFailed")<{ readonly message: string }> {}

/**
 * What WalletConnect's Verify says of a proposal or request, when the wallet asks a Verify server: whether the origin
 * that registered it is the one the dapp's metadata claims (VALID), another (INVALID), or none registered (UNKNOWN).
 */
export interface Verification {
  readonly validation: Validation
  readonly origin: string | undefined
  readonly isScam: boolean | null | undefined
}

/** What reaches the wallet; `verified` is there when the wallet asks a Verify server. */
export type WalletIncoming =
  | { readonly _tag: "SessionProposal"; readonly id: number; readonly topic: string; readonly params: ProposeParams; readonly verified: Verification | undefined }
  | {
      readonly _tag: "SessionAuthenticate"
      readonly id: number
      readonly topic: string
      readonly params: AuthenticateParams
      readonly verified: Verification | undefined
    }
  | {
      readonly _tag: "SessionRequest"
      readonly id: number
      readonly topic: string
      readonly params: { readonly request: { readonly method: string; readonly params: unknown }; readonly chainId: string }
      readonly verified: Verification | undefined
    }
  | { readonly _tag: "SessionDelete"; readonly topic: string }

/** What a wallet client is made from. */
export interface WalletClientOptions {
  readonly relayUrl: string
  readonly projectId: string
  readonly metadata: Metadata
  readonly store: KeyValueStore.KeyValueStore
  readonly storagePrefix?: string | undefined
  readonly WebSocket: SocketConstructor
  /** Whether it answers one-click sign-in (`wc_sessionAuthenticate`) now; without, it gets the proposal sent beside. */
  readonly oneClick: () => boolean
  /** A Verify server to ask whose each proposal and request is (its answer awaited VERIFY_RESOLVE_WITHIN_MS at most). */
  readonly verifyUrl?: string | undefined
}

/** How long the wallet waits for the Verify server's answer before it shows a request as unverified. */
export const VERIFY_RESOLVE_WITHIN_MS = 2000

type WalletError = WalletActionFailed | RelayUnavailable | PeerRefused | NoAnswer | KeyAgreementFailed

/** The wallet's client. */
export interface WalletClient {
  readonly pair: (uri: string) => Effect.Effect<void, WalletError>
  readonly approveSession: (id: number, namespaces: SessionNamespaces) => Effect.Effect<WalletSession, WalletError>
  readonly rejectSession: (id: number, reason: RpcError) => Effect.Effect<void, WalletError>
  readonly approveSessionAuthenticate: (id: number, cacaos: ReadonlyArray<Cacao>) => Effect.Effect<WalletSession | undefined, WalletError>
  readonly rejectSessionAuthenticate: (id: number, reason: RpcError) => Effect.Effect<void, WalletError>
  readonly respond: (topic: string, id: number, answer: Answer) => Effect.Effect<void, WalletError>
  readonly emitEvent: (topic: string, chainId: string, event: { readonly name: string; readonly data: unknown }) => Effect.Effect<void, WalletError>
  readonly update: (topic: string, namespaces: SessionNamespaces) => Effect.Effect<void, WalletError>
  readonly extend: (topic: string) => Effect.Effect<void, WalletError>
  readonly ping: (topic: string) => Effect.Effect<void, WalletError>
  readonly disconnect: (topic: string, reason: RpcError) => Effect.Effect<void, WalletError>
  readonly sessions: () => ReadonlyArray<WalletSession>
  /** Proposals, one-click requests and session requests not answered yet. */
  readonly pending: () => ReadonlyArray<WalletIncoming>
  readonly incoming: PubSub.PubSub<WalletIncoming>
  readonly problems: PubSub.PubSub<Problem>
}

// JSON drops what is undefined: the stored shapes have optional keys, put back as `undefined` when read.
const VerificationSchema = Schema.Struct({
  validation: Schema.Literals(["VALID", "INVALID", "UNKNOWN"]),
  origin: Schema.optionalKey(Schema.String),
  isScam: Schema.optionalKey(Schema.NullOr(Schema.Boolean))
})

/** A pairing the wallet joined, as it keeps it across reloads: its key, the methods its URI names, its expiry (s). */
const StoredPairing = Schema.Struct({
  topic: Schema.String,
  symKey: Schema.String,
  methods: Schema.Array(Schema.String),
  expiry: Schema.optionalKey(Schema.Number)
})

/** What waits for the visitor's decision, as the wallet keeps it across reloads (as walletkit does). */
const StoredWaiting = Schema.Union([
  Schema.Struct({ _tag: Schema.Literal("SessionProposal"), id: Schema.Number, topic: Schema.String, params: ProposeParams, verified: Schema.optionalKey(VerificationSchema) }),
  Schema.Struct({
    _tag: Schema.Literal("SessionAuthenticate"),
    id: Schema.Number,
    topic: Schema.String,
    params: AuthenticateParams,
    verified: Schema.optionalKey(VerificationSchema)
  }),
  Schema.Struct({ _tag: Schema.Literal("SessionRequest"), id: Schema.Number, topic: Schema.String, params: RequestParams, verified: Schema.optionalKey(VerificationSchema) })
])

type Waiting = Exclude<WalletIncoming, { readonly _tag: "SessionDelete" }>
type Stored = typeof StoredWaiting.Type

const toStored = (entry: Waiting): Stored => {
  const { verified, ...rest } = entry
  if (verified === undefined) return rest as Stored
  const { origin, isScam, validation } = verified
  return {
    ...rest,
    verified: { validation, ...(origin === undefined ? {} : { origin }), ...(isScam === undefined ? {} : { isScam }) }
  } as Stored
}

const fromStored = (entry: Stored): Waiting => {
  const { verified } = entry
  return {
    ...entry,
    verified: verified === undefined ? undefined : { validation: verified.validation, origin: verified.origin, isScam: verified.isScam }
  } as Waiting
}

const SEVEN_DAYS = 7 * 86_400
const decodePairings = Schema.decodeUnknownOption(Schema.fromJsonString(Schema.Array(StoredPairing)))
const decodeWaiting = Schema.decodeUnknownOption(Schema.fromJsonString(Schema.Array(StoredWaiting)))
const encodePairings = Schema.encodeSync(Schema.fromJsonString(Schema.Array(StoredPairing)))
const encodeWaiting = Schema.encodeSync(Schema.fromJsonString(Schema.Array(StoredWaiting)))
const decodeSessions = Schema.decodeUnknownOption(Schema.fromJsonString(Schema.Array(WalletSession)))
const decodePropose = Schema.decodeUnknownOption(ProposeParams)
const decodeAuthenticate = Schema.decodeUnknownOption(AuthenticateParams)
const decodeRequest = Schema.decodeUnknownOption(RequestParams)
const decodeEvent = Schema.decodeUnknownOption(EventParams)
const failed = (message: string) => new WalletActionFailed({ message })

/** Makes the wallet's client; sessions kept by an earlier page are followed again. */
export const makeWalletClient = (options: WalletClientOptions): Effect.Effect<WalletClient, never, Scope.Scope> =>
  Effect.gen(function* () {
    const prefix = `${options.storagePrefix ?? ""}wc@2:wallet:`
    const store = options.store
    const read = (key: string) => Effect.orElseSucceed(store.get(`${prefix}${key}`), () => undefined)
    const write = (key: string, value: string) => Effect.ignore(store.set(`${prefix}${key}`, value))
    let seed = yield* read("relay-seed")
    if (seed === undefined || !/^[0-9a-f]{64}$/.test(seed)) {
      seed = generateClientSeed()
      yield* write("relay-seed", seed)
    }
    const relay = yield* makeRelayClient({ relayUrl: options.relayUrl, projectId: options.projectId, seed, WebSocket: options.WebSocket })
    const incoming = yield* PubSub.unbounded<WalletIncoming>()
    const sessions = new Map<string, WalletSession>()
    const pairings = new Map<string, typeof StoredPairing.Type>()
    const pending = new Map<number, Waiting>()
    let engine: Engine | undefined

    const persist = Effect.suspend(() => write("sessions", JSON.stringify(Schema.encodeSync(Schema.Array(WalletSession))([...sessions.values()]))))
    // Pairings and what waits for a decision outlive a reload too: a proposal scanned before it can still be approved.
    const persistWaiting = Effect.suspend(() =>
      Effect.andThen(write("pairings", encodePairings([...pairings.values()])), write("waiting", encodeWaiting([...pending.values()].map(toStored))))
    )

    const arrive = (entry: Waiting) =>
      Effect.andThen(
        Effect.andThen(
          Effect.sync(() => pending.set(entry.id, entry)),
          persistWaiting
        ),
        PubSub.publish(incoming, entry)
      )

    // Whose the message is, by the attestation its text names (UNKNOWN when the server has none, fails or is slow).
    const verification = (text: string, claimedUrl: string): Effect.Effect<Verification | undefined> => {
      const verifyUrl = options.verifyUrl
      if (verifyUrl === undefined) return Effect.succeed(undefined)
      return hashText(text).pipe(
        Effect.flatMap((attestationId) => resolveAttestation(verifyUrl, attestationId)),
        Effect.timeout(VERIFY_RESOLVE_WITHIN_MS),
        Effect.map((attestation): Verification => ({ validation: validationOf(claimedUrl, attestation), origin: attestation?.origin, isScam: attestation?.isScam })),
        Effect.orElseSucceed((): Verification => ({ validation: "UNKNOWN", origin: undefined, isScam: undefined }))
      )
    }

    const handle = ({ topic, request, text }: Incoming): Effect.Effect<Answer | undefined> =>
      Effect.gen(function* () {
        const session = sessions.get(topic)
        const pairing = pairings.get(topic)
        switch (request.method) {
          case "wc_sessionPropose": {
            const params = decodePropose(request.params)
            if (pairing === undefined || Option.isNone(params)) return { error: { code: -32602, message: "Invalid proposal" } }
            // The dapp asked for one-click sign-in beside it: a wallet that answers one-click leaves the proposal.
            if (options.oneClick() && pairing.methods.includes("wc_sessionAuthenticate")) return undefined
            const verified = yield* verification(text, params.value.proposer.metadata.url)
            yield* arrive({ _tag: "SessionProposal", id: request.id, topic, params: params.value, verified })
            return undefined
          }
          case "wc_sessionAuthenticate": {
            const params = decodeAuthenticate(request.params)
            if (pairing === undefined || Option.isNone(params)) return { error: { code: -32602, message: "Invalid authenticate request" } }
            if (!options.oneClick()) return undefined
            const verified = yield* verification(text, params.value.requester.metadata.url)
            yield* arrive({ _tag: "SessionAuthenticate", id: request.id, topic, params: params.value, verified })
            return undefined
          }
          case "wc_sessionRequest": {
            const params = decodeRequest(request.params)
            if (session === undefined || Option.isNone(params)) return { error: { code: -32602, message: "Invalid request" } }
            const { chainId } = params.value
            const namespace = Object.entries(session.namespaces).find(([key]) => key === chainId.split(":")[0] || key === chainId)?.[1]
            if (!sessionChains(session.namespaces).includes(chainId)) return { error: SDK_ERRORS.UNSUPPORTED_CHAINS }
            if (namespace === undefined || !namespace.methods.includes(params.value.request.method)) return { error: SDK_ERRORS.UNSUPPORTED_METHODS }
            const verified = yield* verification(text, session.peer.metadata.url)
            yield* arrive({ _tag: "SessionRequest", id: request.id, topic, params: { request: params.value.request, chainId }, verified })
            return undefined
          }
          case "wc_sessionDelete":
            if (session === undefined) return { result: true }
            sessions.delete(topic)
            for (const [id, entry] of pending) if (entry.topic === topic) pending.delete(id)
            yield* persist
            yield* persistWaiting
            // Answered before the topic's key is forgotten.
            yield* Effect.ignore(engine!.respond(topic, request, { result: true }))
            yield* engine!.forget(topic)
            yield* PubSub.publish(incoming, { _tag: "SessionDelete", topic })
            return undefined
          case "wc_sessionEvent":
            return session !== undefined && Option.isSome(decodeEvent(request.params)) ? { result: true } : { error: { code: -32602, message: "Invalid event" } }
          case "wc_sessionPing":
          case "wc_pairingPing":
            return { result: true }
          case "wc_pairingDelete":
            pairings.delete(topic)
            for (const [id, entry] of pending) if (entry.topic === topic) pending.delete(id)
            yield* persistWaiting
            yield* Effect.ignore(engine!.respond(topic, request, { result: true }))
            yield* engine!.forget(topic)
            return undefined
          default:
            return { error: SDK_ERRORS.METHOD_NOT_FOUND }
        }
      })

    engine = yield* makeEngine(relay, handle)
    const peer = engine

    const stored = decodeSessions(yield* read("sessions"))
    const now = Math.floor((yield* Clock.currentTimeMillis) / 1000)
    for (const session of Option.getOrElse(stored, () => [])) {
      if (session.expiry <= now) continue
      sessions.set(session.topic, session)
      peer.keep(session.topic, session.symKey)
    }
    // Pairings still alive and what waited on them or on a session, from an earlier page: kept, their topics followed.
    for (const pairing of Option.getOrElse(decodePairings(yield* read("pairings")), () => [])) {
      if (pairing.expiry !== undefined && pairing.expiry <= now) continue
      pairings.set(pairing.topic, pairing)
      peer.keep(pairing.topic, pairing.symKey)
    }
    for (const entry of Option.getOrElse(decodeWaiting(yield* read("waiting")), () => [])) {
      const expiry = entry._tag === "SessionRequest" ? entry.params.request.expiryTimestamp : entry.params.expiryTimestamp
      const alive = (expiry === undefined || expiry > now) && (sessions.has(entry.topic) || pairings.has(entry.topic))
      if (alive) pending.set(entry.id, fromStored(entry))
    }
    yield* persistWaiting
    const followed = [...sessions.values(), ...pairings.values()].map(({ topic, symKey }) => ({ topic, symKey }))
    if (followed.length > 0) yield* Effect.forkScoped(Effect.ignore(peer.followAll(followed)))

    const take = <T extends WalletIncoming["_tag"]>(id: number, tag: T) =>
      Effect.suspend(() => {
        const entry = pending.get(id)
        if (entry === undefined || entry._tag !== tag) return Effect.fail(failed(`No pending ${tag} with id ${id}`))
        pending.delete(id)
        return Effect.as(persistWaiting, entry as Extract<WalletIncoming, { readonly _tag: T }>)
      })

    const sessionOf = (topic: string) =>
      Effect.suspend(() => {
        const session = sessions.get(topic)
        return session === undefined ? Effect.fail(failed(`No session on topic ${topic}`)) : Effect.succeed(session)
      })

    const save = (session: WalletSession) =>
      Effect.andThen(
        Effect.sync(() => sessions.set(session.topic, session)),
        persist
      )

    // The answer to a one-click request goes on the topic its requester's key names, sealed with a key agreed with it.
    const answerAuthenticate = (entry: Extract<WalletIncoming, { readonly _tag: "SessionAuthenticate" }>, answer: (publicKey: string) => Answer) =>
      Effect.gen(function* () {
        const self = yield* generateKeyPair
        const requester = entry.params.requester.publicKey
        const agreed = yield* agree(self.privateKey, requester)
        yield* peer.respond(entry.topic, { id: entry.id, method: "wc_sessionAuthenticate" }, answer(self.publicKey), {
          seal: { type: 1, senderPublicKey: self.publicKey },
          symKey: agreed.symKey,
          responseTopic: yield* hashKey(requester)
        })
        return agreed
      })

    return {
      pair: (uri) =>
        Effect.gen(function* () {
          const parsed = yield* parsePairingUri(uri)
          if (parsed === undefined) return yield* failed("Not a WalletConnect pairing URI")
          const now = Math.floor((yield* Clock.currentTimeMillis) / 1000)
          if (parsed.expiryTimestamp !== undefined && parsed.expiryTimestamp <= now) return yield* failed("The pairing URI has expired")
          pairings.set(parsed.topic, {
            topic: parsed.topic,
            symKey: parsed.symKey,
            methods: parsed.methods,
            ...(parsed.expiryTimestamp === undefined ? {} : { expiry: parsed.expiryTimestamp })
          })
          yield* persistWaiting
          yield* peer.follow(parsed.topic, parsed.symKey)
        }),
      approveSession: (id, namespaces) =>
        Effect.gen(function* () {
          const entry = yield* take(id, "SessionProposal")
          const self = yield* generateKeyPair
          const agreed = yield* agree(self.privateKey, entry.params.proposer.publicKey)
          const now = Math.floor((yield* Clock.currentTimeMillis) / 1000)
          const session: WalletSession = {
            topic: agreed.topic,
            symKey: agreed.symKey,
            namespaces,
            expiry: now + SEVEN_DAYS,
            peer: entry.params.proposer,
            pairingTopic: entry.topic
          }
          peer.keep(agreed.topic, agreed.symKey)
          yield* save(session)
          // The answer, the settlement and the session's subscription go out together: the relay keeps what is
          // published on a topic for who subscribes later, so none has to wait for another's round trip.
          yield* Effect.all(
            [
              peer.follow(agreed.topic, agreed.symKey),
              peer.respond(entry.topic, { id, method: "wc_sessionPropose" }, { result: { relay: { protocol: "irn" }, responderPublicKey: self.publicKey } }),
              peer.send(agreed.topic, "wc_sessionSettle", {
                relay: { protocol: "irn" },
                namespaces,
                controller: { publicKey: self.publicKey, metadata: options.metadata },
                expiry: session.expiry,
                pairingTopic: entry.topic
              })
            ],
            { concurrency: "unbounded", discard: true }
          )
          return session
        }),
      rejectSession: (id, reason) =>
        Effect.flatMap(take(id, "SessionProposal"), (entry) => peer.respond(entry.topic, { id, method: "wc_sessionPropose" }, { error: reason })),
      approveSessionAuthenticate: (id, cacaos) =>
        Effect.gen(function* () {
          const entry = yield* take(id, "SessionAuthenticate")
          let responder = ""
          const agreed = yield* answerAuthenticate(entry, (publicKey) => {
            responder = publicKey
            return { result: { cacaos, responder: { publicKey, metadata: options.metadata } } }
          })
          const namespaces = cacaoSession(cacaos, entry.params.authPayload.chains)
          if (namespaces === undefined || responder === "") return undefined
          const session: WalletSession = {
            topic: agreed.topic,
            symKey: agreed.symKey,
            namespaces,
            expiry: Math.floor((yield* Clock.currentTimeMillis) / 1000) + SEVEN_DAYS,
            peer: entry.params.requester,
            pairingTopic: entry.topic
          }
          yield* peer.follow(agreed.topic, agreed.symKey)
          yield* save(session)
          return session
        }),
      rejectSessionAuthenticate: (id, reason) => Effect.asVoid(Effect.flatMap(take(id, "SessionAuthenticate"), (entry) => answerAuthenticate(entry, () => ({ error: reason })))),
      respond: (topic, id, answer) =>
        Effect.gen(function* () {
          const entry = yield* take(id, "SessionRequest")
          if (entry.topic !== topic) return yield* failed(`Request ${id} is not of topic ${topic}`)
          yield* peer.respond(topic, { id, method: "wc_sessionRequest" }, answer)
        }),
      emitEvent: (topic, chainId, event) =>
        Effect.flatMap(sessionOf(topic), () => Effect.asVoid(peer.send(topic, "wc_sessionEvent", { event, chainId }))),
      update: (topic, namespaces) =>
        Effect.gen(function* () {
          const session = yield* sessionOf(topic)
          yield* peer.request(topic, "wc_sessionUpdate", { namespaces }, { within: 30_000 })
          yield* save({ ...session, namespaces })
        }),
      extend: (topic) =>
        Effect.gen(function* () {
          const session = yield* sessionOf(topic)
          const expiry = Math.floor((yield* Clock.currentTimeMillis) / 1000) + SEVEN_DAYS
          yield* peer.request(topic, "wc_sessionExtend", { expiry }, { within: 30_000 })
          yield* save({ ...session, expiry })
        }),
      ping: (topic) => Effect.asVoid(peer.request(topic, "wc_sessionPing", {})),
      disconnect: (topic, reason) =>
        Effect.gen(function* () {
          yield* sessionOf(topic)
          yield* peer.notify(topic, "wc_sessionDelete", reason)
          sessions.delete(topic)
          for (const [id, entry] of pending) if (entry.topic === topic) pending.delete(id)
          yield* persist
          yield* persistWaiting
          yield* peer.forget(topic)
        }),
      sessions: () => [...sessions.values()],
      pending: () => [...pending.values()],
      incoming,
      problems: peer.problems
    }
  })
