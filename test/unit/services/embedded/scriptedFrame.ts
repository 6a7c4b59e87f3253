/**
 * A scripted embedded-wallet frame and the runtime's real core around it, for the embedded wallet's unit tests: the
 * frame answers each request from a script (a default answer per request, replaceable per test, or "hold" to never
 * answer), and the AUTH connector is the real implementation (`makeAuthLive`) over that frame, so the EmbeddedWallet
 * flows run against the real Modal, ConnectFlow, Connection and Storage.
 */
import { Deferred, Effect, Layer, PubSub, Queue, Scope, Stream, SubscriptionRef } from "effect"
import { type FrameErrorCode, SomethingWentWrong } from "../../../../src/domain/errors"
import type { FrameRequestName } from "../../../../src/domain/Frame"
import type { CaipNetwork } from "../../../../src/domain/Network"
import type { HostOptions } from "../../../../src/domain/Options"
import { coreLayer, type WalletServices } from "../../../../src/layers/Core"
import { ChainAdapters } from "../../../../src/services/ChainAdapter"
import { Connection } from "../../../../src/services/Connection"
import { Config } from "../../../../src/services/Config"
import type { Connector, WalletEvent } from "../../../../src/services/connectors/Connector"
import { Connectors } from "../../../../src/services/connectors/Connectors"
import {
  type ApprovalGate,
  EMBEDDED_CONNECTOR_ID,
  EmbeddedAuth,
  type FrameBridgeService,
  type FrameLoadFailure
} from "../../../../src/services/Embedded/EmbeddedAuth"
import { makeAuthLive } from "../../../../src/services/Embedded/authLive"
import { makeFakeChainAdapter } from "../../../../src/services/fakes/FakeWallet"
import type { FrameMessage, FramePort } from "../../../../src/services/FrameBridge/FrameBridge"
import { Platform, type PlatformInfo } from "../../../../src/services/Platform"
import { RpcTransport } from "../../../../src/services/RpcTransport/RpcTransport"
import { offlineHttpClientLayer } from "../../../../src/services/serviceHttp"
import * as Keys from "../../../../src/services/Storage/keys"
import { Storage } from "../../../../src/services/Storage/Storage"

/** The frame user's EVM address (the second anvil account). */
export const FRAME_ADDRESS = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
const FRAME_ORIGIN = "https://frame.test"

/** What the frame answers a request with: a success payload (`undefined`: a bare success), an error, or nothing. */
export type FrameAnswer =
  | { readonly ok: unknown }
  | { readonly error: string; readonly code?: FrameErrorCode; readonly retryAfterSeconds?: number }
  | "hold"

/** A request the app posted to the frame. */
export interface Posted {
  readonly id: string
  readonly name: string
  readonly payload: unknown
}

/** The scripted frame: its port, what it was asked, and its script. */
export interface ScriptedFrame {
  readonly port: FramePort
  readonly posted: Array<Posted>
  /** Each time the frame was shown over the modal and hidden again, in order. */
  readonly reveals: ReadonlyArray<"shown" | "hidden">
  /** The names of the requests posted, in order. */
  readonly names: () => ReadonlyArray<string>
  /** Replaces the answer to `name` from now on. */
  readonly answer: (name: FrameRequestName, reply: (payload: unknown) => FrameAnswer) => void
  /** Answers the requests of `name` the frame held so far (a link opened while the frame waited). */
  readonly release: (name: FrameRequestName, reply: FrameAnswer) => void
  /** The approval gate the EmbeddedWallet service set on the AUTH connector (its flows built on the first request). */
  readonly gate: () => ApprovalGate | undefined
  /** What the EmbeddedWallet service set on the AUTH connector: its flows' gate, built when first run. */
  readonly flows: () => Effect.Effect<ApprovalGate> | undefined
  /** Sets the gate (the fake AUTH connector's setGate). */
  readonly setGate: (gate: Effect.Effect<ApprovalGate>) => void
  /** From now on the frame cannot be loaded (`undefined`: it can again): the AUTH connector's `frame` fails so. */
  readonly failLoad: (failure: FrameLoadFailure | undefined) => void
  /** Why the frame cannot be loaded now, if it cannot. */
  readonly loadFailure: () => FrameLoadFailure | undefined
}

const field = (payload: unknown, key: string): unknown =>
  typeof payload === "object" && payload !== null ? (payload as Record<string, unknown>)[key] : undefined

