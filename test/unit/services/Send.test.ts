import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Option, Stream, SubscriptionRef } from "effect"
import { TestClock } from "effect/testing"
import { GasEstimationFailed, UserRejected } from "../../../src/domain/errors"
import { localChainA, localSolana } from "../../../src/domain/networks"
import { decodeOptionsSync } from "../../../src/domain/Options"
import { nftAssetOf } from "../../../src/domain/accountFeatures"
import { testLayer } from "../../../src/layers/Test"
import type { ChainAdapter } from "../../../src/services/ChainAdapter"
import { Connection } from "../../../src/services/Connection"
import { FAKE_EVM_FEE, type FakeWallet, makeFakeChainAdapter, makeFakeWallet } from "../../../src/services/fakes/FakeWallet"
import { currentRoute, Modal } from "../../../src/services/Modal"
import { Notifications } from "../../../src/services/Notifications"
import { Portfolio } from "../../../src/services/Portfolio"
import { Send } from "../../../src/services/Send"
import { chosenAsset, type SendState } from "../../../src/services/sendState"
import { type FakeHttp, makeFakeHttp } from "../support/fakeHttpClient"

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
const BOB = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
const WUSD = "0x5FbDB2315678afecb367f032d93F642f64180aa3"
const WRC = "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512"
const SOL_ALICE = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"
const ETHER = 10n ** 18n

const options = decodeOptionsSync({
  projectId: "test-project",
  networks: [localChainA, localSolana],
  endpoints: { blockchainApi: "http://api.test/" }
})

interface Holdings {
  readonly eth: string | undefined
  readonly wusd: string | undefined
}

/** The blockchain service: Alice's ETH and WUSD (priced 3000 and 1), and bob.wallet.test on Local Chain A. */
const service = (holdings: Holdings = { eth: "1", wusd: "25" }) =>
  makeFakeHttp((request) => {
    const path = request.url.pathname
    if (path === "/v1/supported-chains") return { status: 200, json: { http: ["eip155:31337", localSolana.caipNetworkId], ws: [] } }
    if (path.endsWith("/balance")) {
      const balances = [
        ...(holdings.eth === undefined
          ? []
          : [{ name: "Ether", symbol: "ETH", chainId: "eip155:31337", address: "eip155:31337:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee", price: 3000, value: 3000, quantity: { decimals: "18", numeric: holdings.eth }, iconUrl: "" }]),
        ...(holdings.wusd === undefined
          ? []
          : [{ name: "Wallet Runtime USD", symbol: "WUSD", chainId: "eip155:31337", address: `eip155:31337:${WUSD}`, price: 1, value: 25, quantity: { decimals: "6", numeric: holdings.wusd }, iconUrl: "" }])
      ]
      return { status: 200, json: { balances } }
    }
    if (path === "/v1/profile/account/bob.wallet.test") {
      return { status: 200, json: { name: "bob.wallet.test", addresses: { "2147514985": { address: BOB } } } }
    }
    return { status: 404, json: { error: "not found" } }
  })

const alice = (family: "eip155" | "solana" = "eip155") =>
  makeFakeWallet({
    id: "test-wallet",
    families:
      family === "eip155"
        ? { eip155: { accounts: [{ address: ALICE, type: "eoa" }], chainId: 31337 } }
        : { solana: { accounts: [{ address: SOL_ALICE, type: "eoa" }], chainId: localSolana.id } }
  })

type Services = Send | Modal | Connection | Portfolio | Notifications

/** Runs `body` with Alice connected on Local Chain A (or Solana) over the fake wallet and blockchain service. */
const withAlice = <A, E>(
  wallet: FakeWallet,
  http: FakeHttp,
  body: Effect.Effect<A, E, Services>,
  adapters?: ReadonlyArray<ChainAdapter>
) =>
  Effect.provide(
    Effect.gen(function* () {
      const family = wallet.connector.namespaces[0] ?? "eip155"
      yield* Effect.flatMap(Connection, (c) =>
        c.connect({ connectorId: "test-wallet", networks: [family === "eip155" ? localChainA : localSolana] })
      )
      yield* Effect.flatMap(Modal, (modal) => modal.open())
      return yield* body
    }),
    testLayer(options, { wallets: [wallet], httpClient: http.layer, ...(adapters !== undefined ? { adapters } : {}) })
  )

const sendState = Effect.flatMap(Send, (send) => SubscriptionRef.get(send.state))
/** Waits until the form satisfies `condition`. */
const sendUntil = (condition: (state: SendState) => boolean) =>
  Effect.flatMap(Send, (send) =>
    SubscriptionRef.changes(send.state).pipe(Stream.filter(condition), Stream.runHead, Effect.map(Option.getOrThrow))
  )
