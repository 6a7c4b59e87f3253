/**
 * Where sign-in sessions live, behind one interface: the host's own backend (`siwx`, AppKit's SIWX shape), the
 * legacy `siweConfig` mapped onto it, or our services (`servicesSiwx()`: the service gives the nonce, checks the
 * signature and keeps the session; this browser keeps its copy to prove it holds it). The host's functions are
 * called at the edge: a throw, a rejection, an answer of the wrong shape or no answer in 30 s is a SignInFailed
 * with words, never an exception.
 */
import { Clock, Duration, Effect, Result, Schema } from "effect"
import type { RemoteSiwxSession } from "../../domain/Api"
import { type CaipNetworkId, caipAddressOn, parseCaipNetworkId } from "../../domain/Caip"
import { SignInFailed } from "../../domain/errors"
import {
  type SiweConfig,
  type SiweMessageParams,
  type SiwxAuthenticateFields,
  type SiwxConfig,
  SiwxMessageData,
  type SiwxMessageInput,
  SiwxSession
} from "../../domain/Siwx"
import type { ServicesSiwx } from "../../domain/servicesSiwx"
import { formatSiwxMessage, siwxTimesHold } from "../../domain/siwxMessage"
import { bytesToHex } from "@noble/hashes/utils"
import { sha256 } from "@noble/hashes/sha2"
import { BlockchainApi } from "../BlockchainApi"
import { Config } from "../Config"
import { Platform } from "../Platform"
import { Storage } from "../Storage/Storage"
import * as Keys from "../Storage/keys"
import type { SiwxAccount } from "./siwxState"

/** A message to sign: its data and its exact text. */
export interface SignInMessage {
  readonly data: SiwxMessageData
  readonly text: string
}

/** Whether an account is signed in, and the session when the backend gives it. */
export interface SessionCheck {
  readonly signedIn: boolean
  readonly session: SiwxSession | undefined
}

/** Where sessions live. */
export interface SiwxBackend {
  /** No closing the modal without a session. */
  readonly required: boolean
  /** Disconnecting revokes the account's session. */
  readonly signOutOnDisconnect: boolean
  readonly createMessage: (input: SiwxMessageInput) => Effect.Effect<SignInMessage, SignInFailed>
  /**
   * The message fields of a sign-in made while connecting (one-click), before the account is known, for these
   * chains; `undefined` when this backend signs in only once the account is known (two steps).
   */
  readonly authenticateParams: (chains: ReadonlyArray<CaipNetworkId>) => Effect.Effect<SiwxAuthenticateFields | undefined, SignInFailed>
  readonly addSession: (account: SiwxAccount, session: SiwxSession) => Effect.Effect<void, SignInFailed>
  readonly getSessions: (account: SiwxAccount) => Effect.Effect<SessionCheck, SignInFailed>
  readonly revokeSession: (account: SiwxAccount) => Effect.Effect<void, SignInFailed>
}

/** How long a call into the host's backend may take. */
export const HOST_CALL_TIMEOUT_MS = 30_000
/** How long a session on our services lasts unless the host says otherwise. */
export const DEFAULT_SESSION_SECONDS = 7 * 24 * 60 * 60

const NOT_SIGNED_IN: SessionCheck = { signedIn: false, session: undefined }

const reasonOf = (cause: unknown, what: string): string => {
  const message = cause instanceof Error ? cause.message : typeof cause === "string" ? cause : ""
  return message.trim().length > 0 ? message.trim().slice(0, 300) : `The site's sign-in failed (${what})`
}

/** A call into the host's code: its throw, rejection or silence becomes a SignInFailed. */
const callHost = <A>(what: string, call: () => A | PromiseLike<A>): Effect.Effect<A, SignInFailed> =>
  Effect.tryPromise({
    // Through a promise, so a host function that throws at once is caught like one that rejects.
    try: () => Promise.resolve().then(call),
    catch: (cause) => new SignInFailed({ reason: reasonOf(cause, what) })
  }).pipe(
    Effect.timeoutOrElse({
      duration: Duration.millis(HOST_CALL_TIMEOUT_MS),
      orElse: () => Effect.fail(new SignInFailed({ reason: `The site did not answer in time (${what})` }))
    })
  )

