import { describe, expect, it } from "@effect/vitest"
import { Deferred, Effect, Exit, Fiber, Layer, Option, Stream, SubscriptionRef } from "effect"
import { TestClock } from "effect/testing"
import { UserRejected } from "../../../src/domain/errors"
import { localChainA, localChainB, solana } from "../../../src/domain/networks"
import { decodeOptionsSync } from "../../../src/domain/Options"
import type { WalletCatalogEntry } from "../../../src/domain/Wallet"
import { testLayer } from "../../../src/layers/Test"
import { CONNECTING_VIEW_DELAY_MS, ConnectCancelled, ConnectFlow, type ConnectProgress, routeForChoice, SignInStep } from "../../../src/services/ConnectFlow"
import type { SiwxSession } from "../../../src/domain/Siwx"
import { Connection } from "../../../src/services/Connection"
import { type FakeWallet, makeFakeWallet } from "../../../src/services/fakes/FakeWallet"
import { currentEntry, currentRoute, Modal } from "../../../src/services/Modal"
import { Networks } from "../../../src/services/Networks"
import { Storage } from "../../../src/services/Storage/Storage"
import * as Keys from "../../../src/services/Storage/keys"

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
const SOL = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"
const options = decodeOptionsSync({ projectId: "p", networks: [localChainA, localChainB, solana] })

const evm = (extra: Partial<Parameters<typeof makeFakeWallet>[0]> = {}) =>
  makeFakeWallet({ id: "io.metamask", name: "MetaMask", rdns: "io.metamask", families: { eip155: { accounts: [{ address: ALICE, type: "eoa" }], chainId: 31337 } }, ...extra })

const catalogueWallet = (extra: Partial<WalletCatalogEntry> = {}): WalletCatalogEntry => ({ id: "cat-1", name: "Catalogue Wallet", image_id: "x", chains: [], ...extra })

const withWallets = <A, E>(wallets: ReadonlyArray<FakeWallet>, body: Effect.Effect<A, E, ConnectFlow | Modal | Connection | Networks | Storage>, extra?: Layer.Layer<SignInStep>) =>
  Effect.provide(body, extra === undefined ? testLayer(options, { wallets }) : testLayer(options, { wallets }).pipe(Layer.provide(extra)))

/** Waits until the flow's progress satisfies `condition`. */
const progressUntil = (condition: (progress: ConnectProgress) => boolean) =>
  Effect.flatMap(ConnectFlow, (flow) =>
    SubscriptionRef.changes(flow.progress).pipe(Stream.filter(condition), Stream.runHead, Effect.timeout("1 second"), Effect.orDie, Effect.map(Option.getOrThrow))
  )

const modalState = Effect.flatMap(Modal, (modal) => SubscriptionRef.get(modal.state))
/** Waits until the modal is closed (the flow closes it once the wallet is connected). */
const modalClosed = Effect.flatMap(Modal, (modal) =>
  SubscriptionRef.changes(modal.state).pipe(Stream.filter((s) => !s.open), Stream.runHead, Effect.timeout("1 second"), Effect.orDie)
)
/** Waits until the eip155 family has `status`. */
const statusUntil = (status: string) =>
  Effect.flatMap(Connection, (c) =>
    SubscriptionRef.changes(c.state).pipe(
      Stream.filter((s) => s.namespaces.eip155?.account.status === status),
      Stream.runHead,
      Effect.timeout("1 second"),
      Effect.orDie
    )
  )
const statusOf = (namespace: "eip155" | "solana") =>
  Effect.flatMap(Connection, (c) => Effect.map(SubscriptionRef.get(c.state), (s) => s.namespaces[namespace]?.account.status))