const view = Effect.flatMap(Modal, (modal) => Effect.map(SubscriptionRef.get(modal.state), (state) => currentRoute(state).view))
const ready = sendUntil((state) => state.assets._tag === "Ready")

describe("Send", () => {
  it.effect("opens on the native coin, lists the account's tokens, and the view is Send", () =>
    Effect.gen(function* () {
      const wallet = yield* alice()
      yield* withAlice(
        wallet,
        service(),
        Effect.gen(function* () {
          const send = yield* Send
          yield* send.open()
          expect(yield* view).toBe("Send")
          const state = yield* ready
          expect(state.choices.map((asset) => (asset.kind === "nft" ? asset.name : asset.symbol))).toEqual(["ETH", "WUSD"])
          expect(chosenAsset(state)).toMatchObject({ kind: "native", symbol: "ETH", balance: 10n ** 18n })
        })
      )
    })
  )

  it.effect("continue with an empty form: says what is missing, estimates nothing and stays on the form", () =>
    Effect.gen(function* () {
      const wallet = yield* alice()
      yield* withAlice(
        wallet,
        service(),
        Effect.gen(function* () {
          const send = yield* Send
          yield* send.open()
          yield* ready
          yield* send.review
          const state = yield* sendState
          expect(state.checked).toBe(true)
          expect(state.issues).toMatchObject({ amount: "Enter an amount", receiver: "Enter the receiver's address or name" })
          expect(yield* view).toBe("Send")
          // Once checked, what the visitor types is checked again at once.
          yield* send.setAmount("0.5")
          expect((yield* sendState).issues.amount).toBeUndefined()
          yield* send.setReceiver("0x1234")
          expect((yield* sendState).issues.receiver).toBe("An EVM address is 40 hexadecimal characters, optionally after 0x")
        })
      )
    })
  )

  it.effect("Max on the native coin leaves the fee; on a token it is the whole balance", () =>
    Effect.gen(function* () {
      const wallet = yield* alice()
      yield* withAlice(
        wallet,
        service(),
        Effect.gen(function* () {
          const send = yield* Send
          yield* send.open()
          yield* ready
          const before = (yield* sendState).filled
          yield* send.useMax
          const native = yield* sendState
          expect(native.amount).toBe("0.999979")
          expect(ETHER - FAKE_EVM_FEE).toBe(999_979_000_000_000_000n)
          expect(native.filled).toBeGreaterThan(before)
          yield* send.choose(WUSD)
          yield* send.useMax
          expect((yield* sendState).amount).toBe("25")
        })
      )
    })
  )

  it.effect("Max asks the family's fee of sending everything where it has one (Bitcoin's: every coin, no change), not a transfer's", () =>
    Effect.gen(function* () {
      const wallet = yield* alice()
      const asked: Array<string> = []
      const sweeping: ChainAdapter = {
        ...makeFakeChainAdapter("eip155"),
        estimateFee: () => Effect.fail(new GasEstimationFailed({ reason: "insufficient funds" })),
        estimateMaxFee: (_from, _network, request) => {
          asked.push(`${request.to}:${request.value}`)
          return Effect.succeed(ETHER / 4n)
        }
      }
      yield* withAlice(
        wallet,
        service(),
        Effect.gen(function* () {
          const send = yield* Send
          yield* send.open()
          yield* ready
          yield* send.setReceiver(BOB)
          yield* send.useMax
          const state = yield* sendState
          expect(state.amount).toBe("0.75")
          expect(state.issues.amount).toBeUndefined()
          expect(asked).toEqual([`${BOB}:${ETHER}`])
        }),
        [sweeping]
      )
    })
  )

  it.effect("a name is looked up 300 ms after the last keystroke, and the transfer goes to the address it points to", () =>
    Effect.gen(function* () {
      const wallet = yield* alice()
      const http = service()
      yield* withAlice(
        wallet,
        http,
        Effect.gen(function* () {
          const send = yield* Send
          yield* send.open()
          yield* ready
          yield* send.choose(WUSD)
          yield* send.setAmount("2.5")
          yield* send.setReceiver("bob.wallet.t")
          yield* TestClock.adjust("200 millis")
          yield* send.setReceiver("bob.wallet.test")
          yield* TestClock.adjust("299 millis")
          expect(http.requests.filter((r) => r.url.pathname.startsWith("/v1/profile/"))).toEqual([])
          expect((yield* sendState).name).toEqual({ _tag: "Resolving", name: "bob.wallet.test" })
          yield* TestClock.adjust("1 millis")
          const resolved = yield* sendUntil((state) => state.name._tag === "Resolved")
          expect(resolved.name).toEqual({ _tag: "Resolved", name: "bob.wallet.test", address: BOB })
          expect(http.requests.filter((r) => r.url.pathname.startsWith("/v1/profile/")).map((r) => r.url.pathname)).toEqual([
            "/v1/profile/account/bob.wallet.test"
          ])

          yield* send.review
          expect(yield* view).toBe("SendReview")
          const reviewed = (yield* sendState).reviewed
          expect(reviewed?.receiverName).toBe("bob.wallet.test")
          expect(reviewed?.lines.amount).toEqual({ text: "2.5 WUSD", usd: "$2.50" })
          expect(reviewed?.lines.fee).toEqual({ text: "0.000021 ETH", usd: "$0.06" })

          yield* send.confirm
          expect(yield* view).toBe("SendResult")
          const done = yield* sendUntil((state) => state.submit._tag === "Confirmed" || state.submit._tag === "Failed")
          expect(done.submit._tag).toBe("Confirmed")
          expect(wallet.calls).toContain(`send:${BOB}:2500000:${WUSD}`)
        })
      )
    })
  )

  it.effect("a name no one holds is said on the receiver", () =>
    Effect.gen(function* () {
      const wallet = yield* alice()
      yield* withAlice(
        wallet,
        service(),
        Effect.gen(function* () {
          const send = yield* Send
          yield* send.open()
          yield* ready
          yield* send.setAmount("0.1")
          yield* send.setReceiver("nobody.wallet.test")
          // Continue waits for the look-up rather than sending to a name it does not know yet.
          const reviewing = yield* Effect.forkChild(send.review)
          yield* TestClock.adjust("300 millis")
          yield* sendUntil((state) => state.name._tag === "NotFound")
          yield* Fiber.join(reviewing)
          expect((yield* sendState).issues.receiver).toBe("No address found for nobody.wallet.test")
          expect(yield* view).toBe("Send")
        })
      )
    })
  )

  it.effect("the gas check: no ETH to pay the fee of a token transfer keeps the visitor on the form", () =>
    Effect.gen(function* () {
      const wallet = yield* alice()
      yield* withAlice(
        wallet,
        service({ eth: undefined, wusd: "25" }),
        Effect.gen(function* () {
          const send = yield* Send
          yield* send.open()
          yield* ready
          yield* send.choose(WUSD)
          yield* send.setAmount("1")
          yield* send.setReceiver(BOB)
          yield* send.review
          expect((yield* sendState).issues.form).toBe("Not enough ETH to pay the network fee")
          expect(yield* view).toBe("Send")
          expect(wallet.calls.filter((call) => call.startsWith("send:"))).toEqual([])
        })
      )
    })
  )

  it.effect("the gas check follows the account in front: a smart account with no ETH is never short of gas (spec 5), its EOA is", () =>
    Effect.gen(function* () {
      // The embedded wallet's two accounts, the smart account in front (a paymaster may pay its gas).
      const wallet = yield* makeFakeWallet({
        id: "test-wallet",
        families: { eip155: { accounts: [{ address: ALICE, type: "smartAccount" }, { address: BOB, type: "eoa" }], chainId: 31337 } }
      })
      yield* withAlice(
        wallet,
        service({ eth: undefined, wusd: "25" }),
        Effect.gen(function* () {
          const send = yield* Send
          const fill = Effect.gen(function* () {
            yield* send.open()
            yield* ready
            yield* send.choose(WUSD)
            yield* send.setAmount("1")
            yield* send.setReceiver(WRC)
            yield* send.review
          })
          yield* fill
          expect((yield* sendState).issues.form).toBeUndefined()
          expect(yield* view).not.toBe("Send")

          // The EOA in front (the Account view's switch): the same transfer is short of gas.
          const connection = yield* Connection
          yield* connection.updateAccount("eip155", (account) => ({
            ...account,
            address: BOB,
            caipAddress: `eip155:31337:${BOB}` as typeof account.caipAddress & string,
            preferredAccountType: "eoa",
            allAccounts: [{ address: BOB, type: "eoa" }, { address: ALICE, type: "smartAccount" }]
          }))
          yield* (yield* Modal).reset({ view: "Account" })
          yield* fill
          expect((yield* sendState).issues.form).toBe("Not enough ETH to pay the network fee")
          expect(yield* view).toBe("Send")
        })
      )
    })
  )

  it.effect("a transfer the network says would fail is said with its decoded reason, before the wallet is asked", () =>
    Effect.gen(function* () {
      const wallet = yield* alice()
      const failing: ChainAdapter = {
        ...makeFakeChainAdapter("eip155"),
        estimateFee: () => Effect.fail(new GasEstimationFailed({ reason: "execution reverted: transfer to the zero address" }))
      }
      yield* withAlice(
        wallet,
        service(),
        Effect.gen(function* () {
          const send = yield* Send
          yield* send.open()
          yield* ready
          yield* send.choose(WUSD)
          yield* send.setAmount("1")
          yield* send.setReceiver("0x0000000000000000000000000000000000000000")
          yield* send.review
          const state = yield* sendState
          expect(state.issues.form).toBe("This transfer would fail: transfer to the zero address")
          expect(state.estimating).toBe(false)
          expect(yield* view).toBe("Send")
        }),
        [failing]
      )
    })
  )

  it.effect("a refusal in the wallet fails the send with the typed refusal; Try again sends it again", () =>
    Effect.gen(function* () {
      const wallet = yield* alice()
      wallet.script.sendError = new UserRejected({ code: 4001 })
      yield* withAlice(
        wallet,
        service(),
        Effect.gen(function* () {
          const send = yield* Send
          yield* send.open()
          yield* ready
          yield* send.setAmount("0.5")
          yield* send.setReceiver(BOB)
          yield* send.review
          yield* send.confirm
          const failed = yield* sendUntil((state) => state.submit._tag === "Failed")
          expect(failed.submit._tag === "Failed" && failed.submit.error._tag).toBe("UserRejected")
          wallet.script.sendError = undefined
          yield* send.confirm
          yield* sendUntil((state) => state.submit._tag === "Confirmed")
          expect(wallet.calls.filter((call) => call.startsWith("send:"))).toEqual([`send:${BOB}:500000000000000000`, `send:${BOB}:500000000000000000`])
          expect(yield* view).toBe("SendResult")
          // The result view says it; no snackbar says it again ('Transaction started', 'Transaction confirmed').
          yield* TestClock.adjust("1 second")
          expect((yield* SubscriptionRef.get((yield* Notifications).state)).snackbar).toBeUndefined()
          // Done: a fresh form, back on the account.
          yield* send.finish
          expect(yield* view).toBe("Account")
          expect((yield* sendState).amount).toBe("")
        })
      )
    })
  )

  it.effect("an NFT from the NFTs tab: chosen at once, sent whole with safeTransferFrom's request", () =>
    Effect.gen(function* () {
      const wallet = yield* alice()
      yield* withAlice(
        wallet,
        service(),
        Effect.gen(function* () {
          const send = yield* Send
          const nft = nftAssetOf({
            chainId: localChainA.caipNetworkId,
            contract: `eip155:31337:${WRC}` as never,
            standard: "erc721",
            tokenId: "2",
            name: "WRC #2",
            collection: { name: "Wallet Runtime Collectibles", symbol: "WRC" },
            imageUrl: null,
            flags: { is_spam: false }
          })
          yield* send.open({ nft })
          expect(chosenAsset(yield* sendState)?.kind).toBe("nft")
          const state = yield* ready
          expect(chosenAsset(state)?.id).toBe(nft.id)
          yield* send.setReceiver(BOB)
          yield* send.review
          expect((yield* sendState).reviewed?.lines.amount.text).toBe("WRC #2 (Wallet Runtime Collectibles)")
          yield* send.confirm
          yield* sendUntil((s) => s.submit._tag === "Confirmed")
          expect(wallet.calls).toContain(`send:${BOB}:0:nft:${WRC}:2`)
        })
      )
    })
  )

  it.effect("Solana: a missing amount says 'Please enter a valid amount and receiver address'", () =>
    Effect.gen(function* () {
      const wallet = yield* alice("solana")
      yield* withAlice(
        wallet,
        service({ eth: undefined, wusd: undefined }),
        Effect.gen(function* () {
          const send = yield* Send
          yield* send.open()
          yield* ready
          yield* send.setReceiver(SOL_ALICE)
          yield* send.review
          const state = yield* sendState
          expect(state.issues.form).toBe("Please enter a valid amount and receiver address")
          expect(state.issues.amount).toBe("Enter an amount")
        })
      )
    })
  )

  it.effect("the wallet moving to another account gives a fresh form for it", () =>
    Effect.gen(function* () {
      const wallet = yield* alice()
      yield* withAlice(
        wallet,
        service(),
        Effect.gen(function* () {
          const send = yield* Send
          yield* send.open()
          yield* ready
          yield* send.setAmount("0.5")
          yield* wallet.emit({ _tag: "AccountsChanged", namespace: "eip155", accounts: [{ address: BOB, type: "eoa" }] })
          // The connection takes a burst of wallet events as one, after a moment.
          for (let turn = 0; turn < 5; turn++) yield* Effect.yieldNow
          yield* TestClock.adjust("50 millis")
          const fresh = yield* sendUntil((state) => state.caipAddress === `eip155:31337:${BOB}`)
          expect(fresh.amount).toBe("")
        })
      )
    })
  )
})
