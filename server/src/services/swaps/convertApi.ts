/**
 * The swap endpoints (`src/domain/http/convert.ts`, spec 7.4's `/v1/convert/*`) over the services' `SwapProvider`:
 * requests decoded, every address on one network, that network one the provider serves (else 'Network not supported
 * for Swaps'), and the provider's answers in the declared shapes. A server whose provider serves no network answers
 * each endpoint with the declared 501.
 */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { type Address, getAddress, isAddress } from "viem"
import { type CaipAddress, type CaipNetworkId, caipNetworkIdOfAddress } from "../../../../src/domain/Caip"
import { BadGateway, BadRequest, NotImplemented } from "../../../../src/domain/http/errors"
import { ServicesApi } from "../../../../src/domain/http/ServicesApi"
import { NATIVE_TOKEN_ADDRESS } from "../../../../src/domain/Portfolio"
import { NATIVE, type ProviderTransaction, type SwapAsset, SwapProvider, type SwapProviderError } from "./SwapProvider"
import { APPROVE_AMOUNT } from "./uniswapV2"

/** The words of a request for a network the provider does not serve (spec 8). */
export const SWAPS_NETWORK_NOT_SUPPORTED = "Network not supported for Swaps"

const refuse = (error: string) => Effect.fail(new BadRequest({ error }))

// The provider's failures as the API's: its refusal a 400 in its words, its market unreachable a 502.
const answered = <A, R>(effect: Effect.Effect<A, SwapProviderError, R>) =>
  effect.pipe(
    Effect.mapError((error) =>
      error._tag === "SwapRefused" ? new BadRequest({ error: error.reason }) : new BadGateway({ error: `The swap market could not be read: ${error.reason}` })
    )
  )

const plain = (caip: CaipAddress): string => caip.slice(caip.lastIndexOf(":") + 1)

/** The asset a CAIP-10 token address names: the native coin's placeholder, or a contract. */
const assetOf = (caip: CaipAddress): Effect.Effect<SwapAsset, BadRequest> => {
  const address = plain(caip)
  if (address.toLowerCase() === NATIVE_TOKEN_ADDRESS) return Effect.succeed(NATIVE)
  return isAddress(address, { strict: false }) ? Effect.succeed(getAddress(address)) : refuse(`Not a token address: ${caip}`)
}

const accountOf = (caip: CaipAddress): Effect.Effect<Address, BadRequest> => {
  const address = plain(caip)
  return isAddress(address, { strict: false }) ? Effect.succeed(getAddress(address)) : refuse(`Not an EVM account: ${caip}`)
}

/** The one network of `addresses`, served by the provider. */
const networkOf = (served: ReadonlyArray<CaipNetworkId>, ...addresses: ReadonlyArray<CaipAddress>) => {
  if (served.length === 0) return Effect.fail(new NotImplemented({ error: "Swaps are not available on this server" }))
  const networks = new Set(addresses.map(caipNetworkIdOfAddress))
  const [network] = networks
  if (network === undefined || networks.size > 1) return refuse("The tokens and the account must be on one network")
  return served.includes(network) ? Effect.succeed(network) : refuse(SWAPS_NETWORK_NOT_SUPPORTED)
}

const networkServed = (served: ReadonlyArray<CaipNetworkId>, network: CaipNetworkId) =>
  served.length === 0
    ? Effect.fail(new NotImplemented({ error: "Swaps are not available on this server" }))
    : served.includes(network)
      ? Effect.succeed(network)
      : refuse(SWAPS_NETWORK_NOT_SUPPORTED)

const transactionOf = (network: CaipNetworkId, account: Address, tx: ProviderTransaction) => ({
  from: `${network}:${account}` as CaipAddress,
  to: `${network}:${tx.to}` as CaipAddress,
  data: tx.data,
  value: tx.value,
  ...(tx.gas === undefined ? {} : { gas: tx.gas }),
  ...(tx.gasPrice === undefined ? {} : { gasPrice: tx.gasPrice })
})

/** The swap endpoints, answered by the `SwapProvider`. */
export const ConvertGroupLive = HttpApiBuilder.group(ServicesApi, "convert", (handlers) =>
  Effect.map(Effect.service(SwapProvider), (provider) =>
    handlers
      .handle("tokens", ({ query }) =>
        Effect.gen(function* () {
          const network = yield* networkServed(provider.networks, query.chainId)
          const tokens = yield* answered(provider.tokens(network))
          return {
            tokens: tokens.map((token) => ({
              name: token.name,
              symbol: token.symbol,
              decimals: token.decimals,
              address: `${network}:${token.asset === NATIVE ? NATIVE_TOKEN_ADDRESS : token.asset}` as CaipAddress,
              logoUri: ""
            }))
          }
        })
      )
      .handle("quotes", ({ query }) =>
        Effect.gen(function* () {
          const network = yield* networkOf(provider.networks, query.from, query.to, query.userAddress)
          const request = { network, from: yield* assetOf(query.from), to: yield* assetOf(query.to), amount: query.amount, account: yield* accountOf(query.userAddress) }
          return { quotes: yield* answered(provider.quotes(request)) }
        })
      )
      .handle("allowance", ({ query }) =>
        Effect.gen(function* () {
          const network = yield* networkOf(provider.networks, query.tokenAddress, query.userAddress)
          const asset = yield* assetOf(query.tokenAddress)
          // The native coin needs no approval: its allowance is unlimited.
          if (asset === NATIVE) return { allowance: APPROVE_AMOUNT }
          return { allowance: yield* answered(provider.allowance(network, asset, yield* accountOf(query.userAddress))) }
        })
      )
      .handle("gasPrice", ({ query }) =>
        Effect.gen(function* () {
          const network = yield* networkServed(provider.networks, query.chainId)
          return yield* answered(provider.gasPrice(network))
        })
      )
      .handle("buildTransaction", ({ payload }) =>
        Effect.gen(function* () {
          const network = yield* networkOf(provider.networks, payload.from, payload.to, payload.userAddress)
          const account = yield* accountOf(payload.userAddress)
          const tx = yield* answered(
            provider.buildSwap({
              network,
              from: yield* assetOf(payload.from),
              to: yield* assetOf(payload.to),
              amount: payload.amount,
              account,
              slippagePercent: payload.eip155.slippage,
              estimate: !payload.disableEstimate
            })
          )
          return { tx: transactionOf(network, account, tx) }
        })
      )
      .handle("buildApprove", ({ query }) =>
        Effect.gen(function* () {
          const network = yield* networkOf(provider.networks, query.from, query.to, query.userAddress)
          const asset = yield* assetOf(query.from)
          if (asset === NATIVE) return yield* refuse("The native coin needs no approval")
          const account = yield* accountOf(query.userAddress)
          return { tx: transactionOf(network, account, yield* answered(provider.buildApprove(network, asset, account, APPROVE_AMOUNT))) }
        })
      )
  )
)
