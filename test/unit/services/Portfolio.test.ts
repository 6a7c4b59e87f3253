import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Schema, SubscriptionRef } from "effect"
import * as KeyValueStore from "effect/persistence/KeyValueStore"
import { balancesSupported, SupportedChains } from "../../../src/domain/Api"
import type { CaipAddress, CaipNetworkId } from "../../../src/domain/Caip"
import { localChainA, localSolana } from "../../../src/domain/networks"
import { decodeOptionsSync } from "../../../src/domain/Options"
import { type Nft, withoutSpamNfts } from "../../../src/domain/Portfolio"
import { BlockchainApi, FAILED_TO_FETCH_NFTS } from "../../../src/services/BlockchainApi"
import { Config } from "../../../src/services/Config"
import { Notifications } from "../../../src/services/Notifications"
import { Portfolio } from "../../../src/services/Portfolio"
import { Storage } from "../../../src/services/Storage/Storage"
import { type FakeHttp, makeFakeHttp } from "../support/fakeHttpClient"
import { makeMemoryWebStorage } from "../support/memoryWebStorage"

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
const ALICE_A = `eip155:31337:${ALICE}` as CaipAddress

const nft = (tokenId: number, spam: boolean): Nft =>
  ({
    chainId: "eip155:31337",
    contract: `eip155:31337:0x${spam ? "5" : "9"}FbDB2315678afecb367f032d93F642f64180aa3`,
    standard: "erc721",
    tokenId: String(tokenId),
    name: `${spam ? "Claim Your Reward" : "Wallet Runtime Collectibles"} #${tokenId}`,
    collection: spam ? { name: "Claim Your Reward", symbol: "CLAIM" } : { name: "Wallet Runtime Collectibles", symbol: "WRC" },
    imageUrl: null,
    flags: { is_spam: spam }
  }) as Nft

describe("which NFTs the visitor sees", () => {
  it("leaves out those flagged as spam and keeps the service's order", () => {
    const owned = [nft(5, false), nft(1, true), nft(2, false), nft(7, true)]
    expect(withoutSpamNfts(owned).map((n) => n.name)).toEqual(["Wallet Runtime Collectibles #5", "Wallet Runtime Collectibles #2"])
    expect(withoutSpamNfts([nft(1, true)])).toEqual([])
  })

  it("applies to the NFTs of activity transfers too", () => {
    const moved = [{ name: "Free mint", flags: { is_spam: true } }, { name: "WRC #2", flags: { is_spam: false } }]
    expect(withoutSpamNfts(moved).map((n) => n.name)).toEqual(["WRC #2"])
  })
})

describe("which networks have balances (the others show '0.00')", () => {
  const served = Schema.decodeSync(SupportedChains)({
    http: ["eip155:31337", localSolana.caipNetworkId, "bip122:000000000019d6689c085ae165831e93"],
    ws: ["eip155:10"]
  })
  it.each([
    ["a served EVM testnet (the devstack's)", "eip155:31337", true],
    ["a served Solana testnet", localSolana.caipNetworkId, true],
    ["an EVM mainnet the service does not list", "eip155:1", false],
    ["a network listed only for websockets", "eip155:10", false],
    ["a listed network of a family without balances", "bip122:000000000019d6689c085ae165831e93", false]
  ])("%s: %s → %s", (_, caipNetworkId, expected) => {
    expect(balancesSupported(served, caipNetworkId as CaipNetworkId)).toBe(expected)
  })
})

const options = decodeOptionsSync({
  projectId: "test-project",
  networks: [localChainA],
  endpoints: { blockchainApi: "http://api.test/" }
})

const service = (nftsAnswer: () => "unreachable" | ReadonlyArray<Nft>) =>
  makeFakeHttp((request) => {
    const path = request.url.pathname
    if (path === "/v1/supported-chains") return { status: 200, json: { http: ["eip155:31337"], ws: [] } }
    if (path.endsWith("/balance")) return { status: 200, json: { balances: [] } }
    if (path.endsWith("/nfts")) {
      const answer = nftsAnswer()
      return answer === "unreachable" ? answer : { status: 200, json: { data: answer, next: null } }
    }
    return { status: 404, json: { error: "not found" } }
  })

