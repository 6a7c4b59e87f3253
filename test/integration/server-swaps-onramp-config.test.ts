/**
 * Swaps and the on-ramp as a host configures them. The swap networks are the eip155 chains given a Uniswap v2 router:
 * `/v1/supported-chains` lists them (the modal offers Swap there only) and any other network gets 'Network not
 * supported for Swaps'. The on-ramp: the server (`startServer`, in process) decodes its configuration and answers
 * `/v1/onramp/options`, `/v1/onramp/quote` and `/v1/generators/onrampurl` from the `onramp` group — its page, its
 * currencies with their USD rates, its limits and its fees — selling the coin and tokens of its eip155 chain (a real
 * anvil). Without a page the endpoints answer 501; with only a page, spec 9's fallback limits and fees.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { NodeFileSystem } from "@effect/platform-node"
import { ConfigProvider, Effect, Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { OnrampOptions, OnrampQuote, OnrampUrlResponse } from "../../src/domain/Api"
import { startAnvil, type AnvilInfo } from "../../devstack/evm/anvil"
import { loadServerConfig } from "../../server/src/config/load"
import type { Started } from "../../server/src/lib/Started"
import { startServer } from "../../server/src/server"

const USDC = "0x5FbDB2315678afecb367f032d93F642f64180aa3"
const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"

let anvil: Started<AnvilInfo>
const folders: Array<string> = []

beforeAll(async () => {
  anvil = await startAnvil({ chainId: 31337 })
}, 30_000)

afterAll(async () => {
  await anvil?.stop()
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
})

/** Runs `body` against the services of a server started from `onramp` (the group as a host's file writes it). */
const withServices = (
  onramp: unknown,
  body: (call: (method: "GET" | "POST", path: string, payload?: unknown) => Promise<{ status: number; body: unknown }>) => Promise<void>,
  chains: Record<string, unknown> = {}
) => {
  const dataDir = mkdtempSync(join(tmpdir(), "wallet-runtime-onramp-"))
  folders.push(dataDir)
  const contents = {
    components: ["services"],
    services: { port: 0 },
    database: { dataDir },
    projects: [{ projectId: "my-app", allowedOrigins: "loopback" }],
    chains: {
      "eip155:31337": { rpcUrls: [anvil.info.rpcUrl], tokens: [{ address: USDC, symbol: "USDC", name: "USD Coin", decimals: 6 }] },
      ...chains
    },
    prices: { fixed: { ETH: 2500, USDC: 1 } },
    log: { level: "error" },
    ...(onramp === undefined ? {} : { onramp })
  }
  return Effect.runPromise(
    Effect.scoped(
      Effect.gen(function* () {
        const config = yield* loadServerConfig({ env: ConfigProvider.fromEnv({ env: {} }), file: { path: "server.json", contents } })
        const running = yield* startServer(config)
        const url = running.find((component) => component.component === "services")?.url
        if (url === undefined) return yield* Effect.die("the services did not start")
        yield* Effect.promise(() =>
          body(async (method, path, payload) => {
            const response = await fetch(`${url}${path}${path.includes("?") ? "&" : "?"}projectId=my-app`, {
              method,
              ...(payload === undefined ? {} : { headers: { "content-type": "application/json" }, body: JSON.stringify(payload) })
            })
            return { status: response.status, body: (await response.json()) as unknown }
          })
        )
      })
    ).pipe(Effect.provide(NodeFileSystem.layer))
  )
}

const quoteBody = (paymentCurrency: string, amount: string) => ({ purchaseCurrency: "USDC", paymentCurrency, amount, network: "eip155:31337" })

