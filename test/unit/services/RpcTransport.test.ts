import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Layer } from "effect"
import { TestClock } from "effect/testing"
import { type CaipNetwork, unsupportedNetwork } from "../../../src/domain/Network"
import { localChainA, localSolana, withDefaultRpcUrls } from "../../../src/domain/networks"
import { decodeOptionsSync, type HostOptionsInput } from "../../../src/domain/Options"
import { Config } from "../../../src/services/Config"
import { endpointsOf, RpcTransport, type RpcTransportSettings } from "../../../src/services/RpcTransport/RpcTransport"
import { answerIn, type FakeHttp, fakeHttp } from "./RpcTransportFakeHttp"

const NODE = "http://node.test/"
const OTHER = "http://other.test/"
const CUSTOM = "http://custom.test/"

const optionsWith = (network: CaipNetwork, extra: Partial<HostOptionsInput> = {}) =>
  decodeOptionsSync({ networks: [network], ...extra })

describe("endpointsOf", () => {
  const network = withDefaultRpcUrls(localChainA, { http: [NODE, OTHER] })

  it("orders the host's custom URLs, the network's own, then the RPC proxy with chainId and projectId", () => {
    const options = optionsWith(network, {
      projectId: "p1",
      customRpcUrls: { "eip155:31337": [{ url: CUSTOM }] },
      endpoints: { rpcProxy: "https://rpc.example/" }
    })
    expect(endpointsOf(options, network)).toEqual([
      { url: CUSTOM, source: "custom" },
      { url: NODE, source: "network" },
      { url: OTHER, source: "network" },
      { url: "https://rpc.example/v1/?chainId=eip155%3A31337&projectId=p1", source: "proxy" }
    ])
  })

  it("lists a URL once, at its first place", () => {
    const options = optionsWith(network, { customRpcUrls: { "eip155:31337": [{ url: OTHER }] } })
    expect(endpointsOf(options, network).map((endpoint) => endpoint.url)).toEqual([OTHER, NODE])
  })

  it.each([
    ["without a projectId", {}],
    ["with a blank projectId", { projectId: "  " }]
  ])("has no proxy %s (the proxy refuses requests without one)", (_, extra) => {
    expect(endpointsOf(optionsWith(network, extra), network).map((endpoint) => endpoint.source)).toEqual(["network", "network"])
  })

  it("only the host's custom URLs for the unsupported-network placeholder", () => {
    const placeholder = unsupportedNetwork("eip155", 5)
    expect(endpointsOf(optionsWith(network, { projectId: "p1" }), placeholder)).toEqual([])
    const options = optionsWith(network, { projectId: "p1", customRpcUrls: { "eip155:5": [{ url: CUSTOM }] } })
    expect(endpointsOf(options, placeholder)).toEqual([{ url: CUSTOM, source: "custom" }])
  })
})

const layerFor = (http: FakeHttp, network: CaipNetwork, settings: Partial<RpcTransportSettings> = {}) =>
  RpcTransport.layerWith(settings).pipe(Layer.provide(http.layer), Layer.provide(Config.layer(optionsWith(network))))

/** Runs `effect` in the background, lets every fiber reach its next sleep, moves test time by `ms`, gives the result. */
const after = <A, E, R>(ms: number, effect: Effect.Effect<A, E, R>) =>
  Effect.gen(function* () {
    const fiber = yield* Effect.forkChild(effect)
    for (let i = 0; i < 25; i++) yield* Effect.yieldNow
    yield* TestClock.adjust(ms)
    return yield* Fiber.join(fiber)
  })

