/**
 * Our WalletConnect wallet for the devstack's test wallet page and the Node tests, over the sign protocol of
 * `src/services/walletconnect/protocol/wallet.ts`, with a promise API in the words wallets use (pair, approve or reject
 * a proposal or a one-click request, answer requests, emit events, disconnect) and the helpers a wallet needs: the
 * namespaces approving a proposal with the accounts it has, the one-click payload narrowed to what it supports, its
 * CACAOs, and the protocol's error objects. Browser-safe (no `node:` imports).
 */
import { Cause, Effect, Exit, Scope, Stream } from "effect"
import * as KeyValueStore from "effect/persistence/KeyValueStore"
import {

  encodeRecap,
  formatAuthMessage as formatCacaoMessage,
  makeRecap,
  methodsOfRecap,
  recapOf,
  statementWithRecap,
  type CacaoPayload
} from "../../src/services/walletconnect/protocol/cacao"
import type { SocketConstructor } from "../../src/services/walletconnect/protocol/relay"
import { type RpcError, SDK_ERRORS } from "../../src/services/walletconnect/protocol/rpc"
import type { AuthenticateParams, Cacao, Metadata, ProposalNamespaces, ProposeParams, SessionNamespaces } from "../../src/services/walletconnect/protocol/sign"
import {
  makeWalletClient,
  type Verification,
  type WalletClient,
  type WalletIncoming,
  type WalletSession
} from "../../src/services/walletconnect/protocol/wallet"

export type { Cacao, CacaoPayload, ProposeParams, SessionNamespaces, Verification, WalletSession }

/** A protocol error object by name (`USER_REJECTED` is 5000, `USER_DISCONNECTED` 6000, …). */
export const sdkError = (name: keyof typeof SDK_ERRORS, detail?: string): RpcError => {
  const error = SDK_ERRORS[name]
  return detail === undefined ? { ...error } : { code: error.code, message: `${error.message} ${detail}` }
}

/** A namespace the wallet supports: its chains, the methods and events it answers, and its accounts (CAIP-10). */
export interface SupportedNamespace {
  readonly chains: ReadonlyArray<string>
  readonly methods: ReadonlyArray<string>
  readonly events: ReadonlyArray<string>
  readonly accounts: ReadonlyArray<string>
}

/**
 * The namespaces approving a proposal with what the wallet supports: for each namespace asked (required or optional)
 * that the wallet has, the chains asked that it has, the methods and events asked that it answers, and its accounts
 * on those chains; a namespace left with no account is dropped. Throws when a required namespace is not covered.
 */
export const approvedNamespaces = (
  proposal: { readonly requiredNamespaces?: ProposalNamespaces | undefined; readonly optionalNamespaces?: ProposalNamespaces | undefined },
  supported: Readonly<Record<string, SupportedNamespace>>
): Record<string, { chains: Array<string>; methods: Array<string>; events: Array<string>; accounts: Array<string> }> => {
  const result: Record<string, { chains: Array<string>; methods: Array<string>; events: Array<string>; accounts: Array<string> }> = {}
  const add = (key: string, asked: ProposalNamespaces[string], required: boolean) => {
    const namespace = key.includes(":") ? key.slice(0, key.indexOf(":")) : key
    const has = supported[namespace]
    const askedChains = key.includes(":") ? [key] : (asked.chains ?? [])
    const chains = askedChains.filter((chain) => has?.chains.includes(chain))
    if (required && (has === undefined || chains.length !== askedChains.length)) throw new Error(`Required namespace ${key} is not supported`)
    if (has === undefined) return
    const entry = (result[namespace] ??= { chains: [], methods: [], events: [], accounts: [] })
    const merge = (into: Array<string>, values: ReadonlyArray<string>) => {
      for (const value of values) if (!into.includes(value)) into.push(value)
    }
    merge(entry.chains, chains)
    merge(entry.methods, has.methods.filter((method) => asked.methods.includes(method)))
    merge(entry.events, has.events.filter((event) => asked.events.includes(event)))
    merge(entry.accounts, has.accounts.filter((account) => chains.some((chain) => account.startsWith(`${chain}:`))))
  }
  for (const [key, asked] of Object.entries(proposal.requiredNamespaces ?? {})) add(key, asked, true)
  for (const [key, asked] of Object.entries(proposal.optionalNamespaces ?? {})) add(key, asked, false)
  for (const [key, entry] of Object.entries(result)) if (entry.accounts.length === 0 || entry.chains.length === 0) delete result[key]
  return result
}

