/**
 * The on-ramp endpoints against the local stack: the spec's fallback limits and currencies, a quote's arithmetic, a
 * refusal outside the limits, the provider's page on its own origin, a card payment on it delivering WUSD on the real
 * anvil chain, and the history showing that delivery as a deposit (alone with `?onramp=`).
 */
import { Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Address, createPublicClient, http } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { HistoryResponse, OnrampOptions, OnrampQuote, OnrampUrlResponse } from "../../src/domain/Api"
import { erc20Abi } from "../../devstack/evm/abis"
import type { EvmChain } from "../../devstack/evm/index"
import { type DevstackInfo, startDevstack } from "../../devstack/main"
import type { Started } from "../../server/src/lib/Started"

let stack: Started<DevstackInfo>
let servicesUrl: string
let projectId: string
let chain: EvmChain

const post = async (path: string, body: unknown) => {
  const response = await fetch(`${servicesUrl}${path}?projectId=${projectId}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body)
  })
  return { status: response.status, body: (await response.json()) as unknown }
}

beforeAll(async () => {
  stack = await startDevstack({ parts: ["evm", "services"] })
  const services = stack.info.config.services
  const evm = stack.info.evm
  if (services === null || evm?.chains[0] === undefined) throw new Error("the services did not start")
  servicesUrl = services.url
  projectId = services.defaultProjectId
  chain = evm.chains[0]
}, 60_000)

afterAll(async () => {
  await stack?.stop()
})

describe("on-ramp endpoints over the local provider", () => {
  it("offers USD and EUR with the spec's fallback limits (card 10–7500, bank account 10–25000) and a 1–2 % fee", async () => {
    const response = await fetch(`${servicesUrl}/v1/onramp/options?projectId=${projectId}`)
    const options = Schema.decodeUnknownSync(OnrampOptions)(await response.json())
    expect(options.paymentCurrencies).toEqual(
      ["USD", "EUR"].map((id) => ({ id, limits: [{ id: "card", min: 10, max: 7500 }, { id: "bankAccount", min: 10, max: 25000 }] }))
    )
    expect(options.providerFeePercent).toEqual({ min: 1, max: 2 })
    expect(options.purchaseCurrencies.map((c) => c.symbol)).toEqual(["ETH", "WUSD", "WUSDT"])
    expect(options.purchaseCurrencies[1]?.networks).toEqual(["eip155:31337", "eip155:31338"])
  })

  it("quotes 100 USD of WUSD: 1.5 % fee and 0.10 network fee out of the total, the rest at WUSD's price of 1", async () => {
    const answer = await post("/v1/onramp/quote", { purchaseCurrency: "WUSD", paymentCurrency: "USD", amount: "100", network: chain.caipNetworkId })
    expect(answer.status).toBe(200)
    expect(Schema.decodeUnknownSync(OnrampQuote)(answer.body)).toEqual({
      purchaseAmount: { amount: "98.4", currency: "WUSD" },
      paymentTotal: { amount: "100", currency: "USD" },
      providerFee: { amount: "1.5", currency: "USD" },
      networkFee: { amount: "0.1", currency: "USD" }
    })
    for (const [amount, currency, error] of [
      ["5", "USD", "The amount must be between 10 and 7500 USD"],
      ["7500.01", "EUR", "The amount must be between 10 and 7500 EUR"],
      ["100", "GBP", "Payment in GBP is not accepted: pay in USD or EUR"]
    ] as const) {
      expect(await post("/v1/onramp/quote", { purchaseCurrency: "WUSD", paymentCurrency: currency, amount, network: chain.caipNetworkId })).toEqual({
        status: 400,
        body: { error }
      })
    }
    expect((await post("/v1/onramp/quote", { purchaseCurrency: "DOGE", paymentCurrency: "USD", amount: "100", network: chain.caipNetworkId })).body).toEqual({
      error: "DOGE cannot be bought here"
    })
  })

  it("the page on its own origin takes a card and delivers WUSD on the chain; the history shows it as a deposit, alone with ?onramp=", async () => {
    const visitor = privateKeyToAccount(generatePrivateKey()).address
    const made = await post("/v1/generators/onrampurl", {
      destinationWallets: [{ address: visitor, blockchains: [chain.caipNetworkId], assets: ["WUSD"] }],
      defaultNetwork: chain.caipNetworkId,
      partnerUserId: "visitor-1",
      defaultExperience: "buy",
      presetFiatAmount: 50,
      presetCryptoAmount: 49.15
    })
    expect(made.status).toBe(200)
    const { url } = Schema.decodeUnknownSync(OnrampUrlResponse)(made.body)
    expect(new URL(url).origin).not.toBe(new URL(servicesUrl).origin)
    const form = await (await fetch(url)).text()
    expect(form).toContain("Buy 49.15 WUSD")

    const reader = createPublicClient({ transport: http(chain.rpcUrl) })
    const wusd = chain.contracts.tokens.find((t) => t.symbol === "WUSD")?.address as Address
    const balance = () => reader.readContract({ address: wusd, abi: erc20Abi, functionName: "balanceOf", args: [visitor] })
    expect(await balance()).toBe(0n)
    const pay = (card: string) =>
      fetch(new URL(`pay${new URL(url).search}`, url), {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ name: "A Visitor", card, expiry: "12/30", cvc: "123" }).toString()
      })
    const refused = await pay("1234")
    expect(refused.status).toBe(400)
    expect(await refused.text()).toContain("Check the card number")
    expect(await balance()).toBe(0n)
    const paid = await pay("4242 4242 4242 4242")
    expect(paid.status).toBe(200)
    expect(await paid.text()).toContain("49.15 WUSD sent to your wallet")
    expect(await balance()).toBe(49_150_000n)

    const history = async (onramp: boolean) => {
      const response = await fetch(
        `${servicesUrl}/v1/account/${visitor}/history?projectId=${projectId}&chainId=${chain.caipNetworkId}${onramp ? "&onramp=local" : ""}`
      )
      return Schema.decodeUnknownSync(HistoryResponse)(await response.json()).data
    }
    const all = await history(false)
    expect(all.map((tx) => [tx.metadata.operationType, tx.transfers[0]?.fungible_info?.symbol, tx.transfers[0]?.quantity.numeric])).toEqual([
      ["deposit", "WUSD", "49.15"]
    ])
    expect(await history(true)).toEqual(all)
    // Dev account 1 has only mints and transfers among dev accounts: no deposit.
    const other = stack.info.evm?.accounts[1]?.address ?? ""
    const response = await fetch(`${servicesUrl}/v1/account/${other}/history?projectId=${projectId}&onramp=local`)
    expect(Schema.decodeUnknownSync(HistoryResponse)(await response.json()).data).toEqual([])
  })
})
