import { sha256 } from "@noble/hashes/sha2"
import { bytesToHex } from "@noble/hashes/utils"
/**
 * One-click sign-in on the sign-in service's side (issue 13): the fields a connector asks the wallet to sign before
 * the account is known (host `siwx`, `servicesSiwx()`, none for the legacy `siweConfig`), keeping what the wallet
 * signed there, after which the connect flow's sign-in step finds the session and shows nothing — and the wiring that
 * gives WalletConnect this only when sign-in is configured. Layer fakes: fake wallets, a scripted HttpClient, a
 * WalletConnect service that records what it is given.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Layer, Result, Stream, SubscriptionRef } from "effect"
import { TestClock } from "effect/testing"
import type { CaipNetworkId } from "../../../src/domain/Caip"
import { localChainA, localChainB } from "../../../src/domain/networks"
import { decodeOptionsSync } from "../../../src/domain/Options"
import { servicesSiwx } from "../../../src/domain/servicesSiwx"
import type { SiwxConfig, SiwxMessageData, SiwxMessageInput, SiwxSession } from "../../../src/domain/Siwx"
import { formatSiwxMessage } from "../../../src/domain/siwxMessage"
import { testLayer } from "../../../src/layers/Test"
import { ConnectFlow } from "../../../src/services/ConnectFlow"
import { makeFakeWallet } from "../../../src/services/fakes/FakeWallet"
import { Modal } from "../../../src/services/Modal"
import { Siwx } from "../../../src/services/Siwx/Siwx"
import { Storage } from "../../../src/services/Storage/Storage"
import * as Keys from "../../../src/services/Storage/keys"
import { type OneClickSignIn, type PairingState, WalletConnect } from "../../../src/services/walletconnect/WalletConnect"
import { walletConnectSignInLayer } from "../../../src/services/walletconnect/wiring"
import { makeFakeHttp, type RecordedRequest } from "../support/fakeHttpClient"

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
const A = localChainA.caipNetworkId
const B = localChainB.caipNetworkId
const FAR_FUTURE = "2100-01-01T00:00:00.000Z"

const evm = () =>
  makeFakeWallet({ id: "io.metamask", name: "MetaMask", rdns: "io.metamask", families: { eip155: { accounts: [{ address: ALICE, type: "eoa" }], chainId: 31337 } } })

/** The text a wallet signs for ALICE on `chainId` with these fields (what WalletConnect formats from a CACAO). */
const signedText = (chainId: CaipNetworkId, over: Partial<SiwxMessageData> = {}) => {
  const data: SiwxMessageData = {
    domain: "shop.test",
    uri: "https://shop.test",
    version: "1",
    chainId,
    accountAddress: ALICE,
    nonce: "oneclick1234",
    issuedAt: "1970-01-01T00:00:00.000Z",
    expirationTime: FAR_FUTURE,
    statement:
      "Sign in to Shop I further authorize the stated URI to perform the following actions on my behalf: (1) 'request': 'personal_sign' for 'eip155'.",
    resources: ["urn:recap:eyJhdHQiOnsiZWlwMTU1Ijp7InJlcXVlc3QvcGVyc29uYWxfc2lnbiI6W3t9XX19fQ"],
    ...over
  }
  const text = formatSiwxMessage(data)
  if (Result.isFailure(text)) throw new Error(text.failure)
  return { data, message: text.success, signature: `0x${chainId === A ? "aa" : "bb"}` }
}

