import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Option, Stream, SubscriptionRef } from "effect"
import { TestClock } from "effect/testing"
import { UserRejected } from "../../../src/domain/errors"
import { localChainA, localChainB, localSolana } from "../../../src/domain/networks"
import { decodeOptionsSync } from "../../../src/domain/Options"
import type { SiweConfig, SiwxConfig } from "../../../src/domain/Siwx"
import { testLayer } from "../../../src/layers/Test"
import { ConnectFlow } from "../../../src/services/ConnectFlow"
import { Connection } from "../../../src/services/Connection"
import { makeFakeWallet } from "../../../src/services/fakes/FakeWallet"
import { currentRoute, Modal } from "../../../src/services/Modal"
import { Networks } from "../../../src/services/Networks"
import { HOST_CALL_TIMEOUT_MS } from "../../../src/services/Siwx/backends"
import { Siwx, type SiwxState } from "../../../src/services/Siwx/Siwx"
import { hostBackend, sessionFor } from "./siwxHostBackend"

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
const SOL = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"

const evm = () =>
  makeFakeWallet({ id: "io.metamask", name: "MetaMask", rdns: "io.metamask", families: { eip155: { accounts: [{ address: ALICE, type: "eoa" }], chainId: 31337 } } })

const layerWith = (siwx: { readonly siwx?: unknown; readonly siweConfig?: unknown }, wallet = evm()) =>
  Effect.map(wallet, (w) => ({
    wallet: w,
    layer: testLayer(decodeOptionsSync({ projectId: "p", networks: [localChainA, localChainB], ...siwx }), { wallets: [w] })
  }))

const stateUntil = (condition: (state: SiwxState) => boolean) =>
  Effect.flatMap(Siwx, (siwx) =>
    SubscriptionRef.changes(siwx.state).pipe(Stream.filter(condition), Stream.runHead, Effect.map(Option.getOrThrow))
  )
const stepIs = (tag: SiwxState["step"]["_tag"]) => stateUntil((s) => s.step._tag === tag)
/** Lets the forked fibers run (the followers, the checks they fork). */
const settled = Effect.forEach(Array.from({ length: 50 }), () => Effect.yieldNow, { discard: true })
const modalState = Effect.flatMap(Modal, (modal) => SubscriptionRef.get(modal.state))
const viewNow = Effect.map(modalState, (s) => (s.open ? currentRoute(s).view : undefined))
const statusNow = Effect.flatMap(Connection, (c) => Effect.map(SubscriptionRef.get(c.state), (s) => s.namespaces.eip155?.account.status))