describe("RpcTransport requests", () => {
  it.effect("a network without any endpoint fails clearly and sends nothing", () => {
    const placeholder = unsupportedNetwork("eip155", 5)
    const http = fakeHttp({})
    return Effect.gen(function* () {
      const transport = yield* RpcTransport
      const error = yield* Effect.flip(transport.request(placeholder, { method: "eth_chainId" }))
      expect(error._tag).toBe("RpcNoEndpoint")
      expect(error.message).toBe("No RPC endpoint for network eip155:5")
      expect(http.requests).toEqual([])
    }).pipe(Effect.provide(layerFor(http, localChainA)))
  })

  it.effect("params that cannot become JSON fail their own call only, not the batch beside it", () => {
    const network = withDefaultRpcUrls(localChainA, { http: [NODE] })
    const http = fakeHttp({ [NODE]: answerIn(0) })
    return Effect.gen(function* () {
      const transport = yield* RpcTransport
      const [bad, good] = yield* after(
        0,
        Effect.all(
          [
            Effect.flip(transport.request(network, { method: "eth_getBalance", params: [10n] })),
            transport.request(network, { method: "eth_chainId" })
          ],
          { concurrency: "unbounded" }
        )
      )
      expect(bad.message).toBe("Something went wrong")
      expect(bad).toMatchObject({ _tag: "SomethingWentWrong", reason: expect.stringContaining("The params of eth_getBalance cannot be sent as JSON") })
      expect(good).toBe(`eth_chainId@${NODE}`)
    }).pipe(Effect.provide(layerFor(http, network)))
  })

  it.effect("calls of one tick travel as one batch; with batching off, one request each", () => {
    const network = withDefaultRpcUrls(localChainA, { http: [NODE] })
    const both = Effect.flatMap(RpcTransport, (transport) =>
      Effect.all([transport.request(network, { method: "eth_chainId" }), transport.request(network, { method: "eth_gasPrice" })], {
        concurrency: "unbounded"
      })
    )
    const calls = (http: FakeHttp) => http.requests.filter((request) => !request.methods.includes("eth_blockNumber"))
    const batched = fakeHttp({ [NODE]: answerIn(0) })
    const single = fakeHttp({ [NODE]: answerIn(0) })
    return Effect.gen(function* () {
      expect(yield* after(0, both.pipe(Effect.provide(layerFor(batched, network))))).toEqual([
        `eth_chainId@${NODE}`,
        `eth_gasPrice@${NODE}`
      ])
      expect(calls(batched)).toEqual([{ url: NODE, methods: ["eth_chainId", "eth_gasPrice"], batch: true }])
      yield* after(0, both.pipe(Effect.provide(layerFor(single, network, { batch: false }))))
      expect(calls(single)).toEqual([
        { url: NODE, methods: ["eth_chainId"], batch: false },
        { url: NODE, methods: ["eth_gasPrice"], batch: false }
      ])
    })
  })

  it.effect("calls in different ticks are sent separately", () => {
    const network = withDefaultRpcUrls(localChainA, { http: [NODE] })
    const http = fakeHttp({ [NODE]: answerIn(0) })
    return Effect.gen(function* () {
      const transport = yield* RpcTransport
      yield* after(0, transport.request(network, { method: "eth_chainId" }))
      yield* after(0, transport.request(network, { method: "eth_gasPrice" }))
      expect(http.requests.filter((request) => !request.methods.includes("eth_blockNumber"))).toEqual([
        { url: NODE, methods: ["eth_chainId"], batch: false },
        { url: NODE, methods: ["eth_gasPrice"], batch: false }
      ])
    }).pipe(Effect.provide(layerFor(http, network)))
  })

  it.effect("Solana endpoints are pinged with getHealth", () => {
    const network = withDefaultRpcUrls(localSolana, { http: [NODE, OTHER] })
    const http = fakeHttp({ [NODE]: answerIn(0), [OTHER]: answerIn(0) })
    return Effect.gen(function* () {
      const transport = yield* RpcTransport
      yield* after(0, transport.request(network, { method: "getSlot" }))
      expect(http.seen.filter((seen) => seen.method === "getHealth").map((seen) => seen.url)).toEqual([NODE, OTHER])
    }).pipe(Effect.provide(layerFor(http, network)))
  })

  it.effect("layerTest answers from a function and honours an aborted signal", () =>
    Effect.gen(function* () {
      const transport = yield* RpcTransport
      expect(yield* transport.request(localChainA, { method: "eth_chainId" })).toBe("0x7a69")
      const error = yield* Effect.flip(transport.request(localChainA, { method: "eth_chainId" }, { signal: AbortSignal.abort() }))
      expect(error.message).toBe("Request was aborted")
      expect(yield* transport.endpoints(localChainA)).toEqual([])
    }).pipe(Effect.provide(RpcTransport.layerTest(() => Effect.succeed("0x7a69"))))
  )
})
