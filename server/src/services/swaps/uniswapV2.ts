/**
 * The local Uniswap v2 swap provider: quotes from Router02's `getAmountsOut` over the direct pair and the route through
 * WETH, the swap built as `swapExactETHForTokens`, `swapExactTokensForETH` or `swapExactTokensForTokens` with the
 * minimum received after slippage and a 20-minute deadline, and approvals to the router. It reads the chain through
 * the services' upstream RPC (failover included). The router's ABI fragments are written here from its public
 * interface; no Uniswap code is shipped.
 */
import { Effect } from "effect"
import {
  type Address,
  BaseError,
  ContractFunctionRevertedError,
  createPublicClient,
  decodeErrorResult,
  encodeFunctionData,
  getAddress,
  type Hex,
  maxUint256,
  parseAbi
} from "viem"
import type { CaipNetworkId } from "../../../../src/domain/Caip"
import { upstreamTransport } from "../../lib/jsonRpc"
import type { RpcUpstream } from "../../lib/rpcUpstream"
import type { TokenInfo } from "../chains"
import {
  NATIVE,
  type ProviderToken,
  type SwapAsset,
  SwapRefused,
  type SwapRequest,
  SwapUpstreamFailed,
  type SwapProviderShape
} from "./SwapProvider"

/** One network the provider serves: its RPC, its Router02, and the tokens it lists beside the native coin. */
export interface UniswapV2Network {
  readonly network: CaipNetworkId
  readonly rpc: RpcUpstream
  readonly router: Address
  readonly tokens: ReadonlyArray<TokenInfo>
}

/** How long a built swap stays valid on-chain. */
export const SWAP_DEADLINE_SECONDS = 20 * 60

const routerAbi = parseAbi([
  "function WETH() view returns (address)",
  "function getAmountsOut(uint256 amountIn, address[] path) view returns (uint256[] amounts)",
  "function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)",
  "function swapExactTokensForETH(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)",
  "function swapExactTokensForTokens(uint256 amountIn, uint256 amountOutMin, address[] path, address to, uint256 deadline) returns (uint256[] amounts)"
])
const errorStringAbi = parseAbi(["error Error(string reason)"])
const erc20Abi = parseAbi([
  "function allowance(address owner, address spender) view returns (uint256)",
  "function approve(address spender, uint256 value) returns (bool)"
])

// A node's failure (unreachable, an RPC error) as the provider's, in words without the URL.
const upstream = (error: unknown) =>
  new SwapUpstreamFailed({ reason: error instanceof BaseError ? error.shortMessage : error instanceof Error ? error.message : String(error) })

// The reason a call reverted with ("UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT"), else undefined: from viem's decoded
// revert, else from the revert data the node attached to its JSON-RPC error (an `Error(string)`).
const revertReason = (error: unknown): string | undefined => {
  if (!(error instanceof BaseError)) return undefined
  const reverted = error.walk((e) => e instanceof ContractFunctionRevertedError)
  if (reverted instanceof ContractFunctionRevertedError) return reverted.reason ?? "the call reverted"
  const withData = error.walk((e) => typeof (e as { data?: unknown }).data === "string" && ((e as { data: string }).data).startsWith("0x"))
  const data = (withData as { data?: unknown } | null)?.data
  if (typeof data === "string" && data.startsWith("0x08c379a0")) {
    try {
      return decodeErrorResult({ abi: errorStringAbi, data: data as Hex }).args[0]
    } catch {
      return "the call reverted"
    }
  }
  return /revert/i.test(error.message) ? "the call reverted" : undefined
}

/**
 * The provider over `networks`. `now` gives the deadline's clock in ms (the services' clock, `Date.now` by default);
 * the chain's own time could differ on anvil, whose blocks follow the wall clock.
 */
