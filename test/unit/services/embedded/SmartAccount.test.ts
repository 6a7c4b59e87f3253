/**
 * The embedded wallet's two EVM accounts over the real core and the real AUTH connector, against a scripted frame that
 * keeps the user's preferred type as the frame does: on a fresh login, one switch to the chain's default type (spec
 * 4: the host's `defaultAccountTypes`, smartAccount only where the frame runs smart accounts), none on a restore; the
 * Account view's switch puts the other account in front (address, account state, what `eth_accounts` answers); a
 * `wallet_sendCalls` is checked before ApproveTransaction opens (shape, chain, code and balance, atomicity).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Option, Stream, SubscriptionRef } from "effect"
import { TestClock } from "effect/testing"
import { localChainA, localChainB } from "../../../../src/domain/networks"
import { decodeOptionsSync } from "../../../../src/domain/Options"
import { Connection } from "../../../../src/services/Connection"
import { EmbeddedWallet, type EmbeddedState } from "../../../../src/services/Embedded/EmbeddedWallet"
import { Modal } from "../../../../src/services/Modal"
import { Storage } from "../../../../src/services/Storage/Storage"
import { embeddedCore, FRAME_ADDRESS, makeScriptedFrame, restoreEmbeddedSession, type ScriptedFrame } from "./scriptedFrame"

const EMAIL = "ada@example.com"
const SMART_ADDRESS = "0x5FbDB2315678afecb367f032d93F642f64180aa3"

type Preferred = "eoa" | "smartAccount"

/**
 * The frame's smart-account answers: both accounts on the enabled chains (the preferred one first), the EOA alone
 * elsewhere; SET_PREFERRED_ACCOUNT keeps the type (or fails with `refuse`). `preferred` is the frame's stored choice.
 */
const scriptSmartAccounts = (
  frame: ScriptedFrame,
  setup: { readonly enabled: ReadonlyArray<number>; readonly preferred: Preferred; readonly refuse?: string }
) => {
  let preferred = setup.preferred
  frame.answer("GET_SMART_ACCOUNT_ENABLED_NETWORKS", () => ({ ok: { smartAccountEnabledNetworks: setup.enabled } }))
  frame.answer("GET_USER", (payload) => {
    const chainId = Number((payload as { readonly chainId: number }).chainId)
    if (!setup.enabled.includes(chainId)) {
      return { ok: { address: FRAME_ADDRESS, chainId, accounts: [{ address: FRAME_ADDRESS, type: "eoa" }], preferredAccountType: "eoa" } }
    }
    const both = [
      { address: SMART_ADDRESS, type: "smartAccount" },
      { address: FRAME_ADDRESS, type: "eoa" }
    ]
    const front = preferred === "smartAccount" ? SMART_ADDRESS : FRAME_ADDRESS
    return {
      ok: { address: front, chainId, accounts: preferred === "smartAccount" ? both : [...both].reverse(), preferredAccountType: preferred, smartAccountDeployed: false }
    }
  })
  frame.answer("SET_PREFERRED_ACCOUNT", (payload) => {
    if (setup.refuse !== undefined) return { error: setup.refuse }
    preferred = (payload as { readonly type: Preferred }).type
    return { ok: { type: preferred, address: preferred === "smartAccount" ? SMART_ADDRESS : FRAME_ADDRESS } }
  })
}

const runWith = <A, E>(
  setup: Parameters<typeof scriptSmartAccounts>[1],
  body: (frame: ScriptedFrame) => Effect.Effect<A, E, EmbeddedWallet | Modal | Connection | Storage>,
  hostOptions: Record<string, unknown> = {}
) =>
  Effect.gen(function* () {
    const frame = yield* makeScriptedFrame
    scriptSmartAccounts(frame, setup)
    const options = decodeOptionsSync({ projectId: "p", networks: [localChainA, localChainB], features: { email: true }, ...hostOptions })
    return yield* Effect.provide(body(frame), embeddedCore(options, frame))
  })

const embeddedUntil = (condition: (state: EmbeddedState) => boolean) =>
  Effect.flatMap(EmbeddedWallet, (wallet) =>
    SubscriptionRef.changes(wallet.state).pipe(Stream.filter(condition), Stream.runHead, Effect.map(Option.getOrThrow))
  )

/** Email, code, connected: a fresh login. */
const loggedIn = Effect.gen(function* () {
  yield* (yield* Modal).open({ view: "Connect" })
  const wallet = yield* EmbeddedWallet
  yield* wallet.submitEmail(EMAIL)
  yield* wallet.submitOtp("123456")
  yield* embeddedUntil((s) => s.email === EMAIL && s.login._tag === "Idle")
})