/** The payload of a one-click request (`wc_sessionAuthenticate`'s `authPayload`). */
export type AuthPayload = AuthenticateParams["authPayload"]

/** The methods a one-click request's ReCap asks for. */
export const authMethods = (payload: Pick<AuthPayload, "resources">): ReadonlyArray<string> => {
  const recap = recapOf(payload.resources)
  return recap === undefined ? [] : methodsOfRecap(recap)
}

/**
 * A one-click payload narrowed to what the wallet has: the chains asked that it has, the ReCap's methods that it
 * answers (with those chains as the ReCap's limits), and the ReCap sentence in the statement. Throws when it has
 * none of the chains, or answers none of the methods asked.
 */
export const populateAuthPayload = (payload: AuthPayload, wallet: { readonly chains: ReadonlyArray<string>; readonly methods: ReadonlyArray<string> }): AuthPayload => {
  const chains = payload.chains.filter((chain) => wallet.chains.includes(chain))
  if (chains.length === 0) throw new Error("No supported chains")
  const recap = recapOf(payload.resources)
  if (recap === undefined) return { ...payload, chains }
  const asked = methodsOfRecap(recap)
  const methods = asked.filter((method) => wallet.methods.includes(method))
  if (asked.length > 0 && methods.length === 0) throw new Error(`Supported methods don't satisfy the requested: ${JSON.stringify(asked)}`)
  const narrowed = { att: { ...recap.att, ...makeRecap("eip155", "request", methods, { chains }).att } }
  const resources = [...(payload.resources ?? []).slice(0, -1), encodeRecap(narrowed)]
  return { ...payload, chains, resources, statement: statementWithRecap(payload.statement, narrowed) }
}

/** The CACAO of a payload signed by `iss` (`did:pkh:<chain>:<address>`). */
export const buildCacao = (payload: AuthPayload, signature: { readonly t: string; readonly s: string }, iss: string): Cacao => ({
  h: { t: "caip122" },
  p: {
    iss,
    domain: payload.domain,
    aud: payload.aud,
    ...(payload.version === undefined ? {} : { version: payload.version }),
    nonce: payload.nonce,
    iat: payload.iat,
    ...(payload.statement === undefined ? {} : { statement: payload.statement }),
    ...(payload.exp === undefined ? {} : { exp: payload.exp }),
    ...(payload.nbf === undefined ? {} : { nbf: payload.nbf }),
    ...(payload.requestId === undefined ? {} : { requestId: payload.requestId }),
    ...(payload.resources === undefined ? {} : { resources: payload.resources })
  },
  s: signature
})

/** The text a wallet signs for a payload as `iss`. */
export const formatAuthMessage = (payload: AuthPayload, iss: string): string => formatCacaoMessage({ ...payload, iss } as CacaoPayload)

/** A session as the page and tests read it. */
export interface SessionInfo {
  readonly topic: string
  readonly namespaces: SessionNamespaces
  readonly expiry: number
  readonly peer: { readonly publicKey: string; readonly metadata: Metadata }
}

/** What reaches the wallet, as its listeners get it (`verified`: what its Verify server says, when it has one). */
export interface WalletEvents {
  session_proposal: {
    readonly id: number
    readonly params: ProposeParams & { readonly id: number; readonly pairingTopic: string }
    readonly verified: Verification | undefined
  }
  session_authenticate: { readonly id: number; readonly topic: string; readonly params: AuthenticateParams; readonly verified: Verification | undefined }
  session_request: {
    readonly id: number
    readonly topic: string
    readonly params: { readonly request: { readonly method: string; readonly params: unknown }; readonly chainId: string }
    readonly verified: Verification | undefined
  }
  session_delete: { readonly topic: string }
}

