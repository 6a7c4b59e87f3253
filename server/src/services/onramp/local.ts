/**
 * The local on-ramp provider, over the server's `onramp` settings (`config/schema.ts`; by default spec 9's fallback:
 * card 10–7500, bank account 10–25000, USD and EUR, a 1–2 % fee range): a card fee and a fixed network fee taken out of
 * the payment, the rest converted at the currency's USD rate and the services' `PriceSource`, and the page at
 * `pageUrl` (the local stack's, on an origin of its own, or a host's) taking the order in its query.
 */
import { Effect } from "effect"
import type { OnrampOptions, OnrampQuoteBody, OnrampUrlBody } from "../../../../src/domain/Api"
import type { OnrampSettings } from "../../config/schema"
import { priceOf, type PriceSource } from "../prices"
import { OnrampRefused, type OnrampProviderShape } from "./OnrampProvider"

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

const listed = (words: ReadonlyArray<string>) =>
  words.length <= 1 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`

/** The local provider over its page, its settings, its assets and the services' prices. */
export const localOnrampProvider = (opts: {
  readonly pageUrl: string
  readonly settings: OnrampSettings
  readonly assets: ReadonlyArray<LocalOnrampAsset>
  readonly prices: PriceSource
}): OnrampProviderShape => {
  const { settings } = opts
  const currencies = Object.keys(settings.currencies)
  const options: OnrampOptions = {
    providerName: settings.providerName,
    paymentCurrencies: currencies.map((id) => ({
      id,
      limits: [
        { id: "card", ...settings.limits.card },
        { id: "bankAccount", ...settings.limits.bankAccount }
      ]
    })),
    purchaseCurrencies: opts.assets.map((asset) => ({ symbol: asset.symbol, name: asset.name, networks: asset.networks as never })),
    providerFeePercent: { ...settings.feePercent }
  }
  const assetOf = (symbol: string, network: string) => {
    const asset = opts.assets.find((a) => a.symbol === symbol)
    if (asset === undefined) return Effect.fail(new OnrampRefused({ reason: `${symbol} cannot be bought here` }))
    if (!asset.networks.includes(network)) return Effect.fail(new OnrampRefused({ reason: `${symbol} is not delivered on ${network}` }))
    return Effect.succeed(asset)
  }
  const quote = Effect.fn("LocalOnramp.quote")(function* (body: OnrampQuoteBody) {
    const asset = yield* assetOf(body.purchaseCurrency, body.network)
    const usdPerUnit = settings.currencies[body.paymentCurrency]
    if (!currencies.includes(body.paymentCurrency) || usdPerUnit === undefined) {
      return yield* new OnrampRefused({ reason: `Payment in ${body.paymentCurrency} is not accepted: pay in ${listed(currencies)}` })
    }
    const amount = Number(body.amount)
    const { min, max } = settings.limits.card
    if (!(amount >= min && amount <= max)) {
      return yield* new OnrampRefused({ reason: `The amount must be between ${min} and ${max} ${body.paymentCurrency}` })
    }
    const providerFee = (amount * settings.cardFeePercent) / 100
    const spent = amount - providerFee - settings.networkFee
    if (spent <= 0) return yield* new OnrampRefused({ reason: `The amount does not cover the fees` })
    const price = yield* Effect.promise(() => priceOf(opts.prices, asset.symbol))
    if (price <= 0) return yield* new OnrampRefused({ reason: `${asset.symbol} has no price now` })
    return {
      purchaseAmount: { amount: fixed((spent * usdPerUnit) / price, Math.min(asset.decimals, 6)), currency: asset.symbol },
      paymentTotal: { amount: fixed(amount, 2), currency: body.paymentCurrency },
      providerFee: { amount: fixed(providerFee, 2), currency: body.paymentCurrency },
      networkFee: { amount: fixed(settings.networkFee, 2), currency: body.paymentCurrency }
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
  return { options: Effect.succeed(options), quote, url, depositors: settings.depositors }
}