/** A host backend in AppKit's SIWX shape, kept in memory; `calls` says what the runtime asked of it. */
const hostBackend = (addSession: (session: SiwxSession) => Promise<void> = async () => undefined) => {
  const calls: Array<string> = []
  const sessions: Array<SiwxSession> = []
  const config: SiwxConfig = {
    createMessage: async (input: SiwxMessageInput) => {
      calls.push(`create:${input.chainId}:${input.accountAddress}`)
      const data: SiwxMessageData = {
        domain: "shop.test",
        uri: "https://shop.test",
        version: "1",
        chainId: input.chainId,
        accountAddress: input.accountAddress,
        nonce: "hostNonce1",
        issuedAt: "1970-01-01T00:00:00.000Z",
        expirationTime: FAR_FUTURE,
        statement: "Sign in to Shop"
      }
      return { ...data, toString: () => `message for ${input.accountAddress}` }
    },
    addSession: async (session) => {
      calls.push(`add:${session.data.chainId}`)
      await addSession(session)
      sessions.push(session)
    },
    revokeSession: async () => undefined,
    setSessions: async () => undefined,
    getSessions: async (chainId, address) => {
      calls.push(`get:${chainId}`)
      return sessions.filter((s) => s.data.chainId === chainId && s.data.accountAddress.toLowerCase() === address.toLowerCase())
    }
  }
  return { config, calls, sessions }
}

const optionsWith = (extra: Record<string, unknown>) =>
  decodeOptionsSync({ projectId: "p", networks: [localChainA, localChainB], endpoints: { blockchainApi: "http://api.test/" }, ...extra })

const oneClickOf = Effect.flatMap(Siwx, (siwx) =>
  siwx.oneClick === undefined ? Effect.die("sign-in is configured: one-click is expected") : Effect.succeed(siwx.oneClick)
)

/** Every view the modal showed while `run` ran. */
const viewsDuring = <A, E, R>(run: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const modal = yield* Modal
    const seen: Array<string> = []
    const watching = yield* SubscriptionRef.changes(modal.state).pipe(
      Stream.runForEach((state) =>
        Effect.sync(() => {
          const view = state.open ? state.history[state.history.length - 1]?.route.view : undefined
          if (view !== undefined && !seen.includes(view)) seen.push(view)
        })
      ),
      Effect.forkChild
    )
    const result = yield* run
    yield* Effect.yieldNow
    yield* Fiber.interrupt(watching)
    return { result, seen }
  })

describe("Siwx one-click: the host's siwx backend", () => {
  it.effect("asks the host's message for the first chain without an account and gives its fields, not the account's", () =>
    Effect.gen(function* () {
      const host = hostBackend()
      const wallet = yield* evm()
      yield* Effect.gen(function* () {
        const fields = yield* (yield* oneClickOf).fields([A, B])
        expect(host.calls).toEqual([`create:${A}:`])
        expect(fields).toEqual({ domain: "shop.test", uri: "https://shop.test", nonce: "hostNonce1", expirationTime: FAR_FUTURE, statement: "Sign in to Shop" })
      }).pipe(Effect.provide(testLayer(optionsWith({ siwx: host.config }), { wallets: [wallet] })))
    })
  )

  it.effect("what the wallet signed while connecting is kept per chain: the connect then signs nothing and shows no sign view", () =>
    Effect.gen(function* () {
      const host = hostBackend()
      const wallet = yield* evm()
      yield* Effect.gen(function* () {
        const onA = signedText(A)
        const onB = signedText(B)
        const kept = yield* (yield* oneClickOf).keep([onA, onB])
        expect(kept).toBe(2)
        // Kept as the wallet's answer says, ReCap statement and resources included.
        expect(host.sessions).toEqual([onA, onB])
        const { result, seen } = yield* viewsDuring(Effect.flatMap(ConnectFlow, (flow) => flow.connect("MetaMask")))
        expect(result.session).toEqual(onA)
        expect(seen).not.toContain("SIWXSignMessage")
        expect(wallet.calls.filter((call) => call.startsWith("sign:"))).toEqual([])
        expect((yield* SubscriptionRef.get((yield* Siwx).state)).step._tag).toBe("SignedIn")
      }).pipe(Effect.provide(testLayer(optionsWith({ siwx: host.config }), { wallets: [wallet] })))
    })
  )

  it.effect("a text that is not the sign-in text of its data, or a session the host refuses, is not kept: the connect asks (two steps)", () =>
    Effect.gen(function* () {
      const host = hostBackend(async (session) => {
        if (session.data.chainId === B) throw new Error("Bad signature")
      })
      const wallet = yield* evm()
      yield* Effect.gen(function* () {
        const onA = signedText(A)
        const onB = signedText(B)
        const kept = yield* (yield* oneClickOf).keep([
          { ...onA, message: "not a sign-in text" },
          // The wallet signed its address in lower case: not EIP-4361, so not the text of the data.
          { ...onA, message: onA.message.replace(ALICE, ALICE.toLowerCase()) },
          { ...onA, data: { ...onA.data, nonce: "otherNonce1" } },
          { ...onA, data: { ...onA.data, chainId: "not a chain" } },
          onB
        ])
        expect(kept).toBe(0)
        expect(host.calls).toEqual([`add:${B}`])
        yield* Effect.forkChild(Effect.flatMap(ConnectFlow, (flow) => flow.connect("MetaMask")))
        const needed = yield* Effect.flatMap(Siwx, (siwx) =>
          SubscriptionRef.changes(siwx.state).pipe(Stream.filter((s) => s.step._tag === "Needed"), Stream.runHead)
        )
        expect(needed._tag).toBe("Some")
        const modal = yield* SubscriptionRef.get((yield* Modal).state)
        expect(modal.open && modal.history[modal.history.length - 1]?.route.view).toBe("SIWXSignMessage")
      }).pipe(Effect.provide(testLayer(optionsWith({ siwx: host.config }), { wallets: [wallet] })))
    })
  )
})

