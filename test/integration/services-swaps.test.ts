/**
 * The swap endpoints (`/v1/convert/*`) against the local stack's real anvil chains and their Uniswap v2 pools
 * (`devstack/evm/uniswap.ts`): quotes checked against the constant-product formula on the pools' reserves read here,
 * swaps and approvals sent by dev accounts and checked by their balances on the chain, a swap the pool moved past
 * its slippage reverting with the router's reason, and the prices the services show following the pools.
 */
import { Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Address,
  createPublicClient,
  createWalletClient,
  type Hex,
  formatEther,
  http,
  maxUint256,
  parseAbi,
  parseEther,
  parseUnits,
  type PublicClient
} from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { FungiblePriceResponse, GasPriceResponse, HistoryResponse, SwapAllowanceResponse, SwapQuotesResponse, SwapTokensResponse, SwapTransactionResponse } from "../../src/domain/Api"
import { NATIVE_TOKEN_ADDRESS } from "../../src/domain/Portfolio"
import { erc20Abi } from "../../devstack/evm/abis"
import { devChain } from "../../devstack/evm/chains"
import type { EvmChain } from "../../devstack/evm/index"
import { type DevstackInfo, startDevstack } from "../../devstack/main"
import type { Started } from "../../server/src/lib/Started"

let stack: Started<DevstackInfo>
let servicesUrl: string
let projectId: string
let chainA: EvmChain
let chainB: EvmChain

const pairAbi = parseAbi([
  "function getReserves() view returns (uint112, uint112, uint32)",
  "function price0CumulativeLast() view returns (uint256)",
  "function price1CumulativeLast() view returns (uint256)",
  "function token0() view returns (address)"
])
const allowanceAbi = parseAbi(["function allowance(address, address) view returns (uint256)"])

const tokenOf = (chain: EvmChain, symbol: string): Address => {
  const found = chain.contracts.tokens.find((t) => t.symbol === symbol)
  if (found === undefined) throw new Error(`no ${symbol}`)
  return found.address
}
const caip = (chain: EvmChain, address: string) => `${chain.caipNetworkId}:${address}`
const native = (chain: EvmChain) => caip(chain, NATIVE_TOKEN_ADDRESS)

const walletOf = (chain: EvmChain, index: number) => {
  const key = stack.info.evm?.accounts[index]?.privateKey
  if (key === undefined) throw new Error(`no dev account ${index}`)
  const account = privateKeyToAccount(key)
  const viemChain = devChain(chain.chainId, chain.rpcUrl)
  return {
    account,
    wallet: createWalletClient({ account, chain: viemChain, transport: http(chain.rpcUrl) }),
    reader: createPublicClient({ chain: viemChain, transport: http(chain.rpcUrl) }) as PublicClient
  }
}

const get = async (path: string, query: Record<string, string>) => {
  const response = await fetch(`${servicesUrl}${path}?${new URLSearchParams({ projectId, ...query })}`)
  return { status: response.status, body: (await response.json()) as unknown }
}
const post = async (path: string, body: unknown) => {
  const response = await fetch(`${servicesUrl}${path}?projectId=${projectId}`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(body)
  })
  return { status: response.status, body: (await response.json()) as unknown }
}

/** What the pool pays for `amountIn` of `tokenIn`, by Uniswap v2's formula (0.3 % fee) on reserves read now. */
const poolOut = async (reader: PublicClient, pair: Address, tokenIn: Address, amountIn: bigint): Promise<bigint> => {
  const [[r0, r1], token0] = await Promise.all([
    reader.readContract({ address: pair, abi: pairAbi, functionName: "getReserves" }),
    reader.readContract({ address: pair, abi: pairAbi, functionName: "token0" })
  ])
  const [reserveIn, reserveOut] = token0.toLowerCase() === tokenIn.toLowerCase() ? [r0, r1] : [r1, r0]
  const withFee = amountIn * 997n
  return (withFee * reserveOut) / (reserveIn * 1000n + withFee)
}
const pairOf = (chain: EvmChain, a: Address, b: Address): Address => {
  const found = chain.contracts.uniswap.pairs.find((p) => (p.tokenA === a && p.tokenB === b) || (p.tokenA === b && p.tokenB === a))
  if (found === undefined) throw new Error("no such pair")
  return found.address
}