const layerFor = (http: FakeHttp) =>
  Portfolio.layer.pipe(
    Layer.provideMerge(BlockchainApi.layer),
    Layer.provideMerge(Notifications.layer),
    Layer.provideMerge(Storage.layer.pipe(Layer.provide(KeyValueStore.layerStorage(() => makeMemoryWebStorage())))),
    Layer.provide(Config.layer(options)),
    Layer.provide(http.layer)
  )

const snackbarText = Effect.gen(function* () {
  yield* Effect.yieldNow
  return (yield* SubscriptionRef.get((yield* Notifications).state)).snackbar?.message
})

describe("Portfolio NFTs", () => {
  it.effect("the grid gets the account's NFTs without the spam ones", () =>
    Effect.gen(function* () {
      const http = service(() => [nft(3, false), nft(1, true), nft(2, false)])
      const page = yield* Effect.flatMap(Portfolio, (portfolio) => portfolio.nfts(ALICE_A)).pipe(Effect.provide(layerFor(http)))
      expect(page).toEqual({ data: [nft(3, false), nft(2, false)], next: null })
    })
  )

  it.effect("after the visitor's own transaction (refresh) the NFTs are read again and the revision moves", () =>
    Effect.gen(function* () {
      let owned: ReadonlyArray<Nft> = [nft(3, false), nft(2, false)]
      const http = service(() => owned)
      yield* Effect.gen(function* () {
        const portfolio = yield* Portfolio
        expect((yield* portfolio.nfts(ALICE_A)).data.map((n) => n.tokenId)).toEqual(["3", "2"])
        // Sent #3 away: inside the 30 s window the cached page would still show it.
        owned = [nft(2, false)]
        expect((yield* portfolio.nfts(ALICE_A)).data.map((n) => n.tokenId)).toEqual(["3", "2"])
        yield* portfolio.refresh(ALICE_A)
        expect(yield* SubscriptionRef.get(portfolio.revision)).toBe(1)
        expect((yield* portfolio.nfts(ALICE_A)).data.map((n) => n.tokenId)).toEqual(["2"])
      }).pipe(Effect.provide(layerFor(http)))
    })
  )

  it.effect("a failure is 'Failed to fetch NFTs' for the grid to say in place (no snackbar saying it twice)", () =>
    Effect.gen(function* () {
      const http = service(() => "unreachable")
      yield* Effect.gen(function* () {
        const error = yield* Effect.flip((yield* Portfolio).nfts(ALICE_A))
        expect(error._tag).toBe("NftsUnavailable")
        expect(error.message).toBe(FAILED_TO_FETCH_NFTS)
        expect(yield* snackbarText).toBeUndefined()
      }).pipe(Effect.provide(layerFor(http)))
    })
  )

  it.effect("balancesSupported answers from the service's list for the view's '0.00'", () =>
    Effect.gen(function* () {
      const http = service(() => [])
      yield* Effect.gen(function* () {
        const portfolio = yield* Portfolio
        expect(yield* portfolio.balancesSupported(localChainA.caipNetworkId)).toBe(true)
        expect(yield* portfolio.balancesSupported("eip155:31338" as CaipNetworkId)).toBe(false)
      }).pipe(Effect.provide(layerFor(http)))
    })
  )
})

describe("a listed network the service has no balances for", () => {
  const unsupported = makeFakeHttp((request) =>
    request.url.pathname === "/v1/supported-chains" ? { status: 200, json: { http: [], ws: [] } } : { status: 404, json: {} }
  )

  it.effect("shows a native balance of '0.00' in its symbol, and says 'Token Balance Unavailable' once", () =>
    Effect.gen(function* () {
      const portfolio = yield* Portfolio
      expect(yield* portfolio.nativeBalance(ALICE_A)).toEqual({ balance: "0.00", symbol: localChainA.nativeCurrency.symbol })
      expect(yield* snackbarText).toBe("Token Balance Unavailable")
      // The token list fails for the Tokens tab to say why in place, every time; the snackbar is not said again.
      yield* (yield* Notifications).hideSnackbar
      expect((yield* Effect.flip(portfolio.tokenBalances(ALICE_A))).reason).toBe("unsupportedNetwork")
      expect(yield* portfolio.nativeBalance(ALICE_A)).toEqual({ balance: "0.00", symbol: localChainA.nativeCurrency.symbol })
      expect(yield* snackbarText).toBeUndefined()
    }).pipe(Effect.provide(layerFor(unsupported)))
  )
})