describe("Siwx one-click: servicesSiwx()", () => {
  it.effect("asks the services for a nonce bound to no account; keeping posts each signed text and this browser keeps the pci", () =>
    Effect.gen(function* () {
      const kept: Array<unknown> = []
      const answer = (request: RecordedRequest) => {
        const path = request.url.pathname
        if (request.method === "POST" && path === "/v1/sessions/nonce") return { status: 200, json: { nonce: "anyAccount1234", expiresAt: FAR_FUTURE } }
        if (request.method === "POST" && path.startsWith("/v1/sessions/")) {
          const session = { ...(request.body as object), pci: `pci-${kept.length + 1}` }
          kept.push(session)
          return { status: 200, json: session }
        }
        if (request.method === "GET" && path.startsWith("/v1/sessions/")) return { status: 200, json: { sessions: kept } }
        return { status: 404, json: { error: "no" } }
      }
      const http = makeFakeHttp(answer)
      const wallet = yield* evm()
      const layer = testLayer(
        optionsWith({ siwx: servicesSiwx({ statement: "Sign in to Shop" }), metadata: { name: "Shop", description: "", url: "https://shop.test", icons: [] } }),
        { wallets: [wallet], httpClient: http.layer, platform: { href: "https://shop.test/cart" } }
      )
      yield* Effect.gen(function* () {
        yield* TestClock.adjust(1_000)
        const fields = yield* (yield* oneClickOf).fields([A, B])
        expect(http.to("/v1/sessions/nonce").map((r) => r.method)).toEqual(["POST"])
        // A week from now (the default session lifetime), the page's own domain and origin, the host's statement.
        expect(fields).toEqual({
          domain: "shop.test",
          uri: "https://shop.test",
          nonce: "anyAccount1234",
          expirationTime: new Date(1_000 + 7 * 24 * 3600 * 1000).toISOString(),
          statement: "Sign in to Shop"
        })
        const onA = signedText(A, { nonce: "anyAccount1234" })
        expect(yield* (yield* oneClickOf).keep([onA])).toBe(1)
        const posted = http.to(`/v1/sessions/${encodeURIComponent(`${A}:${ALICE}`)}`).find((r) => r.method === "POST")
        // With the hash of a secret only this browser keeps: the session's signature, which anyone may list, revokes nothing.
        expect(posted?.body).toEqual({ ...onA, revocationKeyHash: expect.stringMatching(/^[0-9a-f]{64}$/) })
        const kept = yield* (yield* Storage).get(Keys.siwxSessions)
        expect(kept.map((s) => s.pci)).toEqual(["pci-1"])
        const key = kept[0]?.revocationKey ?? ""
        expect(bytesToHex(sha256(new TextEncoder().encode(key)))).toBe((posted?.body as { revocationKeyHash: string }).revocationKeyHash)
        const { result, seen } = yield* viewsDuring(Effect.flatMap(ConnectFlow, (flow) => flow.connect("MetaMask")))
        expect(result.session?.message).toBe(onA.message)
        expect(seen).not.toContain("SIWXSignMessage")
        expect(wallet.calls.filter((call) => call.startsWith("sign:"))).toEqual([])
      }).pipe(Effect.provide(layer))
    })
  )

  it.effect("the services unreachable: no fields, so WalletConnect pairs the usual way", () =>
    Effect.gen(function* () {
      const http = makeFakeHttp(() => "unreachable")
      const layer = testLayer(optionsWith({ siwx: servicesSiwx() }), { httpClient: http.layer, platform: { href: "https://shop.test/" } })
      const fields = yield* Effect.flatMap(oneClickOf, (oneClick) => oneClick.fields([A])).pipe(Effect.provide(layer))
      expect(fields).toBeUndefined()
    })
  )
})