const hasMethod = (value: unknown, name: string): boolean =>
  typeof value === "object" && value !== null && typeof (value as Record<string, unknown>)[name] === "function"

const missing = (kind: string, names: ReadonlyArray<string>, value: unknown): ReadonlyArray<string> =>
  names.filter((name) => !hasMethod(value, name)).map((name) => `${kind}.${name}`)

/** Same account: EVM addresses are compared without their checksum case. */
const sameAddress = (namespace: string, a: string, b: string): boolean =>
  namespace === "eip155" ? a.toLowerCase() === b.toLowerCase() : a === b

const coversAccount = (session: SiwxSession, account: SiwxAccount, now: Date): boolean =>
  session.data.chainId === account.chainId &&
  sameAddress(account.namespace, session.data.accountAddress, account.address) &&
  siwxTimesHold(session.data, now, 60_000)

const nowDate = Effect.map(Clock.currentTimeMillis, (ms) => new Date(ms))

const decodeSession = Schema.decodeUnknownResult(SiwxSession)
const decodeMessageData = Schema.decodeUnknownResult(SiwxMessageData)

/** The page's own domain and address, for the messages the runtime writes. */
const pageOrigin = Effect.gen(function* () {
  const platform = yield* Platform
  const config = yield* Config
  const href = platform.href ?? config.metadata?.url
  const url = href === undefined ? undefined : URL.canParse(href) ? new URL(href) : undefined
  return url === undefined ? undefined : { domain: url.host, uri: url.origin }
})

const noPage = new SignInFailed({ reason: "Sign-in needs the page's address" })