/** The wallet, once made. */
export interface WcWallet {
  readonly pair: (params: { readonly uri: string }) => Promise<void>
  readonly approveSession: (params: { readonly id: number; readonly namespaces: SessionNamespaces }) => Promise<SessionInfo>
  readonly rejectSession: (params: { readonly id: number; readonly reason: RpcError }) => Promise<void>
  readonly approveSessionAuthenticate: (params: { readonly id: number; readonly auths: ReadonlyArray<Cacao> }) => Promise<SessionInfo | undefined>
  readonly rejectSessionAuthenticate: (params: { readonly id: number; readonly reason: RpcError }) => Promise<void>
  readonly respondSessionRequest: (params: {
    readonly topic: string
    readonly response: { readonly id: number; readonly result: unknown } | { readonly id: number; readonly error: RpcError }
  }) => Promise<void>
  readonly emitSessionEvent: (params: { readonly topic: string; readonly chainId: string; readonly event: { readonly name: string; readonly data: unknown } }) => Promise<void>
  readonly updateSession: (params: { readonly topic: string; readonly namespaces: SessionNamespaces }) => Promise<void>
  readonly extendSession: (params: { readonly topic: string }) => Promise<void>
  readonly disconnectSession: (params: { readonly topic: string; readonly reason: RpcError }) => Promise<void>
  readonly getActiveSessions: () => Record<string, SessionInfo>
  readonly getPendingSessionProposals: () => ReadonlyArray<WalletEvents["session_proposal"]["params"]>
  readonly getPendingSessionRequests: () => ReadonlyArray<WalletEvents["session_request"]>
  /** One-click sign-in requests not answered yet (kept across a reload, like proposals and requests). */
  readonly getPendingAuthenticateRequests: () => ReadonlyArray<WalletEvents["session_authenticate"]>
  /** Answers one-click sign-in requests from now on, or not (the dapp's proposal then comes instead). */
  readonly setOneClick: (on: boolean) => void
  readonly on: <E extends keyof WalletEvents>(event: E, listener: (payload: WalletEvents[E]) => void) => void
  /** Closes its relay connection. */
  readonly close: () => Promise<void>
}

/** What a wallet is made from. */
export interface WcWalletOptions {
  readonly relayUrl: string
  readonly projectId: string
  readonly metadata: Metadata
  /** Whether it answers one-click sign-in; without, the dapp's proposal sent beside comes instead. */
  readonly oneClick?: boolean
  /** Where sessions are kept (the page: its localStorage); memory by default. */
  readonly storage?: Storage
  readonly storagePrefix?: string
  /** The WebSocket class (Node 20: `ws`'s); the global one by default. */
  readonly WebSocket?: SocketConstructor
  /** A Verify server to ask whose each proposal and request is; none by default (nothing is asked). */
  readonly verifyUrl?: string
}

const proposalOf = (entry: Extract<WalletIncoming, { _tag: "SessionProposal" }>): WalletEvents["session_proposal"]["params"] => ({
  ...entry.params,
  id: entry.id,
  pairingTopic: entry.topic
})

