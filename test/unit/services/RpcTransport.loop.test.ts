import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Layer } from "effect"
import { TestClock } from "effect/testing"
import type { CaipNetwork } from "../../../src/domain/Network"
import { localChainA, polkadot, withDefaultRpcUrls } from "../../../src/domain/networks"
import { decodeOptionsSync } from "../../../src/domain/Options"
import { Config } from "../../../src/services/Config"
import { RpcTransport } from "../../../src/services/RpcTransport/RpcTransport"
import { answerIn, fakeHttp, type FakeHttp } from "./RpcTransportFakeHttp"

const PRIMARY = "http://primary.test/"
const SECONDARY = "http://secondary.test/"

const chain: CaipNetwork = withDefaultRpcUrls(localChainA, { http: [PRIMARY, SECONDARY] })

const transportLayer = (http: FakeHttp, network: CaipNetwork = chain) =>
  RpcTransport.layer.pipe(
    Layer.provide(http.layer),
    Layer.provide(Config.layer(decodeOptionsSync({ networks: [network] })))
  )

const rankedUrls = (network: CaipNetwork = chain) =>
  Effect.flatMap(RpcTransport, (transport) => transport.endpoints(network)).pipe(
    Effect.map((endpoints) => endpoints.map((endpoint) => endpoint.url))
  )

const call = (method: string, network: CaipNetwork = chain) =>
  Effect.flatMap(RpcTransport, (transport) => transport.request(network, { method, params: [] }))


// A request crosses several fibers (caller, batch, HTTP) before it sleeps on the clock: they all get to run before
// test time moves, or their sleeps would start from the later time.
const settle = Effect.forEach(Array.from({ length: 25 }), () => Effect.yieldNow, { discard: true })

/** Lets `ms` of test time pass once every fiber has reached its next sleep. */
const adjust = (ms: number | "1 minute") => settle.pipe(Effect.andThen(TestClock.adjust(ms)), Effect.andThen(settle))

/** Runs `effect` in the background, lets `ms` of test time pass, and gives its result. */
const after = <A, E, R>(ms: number, effect: Effect.Effect<A, E, R>) =>
  Effect.forkChild(effect).pipe(
    Effect.tap(() => adjust(ms)),
    Effect.flatMap(Fiber.join)
  )

