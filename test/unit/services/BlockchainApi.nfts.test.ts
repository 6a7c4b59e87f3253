import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer } from "effect"
import * as KeyValueStore from "effect/persistence/KeyValueStore"
import { TestClock } from "effect/testing"
import type { CaipAddress } from "../../../src/domain/Caip"
import { bitcoin, localChainA, localChainB, localSolana } from "../../../src/domain/networks"
import { decodeOptionsSync } from "../../../src/domain/Options"
import type { Nft } from "../../../src/domain/Portfolio"
import { BlockchainApi, FAILED_TO_FETCH_NFTS } from "../../../src/services/BlockchainApi"
import { Config } from "../../../src/services/Config"
import { Notifications } from "../../../src/services/Notifications"
import { Storage } from "../../../src/services/Storage/Storage"
import { type FakeAnswer, type FakeHttp, makeFakeHttp, type RecordedRequest } from "../support/fakeHttpClient"
import { makeMemoryWebStorage } from "../support/memoryWebStorage"

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
const ALICE_A = `eip155:31337:${ALICE}` as CaipAddress
const ALICE_B = `eip155:31338:${ALICE}` as CaipAddress
const WRC = "0x9fE46736679d2D9a65F0992F2272dE9f3c7fa6e0"

const options = decodeOptionsSync({
  projectId: "test-project",
  networks: [localChainA, localChainB, localSolana, bitcoin],
  endpoints: { blockchainApi: "http://api.test/base/" }
})

const nft = (chainId: string, tokenId: number, spam = false): Nft =>
  ({
    chainId,
    contract: `${chainId}:${WRC}`,
    standard: "erc721",
    tokenId: String(tokenId),
    name: `Wallet Runtime Collectibles #${tokenId}`,
    collection: { name: "Wallet Runtime Collectibles", symbol: "WRC" },
    imageUrl: `http://api.test/nft-${tokenId}.svg`,
    flags: { is_spam: spam }
  }) as Nft

/** A service serving eip155:31337 and the local Solana network (both testnets), with two pages of NFTs. */
const service = (overrides: (request: RecordedRequest) => FakeAnswer | undefined = () => undefined) =>
  makeFakeHttp((request) => {
    const override = overrides(request)
    if (override !== undefined) return override
    const path = request.url.pathname
    if (path === "/base/v1/supported-chains") return { status: 200, json: { http: ["eip155:31337", localSolana.caipNetworkId], ws: [] } }
    if (path.endsWith("/nfts")) {
      const chainId = request.url.searchParams.get("chainId") ?? ""
      return request.url.searchParams.get("cursor") === "page-2"
        ? { status: 200, json: { data: [nft(chainId, 1)], next: null } }
        : { status: 200, json: { data: [nft(chainId, 3), nft(chainId, 2)], next: "page-2" } }
    }
    return { status: 404, json: { error: "not found" } }
  })

const layerFor = (web: globalThis.Storage, http: FakeHttp) =>
  BlockchainApi.layer.pipe(
    Layer.provideMerge(Notifications.layer),
    Layer.provideMerge(Storage.layer.pipe(Layer.provide(KeyValueStore.layerStorage(() => web)))),
    Layer.provide(Config.layer(options)),
    Layer.provide(http.layer)
  )

const nftRequests = (http: FakeHttp) => http.requests.filter((r) => r.url.pathname.endsWith("/nfts"))