const evmAccount = Effect.flatMap(Connection, (connection) =>
  Effect.map(SubscriptionRef.get(connection.state), (state) => state.namespaces.eip155?.account)
)

const ethAccounts = Effect.gen(function* () {
  const session = Option.getOrThrow(yield* (yield* Connection).session("eip155"))
  if (session.provider.namespace !== "eip155") throw new Error("not an EIP-1193 provider")
  const provider = session.provider.provider
  return yield* Effect.promise(() => provider.request({ method: "eth_accounts" }))
})

const switches = (frame: ScriptedFrame) => frame.posted.filter((post) => post.name === "SET_PREFERRED_ACCOUNT").map((post) => post.payload)

describe("the embedded wallet's account type on connect (spec 4)", () => {
  it.effect("an eoa user on a smart-account network is switched once to the EVM default: the smart account is in front", () =>
    runWith({ enabled: [31337, 31338], preferred: "eoa" }, (frame) =>
      Effect.gen(function* () {
        yield* loggedIn
        expect(switches(frame)).toEqual([{ type: "smartAccount" }])
        const account = yield* evmAccount
        expect(account?.address).toBe(SMART_ADDRESS)
        expect(account?.caipAddress).toBe(`${localChainA.caipNetworkId}:${SMART_ADDRESS}`)
        expect(account?.preferredAccountType).toBe("smartAccount")
        expect(account?.allAccounts).toEqual([
          { address: SMART_ADDRESS, type: "smartAccount" },
          { address: FRAME_ADDRESS, type: "eoa" }
        ])
        expect(yield* ethAccounts).toEqual([SMART_ADDRESS])
      })
    )
  )

  it.effect("a network where the frame runs no smart account: no switch, the EOA stays in front", () =>
    runWith({ enabled: [31338], preferred: "eoa" }, (frame) =>
      Effect.gen(function* () {
        yield* loggedIn
        expect(switches(frame)).toEqual([])
        const account = yield* evmAccount
        expect(account?.address).toBe(FRAME_ADDRESS)
        expect(account?.preferredAccountType).toBe("eoa")
      })
    )
  )

  it.effect("a refused switch is attempted once only: the EOA stays in front and the wallet connects", () =>
    runWith({ enabled: [31337], preferred: "eoa", refuse: "Smart accounts are not available on this network." }, (frame) =>
      Effect.gen(function* () {
        yield* loggedIn
        expect(switches(frame)).toEqual([{ type: "smartAccount" }])
        const account = yield* evmAccount
        expect(account?.status).toBe("connected")
        expect(account?.address).toBe(FRAME_ADDRESS)
      })
    )
  )

  it.effect("the host's defaultAccountTypes is read: eip155 'eoa' switches a smart-account user to the EOA", () =>
    runWith(
      { enabled: [31337], preferred: "smartAccount" },
      (frame) =>
        Effect.gen(function* () {
          yield* loggedIn
          expect(switches(frame)).toEqual([{ type: "eoa" }])
          expect((yield* evmAccount)?.address).toBe(FRAME_ADDRESS)
        }),
      { defaultAccountTypes: { eip155: "eoa" } }
    )
  )

  it.effect("the user already on the default type: nothing is switched", () =>
    runWith({ enabled: [31337], preferred: "smartAccount" }, (frame) =>
      Effect.gen(function* () {
        yield* loggedIn
        expect(switches(frame)).toEqual([])
        expect((yield* evmAccount)?.address).toBe(SMART_ADDRESS)
      })
    )
  )

  it.effect("a restored session keeps the account the visitor had in front: no switch on reconnect", () =>
    runWith({ enabled: [31337], preferred: "eoa" }, (frame) =>
      Effect.gen(function* () {
        yield* restoreEmbeddedSession(localChainA)
        const account = yield* evmAccount
        expect(account?.status).toBe("connected")
        expect(account?.address).toBe(FRAME_ADDRESS)
        expect(switches(frame)).toEqual([])
      })
    )
  )
})