describe("routeForChoice (which view a wallet row opens)", () => {
  it("WalletConnect's row → the basic QR view; a connector → the connecting view; a catalogue wallet with links → its QR view", () => {
    const wc = { id: "walletConnect", type: "WALLET_CONNECT", chain: "eip155", chains: [] } as const
    const injected = { id: "io.metamask", type: "ANNOUNCED", chain: "eip155", chains: [] } as const
    expect(routeForChoice({ connector: wc })).toEqual({ view: "WalletConnectBasic" })
    expect(routeForChoice({ connector: injected, wallet: catalogueWallet() })).toEqual({
      view: "ConnectingExternal",
      connectorId: "io.metamask",
      wallet: catalogueWallet()
    })
    const linked = catalogueWallet({ mobile_link: "wallet://" })
    expect(routeForChoice({ wallet: linked })).toEqual({ view: "ConnectingWalletConnect", wallet: linked })
    expect(routeForChoice({ wallet: catalogueWallet() })).toEqual({ view: "ConnectingExternal", wallet: catalogueWallet() })
  })
})

describe("ConnectFlow", () => {
  it.effect("a wallet that answers at once connects from the list: no connecting view, recent wallet remembered, modal closed", () =>
    Effect.gen(function* () {
      const wallet = yield* evm()
      yield* withWallets(
        [wallet],
        Effect.gen(function* () {
          const flow = yield* ConnectFlow
          const modal = yield* Modal
          yield* modal.open()
          const views: Array<string> = []
          yield* SubscriptionRef.changes(modal.state).pipe(
            Stream.runForEach((state) => Effect.sync(() => views.push(currentRoute(state).view))),
            Effect.forkChild
          )
          yield* Effect.yieldNow
          yield* flow.choose({ connector: wallet.connector.info, wallet: catalogueWallet() })
          const done = yield* progressUntil((p) => p._tag === "Connected")
          expect(done._tag === "Connected" && done.wallet.accounts.eip155?.address).toBe(ALICE)
          yield* modalClosed
          expect(views).not.toContain("ConnectingExternal")
          expect(yield* statusOf("eip155")).toBe("connected")
          const connection = yield* Connection
          expect((yield* SubscriptionRef.get(connection.state)).recentWallets.map((w) => w.id)).toEqual(["cat-1"])
        })
      )
    })
  )

  it.effect("a wallet that takes its time (a prompt): its connecting view opens after CONNECTING_VIEW_DELAY_MS, and connecting goes on there", () =>
    Effect.gen(function* () {
      let answer!: () => void
      const wallet = yield* evm({ connectGate: new Promise<void>((resolve) => (answer = resolve)) })
      yield* withWallets(
        [wallet],
        Effect.gen(function* () {
          const flow = yield* ConnectFlow
          yield* (yield* Modal).open()
          yield* flow.choose({ connector: wallet.connector.info, wallet: catalogueWallet() })
          yield* statusUntil("connecting")
          yield* TestClock.adjust(CONNECTING_VIEW_DELAY_MS - 1)
          expect(currentRoute(yield* modalState).view).toBe("Connect")
          expect(yield* SubscriptionRef.get(flow.progress)).toMatchObject({ _tag: "Connecting" })
          yield* TestClock.adjust(1)
          const shown = currentEntry(yield* modalState)
          expect(shown.route).toEqual({ view: "ConnectingExternal", connectorId: "io.metamask", wallet: catalogueWallet() })
          expect(yield* SubscriptionRef.get(flow.progress)).toEqual({ _tag: "Connecting", key: shown.key })
          answer()
          const done = yield* progressUntil((p) => p._tag === "Connected")
          expect(done._tag === "Connected" && done.key).toBe(shown.key)
          yield* modalClosed
          expect(wallet.calls.filter((call) => call.startsWith("connect:"))).toHaveLength(1)
        })
      )
    })
  )

  it.effect("a wallet that refuses at once: the connecting view opens to say so, and Try again there connects", () =>
    Effect.gen(function* () {
      const wallet = yield* evm({ connectError: new UserRejected({ code: 4001 }) })
      yield* withWallets(
        [wallet],
        Effect.gen(function* () {
          const flow = yield* ConnectFlow
          yield* (yield* Modal).open()
          yield* flow.choose({ connector: wallet.connector.info })
          const failed = yield* progressUntil((p) => p._tag === "Failed")
          const shown = currentEntry(yield* modalState)
          expect(shown.route.view).toBe("ConnectingExternal")
          expect(failed._tag === "Failed" && failed.error._tag).toBe("UserRejected")
          expect(failed._tag === "Failed" && failed.key).toBe(shown.key)
          wallet.script.connectError = undefined
          yield* flow.retry
          yield* progressUntil((p) => p._tag === "Connected")
          yield* modalClosed
          expect(wallet.calls.filter((c) => c.startsWith("connect:"))).toHaveLength(2)
        })
      )
    })
  )

  it.effect("a connect that dies (a wallet's answer our own code cannot read) fails as a typed error the view shows, with Try again", () =>
    Effect.gen(function* () {
      const wallet = yield* evm()
      const hostile: FakeWallet = { ...wallet, connector: { ...wallet.connector, connect: () => Effect.die(new TypeError("Cannot read properties of null")) } }
      yield* withWallets(
        [hostile],
        Effect.gen(function* () {
          const flow = yield* ConnectFlow
          yield* (yield* Modal).open()
          yield* flow.choose({ connector: hostile.connector.info })
          const failed = yield* progressUntil((p) => p._tag === "Failed")
          expect(currentEntry(yield* modalState).route.view).toBe("ConnectingExternal")
          expect(failed._tag === "Failed" && failed.error._tag).toBe("SomethingWentWrong")
          const hostExit = yield* Effect.exit(flow.connect("MetaMask"))
          expect(Exit.isFailure(hostExit) && Option.getOrUndefined(Exit.findErrorOption(hostExit))?._tag).toBe("SomethingWentWrong")
        })
      )
    })
  )

  it.effect("closing the modal before a slow wallet's view opens stops waiting: the family is as before, no view opens later", () =>
    Effect.gen(function* () {
      const wallet = yield* evm({ connectGate: new Promise<void>(() => undefined) })
      yield* withWallets(
        [wallet],
        Effect.gen(function* () {
          const flow = yield* ConnectFlow
          const modal = yield* Modal
          yield* modal.open()
          yield* flow.choose({ connector: wallet.connector.info })
          yield* statusUntil("connecting")
          yield* modal.close
          yield* progressUntil((p) => p._tag === "Idle")
          expect(yield* statusOf("eip155")).toBe("disconnected")
          yield* TestClock.adjust(CONNECTING_VIEW_DELAY_MS)
          expect((yield* modalState).open).toBe(false)
          expect((yield* modalState).history.map((entry) => entry.route.view)).toEqual(["Connect"])
        })
      )
    })
  )

  it.effect("choosing a wallet asks it at once, and once: not again when the view change reaches the follower, even for a wallet that answers at once", () =>
    Effect.gen(function* () {
      const wallet = yield* evm()
      yield* withWallets(
        [wallet],
        Effect.gen(function* () {
          const flow = yield* ConnectFlow
          yield* (yield* Modal).open()
          yield* flow.choose({ connector: wallet.connector.info })
          expect(yield* SubscriptionRef.get(flow.progress)).toMatchObject({ _tag: "Connecting" })
          yield* progressUntil((p) => p._tag === "Connected")
          yield* modalClosed
          yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 0)))
          expect(wallet.calls.filter((call) => call.startsWith("connect:"))).toHaveLength(1)
        })
      )
    })
  )

  it.effect("a wallet that has not answered after 15 s is said to be late (its request still open); Try again asks it again", () =>
    Effect.gen(function* () {
      const wallet = yield* evm({ connectGate: new Promise<void>(() => undefined) })
      yield* withWallets(
        [wallet],
        Effect.gen(function* () {
          const flow = yield* ConnectFlow
          yield* (yield* Modal).open()
          yield* flow.choose({ connector: wallet.connector.info })
          yield* statusUntil("connecting")
          yield* TestClock.adjust(CONNECTING_VIEW_DELAY_MS)
          const shown = currentEntry(yield* modalState)
          expect(shown.route.view).toBe("ConnectingExternal")
          yield* TestClock.adjust(15_000 - CONNECTING_VIEW_DELAY_MS - 1)
          expect(yield* SubscriptionRef.get(flow.progress)).toEqual({ _tag: "Connecting", key: shown.key })
          yield* TestClock.adjust(1)
          yield* progressUntil((p) => p._tag === "Connecting" && p.late === true && p.key === shown.key)
          // Still waiting on the wallet: nothing failed, the family is still connecting.
          expect(yield* statusOf("eip155")).toBe("connecting")
          wallet.script.connectGate = undefined
          yield* flow.retry
          yield* progressUntil((p) => p._tag === "Connected")
          expect(wallet.calls.filter((c) => c.startsWith("connect:"))).toHaveLength(2)
        })
      )
    })
  )

  it.effect("leaving the connecting view while the wallet never answers stops waiting: the family is as before, a late answer takes nothing over", () =>
    Effect.gen(function* () {
      let answer!: () => void
      const wallet = yield* evm({ connectGate: new Promise<void>((resolve) => (answer = resolve)) })
      yield* withWallets(
        [wallet],
        Effect.gen(function* () {
          const flow = yield* ConnectFlow
          const modal = yield* Modal
          yield* modal.open()
          yield* flow.choose({ connector: wallet.connector.info })
          yield* statusUntil("connecting")
          yield* TestClock.adjust(CONNECTING_VIEW_DELAY_MS)
          expect(currentRoute(yield* modalState).view).toBe("ConnectingExternal")
          yield* progressUntil((p) => p._tag === "Connecting")
          yield* modal.goBack
          yield* progressUntil((p) => p._tag === "Idle")
          expect(yield* statusOf("eip155")).toBe("disconnected")
          answer()
          yield* Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 0)))
          expect(yield* statusOf("eip155")).toBe("disconnected")
          expect(currentRoute(yield* modalState).view).toBe("Connect")
        })
      )
    })
  )

  it.effect("closing the modal while connecting stops waiting too", () =>
    Effect.gen(function* () {
      const wallet = yield* evm({ connectGate: new Promise<void>(() => undefined) })
      yield* withWallets(
        [wallet],
        Effect.gen(function* () {
          const modal = yield* Modal
          yield* modal.open({ view: "ConnectingExternal", connectorId: "io.metamask" })
          yield* progressUntil((p) => p._tag === "Connecting")
          yield* modal.close
          yield* progressUntil((p) => p._tag === "Idle")
          expect(yield* statusOf("eip155")).toBe("disconnected")
        })
      )
    })
  )

  it.effect("a refusal fails the view's progress; Try again asks the wallet again and connects", () =>
    Effect.gen(function* () {
      const wallet = yield* evm({ connectError: new UserRejected({ code: 4001 }) })
      yield* withWallets(
        [wallet],
        Effect.gen(function* () {
          const flow = yield* ConnectFlow
          yield* (yield* Modal).open({ view: "ConnectingExternal", connectorId: "io.metamask" })
          const failed = yield* progressUntil((p) => p._tag === "Failed")
          expect(failed._tag === "Failed" && failed.error._tag).toBe("UserRejected")
          expect(failed._tag === "Failed" && failed.key).toBe(currentEntry(yield* modalState).key)
          wallet.script.connectError = undefined
          yield* flow.retry
          yield* progressUntil((p) => p._tag === "Connected")
          expect(wallet.calls.filter((c) => c.startsWith("connect:"))).toHaveLength(2)
        })
      )
    })
  )

  it.effect("the network the visitor picked before connecting is the one the wallet is asked for", () =>
    Effect.gen(function* () {
      const wallet = yield* evm()
      yield* withWallets(
        [wallet],
        Effect.gen(function* () {
          yield* (yield* Networks).switchNetwork("eip155:31338")
          yield* (yield* Modal).open({ view: "ConnectingExternal", connectorId: "io.metamask" })
          yield* progressUntil((p) => p._tag === "Connected")
          expect(wallet.calls).toContain("switch:eip155:31338")
          const connection = yield* Connection
          const account = (yield* SubscriptionRef.get(connection.state)).namespaces.eip155?.account
          expect(account?.caipAddress).toBe(`eip155:31338:${ALICE}`)
        })
      )
    })
  )

  it.effect("a catalogue wallet that is not installed and has no app opens the not-installed view and asks nothing", () =>
    Effect.gen(function* () {
      const wallet = yield* evm()
      yield* withWallets(
        [wallet],
        Effect.gen(function* () {
          const flow = yield* ConnectFlow
          yield* (yield* Modal).open()
          yield* flow.choose({ wallet: catalogueWallet() })
          expect(currentRoute(yield* modalState)).toEqual({ view: "ConnectingExternal", wallet: catalogueWallet() })
          for (let turn = 0; turn < 5; turn++) yield* Effect.yieldNow
          expect(wallet.calls).toEqual([])
          expect((yield* SubscriptionRef.get(flow.progress))._tag).toBe("Idle")
        })
      )
    })
  )

  it.effect("opening the modal on the WalletConnect view starts pairing; the followed wallet link is kept with the session", () =>
    Effect.gen(function* () {
      const walletConnect = yield* makeFakeWallet({
        id: "walletConnect",
        type: "WALLET_CONNECT",
        families: { eip155: { accounts: [{ address: ALICE, type: "eoa" }], chainId: 31337 }, solana: { accounts: [{ address: SOL, type: "eoa" }], chainId: solana.id } }
      })
      const linked = catalogueWallet({ mobile_link: "wallet://" })
      yield* withWallets(
        [walletConnect],
        Effect.gen(function* () {
          const flow = yield* ConnectFlow
          yield* (yield* Modal).open()
          yield* flow.choose({ wallet: linked })
          expect(currentRoute(yield* modalState).view).toBe("ConnectingWalletConnect")
          yield* flow.followedLink("wallet://wc?uri=x")
          yield* progressUntil((p) => p._tag === "Connected")
          expect(yield* statusOf("eip155")).toBe("connected")
          expect(yield* statusOf("solana")).toBe("connected")
          expect(yield* (yield* Storage).get(Keys.walletConnectDeepLink)).toEqual({ href: "wallet://wc?uri=x", name: "Catalogue Wallet" })
        })
      )
    })
  )

  it.effect("the sign-in step runs once the wallet is connected: the modal closes when it ends, a cancelled one leaves it to sign-in", () =>
    Effect.gen(function* () {
      const wallet = yield* evm()
      const seen: Array<string> = []
      const steps: Array<Deferred.Deferred<SiwxSession | undefined, ConnectCancelled>> = []
      const signIn = Layer.succeed(SignInStep)({
        afterConnect: (connected) =>
          Effect.gen(function* () {
            seen.push(connected.accounts.eip155?.address ?? "")
            const step = yield* Deferred.make<SiwxSession | undefined, ConnectCancelled>()
            steps.push(step)
            return yield* Deferred.await(step)
          })
      })
      yield* withWallets(
        [wallet],
        Effect.gen(function* () {
          const modal = yield* Modal
          yield* modal.open({ view: "ConnectingExternal", connectorId: "io.metamask" })
          yield* progressUntil((p) => p._tag === "Connected")
          yield* Effect.yieldNow
          expect(seen).toEqual([ALICE])
          expect((yield* modalState).open).toBe(true)
          yield* Deferred.succeed(steps[0]!, undefined)
          yield* modalClosed
          // A cancelled sign-in (required, the wallet disconnected) closes nothing itself: sign-in has done it.
          yield* modal.open({ view: "ConnectingExternal", connectorId: "io.metamask" })
          yield* Effect.yieldNow
          while (steps.length < 2) yield* Effect.yieldNow
          yield* Deferred.fail(steps[1]!, new ConnectCancelled())
          yield* Effect.yieldNow
          expect((yield* modalState).open).toBe(true)
        }),
        signIn
      )
    })
  )

  it.effect("a host's connect gives the sign-in session with the accounts", () =>
    Effect.gen(function* () {
      const wallet = yield* evm()
      const session: SiwxSession = {
        data: {
          domain: "shop.test",
          uri: "https://shop.test",
          version: "1",
          chainId: localChainA.caipNetworkId,
          accountAddress: ALICE,
          nonce: "abcdefgh1",
          issuedAt: "2030-01-01T00:00:00.000Z"
        },
        message: "shop.test wants you to sign in",
        signature: "0x01"
      }
      const signIn = Layer.succeed(SignInStep)({ afterConnect: () => Effect.succeed(session) })
      yield* withWallets(
        [wallet],
        Effect.gen(function* () {
          const connected = yield* (yield* ConnectFlow).connect("MetaMask")
          expect(connected.accounts.eip155?.address).toBe(ALICE)
          expect(connected.session).toEqual(session)
        }),
        signIn
      )
    })
  )

  it.effect("a host connects by connector id or name, gets each family's account, and an unknown wallet is 'Provider not found.'", () =>
    Effect.gen(function* () {
      const wallet = yield* evm()
      yield* withWallets(
        [wallet],
        Effect.gen(function* () {
          const flow = yield* ConnectFlow
          const connected = yield* flow.connect("MetaMask")
          expect(connected.connector.id).toBe("io.metamask")
          expect(connected.accounts.eip155).toEqual({ address: ALICE, chainId: 31337 })
          expect((yield* modalState).open).toBe(false)
          const missing = yield* Effect.flip(flow.connect("Nope Wallet"))
          expect(missing.message).toBe("Provider not found.")
        })
      )
    })
  )

  it.effect("a host's connect can be cancelled: interrupting it leaves the family as it was", () =>
    Effect.gen(function* () {
      const wallet = yield* evm({ connectGate: new Promise<void>(() => undefined) })
      yield* withWallets(
        [wallet],
        Effect.gen(function* () {
          const flow = yield* ConnectFlow
          const pending = yield* Effect.forkChild(flow.connect("io.metamask"))
          yield* Effect.flatMap(Connection, (c) =>
            SubscriptionRef.changes(c.state).pipe(
              Stream.filter((s) => s.namespaces.eip155?.account.status === "connecting"),
              Stream.runHead,
              Effect.timeout("1 second"),
              Effect.orDie
            )
          )
          yield* Fiber.interrupt(pending)
          expect(Exit.hasInterrupts(yield* Fiber.await(pending))).toBe(true)
          expect(yield* statusOf("eip155")).toBe("disconnected")
        })
      )
    })
  )

  it.effect("a host's WalletConnect connect shows the QR view and ends with ConnectCancelled if the visitor closes it", () =>
    Effect.gen(function* () {
      const walletConnect = yield* makeFakeWallet({
        id: "walletConnect",
        type: "WALLET_CONNECT",
        families: { eip155: { accounts: [{ address: ALICE, type: "eoa" }], chainId: 31337 } },
        connectGate: new Promise<void>(() => undefined)
      })
      yield* withWallets(
        [walletConnect],
        Effect.gen(function* () {
          const flow = yield* ConnectFlow
          const pending = yield* Effect.forkChild(flow.connect("walletConnect"))
          yield* progressUntil((p) => p._tag === "Connecting")
          expect(currentRoute(yield* modalState).view).toBe("WalletConnectBasic")
          yield* (yield* Modal).close
          const error = yield* Effect.flip(Fiber.join(pending))
          expect(error._tag).toBe("ConnectCancelled")
        })
      )
    })
  )
})