describe("BlockchainApi.nfts (our extension to spec 7.4)", () => {
  it.effect("asks for the account's NFTs on its network and pages with the cursor the service gave", () =>
    Effect.gen(function* () {
      const http = service()
      yield* Effect.gen(function* () {
        const api = yield* BlockchainApi
        const first = yield* api.nfts(ALICE_A)
        expect(first.data.map((n) => n.tokenId)).toEqual(["3", "2"])
        expect(first.next).toBe("page-2")
        const second = yield* api.nfts(ALICE_A, { cursor: first.next ?? undefined })
        expect(second).toEqual({ data: [nft("eip155:31337", 1)], next: null })
        const [one, two] = nftRequests(http)
        expect(one?.url.pathname).toBe(`/base/v1/account/${ALICE}/nfts`)
        expect(Object.fromEntries(one?.url.searchParams ?? [])).toEqual({ projectId: "test-project", chainId: "eip155:31337" })
        expect(two?.url.searchParams.get("cursor")).toBe("page-2")
      }).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), http)))
    })
  )

  it.effect("keeps the first page 30 s across a reload, like balances; later pages are always asked", () =>
    Effect.gen(function* () {
      const web = makeMemoryWebStorage()
      const http = service()
      const read = (cursor?: string) => Effect.flatMap(BlockchainApi, (api) => api.nfts(ALICE_A, { cursor })).pipe(Effect.provide(layerFor(web, http)))
      const first = yield* read()
      yield* TestClock.adjust("29999 millis")
      expect(yield* read()).toEqual(first)
      expect(nftRequests(http)).toHaveLength(1)
      yield* read("page-2")
      yield* read("page-2")
      expect(nftRequests(http)).toHaveLength(3)
      yield* TestClock.adjust("1 millis")
      yield* read()
      expect(nftRequests(http)).toHaveLength(4)
    })
  )

  it.effect("forgetNfts drops the cached first page: the next read asks the service", () =>
    Effect.gen(function* () {
      const http = service()
      yield* Effect.gen(function* () {
        const api = yield* BlockchainApi
        yield* api.nfts(ALICE_A)
        yield* api.forgetNfts(ALICE_A)
        yield* api.nfts(ALICE_A)
        expect(nftRequests(http)).toHaveLength(2)
      }).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), http)))
    })
  )

  it.effect("another network's NFTs in the answer are not shown for this one", () =>
    Effect.gen(function* () {
      const http = service((request) =>
        request.url.pathname.endsWith("/nfts")
          ? { status: 200, json: { data: [nft("eip155:31338", 9), nft("eip155:31337", 4)], next: null } }
          : undefined
      )
      const page = yield* Effect.flatMap(BlockchainApi, (api) => api.nfts(ALICE_A)).pipe(
        Effect.provide(layerFor(makeMemoryWebStorage(), http))
      )
      expect(page.data.map((n) => `${n.chainId} #${n.tokenId}`)).toEqual(["eip155:31337 #4"])
    })
  )

  it.effect("a network the service has no balances for, and a family without balances, have no NFTs and are not asked", () =>
    Effect.gen(function* () {
      const http = service()
      yield* Effect.gen(function* () {
        const api = yield* BlockchainApi
        expect(yield* api.nfts(ALICE_B)).toEqual({ data: [], next: null })
        const btc = `${bitcoin.caipNetworkId}:bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq` as CaipAddress
        expect(yield* api.nfts(btc)).toEqual({ data: [], next: null })
        expect(nftRequests(http)).toHaveLength(0)
        // A Solana account is asked like an EVM one.
        yield* api.nfts(`${localSolana.caipNetworkId}:9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM` as CaipAddress)
        expect(nftRequests(http).map((r) => r.url.searchParams.get("chainId"))).toEqual([localSolana.caipNetworkId])
      }).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), http)))
    })
  )

  it.effect("a failed or malformed answer is 'Failed to fetch NFTs' with what went wrong, and nothing is cached", () =>
    Effect.gen(function* () {
      let answer: FakeAnswer = { status: 500, json: { error: "boom" } }
      const http = service((request) => (request.url.pathname.endsWith("/nfts") ? answer : undefined))
      yield* Effect.gen(function* () {
        const api = yield* BlockchainApi
        const failed = yield* Effect.flip(api.nfts(ALICE_A))
        expect(failed.message).toBe(FAILED_TO_FETCH_NFTS)
        expect(failed.detail).toContain("HTTP status code: 500")

        answer = { status: 200, json: { data: [{ ...nft("eip155:31337", 1), tokenId: "one" }], next: null } }
        const malformed = yield* Effect.flip(api.nfts(ALICE_A))
        expect(malformed._tag).toBe("NftsUnavailable")

        answer = { status: 200, json: { data: [nft("eip155:31337", 1)], next: null } }
        expect((yield* api.nfts(ALICE_A)).data).toHaveLength(1)
      }).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), http)))
    })
  )

  it.effect("an unreachable list of served networks is 'Failed to fetch NFTs', not an empty grid", () =>
    Effect.gen(function* () {
      const http = service((request) => (request.url.pathname.endsWith("/supported-chains") ? "unreachable" : undefined))
      const error = yield* Effect.flip(Effect.flatMap(BlockchainApi, (api) => api.nfts(ALICE_A))).pipe(
        Effect.provide(layerFor(makeMemoryWebStorage(), http))
      )
      expect(error.message).toBe(FAILED_TO_FETCH_NFTS)
      expect(nftRequests(http)).toHaveLength(0)
    })
  )
})

describe("BlockchainApi.balanceSupport", () => {
  it.effect("follows v1/supported-chains, not the testnet flag: the local testnets the service serves have balances", () =>
    Effect.gen(function* () {
      const http = service()
      yield* Effect.gen(function* () {
        const api = yield* BlockchainApi
        expect(localChainA.testnet).toBe(true)
        expect(yield* api.balanceSupport(localChainA.caipNetworkId)).toBe(true)
        expect(yield* api.balanceSupport(localSolana.caipNetworkId)).toBe(true)
        expect(yield* api.balanceSupport(localChainB.caipNetworkId)).toBe(false)
        expect(http.to("/base/v1/supported-chains")).toHaveLength(1)
      }).pipe(Effect.provide(layerFor(makeMemoryWebStorage(), http)))
    })
  )

  it.effect("a family without balances is unsupported without asking the service", () =>
    Effect.gen(function* () {
      const http = service()
      const supported = yield* Effect.flatMap(BlockchainApi, (api) => api.balanceSupport(bitcoin.caipNetworkId)).pipe(
        Effect.provide(layerFor(makeMemoryWebStorage(), http))
      )
      expect(supported).toBe(false)
      expect(http.requests).toHaveLength(0)
    })
  )
})