/** A frame that said READY and answers like a frame whose user logs in with a code and is known on every chain. */
export const makeScriptedFrame: Effect.Effect<ScriptedFrame> = Effect.gen(function* () {
  const inbox = yield* Queue.unbounded<FrameMessage>()
  const frameWindow = { frame: true }
  const posted: Array<Posted> = []
  const reveals: Array<"shown" | "hidden"> = []
  let newEmail = ""
  let flows: Effect.Effect<ApprovalGate> | undefined
  let loadFailure: FrameLoadFailure | undefined
  // The chain the host last chose: GET_USER without one answers on it, as the frame does.
  let chainId: unknown = 1
  const defaults: Partial<Record<string, (payload: unknown) => FrameAnswer>> = {
    IS_CONNECTED: () => ({ ok: { isConnected: true } }),
    SWITCH_NETWORK: (payload) => {
      chainId = field(payload, "chainId")
      return { ok: { chainId } }
    },
    GET_USER: (payload) => ({
      ok: { address: FRAME_ADDRESS, chainId: field(payload, "chainId") ?? chainId, accounts: [{ address: FRAME_ADDRESS, type: "eoa" }] }
    }),
    CONNECT_EMAIL: () => ({ ok: { action: "VERIFY_OTP" } }),
    CONNECT_DEVICE: () => ({ ok: undefined }),
    CONNECT_OTP: () => ({ ok: undefined }),
    UPDATE_EMAIL: (payload) => {
      newEmail = String(field(payload, "email"))
      return { ok: { action: "VERIFY_PRIMARY_OTP" } }
    },
    UPDATE_EMAIL_PRIMARY_OTP: () => ({ ok: undefined }),
    UPDATE_EMAIL_SECONDARY_OTP: () => ({ ok: { newEmail } }),
    AWAIT_UPDATE_EMAIL: () => ({ ok: { email: newEmail } }),
    RPC_REQUEST: (payload) => ({ ok: `result of ${String(field(payload, "method"))}` }),
    SIGN_OUT: () => ({ ok: undefined })
  }
  const script = { ...defaults }
  const deliver = (data: unknown) => Queue.offerUnsafe(inbox, { origin: FRAME_ORIGIN, source: frameWindow, data })
  const held: Array<Posted> = []
  const reply = (post: Posted, answer: FrameAnswer) => {
    const { id, name } = post
    if (answer === "hold") return void held.push(post)
    if ("error" in answer) {
      const { error, ...refusal } = answer
      return deliver({ id, type: `@wr-frame/${name}_ERROR`, payload: { message: error, ...refusal } })
    }
    deliver(answer.ok === undefined ? { id, type: `@wr-frame/${name}_SUCCESS` } : { id, type: `@wr-frame/${name}_SUCCESS`, payload: answer.ok })
  }
  deliver({ type: "@wr-frame/READY" })
  return {
    port: {
      origin: FRAME_ORIGIN,
      window: frameWindow,
      post: (message) => {
        const { id, type } = message as { readonly id: string; readonly type: string }
        const name = type.slice("@wr-app/".length)
        const payload = field(message, "payload")
        const post = { id, name, payload }
        posted.push(post)
        reply(post, script[name]?.(payload) ?? { error: `The scripted frame has no answer to ${name}` })
      },
      messages: Stream.fromQueue(inbox),
      reveal: () =>
        Effect.acquireRelease(
          Effect.sync(() => void reveals.push("shown")),
          () => Effect.sync(() => void reveals.push("hidden"))
        )
    },
    reveals,
    posted,
    names: () => posted.map((post) => post.name),
    answer: (name, answer) => void (script[name] = answer),
    release: (name, answer) => {
      for (const post of held.splice(0).filter((entry) => entry.name === name)) reply(post, answer)
    },
    gate: () => {
      const gate = flows
      return gate === undefined
        ? undefined
        : { approved: (request, ask) => Effect.flatMap(gate, (set) => set.approved(request, ask)), disallowed: (method) => Effect.flatMap(gate, (set) => set.disallowed(method)) }
    },
    flows: () => flows,
    setGate: (next) => void (flows = next),
    failLoad: (failure) => void (loadFailure = failure),
    loadFailure: () => loadFailure
  }
})

/**
 * The AUTH connector as `EmbeddedAuth.make` builds it, but over the scripted frame's port: its implementation (the
 * bridge, connect, the providers) is the real one.
 */