describe("the on-ramp from the server's configuration", () => {
  it("a host's currencies, limits and fees are what the options say and the quotes take", async () => {
    await withServices(
      {
        pageUrl: "https://ramp.example/buy",
        providerName: "Example Ramp",
        currencies: { GBP: 1.25, USD: 1 },
        limits: { card: { min: 20, max: 500 }, bankAccount: { min: 50, max: 1000 } },
        feePercent: { min: 0.5, max: 3 },
        cardFeePercent: 3,
        networkFee: 1
      },
      async (call) => {
        const options = await call("GET", "/v1/onramp/options")
        expect(options.status).toBe(200)
        expect(Schema.decodeUnknownSync(OnrampOptions)(options.body)).toEqual({
          providerName: "Example Ramp",
          paymentCurrencies: ["GBP", "USD"].map((id) => ({
            id,
            limits: [
              { id: "card", min: 20, max: 500 },
              { id: "bankAccount", min: 50, max: 1000 }
            ]
          })),
          purchaseCurrencies: [
            { symbol: "ETH", name: "Ether", networks: ["eip155:31337"] },
            { symbol: "USDC", name: "USD Coin", networks: ["eip155:31337"] }
          ],
          providerFeePercent: { min: 0.5, max: 3 }
        })
        // The modal offers Buy where the provider delivers: the networks of what it sells, each once.
        expect((await call("GET", "/v1/supported-chains")).body).toMatchObject({ onramp: ["eip155:31337"] })
        // 100 GBP: 3 % and 1 GBP of fees out, the 96 GBP left at 1.25 USD each buy 120 USDC at 1 USD.
        const quote = await call("POST", "/v1/onramp/quote", quoteBody("GBP", "100"))
        expect(quote.status).toBe(200)
        expect(Schema.decodeUnknownSync(OnrampQuote)(quote.body)).toEqual({
          purchaseAmount: { amount: "120", currency: "USDC" },
          paymentTotal: { amount: "100", currency: "GBP" },
          providerFee: { amount: "3", currency: "GBP" },
          networkFee: { amount: "1", currency: "GBP" }
        })
        expect(await call("POST", "/v1/onramp/quote", quoteBody("GBP", "600"))).toEqual({
          status: 400,
          body: { error: "The amount must be between 20 and 500 GBP" }
        })
        expect(await call("POST", "/v1/onramp/quote", quoteBody("USD", "15"))).toEqual({
          status: 400,
          body: { error: "The amount must be between 20 and 500 USD" }
        })
        expect(await call("POST", "/v1/onramp/quote", quoteBody("EUR", "100"))).toEqual({
          status: 400,
          body: { error: "Payment in EUR is not accepted: pay in GBP or USD" }
        })
        const url = await call("POST", "/v1/generators/onrampurl", {
          destinationWallets: [{ address: ALICE, blockchains: ["eip155:31337"], assets: ["USDC"] }],
          partnerUserId: "visitor-1",
          defaultExperience: "buy"
        })
        expect(url.status).toBe(200)
        const page = new URL(Schema.decodeUnknownSync(OnrampUrlResponse)(url.body).url)
        expect(`${page.origin}${page.pathname}`).toBe("https://ramp.example/buy")
        expect(Object.fromEntries(page.searchParams)).toMatchObject({ address: ALICE, network: "eip155:31337", asset: "USDC" })
      }
    )
  }, 60_000)

  it("with only a page: spec 9's fallback (USD and EUR, card 10–7500, bank account 10–25000, fee 1–2 %); without one: 501", async () => {
    await withServices({ pageUrl: "https://ramp.example/buy" }, async (call) => {
      const options = Schema.decodeUnknownSync(OnrampOptions)((await call("GET", "/v1/onramp/options")).body)
      expect(options.paymentCurrencies).toEqual(
        ["USD", "EUR"].map((id) => ({ id, limits: [{ id: "card", min: 10, max: 7500 }, { id: "bankAccount", min: 10, max: 25000 }] }))
      )
      expect(options.providerFeePercent).toEqual({ min: 1, max: 2 })
      expect(options.providerName).toBe("Local On-ramp")
      // 1.5 % and 0.10 out of 100 USD.
      expect(Schema.decodeUnknownSync(OnrampQuote)((await call("POST", "/v1/onramp/quote", quoteBody("USD", "100"))).body).purchaseAmount).toEqual({
        amount: "98.4",
        currency: "USDC"
      })
    })
    await withServices(undefined, async (call) => {
      expect((await call("GET", "/v1/onramp/options")).status).toBe(501)
      expect((await call("POST", "/v1/onramp/quote", quoteBody("USD", "100"))).status).toBe(501)
      // Without a provider the modal offers Buy nowhere.
      expect((await call("GET", "/v1/supported-chains")).body).toMatchObject({ onramp: [] })
    })
  }, 60_000)
})

describe("the swap networks from the server's configuration", () => {
  it("are the chains given a router: listed in /v1/supported-chains, any other network refused in the spec's words", async () => {
    await withServices(
      undefined,
      async (call) => {
        expect((await call("GET", "/v1/supported-chains")).body).toEqual({ http: ["eip155:31337", "eip155:31338"], ws: [], swaps: ["eip155:31338"], onramp: [] })
        const refused = await call("GET", "/v1/convert/tokens?chainId=eip155:31337")
        expect(refused).toEqual({ status: 400, body: { error: "Network not supported for Swaps" } })
      },
      // A second chain (the same anvil under another id is enough: nothing here reads it) with a router.
      { "eip155:31338": { rpcUrls: [anvil.info.rpcUrl], swap: { uniswapV2Router: "0xe7f1725E7734CE288F8367e1Bb143E90bb3F0512" } } }
    )
  }, 60_000)
})