describe("the account in front across networks", () => {
  it.effect("a network without smart accounts puts the EOA in front (its accounts alone); back on one that has them, the smart account", () =>
    runWith({ enabled: [31337], preferred: "eoa" }, () =>
      Effect.gen(function* () {
        yield* loggedIn
        expect((yield* evmAccount)?.address).toBe(SMART_ADDRESS)
        const session = Option.getOrThrow(yield* (yield* Connection).session("eip155"))
        if (session.provider.namespace !== "eip155") throw new Error("not an EIP-1193 provider")
        const provider = session.provider.provider
        const switchTo = (chainId: string) =>
          Effect.gen(function* () {
            yield* Effect.promise(() => provider.request({ method: "wallet_switchEthereumChain", params: [{ chainId }] }))
            // The connection applies a wallet's events once it has been quiet 50 ms.
            yield* Effect.forEach(Array.from({ length: 50 }), () => Effect.yieldNow, { discard: true })
            yield* TestClock.adjust(50)
          })
        const until = (address: string) =>
          Effect.flatMap(Connection, (connection) =>
            SubscriptionRef.changes(connection.state).pipe(
              Stream.filter((s) => s.namespaces.eip155?.account.address === address),
              Stream.runHead,
              Effect.map(Option.getOrThrow)
            )
          )
        yield* switchTo("0x7a6a")
        const onB = (yield* until(FRAME_ADDRESS)).namespaces.eip155!.account
        expect(onB.allAccounts).toEqual([{ address: FRAME_ADDRESS, type: "eoa" }])
        expect(onB.preferredAccountType).toBe("eoa")
        expect(yield* ethAccounts).toEqual([FRAME_ADDRESS])
        yield* switchTo("0x7a69")
        const onA = (yield* until(SMART_ADDRESS)).namespaces.eip155!.account
        expect(onA.allAccounts.map((entry) => entry.type)).toEqual(["smartAccount", "eoa"])
        expect(yield* ethAccounts).toEqual([SMART_ADDRESS])
      })
    )
  )
})

describe("the Account view's switch between the smart account and the EOA", () => {
  it.effect("puts the other account in front: address, preferred type and eth_accounts follow; and back", () =>
    runWith({ enabled: [31337], preferred: "smartAccount" }, (frame) =>
      Effect.gen(function* () {
        yield* loggedIn
        const wallet = yield* EmbeddedWallet
        yield* wallet.setPreferredAccount("eoa")
        let account = yield* evmAccount
        expect(account?.address).toBe(FRAME_ADDRESS)
        expect(account?.caipAddress).toBe(`${localChainA.caipNetworkId}:${FRAME_ADDRESS}`)
        expect(account?.preferredAccountType).toBe("eoa")
        expect(account?.allAccounts.map((entry) => entry.type)).toEqual(["eoa", "smartAccount"])
        expect(yield* ethAccounts).toEqual([FRAME_ADDRESS])
        expect((yield* SubscriptionRef.get(wallet.state)).accountSwitch).toEqual({ switching: undefined, error: undefined })

        yield* wallet.setPreferredAccount("smartAccount")
        account = yield* evmAccount
        expect(account?.address).toBe(SMART_ADDRESS)
        expect(account?.preferredAccountType).toBe("smartAccount")
        expect(yield* ethAccounts).toEqual([SMART_ADDRESS])
        expect(switches(frame)).toEqual([{ type: "eoa" }, { type: "smartAccount" }])
      })
    )
  )

  it.effect("a switch the frame refuses says its words, and the account in front stays", () =>
    runWith({ enabled: [31337], preferred: "smartAccount", refuse: "The wallet server is away." }, () =>
      Effect.gen(function* () {
        yield* loggedIn
        const wallet = yield* EmbeddedWallet
        yield* wallet.setPreferredAccount("eoa")
        expect((yield* SubscriptionRef.get(wallet.state)).accountSwitch).toEqual({ switching: undefined, error: "The wallet server is away." })
        expect((yield* evmAccount)?.address).toBe(SMART_ADDRESS)
        expect(yield* ethAccounts).toEqual([SMART_ADDRESS])
      })
    )
  )
})

