/**
 * The local stack's USD prices read from its Uniswap v2 pools (`uniswap.ts`): WUSD is the dollar, ETH is priced by the
 * ETH/WUSD pool's reserves and WUSDT by the WUSD/WUSDT pool's, so a swap made on the first local chain moves the
 * prices the services show. Symbols without a pool (SOL, WSUSD) keep the fixed table's price.
 */
import { type Address, createPublicClient, http, parseAbi } from "viem"
import { fixedPrices, LOCAL_USD_PRICES, type PriceSource } from "../../server/src/services/prices"
import type { EvmChain } from "./index"

const pairAbi = parseAbi([
  "function getReserves() view returns (uint112 reserve0, uint112 reserve1, uint32 blockTimestampLast)",
  "function token0() view returns (address)"
])

/** The price of `base` in `quote` from the pair's reserves, both scaled by their decimals. */
const spotPrice = async (
  client: ReturnType<typeof createPublicClient>,
  pair: Address,
  base: { readonly address: Address; readonly decimals: number },
  quote: { readonly decimals: number }
): Promise<number> => {
  const [[reserve0, reserve1], token0] = await Promise.all([
    client.readContract({ address: pair, abi: pairAbi, functionName: "getReserves" }),
    client.readContract({ address: pair, abi: pairAbi, functionName: "token0" })
  ])
  const [baseReserve, quoteReserve] = token0.toLowerCase() === base.address.toLowerCase() ? [reserve0, reserve1] : [reserve1, reserve0]
  if (baseReserve === 0n) return 0
  return Number(quoteReserve) / 10 ** quote.decimals / (Number(baseReserve) / 10 ** base.decimals)
}

/**
 * Prices from `chain`'s pools, read at each call (a local read takes a millisecond or two). When the chain does not
 * answer, the fixed table's prices are used, so a stopped chain never fails a balance.
 */
export const poolPrices = (chain: EvmChain): PriceSource => {
  const table = fixedPrices(LOCAL_USD_PRICES)
  const client = createPublicClient({ transport: http(chain.rpcUrl) })
  const { uniswap, tokens } = chain.contracts
  const wusd = tokens.find((token) => token.symbol === "WUSD")
  const wusdt = tokens.find((token) => token.symbol === "WUSDT")
  const pairOf = (a: Address, b: Address) =>
    uniswap.pairs.find(
      (pair) =>
        (pair.tokenA === a && pair.tokenB === b) || (pair.tokenA === b && pair.tokenB === a)
    )?.address
  const read = async (symbol: string): Promise<number | undefined> => {
    if (wusd === undefined || wusdt === undefined) return undefined
    if (symbol === "WUSD") return 1
    const ethPair = pairOf(uniswap.weth, wusd.address)
    if (symbol === "ETH" && ethPair !== undefined) return spotPrice(client, ethPair, { address: uniswap.weth, decimals: 18 }, wusd)
    const stablePair = pairOf(wusd.address, wusdt.address)
    if (symbol === "WUSDT" && stablePair !== undefined) return spotPrice(client, stablePair, wusdt, wusd)
    return undefined
  }
  return {
    usdPrices: async (symbols) => {
      const fixed = await table.usdPrices(symbols)
      const prices = new Map(fixed)
      await Promise.all(
        symbols.map(async (symbol) => {
          const price = await read(symbol).catch(() => undefined)
          if (price !== undefined) prices.set(symbol, price)
        })
      )
      return prices
    }
  }
}
