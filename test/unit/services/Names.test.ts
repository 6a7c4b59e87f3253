import { describe, expect, it } from "@effect/vitest"
import { Effect, Option, Stream, SubscriptionRef } from "effect"
import { TestClock } from "effect/testing"
import { NameError, UserRejected } from "../../../src/domain/errors"
import type { CaipNetworkId } from "../../../src/domain/Caip"
import type { CaipNetwork } from "../../../src/domain/Network"
import { localChainA, localSolana } from "../../../src/domain/networks"
import { DEFAULT_NAME_SUFFIX, decodeOptionsSync } from "../../../src/domain/Options"
import { testLayer } from "../../../src/layers/Test"
import { Connection } from "../../../src/services/Connection"
import { type FakeWallet, makeFakeWallet } from "../../../src/services/fakes/FakeWallet"
import { currentRoute, Modal } from "../../../src/services/Modal"
import { Names } from "../../../src/services/Names"
import type { NamesState } from "../../../src/services/namesState"
import { Notifications } from "../../../src/services/Notifications"
import { Portfolio } from "../../../src/services/Portfolio"
import { type FakeAnswer, type FakeHttp, makeFakeHttp, type RecordedRequest } from "../support/fakeHttpClient"

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
const SOL_ALICE = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"
const SUFFIX = ".names.test"
/** 2023-11-14T22:13:20Z: the name message's timestamp is this in seconds. */
const NOW = 1_700_000_000_000

/** A chain whose id cannot be put in a name's coin type (`0x80000000 | chainId` needs it below 2^31). */
const hugeChain: CaipNetwork = { ...localChainA, id: 2_147_483_648, caipNetworkId: "eip155:2147483648" as CaipNetworkId, name: "Huge Chain" }

const optionsFor = (networks: ReadonlyArray<unknown>) =>
  decodeOptionsSync({ projectId: "test-project", networks, nameSuffix: SUFFIX, endpoints: { blockchainApi: "http://api.test/" } })

/**
 * The names service: taken.names.test is Bob's; registering answers `registered` (the new record by default); a
 * request `held` says so is left unanswered.
 */