describe("Siwx: sign-in with the host's backend", () => {
  it.effect("connect without a session: the sign view opens, signing keeps the session, closes the modal and connect() gives it", () =>
    Effect.gen(function* () {
      const host = hostBackend()
      const { wallet, layer } = yield* layerWith({ siwx: host.config })
      yield* Effect.gen(function* () {
        const connecting = yield* Effect.forkChild(Effect.flatMap(ConnectFlow, (flow) => flow.connect("MetaMask")))
        const needed = yield* stepIs("Needed")
        expect(needed.step._tag === "Needed" && needed.step.account.chainId).toBe(localChainA.caipNetworkId)
        expect(yield* viewNow).toBe("SIWXSignMessage")
        yield* (yield* Siwx).signIn
        const result = yield* Fiber.join(connecting)
        expect(result.session?.message).toBe(`sign in ${ALICE} on ${localChainA.caipNetworkId}`)
        expect(wallet.calls).toContain(`sign:sign in ${ALICE} on ${localChainA.caipNetworkId}`)
        expect(host.calls).toEqual([`get:${localChainA.caipNetworkId}`, `create:${localChainA.caipNetworkId}`, `add:${localChainA.caipNetworkId}:${result.session?.signature.slice(0, 6)}`])
        expect((yield* SubscriptionRef.get((yield* Siwx).state)).step._tag).toBe("SignedIn")
        expect((yield* modalState).open).toBe(false)
      }).pipe(Effect.provide(layer))
    })
  )

  it.effect("an account with a valid session signs nothing: no view, connect() gives that session", () =>
    Effect.gen(function* () {
      const kept = sessionFor(localChainA.caipNetworkId, ALICE)
      const host = hostBackend({ sessions: [kept] })
      const { wallet, layer } = yield* layerWith({ siwx: host.config })
      yield* Effect.gen(function* () {
        const result = yield* Effect.flatMap(ConnectFlow, (flow) => flow.connect("MetaMask"))
        expect(result.session).toEqual(kept)
        expect(wallet.calls.some((call) => call.startsWith("sign:"))).toBe(false)
        expect((yield* modalState).open).toBe(false)
      }).pipe(Effect.provide(layer))
    })
  )

  it.effect("an expired session does not count: the visitor is asked to sign", () =>
    Effect.gen(function* () {
      const host = hostBackend({ sessions: [sessionFor(localChainA.caipNetworkId, ALICE, { expirationTime: "1970-01-01T00:00:01.000Z" })] })
      const { layer } = yield* layerWith({ siwx: host.config })
      yield* Effect.gen(function* () {
        yield* TestClock.adjust("1 hour")
        yield* Effect.forkChild(Effect.flatMap(ConnectFlow, (flow) => flow.connect("MetaMask")))
        yield* stepIs("Needed")
        expect(yield* viewNow).toBe("SIWXSignMessage")
      }).pipe(Effect.provide(layer))
    })
  )

  it.effect("a refusal stays on the view with 'Signature declined'; trying again signs in", () =>
    Effect.gen(function* () {
      const host = hostBackend()
      const { wallet, layer } = yield* layerWith({ siwx: host.config })
      yield* Effect.gen(function* () {
        const siwx = yield* Siwx
        const connecting = yield* Effect.forkChild(Effect.flatMap(ConnectFlow, (flow) => flow.connect("MetaMask")))
        yield* stepIs("Needed")
        wallet.script.signError = new UserRejected({ code: 4001 })
        yield* siwx.signIn
        const refused = yield* SubscriptionRef.get(siwx.state)
        expect(refused.step._tag === "Needed" && refused.step.error?.message).toBe("Signature declined")
        expect(yield* viewNow).toBe("SIWXSignMessage")
        wallet.script.signError = undefined
        yield* siwx.signIn
        expect((yield* Fiber.join(connecting)).session).toBeDefined()
      }).pipe(Effect.provide(layer))
    })
  )

  it.effect("not required: cancel closes the modal, the wallet stays connected, connect() gives no session", () =>
    Effect.gen(function* () {
      const { layer } = yield* layerWith({ siwx: hostBackend().config })
      yield* Effect.gen(function* () {
        const connecting = yield* Effect.forkChild(Effect.flatMap(ConnectFlow, (flow) => flow.connect("MetaMask")))
        yield* stepIs("Needed")
        yield* (yield* Siwx).cancel
        const result = yield* Fiber.join(connecting)
        expect(result.session).toBeUndefined()
        expect((yield* modalState).open).toBe(false)
        expect(yield* statusNow).toBe("connected")
      }).pipe(Effect.provide(layer))
    })
  )

  it.effect("not required: closing the modal on the sign view is going on without a session", () =>
    Effect.gen(function* () {
      const { layer } = yield* layerWith({ siwx: hostBackend().config })
      yield* Effect.gen(function* () {
        const connecting = yield* Effect.forkChild(Effect.flatMap(ConnectFlow, (flow) => flow.connect("MetaMask")))
        yield* stepIs("Needed")
        yield* (yield* Modal).close
        expect((yield* Fiber.join(connecting)).session).toBeUndefined()
        expect(yield* statusNow).toBe("connected")
      }).pipe(Effect.provide(layer))
    })
  )

  it.effect("required: the modal cannot be closed (it shakes); cancel disconnects and connect() fails cancelled", () =>
    Effect.gen(function* () {
      const { layer } = yield* layerWith({ siwx: hostBackend({ required: true }).config })
      yield* Effect.gen(function* () {
        const connecting = yield* Effect.forkChild(Effect.flatMap(ConnectFlow, (flow) => flow.connect("MetaMask")))
        const needed = yield* stepIs("Needed")
        expect(needed.required).toBe(true)
        const modal = yield* Modal
        yield* modal.close
        yield* Effect.yieldNow
        expect((yield* modalState).open).toBe(true)
        expect((yield* modalState).shake).toBe(true)
        yield* modal.goBack
        expect((yield* modalState).open).toBe(true)
        yield* (yield* Siwx).cancel
        const error = yield* Effect.flip(Fiber.join(connecting))
        expect(error._tag).toBe("ConnectCancelled")
        expect(yield* statusNow).toBe("disconnected")
        expect((yield* modalState).open).toBe(false)
        expect((yield* modalState).signInRequired).toBe(false)
      }).pipe(Effect.provide(layer))
    })
  )

  // A host requiring sign-in, with one injected wallet in EVM and Solana.
  const twoFamilyHost = Effect.gen(function* () {
    const host = hostBackend({ required: true })
    const wallet = yield* makeFakeWallet({
      id: "io.metamask",
      name: "MetaMask",
      rdns: "io.metamask",
      families: { eip155: { accounts: [{ address: ALICE, type: "eoa" }], chainId: 31337 }, solana: { accounts: [{ address: SOL, type: "eoa" }], chainId: localSolana.id } }
    })
    return { host, layer: testLayer(decodeOptionsSync({ projectId: "p", networks: [localChainA, localSolana], siwx: host.config }), { wallets: [wallet] }) }
  })

  it.effect("required, a wallet in EVM and Solana: cancel disconnects both families and the modal closes, nothing asked of Solana", () =>
    Effect.gen(function* () {
      const { host, layer } = yield* twoFamilyHost
      yield* Effect.gen(function* () {
        const connecting = yield* Effect.forkChild(Effect.flatMap(ConnectFlow, (flow) => flow.connect("MetaMask")))
        const needed = yield* stepIs("Needed")
        expect(needed.step._tag === "Needed" && needed.step.account.namespace).toBe("eip155")
        const both = yield* SubscriptionRef.get((yield* Connection).state)
        expect([both.namespaces.eip155?.account.status, both.namespaces.solana?.account.status]).toEqual(["connected", "connected"])
        yield* (yield* Siwx).cancel
        expect((yield* Effect.flip(Fiber.join(connecting)))._tag).toBe("ConnectCancelled")
        // However the followers take turns, the sign-in state settles on no account, the modal closed.
        yield* stepIs("SignedOut")
        yield* settled
        const after = yield* SubscriptionRef.get((yield* Connection).state)
        expect([after.activeNamespace, after.namespaces.eip155?.account.status, after.namespaces.solana?.account.status]).toEqual([undefined, "disconnected", "disconnected"])
        expect((yield* SubscriptionRef.get((yield* Siwx).state)).step._tag).toBe("SignedOut")
        expect((yield* modalState).open).toBe(false)
        expect((yield* modalState).signInRequired).toBe(false)
        expect(host.calls).toEqual([`get:${localChainA.caipNetworkId}`])
        // Solana never came to the front on the way out: the networks stay on the family the visitor was on.
        expect((yield* SubscriptionRef.get((yield* Networks).state)).activeNamespace).toBe("eip155")
      }).pipe(Effect.provide(layer))
    })
  )

  it.effect("an account in front only for a moment (gone before its check began) is not asked to sign", () =>
    Effect.gen(function* () {
      const { host, layer } = yield* twoFamilyHost
      yield* Effect.gen(function* () {
        const connection = yield* Connection
        yield* Effect.forkChild(Effect.flatMap(ConnectFlow, (flow) => flow.connect("MetaMask")))
        yield* stepIs("Needed")
        yield* settled
        // Solana comes to the front and its account goes at once, before sign-in's follower had a turn.
        yield* connection.setActiveNamespace("solana")
        yield* connection.reset("solana")
        yield* stepIs("SignedOut")
        yield* settled
        expect((yield* SubscriptionRef.get((yield* Siwx).state)).step._tag).toBe("SignedOut")
        expect(host.calls).toEqual([`get:${localChainA.caipNetworkId}`])
      }).pipe(Effect.provide(layer))
    })
  )

  it.effect("switching to a network no session covers asks again; back on a covered one asks nothing", () =>
    Effect.gen(function* () {
      const host = hostBackend()
      const { layer } = yield* layerWith({ siwx: host.config })
      yield* Effect.gen(function* () {
        const siwx = yield* Siwx
        const connecting = yield* Effect.forkChild(Effect.flatMap(ConnectFlow, (flow) => flow.connect("MetaMask")))
        yield* stepIs("Needed")
        yield* siwx.signIn
        yield* Fiber.join(connecting)
        yield* (yield* Networks).switchNetwork(localChainB.caipNetworkId)
        const asked = yield* stateUntil((s) => s.step._tag === "Needed" && s.step.account.chainId === localChainB.caipNetworkId)
        expect(asked.step._tag).toBe("Needed")
        expect(yield* viewNow).toBe("SIWXSignMessage")
        yield* siwx.signIn
        yield* stateUntil((s) => s.step._tag === "SignedIn" && s.step.account.chainId === localChainB.caipNetworkId)
        yield* (yield* Networks).switchNetwork(localChainA.caipNetworkId)
        yield* stateUntil((s) => s.step._tag === "SignedIn" && s.step.account.chainId === localChainA.caipNetworkId)
        expect(host.calls.filter((call) => call.startsWith("create:"))).toHaveLength(2)
      }).pipe(Effect.provide(layer))
    })
  )

  it.effect("disconnecting revokes the session (signOutOnDisconnect by default); signOut revokes and asks again", () =>
    Effect.gen(function* () {
      const host = hostBackend({ sessions: [sessionFor(localChainA.caipNetworkId, ALICE)] })
      const { layer } = yield* layerWith({ siwx: host.config })
      yield* Effect.gen(function* () {
        const siwx = yield* Siwx
        yield* Effect.flatMap(ConnectFlow, (flow) => flow.connect("MetaMask"))
        yield* stepIs("SignedIn")
        yield* siwx.signOut
        expect(host.calls).toContain(`revoke:${localChainA.caipNetworkId}`)
        expect((yield* SubscriptionRef.get(siwx.state)).step._tag).toBe("Needed")
        host.sessions.push(sessionFor(localChainA.caipNetworkId, ALICE))
        yield* (yield* Connection).disconnect()
        yield* stepIs("SignedOut")
        expect(host.calls.filter((call) => call.startsWith("revoke:"))).toHaveLength(1)
      }).pipe(Effect.provide(layer))
    })
  )

  it.effect("the host's failures reach the view in words: a throw, a wrong shape, and no answer within 30 s", () =>
    Effect.gen(function* () {
      let mode: "throw" | "shape" | "silent" = "throw"
      const host = hostBackend({
        createMessage: (input) => {
          if (mode === "throw") throw new Error("Backend is down")
          if (mode === "shape") return Promise.resolve({ accountAddress: input.accountAddress } as never)
          return new Promise(() => undefined)
        }
      })
      const { layer } = yield* layerWith({ siwx: host.config })
      yield* Effect.gen(function* () {
        const siwx = yield* Siwx
        yield* Effect.forkChild(Effect.flatMap(ConnectFlow, (flow) => flow.connect("MetaMask")))
        yield* stepIs("Needed")
        const errorNow = Effect.map(SubscriptionRef.get(siwx.state), (s) => (s.step._tag === "Needed" ? s.step.error?.message : undefined))
        yield* siwx.signIn
        expect(yield* errorNow).toBe("Backend is down")
        mode = "shape"
        yield* siwx.signIn
        expect(yield* errorNow).toBe("The site's sign-in message is not one the wallet can sign")
        mode = "silent"
        const signing = yield* Effect.forkChild(siwx.signIn)
        yield* TestClock.adjust(HOST_CALL_TIMEOUT_MS)
        yield* Fiber.join(signing)
        expect(yield* errorNow).toBe("The site did not answer in time (createMessage)")
      }).pipe(Effect.provide(layer))
    })
  )

  it.effect("an incomplete configuration signs nobody in and says what is missing", () =>
    Effect.gen(function* () {
      const { layer } = yield* layerWith({ siwx: { createMessage: async () => ({}) } })
      yield* Effect.gen(function* () {
        const siwx = yield* Siwx
        yield* Effect.forkChild(Effect.flatMap(ConnectFlow, (flow) => flow.connect("MetaMask")))
        yield* stepIs("Needed")
        yield* siwx.signIn
        const state = yield* SubscriptionRef.get(siwx.state)
        expect(state.step._tag === "Needed" && state.step.error?.message).toBe(
          "The site's sign-in is incomplete: siwx.addSession, siwx.revokeSession, siwx.getSessions missing"
        )
      }).pipe(Effect.provide(layer))
    })
  )
})