const quote = async (chain: EvmChain, from: string, to: string, amount: bigint, user: Address) => {
  const answer = await get("/v1/convert/quotes", {
    amount: amount.toString(),
    userAddress: caip(chain, user),
    from,
    to,
    gasPrice: "1000000000"
  })
  expect(answer.status).toBe(200)
  return Schema.decodeUnknownSync(SwapQuotesResponse)(answer.body).quotes
}

const sendBuilt = async (chain: EvmChain, index: number, body: unknown) => {
  const { wallet, reader } = walletOf(chain, index)
  const tx = Schema.decodeUnknownSync(SwapTransactionResponse)(body).tx
  const plain = (address: string) => address.slice(address.lastIndexOf(":") + 1) as Address
  const call = { account: wallet.account, to: plain(tx.to), data: tx.data as Hex, value: tx.value }
  // Without the endpoint's gas (disableEstimate), the account estimates its own and adds a margin, as wallets do: a
  // pool's trade costs a few thousand gas more when mined a second after the pool's last update than when estimated
  // within that second (its price oracle's two writes).
  const gas = tx.gas ?? ((await reader.estimateGas(call)) * 120n) / 100n
  const hash = await wallet.sendTransaction({ ...call, gas })
  return reader.waitForTransactionReceipt({ hash, pollingInterval: 20 })
}

beforeAll(async () => {
  stack = await startDevstack({ parts: ["evm", "services"] })
  const services = stack.info.config.services
  const evm = stack.info.evm
  if (services === null || evm === undefined) throw new Error("the services did not start")
  servicesUrl = services.url
  projectId = services.defaultProjectId
  ;[chainA, chainB] = evm.chains as [EvmChain, EvmChain]
}, 60_000)

afterAll(async () => {
  await stack?.stop()
})

