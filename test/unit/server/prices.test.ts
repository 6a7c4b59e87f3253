/** The services' price sources: the fixed table, and a JSON feed read at most once per TTL that survives its outages. */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { fixedPrices, jsonFeedPrices, LOCAL_USD_PRICES, priceOf } from "../../../server/src/services/prices"

describe("fixedPrices", () => {
  it("answers the symbols it has, and prices any other 0", async () => {
    const prices = fixedPrices(LOCAL_USD_PRICES)
    expect([...(await prices.usdPrices(["ETH", "SOL", "DOGE"]))]).toEqual([
      ["ETH", 3000],
      ["SOL", 150]
    ])
    expect(await priceOf(prices, "DOGE")).toBe(0)
  })
})

describe("jsonFeedPrices", () => {
  let server: Server
  let url = ""
  let answer: { status: number; body: string } = { status: 200, body: "{}" }
  let reads = 0
  beforeAll(async () => {
    server = createServer((_request, response) => {
      reads += 1
      response.writeHead(answer.status, { "content-type": "application/json" })
      response.end(answer.body)
    })
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/prices`
  })
  afterAll(() => new Promise((resolve) => server.close(resolve)))

  it("reads the feed once per TTL, keeps the last table through an outage or a bad answer, and knows nothing before", async () => {
    let now = 0
    answer = { status: 503, body: "down" }
    const prices = jsonFeedPrices({ url, ttlMs: 60_000, now: () => now })
    expect(await priceOf(prices, "ETH")).toBe(0)

    now += 60_000
    answer = { status: 200, body: JSON.stringify({ ETH: 3012.5, USDC: 1 }) }
    reads = 0
    expect(await priceOf(prices, "ETH")).toBe(3012.5)
    expect(await priceOf(prices, "USDC")).toBe(1)
    expect(reads).toBe(1)

    now += 59_999
    answer = { status: 200, body: JSON.stringify({ ETH: 1 }) }
    expect(await priceOf(prices, "ETH")).toBe(3012.5)
    expect(reads).toBe(1)

    now += 1
    answer = { status: 200, body: JSON.stringify({ ETH: "not a price" }) }
    expect(await priceOf(prices, "ETH")).toBe(3012.5)
    now += 60_000
    answer = { status: 500, body: "{}" }
    expect(await priceOf(prices, "ETH")).toBe(3012.5)
    now += 60_000
    answer = { status: 200, body: JSON.stringify({ ETH: 2990 }) }
    expect(await priceOf(prices, "ETH")).toBe(2990)
    expect(reads).toBe(4)
  })
})