describe("Siwx: the signature outlives the click", () => {
  it.effect("the caller interrupted while the wallet is asked (the embedded wallet's approval view replaced the sign view): the signature is still used and the session kept", () =>
    Effect.gen(function* () {
      const host = hostBackend()
      const { wallet, layer } = yield* layerWith({ siwx: host.config })
      yield* Effect.gen(function* () {
        const siwx = yield* Siwx
        yield* Effect.forkChild(Effect.flatMap(ConnectFlow, (flow) => flow.connect("MetaMask")))
        yield* stepIs("Needed")
        let answer: () => void = () => undefined
        wallet.script.answerGate = new Promise<void>((resolve) => (answer = resolve))
        const click = yield* Effect.forkChild(siwx.signIn)
        yield* stateUntil((s) => s.step._tag === "Needed" && s.step.signing)
        yield* Fiber.interrupt(click)
        answer()
        yield* stepIs("SignedIn")
        expect(host.calls.filter((call) => call.startsWith("add:"))).toHaveLength(1)
      }).pipe(Effect.provide(layer))
    })
  )
})

describe("Siwx: the legacy siweConfig", () => {
  const siwe = (verify: boolean) => {
    const calls: Array<string> = []
    let session: { address: string; chainId: number } | null = null
    const config: SiweConfig = {
      getNonce: async () => "nonce1234",
      getMessageParams: async () => ({ domain: "shop.test", uri: "https://shop.test", statement: "Welcome" }),
      createMessage: (args) => {
        calls.push(`create:${args.chainId}:${args.nonce}:${args.domain}`)
        return `shop.test wants ${args.address} on ${args.chainId}`
      },
      verifyMessage: async ({ message }) => {
        calls.push(`verify:${message}`)
        return verify
      },
      getSession: async () => session,
      signOut: async () => {
        calls.push("signOut")
        session = null
        return true
      },
      onSignIn: (s) => {
        session = s ?? null
      }
    }
    return { config, calls }
  }

  it.effect("the host's nonce and text are signed, verifyMessage decides, getSession covers the account afterwards", () =>
    Effect.gen(function* () {
      const host = siwe(true)
      const { layer } = yield* layerWith({ siweConfig: host.config })
      yield* Effect.gen(function* () {
        const connecting = yield* Effect.forkChild(Effect.flatMap(ConnectFlow, (flow) => flow.connect("MetaMask")))
        yield* stepIs("Needed")
        yield* (yield* Siwx).signIn
        const result = yield* Fiber.join(connecting)
        expect(host.calls).toEqual(["create:31337:nonce1234:shop.test", `verify:shop.test wants ${ALICE} on 31337`])
        expect(result.session?.data.statement).toBe("Welcome")
        yield* (yield* Siwx).signOut
        expect(host.calls).toContain("signOut")
      }).pipe(Effect.provide(layer))
    })
  )

  it.effect("a signature the host does not verify keeps the visitor on the view with why", () =>
    Effect.gen(function* () {
      const { layer } = yield* layerWith({ siweConfig: siwe(false).config })
      yield* Effect.gen(function* () {
        const siwx = yield* Siwx
        yield* Effect.forkChild(Effect.flatMap(ConnectFlow, (flow) => flow.connect("MetaMask")))
        yield* stepIs("Needed")
        yield* siwx.signIn
        const state = yield* SubscriptionRef.get(siwx.state)
        expect(state.step._tag === "Needed" && state.step.error?.message).toBe("The site could not verify the signature")
      }).pipe(Effect.provide(layer))
    })
  )
})

