/**
 * Uniswap v2 on a local chain: WETH9, the factory and Router02 deployed from the npm packages' build artifacts,
 * unchanged (the router hard-codes the pair's init-code hash, so nothing is recompiled), and three pools —
 * ETH/WUSD, ETH/WUSDT and WUSD/WUSDT — with liquidity at the services' price table (ETH 3000 USD, the stablecoins 1).
 *
 * `@uniswap/v2-core` and `@uniswap/v2-periphery` are GPL-3.0: devDependencies read by the local stack only, never
 * shipped to a host. Everything here is deployed by the liquidity account (`liquidityAccount`), not by a dev account,
 * so the dev accounts' balances, nonces and histories are the same as without the AMM.
 */
import { createRequire } from "node:module"
import { Schema } from "effect"
import {
  type Address,
  createWalletClient,
  encodeDeployData,
  encodeFunctionData,
  getContractAddress,
  type Hex,
  http,
  keccak256,
  maxUint256,
  numberToHex,
  parseAbi,
  publicActions,
  stringToHex
} from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { devChain } from "./chains"

/** The account that deploys the AMM and holds its liquidity: not one of anvil's, so no test account is touched. */
export const liquidityAccount = privateKeyToAccount(keccak256(stringToHex("wallet-runtime devstack liquidity")))

/** How many times the liquidity account is listed among a dev token's holders (each listing mints it 10 000). */
export const LIQUIDITY_MINT_LISTINGS = 60

/** ETH in each ETH pool, and its USD price: the pools are made at ETH = `POOL_ETH_USD` stablecoins. */
const POOL_ETH = 100n
const POOL_ETH_USD = 3_000n
/** Each side of the WUSD/WUSDT pool, in whole tokens. */
const POOL_STABLE = 200_000n

/** The Uniswap v2 contracts on one local chain. */
export interface DevUniswap {
  readonly weth: Address
  readonly factory: Address
  readonly router: Address
  /** The pairs made at start, each by its two tokens (WETH stands for ETH). */
  readonly pairs: ReadonlyArray<{ readonly address: Address; readonly tokenA: Address; readonly tokenB: Address }>
}

const BuildArtifact = Schema.Struct({
  abi: Schema.Array(Schema.Record(Schema.String, Schema.Unknown)),
  bytecode: Schema.String.pipe(Schema.check(Schema.isPattern(/^(0x)?[0-9a-f]+$/)))
})

const require = createRequire(import.meta.url)
const bytecodeOf = (module: string): Hex => {
  const { bytecode } = Schema.decodeUnknownSync(BuildArtifact)(require(module))
  return bytecode.startsWith("0x") ? (bytecode as Hex) : `0x${bytecode}`
}

const factoryAbi = parseAbi(["constructor(address feeToSetter)", "function getPair(address, address) view returns (address)"])
const routerAbi = parseAbi([
  "constructor(address factory, address weth)",
  "function addLiquidity(address tokenA, address tokenB, uint256 amountADesired, uint256 amountBDesired, uint256 amountAMin, uint256 amountBMin, address to, uint256 deadline) returns (uint256, uint256, uint256)",
  "function addLiquidityETH(address token, uint256 amountTokenDesired, uint256 amountTokenMin, uint256 amountETHMin, address to, uint256 deadline) payable returns (uint256, uint256, uint256)"
])
const approveAbi = parseAbi(["function approve(address spender, uint256 value)"])
const syncAbi = parseAbi(["function sync()"])

/** The Uniswap v2 pair address of two tokens (CREATE2 by the factory, salt the sorted pair), as the router computes it. */
export const pairAddress = (factory: Address, tokenA: Address, tokenB: Address): Address => {
  const [token0, token1] = tokenA.toLowerCase() < tokenB.toLowerCase() ? [tokenA, tokenB] : [tokenB, tokenA]
  return getContractAddress({
    opcode: "CREATE2",
    from: factory,
    salt: keccak256(`0x${token0.slice(2)}${token1.slice(2)}`),
    bytecodeHash: PAIR_INIT_CODE_HASH
  })
}

/** keccak256 of the pair's creation code in `@uniswap/v2-core`'s build: the hash Router02 has built in. */
export const PAIR_INIT_CODE_HASH: Hex = "0x96e8ac4277198ff8b6f785478aa9a39f403cb768dd02cbee326c3e7da348845f"

/**
 * Deploys WETH9, the factory and Router02 from the liquidity account (funded here with anvil's `anvil_setBalance`),
 * then makes the three pools. `wusd` and `wusdt` must already list the liquidity account among their holders
 * ({@link LIQUIDITY_MINT_LISTINGS} times). The transactions are sent back to back with fixed gas limits (anvil mines
 * each on arrival) and their receipts checked after: about a dozen transactions, well under a second.
 */