describe("Siwx one-click: the legacy siweConfig and no sign-in", () => {
  it.effect("siweConfig signs in in two steps: no fields", () =>
    Effect.gen(function* () {
      const siweConfig = {
        getNonce: async () => "nonce1234",
        createMessage: () => "text",
        verifyMessage: async () => true,
        getSession: async () => null,
        signOut: async () => true
      }
      const fields = yield* Effect.flatMap(oneClickOf, (oneClick) => oneClick.fields([A])).pipe(
        Effect.provide(testLayer(optionsWith({ siweConfig })))
      )
      expect(fields).toBeUndefined()
    })
  )

  it.effect("without sign-in there is no one-click", () =>
    Effect.gen(function* () {
      const siwx = yield* Effect.provide(Effect.service(Siwx), testLayer(optionsWith({})))
      expect(siwx.oneClick).toBeUndefined()
    })
  )
})

describe("walletConnectSignInLayer", () => {
  /** A WalletConnect service that records the sign-in it is given. */
  const recordingWalletConnect = () => {
    const given: Array<OneClickSignIn> = []
    const service: WalletConnect["Service"] = {
      connector: undefined,
      pairing: Effect.runSync(SubscriptionRef.make<PairingState>({ _tag: "Idle" })),
      freshUri: Effect.succeed(undefined),
      replaceUri: Effect.void,
      cancel: Effect.void,
      alerts: Stream.empty,
      loaded: Effect.succeed(false),
      preload: Effect.void,
      useSignIn: (signIn) => Effect.sync(() => void given.push(signIn))
    }
    return { given, layer: Layer.succeed(WalletConnect)(service) }
  }

  it.effect("gives WalletConnect the sign-in's one-click when the host configured sign-in, and nothing otherwise", () =>
    Effect.gen(function* () {
      const host = hostBackend()
      const configured = recordingWalletConnect()
      yield* Effect.gen(function* () {
        expect(configured.given).toHaveLength(1)
        const fields = yield* configured.given[0]!.fields([A])
        expect(fields?.nonce).toBe("hostNonce1")
      }).pipe(
        Effect.provide(walletConnectSignInLayer.pipe(Layer.provideMerge(testLayer(optionsWith({ siwx: host.config }))), Layer.provideMerge(configured.layer)))
      )
      const off = recordingWalletConnect()
      yield* Effect.void.pipe(
        Effect.provide(walletConnectSignInLayer.pipe(Layer.provideMerge(testLayer(optionsWith({}))), Layer.provideMerge(off.layer)))
      )
      expect(off.given).toEqual([])
    })
  )
})