describe("Siwx: a smart account the site's verifier refuses (spec 8)", () => {
  const smartWallet = () =>
    makeFakeWallet({ id: "io.metamask", name: "MetaMask", rdns: "io.metamask", families: { eip155: { accounts: [{ address: ALICE, type: "smartAccount" }], chainId: 31337 } } })

  it.effect("siweConfig's verifyMessage says no: 'This application might not support Smart Accounts', the site's reason kept", () =>
    Effect.gen(function* () {
      const verifier: SiweConfig = {
        getNonce: async () => "nonce1234",
        getMessageParams: async () => ({ domain: "shop.test", uri: "https://shop.test" }),
        createMessage: (args) => `shop.test wants ${args.address}`,
        verifyMessage: async () => false,
        getSession: async () => null,
        signOut: async () => true
      }
      const { layer } = yield* layerWith({ siweConfig: verifier }, smartWallet())
      yield* Effect.gen(function* () {
        const siwx = yield* Siwx
        yield* Effect.forkChild(Effect.flatMap(ConnectFlow, (flow) => flow.connect("MetaMask")))
        yield* stepIs("Needed")
        yield* siwx.signIn
        const state = yield* SubscriptionRef.get(siwx.state)
        const error = state.step._tag === "Needed" ? state.step.error : undefined
        expect(error?._tag).toBe("SmartAccountSignInRefused")
        expect(error?.message).toBe("This application might not support Smart Accounts")
        expect(error?._tag === "SmartAccountSignInRefused" && error.reason).toBe("The site could not verify the signature")
      }).pipe(Effect.provide(layer))
    })
  )

  it.effect("siwx's addSession throws for the smart account: the same words; a refusal to sign is still 'Signature declined'", () =>
    Effect.gen(function* () {
      const host = hostBackend()
      const refusing: SiwxConfig = { ...host.config, addSession: async () => Promise.reject(new Error("ERC-1271 is not supported here")) }
      const { wallet, layer } = yield* layerWith({ siwx: refusing }, smartWallet())
      yield* Effect.gen(function* () {
        const siwx = yield* Siwx
        yield* Effect.forkChild(Effect.flatMap(ConnectFlow, (flow) => flow.connect("MetaMask")))
        yield* stepIs("Needed")
        yield* siwx.signIn
        const refused = yield* SubscriptionRef.get(siwx.state)
        expect(refused.step._tag === "Needed" && refused.step.error?.message).toBe("This application might not support Smart Accounts")
        wallet.script.signError = new UserRejected({ code: 4001 })
        yield* siwx.signIn
        const declined = yield* SubscriptionRef.get(siwx.state)
        expect(declined.step._tag === "Needed" && declined.step.error?.message).toBe("Signature declined")
      }).pipe(Effect.provide(layer))
    })
  )
})

describe("Siwx: not configured", () => {
  it.effect("without siwx or siweConfig it is disabled and connecting closes the modal as before", () =>
    Effect.gen(function* () {
      const { layer } = yield* layerWith({})
      yield* Effect.gen(function* () {
        const result = yield* Effect.flatMap(ConnectFlow, (flow) => flow.connect("MetaMask"))
        expect(result.session).toBeUndefined()
        expect((yield* SubscriptionRef.get((yield* Siwx).state)).step._tag).toBe("Disabled")
      }).pipe(Effect.provide(layer))
    })
  )
})
