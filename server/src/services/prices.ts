/**
 * Where the services' USD prices come from. A `PriceSource` answers prices by token symbol; the services use it for
 * balances, history values and `POST /v1/fungible/price`. Two implementations: a fixed table (the local stack's
 * default) and a JSON feed a host runs or rents (a URL answering `{ "ETH": 3012.5, … }`), read at most once per
 * `ttlMs` and bounded in time. A host with another provider implements the interface and passes it in the
 * services' options.
 */
import { Schema } from "effect"

/** USD prices by token symbol. */
export interface PriceSource {
  /** The USD prices of `symbols` that the source knows (a symbol it does not know is absent, and priced 0). */
  readonly usdPrices: (symbols: ReadonlyArray<string>) => Promise<ReadonlyMap<string, number>>
}

/** The local stack's prices: ETH 3000, the dev stablecoins 1, SOL 150. */
export const LOCAL_USD_PRICES: Readonly<Record<string, number>> = {
  ETH: 3000,
  WUSD: 1,
  WUSDT: 1,
  SOL: 150,
  WSUSD: 1
}

/** A fixed table of USD prices by symbol. */
export const fixedPrices = (table: Readonly<Record<string, number>>): PriceSource => ({
  usdPrices: async (symbols) => new Map(symbols.flatMap((symbol) => (table[symbol] === undefined ? [] : [[symbol, table[symbol]] as const])))
})

const FeedAnswer = Schema.Record(Schema.String, Schema.Finite.pipe(Schema.check(Schema.isGreaterThanOrEqualTo(0))))

/**
 * Prices from a JSON feed at `url` answering `{ "SYMBOL": usd, … }`. The table is read at most once per `ttlMs`
 * (default 60 s), each read bounded by `timeoutMs` (default 5 s); when a read fails, the last table read stays in use,
 * and before any read succeeds prices are unknown (0), so a price feed that is down never fails a balance.
 */
export const jsonFeedPrices = (options: {
  readonly url: string
  readonly ttlMs?: number
  readonly timeoutMs?: number
  readonly now?: () => number
}): PriceSource => {
  const ttlMs = options.ttlMs ?? 60_000
  const now = options.now ?? Date.now
  let table: Readonly<Record<string, number>> = {}
  let readAt: number | undefined
  let reading: Promise<void> | undefined
  const refresh = async () => {
    try {
      const response = await fetch(options.url, { signal: AbortSignal.timeout(options.timeoutMs ?? 5_000) })
      if (response.ok) table = Schema.decodeUnknownSync(FeedAnswer)(await response.json())
    } catch {
      // The feed is down or answered nonsense: the last table read stays in use.
    } finally {
      readAt = now()
    }
  }
  return {
    usdPrices: async (symbols) => {
      if (readAt === undefined || now() - readAt >= ttlMs) {
        reading ??= refresh().finally(() => {
          reading = undefined
        })
        await reading
      }
      return fixedPrices(table).usdPrices(symbols)
    }
  }
}

/** The USD price of one symbol from `source`, 0 when it has none. */
export const priceOf = async (source: PriceSource, symbol: string): Promise<number> =>
  (await source.usdPrices([symbol])).get(symbol) ?? 0