export const uniswapV2Provider = (networks: ReadonlyArray<UniswapV2Network>, now: () => number = Date.now): SwapProviderShape => {
  const served = new Map(
    networks.map((n) => [n.network, { ...n, client: createPublicClient({ transport: upstreamTransport(n.rpc) }), weth: undefined as Promise<Address> | undefined }])
  )
  const networkOf = (network: CaipNetworkId) => {
    const found = served.get(network)
    return found === undefined ? Effect.fail(new SwapRefused({ reason: "Network not supported for Swaps" })) : Effect.succeed(found)
  }
  type Served = NonNullable<ReturnType<typeof served.get>>
  const wethOf = (n: Served) =>
    Effect.tryPromise({
      try: () => (n.weth ??= n.client.readContract({ address: n.router, abi: routerAbi, functionName: "WETH" })).catch((error: unknown) => {
        n.weth = undefined
        throw error
      }),
      catch: upstream
    })
  const listed = (n: Served, asset: SwapAsset) =>
    asset === NATIVE || n.tokens.some((token) => token.address.toLowerCase() === asset.toLowerCase())
      ? Effect.void
      : Effect.fail(new SwapRefused({ reason: `The token ${asset} is not swappable on ${n.network}` }))

  // Every route worth asking: the direct pair, and through WETH when neither side is ETH.
  const routesOf = (weth: Address, from: SwapAsset, to: SwapAsset): ReadonlyArray<ReadonlyArray<Address>> => {
    const a = from === NATIVE ? weth : from
    const b = to === NATIVE ? weth : to
    return from === NATIVE || to === NATIVE ? [[a, b]] : [[a, b], [a, weth, b]]
  }

  const best = Effect.fn("UniswapV2.best")(function* (request: SwapRequest) {
    const n = yield* networkOf(request.network)
    yield* listed(n, request.from)
    yield* listed(n, request.to)
    if (request.amount <= 0n) return yield* new SwapRefused({ reason: "The amount must be more than 0" })
    if (request.from === request.to) return yield* new SwapRefused({ reason: "The tokens sold and bought must differ" })
    const weth = yield* wethOf(n)
    const quoted = yield* Effect.forEach(
      routesOf(weth, request.from, request.to),
      (path) =>
        Effect.tryPromise({
          try: () => n.client.readContract({ address: n.router, abi: routerAbi, functionName: "getAmountsOut", args: [request.amount, [...path]] }),
          catch: (error) => error
        }).pipe(
          Effect.map((amounts) => ({ path, out: amounts[amounts.length - 1] ?? 0n })),
          // A route without a pair, or a pair without liquidity, reverts: it is no quote; a node failure is a failure.
          Effect.catch((error) => (revertReason(error) === undefined ? Effect.fail(upstream(error)) : Effect.succeed(undefined)))
        ),
      { concurrency: "unbounded" }
    )
    return { n, routes: quoted.filter((q) => q !== undefined && q.out > 0n).sort((x, y) => (y!.out > x!.out ? 1 : y!.out < x!.out ? -1 : 0)) as Array<{ readonly path: ReadonlyArray<Address>; readonly out: bigint }> }
  })

  const tokens: SwapProviderShape["tokens"] = Effect.fn("UniswapV2.tokens")(function* (network) {
    const n = yield* networkOf(network)
    const native: ProviderToken = { asset: NATIVE, name: "Ether", symbol: "ETH", decimals: 18 }
    return [native, ...n.tokens.map((token) => ({ asset: getAddress(token.address), name: token.name, symbol: token.symbol, decimals: token.decimals }))]
  })

  const quotes: SwapProviderShape["quotes"] = Effect.fn("UniswapV2.quotes")(function* (request) {
    const { routes } = yield* best(request)
    return routes.map((route) => ({ fromAmount: request.amount, toAmount: route.out }))
  })

  const allowance: SwapProviderShape["allowance"] = Effect.fn("UniswapV2.allowance")(function* (network, token, account) {
    const n = yield* networkOf(network)
    yield* listed(n, token)
    return yield* Effect.tryPromise({
      try: () => n.client.readContract({ address: token, abi: erc20Abi, functionName: "allowance", args: [account, n.router] }),
      catch: upstream
    })
  })

  const gasPrice: SwapProviderShape["gasPrice"] = Effect.fn("UniswapV2.gasPrice")(function* (network) {
    const n = yield* networkOf(network)
    const price = yield* Effect.tryPromise({ try: () => n.client.getGasPrice(), catch: upstream })
    // The node's price is "standard"; faster inclusion pays a quarter and a half more.
    return { standard: price, fast: (price * 125n) / 100n, instant: (price * 150n) / 100n }
  })

  const buildSwap: SwapProviderShape["buildSwap"] = Effect.fn("UniswapV2.buildSwap")(function* (request) {
    const { n, routes } = yield* best(request)
    const route = routes[0]
    if (route === undefined) return yield* new SwapRefused({ reason: "No liquidity for this pair" })
    // Basis points, so a fractional percentage (0.5 %) is exact.
    const minimum = (route.out * (10_000n - BigInt(Math.round(request.slippagePercent * 100)))) / 10_000n
    const deadline = BigInt(Math.floor(now() / 1000) + SWAP_DEADLINE_SECONDS)
    const path = [...route.path]
    const data =
      request.from === NATIVE
        ? encodeFunctionData({ abi: routerAbi, functionName: "swapExactETHForTokens", args: [minimum, path, request.account, deadline] })
        : request.to === NATIVE
          ? encodeFunctionData({ abi: routerAbi, functionName: "swapExactTokensForETH", args: [request.amount, minimum, path, request.account, deadline] })
          : encodeFunctionData({ abi: routerAbi, functionName: "swapExactTokensForTokens", args: [request.amount, minimum, path, request.account, deadline] })
    const value = request.from === NATIVE ? request.amount : 0n
    const tx = { to: n.router, data, value }
    if (!request.estimate) return tx
    const gas = yield* Effect.tryPromise({
      try: () => n.client.estimateGas({ account: request.account, to: tx.to, data: tx.data, value: tx.value }),
      catch: (error) => error
    }).pipe(
      Effect.catch((error) => {
        const reason = revertReason(error)
        return Effect.fail(reason === undefined ? upstream(error) : new SwapRefused({ reason: `The swap would fail: ${reason}` }))
      })
    )
    const gasPrice = yield* Effect.tryPromise({ try: () => n.client.getGasPrice(), catch: upstream })
    // A fifth more than the estimate: the pool may move between the estimate and the block.
    return { ...tx, gas: (gas * 120n) / 100n, gasPrice }
  })

  const buildApprove: SwapProviderShape["buildApprove"] = Effect.fn("UniswapV2.buildApprove")(function* (network, token, _account, amount) {
    const n = yield* networkOf(network)
    yield* listed(n, token)
    return { to: getAddress(token), data: encodeFunctionData({ abi: erc20Abi, functionName: "approve", args: [n.router, amount] }), value: 0n }
  })

  return { networks: networks.map((n) => n.network), tokens, quotes, allowance, gasPrice, buildSwap, buildApprove }
}

/** The allowance a build-approve asks for: unlimited, as swap services do, so one approval serves later swaps. */
export const APPROVE_AMOUNT = maxUint256