const scriptedAuthLayer = (frame: ScriptedFrame): Layer.Layer<EmbeddedAuth, never, Config | Storage> =>
  Layer.effect(EmbeddedAuth)(
    Effect.gen(function* () {
      const config = yield* Config
      const storage = yield* Storage
      const scope = yield* Effect.scope
      const events = yield* PubSub.unbounded<WalletEvent>()
      // As the real connector: `whenLoaded` waits for a load something else asked for.
      const ready = yield* Deferred.make<FrameBridgeService>()
      const live = yield* Effect.cached(
        makeAuthLive({
          config,
          storage,
          gate: frame.flows,
          emit: (event) => PubSub.publish(events, event).pipe(Effect.asVoid),
          port: frame.port
        }).pipe(
          Effect.tap((auth) => Deferred.succeed(ready, auth.bridge)),
          Effect.provideService(Scope.Scope, scope)
        )
      )
      const loaded = Effect.mapError(live, (error) => new SomethingWentWrong({ reason: error.message }))
      const families = [...new Set(config.networks.map((network) => network.chainNamespace))].filter(
        (namespace) => namespace === "eip155" || namespace === "solana"
      )
      const connector: Connector = {
        info: {
          id: EMBEDDED_CONNECTOR_ID,
          name: "Email",
          type: "AUTH",
          chain: families[0] ?? "eip155",
          chains: config.networks.map((network) => network.caipNetworkId)
        },
        namespaces: families,
        memberIds: [],
        connect: (networks) => Effect.flatMap(loaded, (auth) => auth.connect(networks)),
        reconnect: (networks) => Effect.flatMap(loaded, (auth) => auth.reconnect(networks)),
        disconnect: Effect.flatMap(Effect.orDie(live), (auth) => auth.disconnect),
        events: Stream.fromPubSub(events)
      }
      return {
        connector,
        frame: Effect.suspend(() => {
          const failure = frame.loadFailure()
          return failure === undefined ? Effect.map(live, (auth) => auth.bridge) : Effect.fail(failure)
        }),
        frameLoaded: Effect.succeed(true),
        whenLoaded: Deferred.await(ready),
        setPreferredAccount: (type: "eoa" | "smartAccount") =>
          Effect.flatMap(loaded, (auth) => auth.setPreferredAccount(type)),
        setGate: (gate: Effect.Effect<ApprovalGate>) => Effect.sync(() => frame.setGate(gate))
      }
    })
  )

/** The runtime's core (as `testLayer` builds it) with the AUTH connector over `frame`, when given. */
export const embeddedCore = (options: HostOptions, frame?: ScriptedFrame, platform: Partial<PlatformInfo> = {}): Layer.Layer<WalletServices> => {
  // One storage and one configuration for the core and the connector (layers are shared by reference in a build).
  const storage = Storage.layerMemory
  const config = Config.layer(options)
  const auth = frame === undefined ? undefined : scriptedAuthLayer(frame).pipe(Layer.provide(storage), Layer.provide(config))
  const connectors =
    auth === undefined
      ? Connectors.layer([])
      : Connectors.layerFrom([Effect.flatMap(EmbeddedAuth, (service) => SubscriptionRef.make<ReadonlyArray<Connector>>([service.connector]))]).pipe(
          Layer.provide(auth)
        )
  return coreLayer(
    Layer.mergeAll(
      storage,
      Platform.layerFixed(platform),
      config,
      connectors,
      ChainAdapters.layer([makeFakeChainAdapter("eip155"), makeFakeChainAdapter("solana")]),
      offlineHttpClientLayer,
      RpcTransport.layerTest((network, call) =>
        Effect.fail(new SomethingWentWrong({ reason: `No RPC in the test layer (${call.method} on ${network.caipNetworkId})` }))
      ),
      auth ?? Layer.empty
    )
  )
}

/** An embedded session on eip155 kept by an earlier page, restored on `network` as a reload restores it. */
export const restoreEmbeddedSession = (network: CaipNetwork) =>
  Effect.gen(function* () {
    const connection = yield* Connection
    const storage = yield* Storage
    yield* storage.set(Keys.connectionStatus("eip155"), "connected")
    yield* storage.set(Keys.connectedConnector("eip155"), { id: "embedded", type: "AUTH" })
    // The connection read the stored status when it was built; restore the family as a reload would.
    yield* connection.updateAccount("eip155", (account) => ({ ...account, status: "reconnecting" }))
    yield* SubscriptionRef.update(connection.state, (s) => ({
      ...s,
      namespaces: { ...s.namespaces, eip155: { ...s.namespaces.eip155!, connector: { id: "embedded", type: "AUTH" as const } } }
    }))
    yield* connection.restore(() => Effect.succeed(network))
  })