export const deployUniswap = async (
  chainId: number,
  rpcUrl: string,
  tokens: { readonly wusd: Address; readonly wusdt: Address }
): Promise<DevUniswap> => {
  const account = liquidityAccount
  const client = createWalletClient({ account, chain: devChain(chainId, rpcUrl), transport: http(rpcUrl) }).extend(publicActions)
  await client.request({
    method: "anvil_setBalance" as never,
    params: [account.address, numberToHex(10_000n * 10n ** 18n)] as never
  })
  const nonce = await client.getTransactionCount({ address: account.address })
  const at = (offset: number) => getContractAddress({ from: account.address, nonce: BigInt(nonce + offset) })
  const weth = at(0)
  const factory = at(1)
  const router = at(2)
  const gasPrice = await client.getGasPrice()
  let next = nonce
  const send = (tx: { readonly to?: Address; readonly data: Hex; readonly value?: bigint; readonly gas: bigint }) =>
    client.sendTransaction({
      ...(tx.to === undefined ? {} : { to: tx.to }),
      data: tx.data,
      value: tx.value ?? 0n,
      gas: tx.gas,
      gasPrice: gasPrice * 2n,
      nonce: next++
    } as Parameters<typeof client.sendTransaction>[0])
  const deadline = maxUint256
  const usd = (whole: bigint) => whole * 10n ** 6n
  const eth = POOL_ETH * 10n ** 18n
  const hashes: Array<Hex> = []
  hashes.push(await send({ data: bytecodeOf("@uniswap/v2-periphery/build/WETH9.json"), gas: 1_500_000n }))
  hashes.push(
    await send({
      data: encodeDeployData({ abi: factoryAbi, bytecode: bytecodeOf("@uniswap/v2-core/build/UniswapV2Factory.json"), args: [account.address] }),
      gas: 5_000_000n
    })
  )
  hashes.push(
    await send({
      data: encodeDeployData({ abi: routerAbi, bytecode: bytecodeOf("@uniswap/v2-periphery/build/UniswapV2Router02.json"), args: [factory, weth] }),
      gas: 6_000_000n
    })
  )
  for (const token of [tokens.wusd, tokens.wusdt]) {
    hashes.push(await send({ to: token, data: encodeFunctionData({ abi: approveAbi, functionName: "approve", args: [router, maxUint256] }), gas: 100_000n }))
  }
  for (const token of [tokens.wusd, tokens.wusdt]) {
    hashes.push(
      await send({
        to: router,
        value: eth,
        gas: 5_000_000n,
        data: encodeFunctionData({
          abi: routerAbi,
          functionName: "addLiquidityETH",
          args: [token, usd(POOL_ETH * POOL_ETH_USD), 0n, 0n, account.address, deadline]
        })
      })
    )
  }
  hashes.push(
    await send({
      to: router,
      gas: 5_000_000n,
      data: encodeFunctionData({
        abi: routerAbi,
        functionName: "addLiquidity",
        args: [tokens.wusd, tokens.wusdt, usd(POOL_STABLE), usd(POOL_STABLE), 0n, 0n, account.address, deadline]
      })
    })
  )
  for (const hash of hashes) {
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    if (receipt.status !== "success") throw new Error(`Uniswap v2 deployment ${hash} on chain ${chainId} reverted`)
  }
  const pairs = (
    [
      [weth, tokens.wusd],
      [weth, tokens.wusdt],
      [tokens.wusd, tokens.wusdt]
    ] as const
  ).map(([tokenA, tokenB]) => ({ address: pairAddress(factory, tokenA, tokenB), tokenA, tokenB }))
  // A new pool's price oracle (its two cumulative prices) is first written by the first update a second or more after
  // the pool's last one. A trade estimated within the pool's own second leaves those two writes out (about 45,000 gas),
  // then runs out of gas when mined a second later: a visitor's first swap right after `npm start`, or a test's. One
  // `sync` per pool a second later writes them now, so a trade's gas no longer depends on when it is estimated but for
  // a few thousand (covered by the margin any wallet and the swap endpoint add). The chain's clock is one second ahead
  // of the wall's from here on; nothing compares the two that closely.
  await client.request({ method: "evm_increaseTime" as never, params: [1] as never })
  const synced: Array<Hex> = []
  for (const pair of pairs) synced.push(await send({ to: pair.address, data: encodeFunctionData({ abi: syncAbi, functionName: "sync" }), gas: 100_000n }))
  for (const hash of synced) {
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    if (receipt.status !== "success") throw new Error(`Uniswap v2 pool sync ${hash} on chain ${chainId} reverted`)
  }
  return { weth, factory, router, pairs }
}