describe("swap endpoints over the local Uniswap v2", () => {
  // First in the file: no trade has touched a pool yet.
  it("starts every pool with its price oracle written, so a first trade costs what its estimate said, whenever it is estimated", async () => {
    for (const chain of [chainA, chainB]) {
      const { reader } = walletOf(chain, 0)
      for (const pair of chain.contracts.uniswap.pairs) {
        const [price0, price1] = await Promise.all([
          reader.readContract({ address: pair.address, abi: pairAbi, functionName: "price0CumulativeLast" }),
          reader.readContract({ address: pair.address, abi: pairAbi, functionName: "price1CumulativeLast" })
        ])
        expect(price0).toBeGreaterThan(0n)
        expect(price1).toBeGreaterThan(0n)
      }
    }
  })

  it("lists ETH, WUSD and WUSDT on each local chain, and refuses other networks in the spec's words", async () => {
    for (const chain of [chainA, chainB]) {
      const answer = await get("/v1/convert/tokens", { chainId: chain.caipNetworkId })
      expect(answer.status).toBe(200)
      const { tokens } = Schema.decodeUnknownSync(SwapTokensResponse)(answer.body)
      expect(tokens.map((t) => [t.symbol, t.address, t.decimals])).toEqual([
        ["ETH", native(chain), 18],
        ["WUSD", caip(chain, tokenOf(chain, "WUSD")), 6],
        ["WUSDT", caip(chain, tokenOf(chain, "WUSDT")), 6]
      ])
    }
    for (const [path, query] of [
      ["/v1/convert/tokens", { chainId: "eip155:1" }],
      ["/v1/convert/gas-price", { chainId: "eip155:1" }]
    ] as const) {
      expect(await get(path, query)).toEqual({ status: 400, body: { error: "Network not supported for Swaps" } })
    }
  })

  it("quotes what the pool pays by the constant-product formula, and refuses before asking the chain what cannot be quoted", async () => {
    const { account, reader } = walletOf(chainA, 1)
    const wusd = tokenOf(chainA, "WUSD")
    const amount = parseEther("1")
    const quotes = await quote(chainA, native(chainA), caip(chainA, wusd), amount, account.address)
    const expected = await poolOut(reader, pairOf(chainA, chainA.contracts.uniswap.weth, wusd), chainA.contracts.uniswap.weth, amount)
    expect(quotes[0]).toEqual({ fromAmount: amount, toAmount: expected })
    // 1 ETH at 3000 WUSD, less the 0.3 % fee and the price impact on 100 ETH of liquidity.
    expect(Number(expected) / 1e6).toBeGreaterThan(2900)
    expect(Number(expected) / 1e6).toBeLessThan(3000)

    const refused = async (query: Record<string, string>) => get("/v1/convert/quotes", { amount: "1000", userAddress: caip(chainA, account.address), gasPrice: "1", from: native(chainA), to: caip(chainA, wusd), ...query })
    expect(await refused({ amount: "0" })).toEqual({ status: 400, body: { error: "The amount must be more than 0" } })
    const stranger = "0x000000000000000000000000000000000000dEaD"
    expect((await refused({ to: caip(chainA, stranger) })).body).toEqual({ error: `The token ${stranger} is not swappable on ${chainA.caipNetworkId}` })
    expect((await refused({ to: caip(chainB, wusd) })).body).toEqual({ error: "The tokens and the account must be on one network" })
    expect((await refused({ from: `eip155:1:${NATIVE_TOKEN_ADDRESS}`, to: `eip155:1:${wusd}`, userAddress: `eip155:1:${account.address}` })).body).toEqual({
      error: "Network not supported for Swaps"
    })
  })

  it("gives gas prices from the chain's node, standard below fast below instant", async () => {
    const answer = await get("/v1/convert/gas-price", { chainId: chainB.caipNetworkId })
    const prices = Schema.decodeUnknownSync(GasPriceResponse)(answer.body)
    const node = await walletOf(chainB, 0).reader.getGasPrice()
    expect(prices.standard).toBe(node)
    expect(prices.fast).toBeGreaterThan(prices.standard)
    expect(prices.instant).toBeGreaterThan(prices.fast)
  })

  it("swaps ETH for WUSD: the built transaction, sent by the account, pays it the quoted amount", async () => {
    const { account, reader } = walletOf(chainB, 2)
    const wusd = tokenOf(chainB, "WUSD")
    const amount = parseEther("0.5")
    const [best] = await quote(chainB, native(chainB), caip(chainB, wusd), amount, account.address)
    const before = await reader.readContract({ address: wusd, abi: erc20Abi, functionName: "balanceOf", args: [account.address] })
    const built = await post("/v1/convert/build-transaction", {
      projectId,
      amount: amount.toString(),
      eip155: { slippage: 1 },
      from: native(chainB),
      to: caip(chainB, wusd),
      userAddress: caip(chainB, account.address),
      disableEstimate: false
    })
    expect(built.status).toBe(200)
    const tx = Schema.decodeUnknownSync(SwapTransactionResponse)(built.body).tx
    expect(tx.to).toBe(caip(chainB, chainB.contracts.uniswap.router))
    expect(tx.value).toBe(amount)
    expect(tx.gas).toBeGreaterThan(21_000n)
    const receipt = await sendBuilt(chainB, 2, built.body)
    expect(receipt.status).toBe("success")
    const after = await reader.readContract({ address: wusd, abi: erc20Abi, functionName: "balanceOf", args: [account.address] })
    expect(after - before).toBe(best?.toAmount)
  })

  it("swaps WUSD for WUSDT after an approval: allowance 0, build-approve, allowance unlimited, then the swap", async () => {
    const { account, reader } = walletOf(chainB, 3)
    const wusd = tokenOf(chainB, "WUSD")
    const wusdt = tokenOf(chainB, "WUSDT")
    const amount = parseUnits("250", 6)
    const allowance = async () =>
      Schema.decodeUnknownSync(SwapAllowanceResponse)(
        (await get("/v1/convert/allowance", { tokenAddress: caip(chainB, wusd), userAddress: caip(chainB, account.address) })).body
      ).allowance
    expect(await allowance()).toBe(0n)
    const swapBody = {
      projectId,
      amount: amount.toString(),
      eip155: { slippage: 1 },
      from: caip(chainB, wusd),
      to: caip(chainB, wusdt),
      userAddress: caip(chainB, account.address),
      disableEstimate: false
    }
    // Before the approval the chain would refuse the swap: the estimate says so in the token's words.
    expect(await post("/v1/convert/build-transaction", swapBody)).toEqual({
      status: 400,
      body: { error: "The swap would fail: TransferHelper: TRANSFER_FROM_FAILED" }
    })
    const approve = await get("/v1/convert/build-approve", { userAddress: caip(chainB, account.address), from: caip(chainB, wusd), to: caip(chainB, wusdt) })
    expect(approve.status).toBe(200)
    expect((await sendBuilt(chainB, 3, approve.body)).status).toBe("success")
    expect(await allowance()).toBe(maxUint256)
    expect(await reader.readContract({ address: wusd, abi: allowanceAbi, functionName: "allowance", args: [account.address, chainB.contracts.uniswap.router] })).toBe(maxUint256)

    const [best] = await quote(chainB, caip(chainB, wusd), caip(chainB, wusdt), amount, account.address)
    const balances = async () =>
      Promise.all([wusd, wusdt].map((token) => reader.readContract({ address: token, abi: erc20Abi, functionName: "balanceOf", args: [account.address] })))
    const [wusdBefore, wusdtBefore] = await balances()
    const built = await post("/v1/convert/build-transaction", swapBody)
    expect(built.status).toBe(200)
    expect((await sendBuilt(chainB, 3, built.body)).status).toBe("success")
    const [wusdAfter, wusdtAfter] = await balances()
    expect(wusdBefore! - wusdAfter!).toBe(amount)
    expect(wusdtAfter! - wusdtBefore!).toBe(best?.toAmount)
    // Near 1:1 on a 200 000 / 200 000 pool, less the fee.
    expect(Number(best?.toAmount) / 1e6).toBeGreaterThan(249)
  })

  it("swaps WUSD for ETH: the ETH the router pays back inside the transaction makes its history one trade, WUSD out and ETH in", async () => {
    const { account, reader } = walletOf(chainB, 7)
    const wusd = tokenOf(chainB, "WUSD")
    const amount = parseUnits("300", 6)
    const approve = await get("/v1/convert/build-approve", { userAddress: caip(chainB, account.address), from: caip(chainB, wusd), to: native(chainB) })
    expect((await sendBuilt(chainB, 7, approve.body)).status).toBe("success")
    const [best] = await quote(chainB, caip(chainB, wusd), native(chainB), amount, account.address)
    const ethBefore = await reader.getBalance({ address: account.address })
    const built = await post("/v1/convert/build-transaction", {
      projectId,
      amount: amount.toString(),
      eip155: { slippage: 1 },
      from: caip(chainB, wusd),
      to: native(chainB),
      userAddress: caip(chainB, account.address),
      disableEstimate: false
    })
    expect(built.status).toBe(200)
    // swapExactTokensForETH: no value sent, the ETH comes back from the router after WETH's withdraw.
    expect(Schema.decodeUnknownSync(SwapTransactionResponse)(built.body).tx.value).toBe(0n)
    const receipt = await sendBuilt(chainB, 7, built.body)
    expect(receipt.status).toBe("success")
    const ethAfter = await reader.getBalance({ address: account.address })
    expect(ethAfter - ethBefore + receipt.gasUsed * receipt.effectiveGasPrice).toBe(best?.toAmount)

    const answer = await get(`/v1/account/${account.address}/history`, { chainId: chainB.caipNetworkId })
    expect(answer.status).toBe(200)
    const [newest, before] = Schema.decodeUnknownSync(HistoryResponse)(answer.body).data
    expect(newest?.id).toBe(receipt.transactionHash)
    expect(newest?.metadata.operationType).toBe("trade")
    expect(newest?.transfers.map((t) => [t.direction, t.fungible_info?.symbol, t.quantity.numeric])).toEqual([
      ["out", "WUSD", "300"],
      ["in", "ETH", formatEther(best?.toAmount ?? 0n)]
    ])
    // The approval before it moved nothing.
    expect(before?.metadata.operationType).toBe("approve")
  })

  it("a swap built before the pool moved past its 1 % slippage reverts on-chain with the router's reason", async () => {
    const { account, reader } = walletOf(chainB, 4)
    const wusd = tokenOf(chainB, "WUSD")
    const built = await post("/v1/convert/build-transaction", {
      projectId,
      amount: parseEther("1").toString(),
      eip155: { slippage: 1 },
      from: native(chainB),
      to: caip(chainB, wusd),
      userAddress: caip(chainB, account.address),
      disableEstimate: false
    })
    expect(built.status).toBe(200)
    // Another account sells 5 ETH first: the pool pays far less than the minimum the built swap asks.
    const mover = await post("/v1/convert/build-transaction", {
      projectId,
      amount: parseEther("5").toString(),
      eip155: { slippage: 1 },
      from: native(chainB),
      to: caip(chainB, wusd),
      userAddress: caip(chainB, walletOf(chainB, 5).account.address),
      disableEstimate: false
    })
    expect((await sendBuilt(chainB, 5, mover.body)).status).toBe("success")
    const before = await reader.getBalance({ address: account.address })
    const receipt = await sendBuilt(chainB, 4, built.body)
    expect(receipt.status).toBe("reverted")
    // The value came back; only gas was spent.
    const after = await reader.getBalance({ address: account.address })
    expect(before - after).toBe(receipt.gasUsed * receipt.effectiveGasPrice)
    const tx = await reader.getTransaction({ hash: receipt.transactionHash })
    const replay = await reader
      .call({ account: account.address, to: tx.to ?? undefined, data: tx.input, value: tx.value, blockNumber: receipt.blockNumber - 1n })
      .then(() => "no revert", (error: Error) => error.message)
    expect(replay).toContain("UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT")
  })

  it("prices follow the first chain's pools: selling ETH into ETH/WUSD lowers ETH's price", async () => {
    const priceOfEth = async () => {
      const answer = await post("/v1/fungible/price", { projectId, currency: "usd", addresses: [native(chainA)] })
      return Schema.decodeUnknownSync(FungiblePriceResponse)(answer.body).fungibles[0]?.price ?? 0
    }
    const wusd = tokenOf(chainA, "WUSD")
    const pair = pairOf(chainA, chainA.contracts.uniswap.weth, wusd)
    const { reader } = walletOf(chainA, 6)
    const spot = async () => {
      const [[r0, r1], token0] = await Promise.all([
        reader.readContract({ address: pair, abi: pairAbi, functionName: "getReserves" }),
        reader.readContract({ address: pair, abi: pairAbi, functionName: "token0" })
      ])
      const [eth, usd] = token0.toLowerCase() === wusd.toLowerCase() ? [r1, r0] : [r0, r1]
      return Number(usd) / 1e6 / (Number(eth) / 1e18)
    }
    const before = await priceOfEth()
    expect(before).toBeCloseTo(await spot(), 6)
    const built = await post("/v1/convert/build-transaction", {
      projectId,
      amount: parseEther("10").toString(),
      eip155: { slippage: 1 },
      from: native(chainA),
      to: caip(chainA, wusd),
      userAddress: caip(chainA, walletOf(chainA, 6).account.address),
      disableEstimate: true
    })
    expect(Schema.decodeUnknownSync(SwapTransactionResponse)(built.body).tx.gas).toBeUndefined()
    expect((await sendBuilt(chainA, 6, built.body)).status).toBe("success")
    const after = await priceOfEth()
    expect(after).toBeCloseTo(await spot(), 6)
    expect(after).toBeLessThan(before * 0.9)
  })
})