const namesService = (registered?: (request: RecordedRequest) => FakeAnswer, held: (request: RecordedRequest) => boolean = () => false) => {
  const mine: Array<string> = []
  const http = makeFakeHttp((request) => {
    const path = request.url.pathname
    if (held(request)) return "hang"
    if (path === "/v1/profile/account/taken.names.test") {
      return { status: 200, json: { name: "taken.names.test", addresses: { "2147514985": { address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" } } } }
    }
    if (path.startsWith("/v1/profile/account/")) return { status: 404, json: { reasons: [{ description: "Name not found" }] } }
    if (path.startsWith("/v1/profile/suggestions/")) {
      const label = decodeURIComponent(path.slice("/v1/profile/suggestions/".length))
      return {
        status: 200,
        json: {
          suggestions: [
            { name: `${label}${SUFFIX}`, registered: label === "taken" },
            { name: `${label}1${SUFFIX}`, registered: true },
            { name: `${label}2${SUFFIX}`, registered: false },
            { name: `${label}3.other.id`, registered: false }
          ]
        }
      }
    }
    if (path === "/v1/profile/account" && request.method === "POST") {
      if (registered !== undefined) return registered(request)
      const message = JSON.parse((request.body as { message: string }).message) as { name: string }
      mine.unshift(message.name)
      return { status: 200, json: { name: message.name, addresses: { "2147514985": { address: ALICE } }, attributes: {} } }
    }
    if (path === `/v1/profile/reverse/${ALICE}`) return { status: 200, json: { names: mine.map((name) => ({ name, addresses: {} })) } }
    if (path === `/v1/identity/${ALICE}`) return { status: 200, json: { name: null, avatar: null } }
    return { status: 404, json: { error: "not found" } }
  })
  return http
}

const aliceWallet = (family: "eip155" | "solana" = "eip155", chainId = 31337) =>
  makeFakeWallet({
    id: "test-wallet",
    families:
      family === "eip155"
        ? { eip155: { accounts: [{ address: ALICE, type: "eoa" }], chainId } }
        : { solana: { accounts: [{ address: SOL_ALICE, type: "eoa" }], chainId: localSolana.id } }
  })

/** A wallet prompt left open until `resolve` is called. */
const held = () => {
  let resolve = () => {}
  const promise = new Promise<void>((done) => (resolve = done))
  return { promise, resolve: () => resolve() }
}

type Services = Names | Modal | Connection | Portfolio | Notifications

/** Runs `body` with Alice connected on `network`, the modal open on her account, at {@link NOW}. */
const withAlice = <A, E>(wallet: FakeWallet, http: FakeHttp, body: Effect.Effect<A, E, Services>, network: CaipNetwork = localChainA) =>
  Effect.provide(
    Effect.gen(function* () {
      yield* TestClock.setTime(NOW)
      yield* Effect.flatMap(Connection, (c) => c.connect({ connectorId: "test-wallet", networks: [network] }))
      yield* Effect.flatMap(Modal, (modal) => modal.open())
      return yield* body
    }),
    testLayer(optionsFor([network]), { wallets: [wallet], httpClient: http.layer })
  )

const namesState = Effect.flatMap(Names, (names) => SubscriptionRef.get(names.state))
/** Waits until the form satisfies `condition`. */
const namesUntil = (condition: (state: NamesState) => boolean) =>
  Effect.flatMap(Names, (names) =>
    SubscriptionRef.changes(names.state).pipe(Stream.filter(condition), Stream.runHead, Effect.map(Option.getOrThrow))
  )
const route = Effect.flatMap(Modal, (modal) => Effect.map(SubscriptionRef.get(modal.state), currentRoute))
const views = Effect.flatMap(Modal, (modal) => Effect.map(SubscriptionRef.get(modal.state), (s) => s.history.map((entry) => entry.route.view)))
const lookUps = (http: FakeHttp) => http.requests.filter((r) => r.url.pathname.startsWith("/v1/profile/account/")).map((r) => r.url.pathname)
const registrations = (http: FakeHttp) => http.requests.filter((r) => r.method === "POST" && r.url.pathname === "/v1/profile/account")
const settled = (state: NamesState) => state.register._tag === "Registered" || state.register._tag === "Failed"

describe("Names: the form", () => {
  it.effect("opens RegisterAccountName for the EVM account in front, with the host's suffix", () =>
    Effect.gen(function* () {
      const wallet = yield* aliceWallet()
      yield* withAlice(
        wallet,
        namesService(),
        Effect.gen(function* () {
          yield* (yield* Names).open
          expect((yield* route).view).toBe("RegisterAccountName")
          const state = yield* namesState
          expect(state).toMatchObject({ suffix: SUFFIX, caipAddress: `eip155:31337:${ALICE}`, ineligible: undefined })
          expect(state.availability).toEqual({ _tag: "Empty" })
        })
      )
    })
  )

  it.effect("asks a name's availability 300 ms after the last keystroke, not before", () =>
    Effect.gen(function* () {
      const wallet = yield* aliceWallet()
      const http = namesService()
      yield* withAlice(
        wallet,
        http,
        Effect.gen(function* () {
          const names = yield* Names
          yield* names.open
          yield* names.setInput("Taken")
          // Checked against the rules and marked as checking at once, so Register cannot be pressed meanwhile.
          expect((yield* namesState).availability).toEqual({ _tag: "Checking", name: "taken.names.test" })
          yield* TestClock.adjust("299 millis")
          expect(lookUps(http)).toEqual([])
          yield* TestClock.adjust("1 millis")
          const taken = yield* namesUntil((state) => state.availability._tag === "Taken")
          expect(taken.availability).toEqual({ _tag: "Taken", name: "taken.names.test" })
          expect(lookUps(http)).toEqual(["/v1/profile/account/taken.names.test"])
        })
      )
    })
  )

  it.effect("the latest input wins: a name typed over is never asked, and a look-up under way is dropped", () =>
    Effect.gen(function* () {
      const wallet = yield* aliceWallet()
      const http = namesService()
      yield* withAlice(
        wallet,
        http,
        Effect.gen(function* () {
          const names = yield* Names
          yield* names.open
          yield* names.setInput("first")
          yield* TestClock.adjust("200 millis")
          yield* names.setInput("taken")
          yield* TestClock.adjust("200 millis")
          yield* names.setInput("freename")
          yield* TestClock.adjust("300 millis")
          const state = yield* namesUntil((s) => s.availability._tag === "Available")
          expect(state.availability).toEqual({ _tag: "Available", name: "freename.names.test" })
          expect(lookUps(http)).toEqual(["/v1/profile/account/freename.names.test"])
        })
      )
    })
  )

  it.effect("an answer for a name typed over never lands on the new one", () =>
    Effect.gen(function* () {
      const wallet = yield* aliceWallet()
      const http = namesService(undefined, (request) => request.url.pathname === "/v1/profile/account/taken.names.test")
      yield* withAlice(
        wallet,
        http,
        Effect.gen(function* () {
          const names = yield* Names
          yield* names.open
          yield* names.setInput("taken")
          yield* TestClock.adjust("300 millis")
          yield* namesUntil((s) => s.suggestions._tag === "Ready")
          // taken.names.test is being asked (and never answers); the visitor types on.
          expect(lookUps(http)).toEqual(["/v1/profile/account/taken.names.test"])
          yield* names.setInput("freename")
          yield* TestClock.adjust("300 millis")
          const state = yield* namesUntil((s) => s.availability._tag === "Available")
          expect(state).toMatchObject({ label: "freename", availability: { _tag: "Available", name: "freename.names.test" } })
        })
      )
    })
  )

  it.effect("says what breaks the rules in words and asks nothing: too short, other characters, ENSIP-15", () =>
    Effect.gen(function* () {
      const wallet = yield* aliceWallet()
      const http = namesService()
      yield* withAlice(
        wallet,
        http,
        Effect.gen(function* () {
          const names = yield* Names
          yield* names.open
          const said = (text: string) => Effect.andThen(names.setInput(text), Effect.map(namesState, (s) => s.availability))
          expect(yield* said("abc")).toEqual({ _tag: "Invalid", message: "A name has at least 4 characters" })
          expect(yield* said("ab_cd")).toEqual({ _tag: "Invalid", message: "A name has only letters, digits and hyphens" })
          expect(yield* said("ab--cd")).toEqual({ _tag: "Invalid", message: "A name cannot have hyphens as its 3rd and 4th characters" })
          expect(yield* said("   ")).toEqual({ _tag: "Empty" })
          yield* TestClock.adjust("1 second")
          expect(http.requests.filter((r) => r.url.pathname.startsWith("/v1/profile/"))).toEqual([])
          // The full name typed is the same name.
          expect(yield* said(`Alice-2${SUFFIX}`)).toEqual({ _tag: "Checking", name: "alice-2.names.test" })
        })
      )
    })
  )

  it.effect("suggests free names under the suffix's zone, leaving out taken ones, other zones and the typed one", () =>
    Effect.gen(function* () {
      const wallet = yield* aliceWallet()
      const http = namesService()
      yield* withAlice(
        wallet,
        http,
        Effect.gen(function* () {
          const names = yield* Names
          yield* names.open
          yield* names.setInput("taken")
          yield* TestClock.adjust("300 millis")
          const state = yield* namesUntil((s) => s.suggestions._tag === "Ready")
          expect(state.suggestions).toEqual({ _tag: "Ready", labels: ["taken2"] })
          const asked = http.requests.find((r) => r.url.pathname === "/v1/profile/suggestions/taken")
          expect(asked?.url.searchParams.get("zone")).toBe("names.test")
          // Choosing one asks at once, without the 300 ms wait.
          yield* names.choose("taken2")
          const chosen = yield* namesUntil((s) => s.availability._tag === "Available")
          expect(chosen).toMatchObject({ input: "taken2", label: "taken2", availability: { _tag: "Available", name: "taken2.names.test" } })
        })
      )
    })
  )
})

describe("Names: register", () => {
  it.effect("pushes the success view first, has the wallet sign {name, attributes, timestamp (s)}, registers with the coin type", () =>
    Effect.gen(function* () {
      const wallet = yield* aliceWallet()
      const gate = held()
      wallet.script.answerGate = gate.promise
      const http = namesService()
      yield* withAlice(
        wallet,
        http,
        Effect.gen(function* () {
          const names = yield* Names
          yield* names.open
          yield* names.register("freename")
          // Spec 4: the success view is there while the wallet still asks.
          expect(yield* route).toEqual({ view: "RegisterAccountNameSuccess", name: "freename.names.test" })
          expect((yield* namesState).register).toEqual({ _tag: "Signing", name: "freename.names.test" })
          expect(registrations(http)).toEqual([])
          gate.resolve()
          const done = yield* namesUntil(settled)
          expect(done.register).toEqual({ _tag: "Registered", name: "freename.names.test" })
          const message = JSON.stringify({ name: "freename.names.test", attributes: {}, timestamp: NOW / 1000 })
          expect(wallet.calls).toContain(`sign:${message}`)
          expect(registrations(http).map((r) => r.body)).toEqual([
            { coin_type: 2_147_514_985, address: ALICE, message, signature: `signed(${ALICE}):${message}` }
          ])
          expect(yield* SubscriptionRef.get(names.revision)).toBe(1)
          expect(yield* views).toEqual(["Account", "RegisterAccountName", "RegisterAccountNameSuccess"])
          // Done: a fresh form, back on the account.
          yield* names.finish
          expect((yield* route).view).toBe("Account")
          expect((yield* namesState).register).toEqual({ _tag: "Idle" })
        })
      )
    })
  )

  it.effect("a refusal by the service: back on RegisterAccountName with the service's description", () =>
    Effect.gen(function* () {
      const wallet = yield* aliceWallet()
      const http = namesService(() => ({ status: 409, json: { reasons: [{ description: "Name already taken" }] } }))
      yield* withAlice(
        wallet,
        http,
        Effect.gen(function* () {
          const names = yield* Names
          yield* names.open
          yield* names.register("freename")
          const failed = yield* namesUntil(settled)
          expect(failed.register).toMatchObject({ _tag: "Failed", name: "freename.names.test", label: "freename" })
          if (failed.register._tag !== "Failed") return
          expect(failed.register.error).toBeInstanceOf(NameError)
          expect(failed.register.error.message).toBe("Name already taken")
          expect(yield* views).toEqual(["Account", "RegisterAccountName"])
          expect(yield* SubscriptionRef.get(names.revision)).toBe(0)
        })
      )
    })
  )

  it.effect("a failure without a description: 'Error registering name {name}'", () =>
    Effect.gen(function* () {
      const wallet = yield* aliceWallet()
      const http = namesService(() => ({ status: 500, text: "upstream down" }))
      yield* withAlice(
        wallet,
        http,
        Effect.gen(function* () {
          const names = yield* Names
          yield* names.open
          yield* names.register("freename")
          const failed = yield* namesUntil(settled)
          if (failed.register._tag !== "Failed") return expect(failed.register._tag).toBe("Failed")
          expect(failed.register.error.message).toBe("Error registering name freename.names.test")
          expect((yield* route).view).toBe("RegisterAccountName")
        })
      )
    })
  )

  it.effect("a refusal in the wallet: back on the form with the wallet's reason, nothing registered; trying again registers", () =>
    Effect.gen(function* () {
      const wallet = yield* aliceWallet()
      wallet.script.signError = new UserRejected({ code: 4001 })
      const http = namesService()
      yield* withAlice(
        wallet,
        http,
        Effect.gen(function* () {
          const names = yield* Names
          yield* names.open
          yield* names.setInput("freename")
          yield* names.register("freename")
          const refused = yield* namesUntil(settled)
          if (refused.register._tag !== "Failed") return expect(refused.register._tag).toBe("Failed")
          expect(refused.register.error).toBeInstanceOf(UserRejected)
          expect(yield* views).toEqual(["Account", "RegisterAccountName"])
          expect(registrations(http)).toEqual([])
          // What the visitor typed is still there.
          expect(refused.input).toBe("freename")
          wallet.script.signError = undefined
          yield* names.register(refused.register.label)
          const done = yield* namesUntil((s) => s.register._tag === "Registered")
          expect(done.register).toEqual({ _tag: "Registered", name: "freename.names.test" })
          expect(registrations(http)).toHaveLength(1)
        })
      )
    })
  )

  it.effect("an account of another family cannot register, and is told so before anything is asked", () =>
    Effect.gen(function* () {
      const wallet = yield* aliceWallet("solana")
      const http = namesService()
      yield* withAlice(
        wallet,
        http,
        Effect.gen(function* () {
          const names = yield* Names
          yield* names.open
          const opened = yield* namesState
          expect(opened.ineligible?._tag).toBe("NamesNeedEvmAccount")
          expect(opened.ineligible?.message).toBe("Names can be registered for EVM accounts only. Switch to an EVM account to choose a name.")
          yield* names.register("freename")
          const state = yield* namesState
          expect(state.register).toMatchObject({ _tag: "Failed", error: { _tag: "NamesNeedEvmAccount", namespace: "solana" } })
          expect((yield* route).view).toBe("RegisterAccountName")
          expect(wallet.calls.filter((call) => call.startsWith("sign:"))).toEqual([])
          expect(registrations(http)).toEqual([])
        }),
        localSolana
      )
    })
  )

  it.effect("a chain id of 2^31 or more cannot be put in a coin type: refused with spec 5's rule", () =>
    Effect.gen(function* () {
      const wallet = yield* aliceWallet("eip155", 2_147_483_648)
      const http = namesService()
      yield* withAlice(
        wallet,
        http,
        Effect.gen(function* () {
          const names = yield* Names
          yield* names.open
          expect((yield* namesState).ineligible?._tag).toBe("NameChainIdTooLarge")
          yield* names.register("freename")
          const state = yield* namesState
          if (state.register._tag !== "Failed") return expect(state.register._tag).toBe("Failed")
          expect(state.register.error.message).toBe("Names need a network whose chain id is below 2147483648; this network's is 2147483648.")
          expect(wallet.calls.filter((call) => call.startsWith("sign:"))).toEqual([])
          expect(registrations(http)).toEqual([])
        }),
        hugeChain
      )
    })
  )

  it.effect("the account's name is read again after registering: the cached names are dropped", () =>
    Effect.gen(function* () {
      const wallet = yield* aliceWallet()
      const http = namesService()
      yield* withAlice(
        wallet,
        http,
        Effect.gen(function* () {
          const portfolio = yield* Portfolio
          const reverse = () => http.to(`/v1/profile/reverse/${ALICE}`).length
          expect((yield* portfolio.identity(ALICE)).profileName).toBeNull()
          expect((yield* portfolio.identity(ALICE)).profileName).toBeNull()
          // Cached 5 minutes: asked once.
          expect(reverse()).toBe(1)
          const names = yield* Names
          yield* names.open
          yield* names.register("freename")
          yield* namesUntil(settled)
          expect((yield* portfolio.identity(ALICE)).profileName).toBe("freename.names.test")
          expect(reverse()).toBe(2)
        })
      )
    })
  )

  it.effect("a registration goes on when the visitor closes the modal, and a failure is then said by a snackbar", () =>
    Effect.gen(function* () {
      const wallet = yield* aliceWallet()
      const gate = held()
      wallet.script.answerGate = gate.promise
      const http = namesService(() => ({ status: 409, json: { reasons: [{ description: "Name already taken" }] } }))
      yield* withAlice(
        wallet,
        http,
        Effect.gen(function* () {
          const names = yield* Names
          const modal = yield* Modal
          yield* names.open
          yield* names.register("freename")
          yield* modal.close
          gate.resolve()
          const failed = yield* namesUntil(settled)
          expect(failed.register._tag).toBe("Failed")
          expect(registrations(http)).toHaveLength(1)
          expect((yield* SubscriptionRef.get(modal.state)).open).toBe(false)
          const notifications = yield* Notifications
          expect((yield* SubscriptionRef.get(notifications.state)).snackbar).toMatchObject({ variant: "error", message: "Name already taken" })
        })
      )
    })
  )
})

describe("the nameSuffix option", () => {
  it("defaults to the hosted service's suffix and takes the host's own", () => {
    const base = { networks: [localChainA] }
    expect(decodeOptionsSync(base).nameSuffix).toBe(DEFAULT_NAME_SUFFIX)
    expect(decodeOptionsSync({ ...base, nameSuffix: ".wallet.test" }).nameSuffix).toBe(".wallet.test")
  })

  it("refuses what is not a suffix of lower-case labels", () => {
    for (const bad of ["wallet.test", ".Wallet.test", ".wallet..test", ".wallet.test.", ".-wallet.test", `.${"a".repeat(64)}`]) {
      expect(() => decodeOptionsSync({ networks: [localChainA], nameSuffix: bad }), bad).toThrow(/nameSuffix/)
    }
  })
})