describe("RpcTransport ranking loop (TestClock)", () => {
  it.effect("sends nothing before the first request, however long the page stays", () => {
    const http = fakeHttp({ [PRIMARY]: answerIn(5), [SECONDARY]: answerIn(5) })
    return Effect.gen(function* () {
      yield* adjust("1 minute")
      expect(http.seen).toEqual([])
      // Asking for the ranking sends nothing either.
      expect(yield* rankedUrls()).toEqual([PRIMARY, SECONDARY])
      yield* adjust("1 minute")
      expect(http.seen).toEqual([])
    }).pipe(Effect.provide(transportLayer(http)))
  })

  it.effect("pings every endpoint with eth_blockNumber every 4000 ms once the network is used", () => {
    const http = fakeHttp({ [PRIMARY]: answerIn(5), [SECONDARY]: answerIn(5) })
    return Effect.gen(function* () {
      expect(yield* after(5, call("eth_chainId"))).toBe(`eth_chainId@${PRIMARY}`)
      expect([http.pings(PRIMARY), http.pings(SECONDARY)]).toEqual([1, 1])
      yield* adjust(3_994)
      expect([http.pings(PRIMARY), http.pings(SECONDARY)]).toEqual([1, 1])
      yield* adjust(1)
      expect([http.pings(PRIMARY), http.pings(SECONDARY)]).toEqual([2, 2])
      yield* adjust(8_000)
      expect([http.pings(PRIMARY), http.pings(SECONDARY)]).toEqual([4, 4])
      expect(http.seen.filter((seen) => seen.method === "eth_blockNumber").map((seen) => seen.at)).toEqual([
        0, 0, 4_000, 4_000, 8_000, 8_000, 12_000, 12_000
      ])
    }).pipe(Effect.provide(transportLayer(http)))
  })

  it.effect("a ping unanswered after 1000 ms is a failed sample", () => {
    const http = fakeHttp({ [PRIMARY]: { kind: "hang" }, [SECONDARY]: answerIn(5) })
    return Effect.gen(function* () {
      const transport = yield* RpcTransport
      const request = yield* Effect.forkChild(call("eth_chainId"))
      yield* adjust(999)
      const before = yield* transport.endpoints(chain)
      expect(before.find((endpoint) => endpoint.url === PRIMARY)?.samples).toEqual([])
      yield* adjust(1)
      const after = yield* transport.endpoints(chain)
      expect(after.find((endpoint) => endpoint.url === PRIMARY)?.samples).toEqual([{ ok: false }])
      expect(after.find((endpoint) => endpoint.url === SECONDARY)?.samples).toEqual([{ ok: true, latencyMs: 5 }])
      yield* Fiber.interrupt(request)
    }).pipe(Effect.provide(transportLayer(http)))
  })

  it.effect("a primary that dies falls below the healthy secondary within one interval, and requests skip it", () => {
    const http = fakeHttp({ [PRIMARY]: answerIn(10), [SECONDARY]: answerIn(20) })
    return Effect.gen(function* () {
      yield* after(100, call("eth_chainId"))
      expect(yield* rankedUrls()).toEqual([PRIMARY, SECONDARY])

      http.set(PRIMARY, { kind: "hang" })
      yield* adjust(3_900 + 1_000) // the next round at 4000 ms, its time-out at 5000 ms
      expect(yield* rankedUrls()).toEqual([SECONDARY, PRIMARY])

      const before = http.seen.length
      expect(yield* after(20, call("eth_getBalance"))).toBe(`eth_getBalance@${SECONDARY}`)
      expect(http.seen.slice(before).map((seen) => seen.url)).toEqual([SECONDARY])
    }).pipe(Effect.provide(transportLayer(http)))
  })

  it.effect("a primary that comes back climbs above the secondary again once its failures age out", () => {
    const http = fakeHttp({ [PRIMARY]: { kind: "refuse" }, [SECONDARY]: answerIn(20) })
    return Effect.gen(function* () {
      expect(yield* after(100, call("eth_chainId"))).toBe(`eth_chainId@${SECONDARY}`)
      expect(yield* rankedUrls()).toEqual([SECONDARY, PRIMARY])
      http.set(PRIMARY, answerIn(10))
      // The request's failure and the first ping's: 10 good pings push both out of the last 10 samples.
      yield* adjust(4_000 * 9)
      expect(yield* rankedUrls()).toEqual([SECONDARY, PRIMARY])
      yield* adjust(4_000)
      expect(yield* rankedUrls()).toEqual([PRIMARY, SECONDARY])
    }).pipe(Effect.provide(transportLayer(http)))
  })

  it.effect("an endpoint whose answer never ends is cut off at the size cap and the next endpoint answers", () => {
    const http = fakeHttp({ [PRIMARY]: { kind: "flood" }, [SECONDARY]: answerIn(5) })
    return Effect.gen(function* () {
      expect(yield* after(100, call("eth_chainId"))).toBe(`eth_chainId@${SECONDARY}`)
      expect(yield* rankedUrls()).toEqual([SECONDARY, PRIMARY])
    }).pipe(Effect.provide(transportLayer(http)))
  })

  it.effect("a request that gets no answer from an endpoint still answering pings moves on after the request time-out", () => {
    const http = fakeHttp({ [PRIMARY]: { kind: "hang-calls" }, [SECONDARY]: answerIn(5) })
    return Effect.gen(function* () {
      const request = yield* Effect.forkChild(call("eth_chainId"))
      yield* adjust(9_999)
      expect(request.pollUnsafe()).toBeUndefined()
      yield* adjust(6)
      expect(yield* Fiber.join(request)).toBe(`eth_chainId@${SECONDARY}`)
    }).pipe(Effect.provide(transportLayer(http)))
  })

  it.effect("a request waiting on an endpoint whose ping fails moves on at the ping time-out", () => {
    const http = fakeHttp({ [PRIMARY]: { kind: "hang" }, [SECONDARY]: answerIn(5) })
    return Effect.gen(function* () {
      const request = yield* Effect.forkChild(call("eth_chainId"))
      yield* adjust(999)
      expect(request.pollUnsafe()).toBeUndefined()
      yield* adjust(6)
      expect(yield* Fiber.join(request)).toBe(`eth_chainId@${SECONDARY}`)
    }).pipe(Effect.provide(transportLayer(http)))
  })

  it.effect("a lone endpoint is waited for even when its ping fails: it may still answer", () => {
    const single = withDefaultRpcUrls(localChainA, { http: [PRIMARY] })
    const http = fakeHttp({ [PRIMARY]: answerIn(2_000) })
    return Effect.gen(function* () {
      expect(yield* after(2_000, call("eth_getLogs", single))).toBe(`eth_getLogs@${PRIMARY}`)
      expect(http.seen.filter((seen) => seen.method === "eth_getLogs")).toHaveLength(1)
    }).pipe(Effect.provide(transportLayer(http, single)))
  })

  it.effect("retries the last endpoint after 150 ms then 300 ms when it is busy", () => {
    const single = withDefaultRpcUrls(localChainA, { http: [PRIMARY] })
    const http = fakeHttp({ [PRIMARY]: { kind: "status", status: 503 } })
    return Effect.gen(function* () {
      const request = yield* Effect.forkChild(call("eth_chainId", single))
      yield* adjust(149)
      const requestsOf = () => http.seen.filter((seen) => seen.method === "eth_chainId").map((seen) => seen.at)
      expect(requestsOf()).toEqual([0])
      yield* adjust(1)
      expect(requestsOf()).toEqual([0, 150])
      http.set(PRIMARY, answerIn(0))
      yield* adjust(300)
      expect(requestsOf()).toEqual([0, 150, 450])
      expect(yield* Fiber.join(request)).toBe(`eth_chainId@${PRIMARY}`)
    }).pipe(Effect.provide(transportLayer(http, single)))
  })

  it.effect("a family without a known ping is ranked by its requests only", () => {
    const network = withDefaultRpcUrls(polkadot, { http: [PRIMARY, SECONDARY] })
    const http = fakeHttp({ [PRIMARY]: { kind: "status", status: 502 }, [SECONDARY]: answerIn(5) })
    return Effect.gen(function* () {
      expect(yield* after(5, call("chain_getHeader", network))).toBe(`chain_getHeader@${SECONDARY}`)
      yield* adjust("1 minute")
      expect(http.seen.map((seen) => seen.url)).toEqual([PRIMARY, SECONDARY])
      expect(yield* rankedUrls(network)).toEqual([SECONDARY, PRIMARY])
    }).pipe(Effect.provide(transportLayer(http, network)))
  })

  it.effect("stops pinging when the runtime's scope closes", () => {
    const http = fakeHttp({ [PRIMARY]: answerIn(0), [SECONDARY]: answerIn(0) })
    return Effect.gen(function* () {
      yield* call("eth_chainId").pipe(Effect.provide(transportLayer(http)))
      expect(http.pings(PRIMARY)).toBe(1)
      const pings = http.pings(PRIMARY)
      yield* adjust("1 minute")
      expect(http.pings(PRIMARY)).toBe(pings)
    })
  })
})