/** Makes a wallet on the relay; it lives until `close`. */
export const createWcWallet = async (options: WcWalletOptions): Promise<WcWallet> => {
  const scope = Effect.runSync(Scope.make())
  let oneClick = options.oneClick ?? true
  const storage = options.storage
  const store = Effect.runSync(
    Effect.provide(Effect.service(KeyValueStore.KeyValueStore), storage === undefined ? KeyValueStore.layerMemory : KeyValueStore.layerStorage(() => storage))
  )
  const WebSocketClass = options.WebSocket ?? (globalThis.WebSocket as unknown as SocketConstructor)
  const client: WalletClient = await Effect.runPromise(
    Scope.provide(
      makeWalletClient({
        relayUrl: options.relayUrl,
        projectId: options.projectId,
        metadata: options.metadata,
        store,
        storagePrefix: options.storagePrefix,
        WebSocket: WebSocketClass,
        oneClick: () => oneClick,
        verifyUrl: options.verifyUrl
      }),
      scope
    )
  )
  const listeners = new Map<keyof WalletEvents, Array<(payload: never) => void>>()
  const emit = <E extends keyof WalletEvents>(event: E, payload: WalletEvents[E]) => {
    for (const listener of listeners.get(event) ?? []) (listener as (payload: WalletEvents[E]) => void)(payload)
  }
  Effect.runFork(
    Scope.provide(
      Stream.fromPubSub(client.incoming).pipe(
        Stream.runForEach((entry) =>
          Effect.sync(() => {
            if (entry._tag === "SessionProposal") emit("session_proposal", { id: entry.id, params: proposalOf(entry), verified: entry.verified })
            else if (entry._tag === "SessionAuthenticate") {
              emit("session_authenticate", { id: entry.id, topic: entry.topic, params: entry.params, verified: entry.verified })
            } else if (entry._tag === "SessionRequest") emit("session_request", { id: entry.id, topic: entry.topic, params: entry.params, verified: entry.verified })
            else emit("session_delete", { topic: entry.topic })
          })
        ),
        Effect.forkScoped
      ),
      scope
    )
  )
  // What the wallet is doing for its callers (an answer being published, a pairing): `close` lets it finish first,
  // within the relay's own bounds, as a wallet app closing would, instead of failing it under a caller that may no
  // longer be listening.
  const inFlight = new Set<Promise<unknown>>()
  const run = async <A, E>(effect: Effect.Effect<A, E>): Promise<A> => {
    const running = Effect.runPromiseExit(effect)
    inFlight.add(running)
    const exit = await running.finally(() => inFlight.delete(running))
    if (Exit.isSuccess(exit)) return exit.value
    const error = Cause.squash(exit.cause)
    throw error instanceof Error ? error : Object.assign(new Error(String((error as { message?: unknown }).message ?? error)), error as object)
  }
  const info = (session: WalletSession): SessionInfo => ({ topic: session.topic, namespaces: session.namespaces, expiry: session.expiry, peer: session.peer })
  return {
    pair: ({ uri }) => run(client.pair(uri)),
    approveSession: ({ id, namespaces }) => run(Effect.map(client.approveSession(id, namespaces), info)),
    rejectSession: ({ id, reason }) => run(client.rejectSession(id, reason)),
    approveSessionAuthenticate: ({ id, auths }) => run(Effect.map(client.approveSessionAuthenticate(id, auths), (s) => (s === undefined ? undefined : info(s)))),
    rejectSessionAuthenticate: ({ id, reason }) => run(client.rejectSessionAuthenticate(id, reason)),
    respondSessionRequest: ({ topic, response }) =>
      run(client.respond(topic, response.id, "error" in response ? { error: response.error } : { result: response.result })),
    emitSessionEvent: ({ topic, chainId, event }) => run(client.emitEvent(topic, chainId, event)),
    updateSession: ({ topic, namespaces }) => run(client.update(topic, namespaces)),
    extendSession: ({ topic }) => run(client.extend(topic)),
    disconnectSession: ({ topic, reason }) => run(client.disconnect(topic, reason)),
    getActiveSessions: () => Object.fromEntries(client.sessions().map((session) => [session.topic, info(session)])),
    getPendingSessionProposals: () => client.pending().flatMap((entry) => (entry._tag === "SessionProposal" ? [proposalOf(entry)] : [])),
    getPendingSessionRequests: () =>
      client.pending().flatMap((entry) => (entry._tag === "SessionRequest" ? [{ id: entry.id, topic: entry.topic, params: entry.params, verified: entry.verified }] : [])),
    getPendingAuthenticateRequests: () =>
      client
        .pending()
        .flatMap((entry) => (entry._tag === "SessionAuthenticate" ? [{ id: entry.id, topic: entry.topic, params: entry.params, verified: entry.verified }] : [])),
    setOneClick: (on) => {
      oneClick = on
    },
    on: (event, listener) => {
      listeners.set(event, [...(listeners.get(event) ?? []), listener as (payload: never) => void])
    },
    close: async () => {
      await Promise.all(inFlight)
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }
  }
}

