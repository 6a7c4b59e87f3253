/**
 * The local on-ramp provider: the spec's fallback limits (card 10–7500, bank account 10–25000, USD and EUR), a card
 * fee of 1.5 % (inside spec 9's 1–2 %) plus a fixed network fee, prices from the services' `PriceSource`, and its page
 * at `pageUrl` (the local stack's, on an origin of its own) taking the order in its query.
 */
import { Effect } from "effect"
import type { OnrampOptions, OnrampQuoteBody, OnrampUrlBody } from "../../../../src/domain/Api"
import { ONRAMP_FALLBACK_CURRENCIES, ONRAMP_FALLBACK_FEE_PERCENT, ONRAMP_FALLBACK_LIMITS } from "../../../../src/domain/constants"
import { priceOf, type PriceSource } from "../prices"
import { OnrampRefused, type OnrampProviderShape } from "./OnrampProvider"

/** The card fee the local provider takes, in percent. */
export const LOCAL_ONRAMP_FEE_PERCENT = 1.5
/** The network fee the local provider charges per purchase, in the fiat paid. */
export const LOCAL_ONRAMP_NETWORK_FEE = 0.1
/** USD per EUR for the local provider's quotes: a fixed rate, as nothing real is paid. */
export const LOCAL_EUR_USD = 1.08

/** What the local provider sells: an asset by symbol, its decimals, on which networks (CAIP-2). */
export interface LocalOnrampAsset {
  readonly symbol: string
  readonly name: string
  readonly decimals: number
  readonly networks: ReadonlyArray<string>
}

const fixed = (value: number, places: number) => {
  const text = value.toFixed(places)
  return text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text
}

/** The local provider over its page, its assets, the services' prices and the account it delivers from. */
export const localOnrampProvider = (opts: {
  readonly pageUrl: string
  readonly assets: ReadonlyArray<LocalOnrampAsset>
  readonly prices: PriceSource
  readonly depositor: string
}): OnrampProviderShape => {
  const options: OnrampOptions = {
    paymentCurrencies: ONRAMP_FALLBACK_CURRENCIES.map((id) => ({
      id,
      limits: [
        { id: "card", ...ONRAMP_FALLBACK_LIMITS.card },
        { id: "bankAccount", ...ONRAMP_FALLBACK_LIMITS.bankAccount }
      ]
    })),
    purchaseCurrencies: opts.assets.map((asset) => ({ symbol: asset.symbol, name: asset.name, networks: asset.networks as never })),
    providerFeePercent: { ...ONRAMP_FALLBACK_FEE_PERCENT }
  }
  const assetOf = (symbol: string, network: string) => {
    const asset = opts.assets.find((a) => a.symbol === symbol)
    if (asset === undefined) return Effect.fail(new OnrampRefused({ reason: `${symbol} cannot be bought here` }))
    if (!asset.networks.includes(network)) return Effect.fail(new OnrampRefused({ reason: `${symbol} is not delivered on ${network}` }))
    return Effect.succeed(asset)
  }
  const quote = Effect.fn("LocalOnramp.quote")(function* (body: OnrampQuoteBody) {
    const asset = yield* assetOf(body.purchaseCurrency, body.network)
    if (!(ONRAMP_FALLBACK_CURRENCIES as ReadonlyArray<string>).includes(body.paymentCurrency)) {
      return yield* new OnrampRefused({ reason: `Payment in ${body.paymentCurrency} is not accepted: pay in ${ONRAMP_FALLBACK_CURRENCIES.join(" or ")}` })
    }
    const amount = Number(body.amount)
    const { min, max } = ONRAMP_FALLBACK_LIMITS.card
    if (!(amount >= min && amount <= max)) {
      return yield* new OnrampRefused({ reason: `The amount must be between ${min} and ${max} ${body.paymentCurrency}` })
    }
    const providerFee = (amount * LOCAL_ONRAMP_FEE_PERCENT) / 100
    const spent = amount - providerFee - LOCAL_ONRAMP_NETWORK_FEE
    const usdPerUnit = body.paymentCurrency === "EUR" ? LOCAL_EUR_USD : 1
    const price = yield* Effect.promise(() => priceOf(opts.prices, asset.symbol))
    if (price <= 0) return yield* new OnrampRefused({ reason: `${asset.symbol} has no price now` })
    return {
      purchaseAmount: { amount: fixed((spent * usdPerUnit) / price, Math.min(asset.decimals, 6)), currency: asset.symbol },
      paymentTotal: { amount: fixed(amount, 2), currency: body.paymentCurrency },
      providerFee: { amount: fixed(providerFee, 2), currency: body.paymentCurrency },
      networkFee: { amount: fixed(LOCAL_ONRAMP_NETWORK_FEE, 2), currency: body.paymentCurrency }
    }
  })
  const url = Effect.fn("LocalOnramp.url")(function* (body: OnrampUrlBody) {
    const wallet = body.destinationWallets[0]
    const network = body.defaultNetwork ?? wallet?.blockchains[0]
    const asset = wallet?.assets?.[0] ?? opts.assets[0]?.symbol
    if (wallet === undefined || network === undefined || asset === undefined) return yield* new OnrampRefused({ reason: "Say where to deliver" })
    yield* assetOf(asset, network)
    const query = new URLSearchParams({ address: wallet.address, network, asset, partnerUserId: body.partnerUserId })
    if (body.presetFiatAmount !== undefined) query.set("fiat", String(body.presetFiatAmount))
    if (body.presetCryptoAmount !== undefined) query.set("crypto", String(body.presetCryptoAmount))
    return `${opts.pageUrl}?${query}`
  })
  return { options: Effect.succeed(options), quote, url, depositors: [opts.depositor.startsWith("0x") ? opts.depositor.toLowerCase() : opts.depositor] }
}