// EIP-4361 allows a statement of these characters only: a site name with others ('Café') loses them, not the sign-in.
const STATEMENT_REFUSED = /[^A-Za-z0-9 \-._~:/?#[\]@!$&'()*+,;=]/g

/** A statement EIP-4361 accepts: refused characters dropped, one line, no space at either end. */
export const statementText = (text: string): string => text.replace(/\s+/g, " ").replace(STATEMENT_REFUSED, "").replace(/ {2,}/g, " ").trim()

/** A message the runtime writes itself (our services' sign-in). */
const ownMessage = (data: SiwxMessageData): Effect.Effect<SignInMessage, SignInFailed> => {
  const text = formatSiwxMessage(data)
  return Result.isSuccess(text)
    ? Effect.succeed({ data, text: text.success })
    : Effect.fail(new SignInFailed({ reason: `The sign-in message could not be written: ${text.failure}` }))
}

/** The host's SIWX backend. */
const hostBackend = (siwx: SiwxConfig): Effect.Effect<SiwxBackend, SignInFailed> =>
  Effect.gen(function* () {
    const absent = missing("siwx", ["createMessage", "addSession", "revokeSession", "getSessions"], siwx)
    if (absent.length > 0) return yield* new SignInFailed({ reason: `The site's sign-in is incomplete: ${absent.join(", ")} missing` })
    const required = hasMethod(siwx, "getRequired")
      ? yield* Effect.try({ try: () => siwx.getRequired?.() === true, catch: () => false }).pipe(Effect.orElseSucceed(() => false))
      : false
    return {
      required,
      signOutOnDisconnect: siwx.signOutOnDisconnect !== false,
      createMessage: (input) =>
        Effect.gen(function* () {
          const message = yield* callHost("createMessage", () => siwx.createMessage(input))
          const data = decodeMessageData(message)
          const text = yield* Effect.try({ try: () => String(message), catch: (cause) => new SignInFailed({ reason: reasonOf(cause, "toString") }) })
          if (Result.isFailure(data) || text.length === 0 || text === "[object Object]") {
            return yield* new SignInFailed({ reason: "The site's sign-in message is not one the wallet can sign" })
          }
          return { data: data.success, text }
        }),
      // As AppKit does: the host's message for the first chain without an account gives every other field.
      authenticateParams: (chains) =>
        Effect.gen(function* () {
          const chainId = chains[0]
          if (chainId === undefined) return undefined
          const message = yield* callHost("createMessage", () => siwx.createMessage({ chainId, accountAddress: "" }))
          const data = decodeMessageData(message)
          if (Result.isFailure(data)) return yield* new SignInFailed({ reason: "The site's sign-in message is not one the wallet can sign" })
          const { accountAddress: _account, chainId: _chain, version: _version, issuedAt: _issued, ...fields } = data.success
          return fields
        }),
      addSession: (_account, session) => callHost("addSession", () => siwx.addSession(session)),
      getSessions: (account) =>
        Effect.gen(function* () {
          const answer = yield* callHost("getSessions", () => siwx.getSessions(account.chainId, account.address))
          const now = yield* nowDate
          const sessions = (Array.isArray(answer) ? answer : []).flatMap((item: unknown) => {
            const decoded = decodeSession(item)
            return Result.isSuccess(decoded) ? [decoded.success] : []
          })
          const session = sessions.find((candidate) => coversAccount(candidate, account, now))
          return session === undefined ? NOT_SIGNED_IN : { signedIn: true, session }
        }),
      revokeSession: (account) => callHost("revokeSession", () => siwx.revokeSession(account.chainId, account.address))
    } satisfies SiwxBackend
  })

/** The legacy SIWE configuration mapped onto the backend: Ethereum accounts only. */
const siweBackend = (siwe: SiweConfig): Effect.Effect<SiwxBackend, SignInFailed, Platform | Config> =>
  Effect.gen(function* () {
    const absent = missing("siweConfig", ["getNonce", "createMessage", "verifyMessage", "getSession", "signOut"], siwe)
    if (absent.length > 0) return yield* new SignInFailed({ reason: `The site's sign-in is incomplete: ${absent.join(", ")} missing` })
    const origin = yield* pageOrigin
    // The session signed in this page (the legacy backend keeps only who is signed in).
    let signed: SiwxSession | undefined
    const evmChainId = (account: { readonly chainId: string }) => {
      const parts = parseCaipNetworkId(account.chainId)
      return Result.isSuccess(parts) && parts.success.namespace === "eip155" ? Number(parts.success.reference) : undefined
    }
    return {
      required: siwe.required === true,
      signOutOnDisconnect: siwe.signOutOnDisconnect !== false,
      createMessage: (input) =>
        Effect.gen(function* () {
          const chainId = evmChainId(input)
          if (chainId === undefined) return yield* new SignInFailed({ reason: "This site signs in with Ethereum accounts only" })
          const params: SiweMessageParams = hasMethod(siwe, "getMessageParams")
            ? yield* callHost("getMessageParams", () => siwe.getMessageParams?.() ?? {})
            : {}
          const nonce = yield* callHost("getNonce", () => siwe.getNonce(input.accountAddress))
          const now = yield* Clock.currentTimeMillis
          const domain = params.domain ?? origin?.domain
          const uri = params.uri ?? origin?.uri
          if (domain === undefined || uri === undefined) return yield* noPage
          const data: SiwxMessageData = {
            domain,
            uri,
            version: "1",
            chainId: input.chainId,
            accountAddress: input.accountAddress,
            nonce: String(nonce),
            issuedAt: new Date(now).toISOString(),
            ...(params.statement === undefined ? {} : { statement: params.statement }),
            ...(params.expiry === undefined ? {} : { expirationTime: new Date(now + params.expiry * 1000).toISOString() }),
            ...(params.resources === undefined ? {} : { resources: params.resources }),
            ...(input.notBefore === undefined ? {} : { notBefore: input.notBefore })
          }
          const text = yield* callHost("createMessage", () =>
            siwe.createMessage({ ...data, address: input.accountAddress, chainId, nonce: data.nonce })
          )
          if (typeof text !== "string" || text.length === 0) {
            return yield* new SignInFailed({ reason: "The site's sign-in message is not one the wallet can sign" })
          }
          return { data, text }
        }),
      // The legacy configuration writes its own text for an account it knows: it signs in in two steps.
      authenticateParams: () => Effect.succeed(undefined),
      addSession: (account, session) =>
        Effect.gen(function* () {
          const valid = yield* callHost("verifyMessage", () => siwe.verifyMessage({ message: session.message, signature: session.signature }))
          if (valid !== true) return yield* new SignInFailed({ reason: "The site could not verify the signature" })
          signed = session
          const chainId = evmChainId(account)
          if (chainId !== undefined) yield* Effect.try({ try: () => siwe.onSignIn?.({ address: account.address, chainId }), catch: () => undefined }).pipe(Effect.ignore)
        }),
      getSessions: (account) =>
        Effect.gen(function* () {
          const session = yield* callHost("getSession", () => siwe.getSession())
          const chainId = evmChainId(account)
          const signedIn =
            typeof session === "object" &&
            session !== null &&
            typeof session.address === "string" &&
            sameAddress("eip155", session.address, account.address) &&
            Number(session.chainId) === chainId
          if (!signedIn) return NOT_SIGNED_IN
          const kept = signed !== undefined && signed.data.chainId === account.chainId && sameAddress("eip155", signed.data.accountAddress, account.address)
          return { signedIn: true, session: kept ? signed : undefined }
        }),
      revokeSession: () =>
        Effect.gen(function* () {
          yield* callHost("signOut", () => siwe.signOut())
          signed = undefined
          yield* Effect.try({ try: () => siwe.onSignOut?.(), catch: () => undefined }).pipe(Effect.ignore)
        })
    } satisfies SiwxBackend
  })

/** Sign-in on our services: this browser keeps the sessions it signed (with their `pci`), the service says which still hold. */
const servicesBackend = (options: ServicesSiwx): Effect.Effect<SiwxBackend, never, BlockchainApi | Storage | Platform | Config> =>
  Effect.gen(function* () {
    const api = yield* BlockchainApi
    const storage = yield* Storage
    const config = yield* Config
    const origin = yield* pageOrigin
    const lifetime = options.expiresInSeconds ?? DEFAULT_SESSION_SECONDS
    const statement = statementText(options.statement ?? `Sign in to ${config.metadata?.name ?? origin?.domain ?? "this site"}`)
    const serviceFailure = (error: { readonly message: string }) =>
      new SignInFailed({ reason: `Sign-in is not available right now: ${error.message}` })

    const kept = (account: SiwxAccount) =>
      Effect.gen(function* () {
        const now = yield* nowDate
        const all = yield* storage.get(Keys.siwxSessions)
        return all.find((session) => coversAccount(session, account, now))
      })

    const forget = (pci: string) =>
      storage.modify(Keys.siwxSessions, (all) => all.filter((session) => session.pci !== pci)).pipe(Effect.asVoid)

    return {
      required: options.required === true,
      signOutOnDisconnect: options.signOutOnDisconnect !== false,
      createMessage: (input) =>
        Effect.gen(function* () {
          if (origin === undefined) return yield* noPage
          const caipAddress = caipAddressOn(input.chainId, input.accountAddress)
          if (Result.isFailure(caipAddress)) return yield* new SignInFailed({ reason: caipAddress.failure.message })
          const { nonce } = yield* api.sessionNonce(caipAddress.success).pipe(Effect.mapError(serviceFailure))
          const now = yield* Clock.currentTimeMillis
          return yield* ownMessage({
            domain: origin.domain,
            uri: origin.uri,
            version: "1",
            chainId: input.chainId,
            accountAddress: input.accountAddress,
            nonce,
            issuedAt: new Date(now).toISOString(),
            expirationTime: new Date(now + lifetime * 1000).toISOString(),
            ...(statement === "" ? {} : { statement }),
            ...(input.notBefore === undefined ? {} : { notBefore: input.notBefore })
          })
        }),
      // The account is unknown until the wallet answers: the service's nonce bound to no account (each may use it once).
      authenticateParams: () =>
        Effect.gen(function* () {
          if (origin === undefined) return yield* noPage
          const { nonce } = yield* api.sessionNonce().pipe(Effect.mapError(serviceFailure))
          const now = yield* Clock.currentTimeMillis
          return {
            domain: origin.domain,
            uri: origin.uri,
            nonce,
            expirationTime: new Date(now + lifetime * 1000).toISOString(),
            ...(statement === "" ? {} : { statement })
          } satisfies SiwxAuthenticateFields
        }),
      addSession: (account, session) =>
        Effect.gen(function* () {
          // A secret only this browser knows revokes the session: its signature alone, which anyone may list, cannot.
          const revocationKey = yield* Effect.sync(() => bytesToHex(crypto.getRandomValues(new Uint8Array(32))))
          const revocationKeyHash = bytesToHex(sha256(new TextEncoder().encode(revocationKey)))
          const remote: RemoteSiwxSession = yield* api
            .addSession(account.caipAddress, { ...session, revocationKeyHash })
            .pipe(Effect.mapError(serviceFailure))
          yield* storage.modify(Keys.siwxSessions, (all) => [
            ...all.filter((other) => !(other.data.chainId === account.chainId && sameAddress(account.namespace, other.data.accountAddress, account.address))),
            { ...remote, revocationKey }
          ])
        }),
      getSessions: (account) =>
        Effect.gen(function* () {
          const session = yield* kept(account)
          if (session === undefined) return NOT_SIGNED_IN
          // Revoked elsewhere (another tab signed out): the service no longer lists it. Unreachable: this copy holds.
          const listed = yield* api.sessions(account.caipAddress).pipe(
            Effect.map((sessions) => sessions.some((remote) => remote.pci === session.pci)),
            Effect.catch((error) => Effect.logWarning(`Sign-in: the service did not list the sessions: ${error.message}`).pipe(Effect.as(true)))
          )
          if (!listed) {
            yield* forget(session.pci)
            return NOT_SIGNED_IN
          }
          // The host sees the signed message, never the secret that revokes it.
          return { signedIn: true, session: { data: session.data, message: session.message, signature: session.signature } }
        }),
      revokeSession: (account) =>
        Effect.gen(function* () {
          const session = yield* kept(account)
          if (session === undefined) return
          yield* forget(session.pci)
          yield* api
            .revokeSession(account.caipAddress, { pci: session.pci, signature: session.revocationKey ?? session.signature })
            .pipe(Effect.mapError(serviceFailure))
        })
    } satisfies SiwxBackend
  })

const isServicesSiwx = (value: unknown): value is ServicesSiwx =>
  typeof value === "object" && value !== null && (value as { readonly _tag?: unknown })._tag === "ServicesSiwx"

/** The backend of what the host configured; a configuration that cannot work signs nobody in and says why. */
export const backendOf = (
  configured: unknown,
  kind: "siwx" | "siweConfig"
): Effect.Effect<SiwxBackend, never, BlockchainApi | Storage | Platform | Config> => {
  const made: Effect.Effect<SiwxBackend, SignInFailed, BlockchainApi | Storage | Platform | Config> =
    kind === "siweConfig"
      ? siweBackend(configured as SiweConfig)
      : isServicesSiwx(configured)
        ? servicesBackend(configured)
        : hostBackend(configured as SiwxConfig)
  return made.pipe(
    Effect.catch((error) =>
      Effect.logError(`Sign-in is off: ${error.message}`).pipe(
        Effect.as({
          required: false,
          signOutOnDisconnect: false,
          createMessage: () => Effect.fail(error),
          authenticateParams: () => Effect.succeed(undefined),
          addSession: () => Effect.fail(error),
          getSessions: () => Effect.succeed(NOT_SIGNED_IN),
          revokeSession: () => Effect.void
        } satisfies SiwxBackend)
      )
    )
  )
}