describe("wallet_sendCalls before ApproveTransaction", () => {
  const CONTRACT = "0x5FC8d32690cc91D4c39d9d3abcBD16989F875707"
  const NO_CODE = "0x000000000000000000000000000000000000dEaD"
  const request = (method: string, params: unknown) =>
    Effect.gen(function* () {
      const session = Option.getOrThrow(yield* (yield* Connection).session("eip155"))
      if (session.provider.namespace !== "eip155") throw new Error("not an EIP-1193 provider")
      const provider = session.provider.provider
      return yield* Effect.tryPromise({ try: () => provider.request({ method, params }), catch: (error) => error as Error & { readonly code?: number } })
    })
  const batch = (calls: ReadonlyArray<Record<string, unknown>>, extra: Record<string, unknown> = {}) => [
    { version: "2.0.0", chainId: "0x7a69", atomicRequired: true, calls, ...extra }
  ]
  // The frame's chain: CONTRACT has code, the account in front holds 1 ETH; the send answers a batch id.
  const scriptChain = (frame: ScriptedFrame) =>
    frame.answer("RPC_REQUEST", (payload) => {
      const { method, params } = payload as { readonly method: string; readonly params?: ReadonlyArray<unknown> }
      if (method === "eth_getCode") return { ok: params?.[0] === CONTRACT ? "0x6080" : "0x" }
      if (method === "eth_getBalance") return { ok: "0xde0b6b3a7640000" }
      return { ok: { id: "0xb47c4" } }
    })
  const sends = (frame: ScriptedFrame) =>
    frame.posted.filter((post) => post.name === "RPC_REQUEST" && (post.payload as { readonly method: string }).method === "wallet_sendCalls")

  it.effect.each([
    ["a receiver without 0x", batch([{ to: NO_CODE.slice(2) }]), -32602, "Call 1: the receiver must be an address starting with 0x"],
    ["another version", batch([{ to: CONTRACT }], { version: "1.0" }), -32602, "This wallet takes batches of version 2.0.0, not 1.0"],
    ["another chain", batch([{ to: CONTRACT }], { chainId: "0x1" }), 5710, "This batch is for chain 1, but the wallet is on chain 31337"],
    ["data for an address without code", batch([{ to: CONTRACT, data: "0x01" }, { to: NO_CODE, data: "0x1234" }]), -32602, `Call 2 sends data to ${NO_CODE}, which is not a contract`],
    ["values past the balance", batch([{ to: NO_CODE, value: "0xde0b6b3a7640000" }, { to: NO_CODE, value: "0x1" }]), -32602, "The calls send 1.000000000000000001 ETH in all, more than the account holds (1 ETH)"]
  ] as const)("%s: refused with words, ApproveTransaction never opens, nothing is sent", ([_name, params, code, words]) =>
    runWith({ enabled: [31337], preferred: "smartAccount" }, (frame) =>
      Effect.gen(function* () {
        yield* loggedIn
        scriptChain(frame)
        yield* (yield* Modal).close
        const error = yield* Effect.flip(request("wallet_sendCalls", params))
        expect({ code: error.code, message: error.message }).toEqual({ code, message: words })
        expect((yield* SubscriptionRef.get((yield* EmbeddedWallet).state)).approval).toBeUndefined()
        expect((yield* SubscriptionRef.get((yield* Modal).state)).open).toBe(false)
        expect(sends(frame)).toEqual([])
      })
    )
  )

  it.effect("the EOA in front: an atomic batch is refused with 5760 before anyone is asked", () =>
    runWith({ enabled: [31337], preferred: "eoa" }, (frame) =>
      Effect.gen(function* () {
        yield* loggedIn
        yield* (yield* EmbeddedWallet).setPreferredAccount("eoa")
        scriptChain(frame)
        const error = yield* Effect.flip(request("wallet_sendCalls", batch([{ to: NO_CODE, value: "0x1" }])))
        expect(error.code).toBe(5760)
        expect(error.message).toBe("This account cannot run calls together in one transaction: switch to the smart account, or send them one by one")
        expect(sends(frame)).toEqual([])
      })
    )
  )

  it.effect("a good batch shows each call in ApproveTransaction, then goes to the frame from the account in front", () =>
    runWith({ enabled: [31337], preferred: "smartAccount" }, (frame) =>
      Effect.gen(function* () {
        yield* loggedIn
        scriptChain(frame)
        const sending = yield* Effect.forkChild(request("wallet_sendCalls", batch([{ to: CONTRACT, data: "0x095ea7b3" }, { to: NO_CODE, value: "0x2386f26fc10000" }])))
        const shown = yield* embeddedUntil((s) => s.approval !== undefined)
        expect(shown.approval?.summary).toEqual({
          _tag: "Calls",
          calls: [
            { to: CONTRACT, value: "0 ETH", data: "0x095ea7b3" },
            { to: NO_CODE, value: "0.01 ETH", data: undefined }
          ]
        })
        expect(sends(frame)).toEqual([])
        yield* (yield* EmbeddedWallet).approve
        expect(yield* Fiber.join(sending)).toEqual({ id: "0xb47c4" })
        expect(sends(frame).map((post) => post.payload)).toEqual([
          {
            method: "wallet_sendCalls",
            params: [{ ...batch([])[0], from: SMART_ADDRESS, calls: [{ to: CONTRACT, data: "0x095ea7b3" }, { to: NO_CODE, value: "0x2386f26fc10000" }] }]
          }
        ])
      })
    )
  )
})
