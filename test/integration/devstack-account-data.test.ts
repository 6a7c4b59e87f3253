/**
 * The data of the account's tabs against the real devstack: after real transfers (ETH, WUSD, WUSDT through its
 * no-return transfer, a WRC NFT, SOL, an SPL token) the balance, NFT and history endpoints agree with the chains,
 * and the client (BlockchainApi, Portfolio) reads them through its Schemas.
 */
import {
  type Address as SolanaAddress,
  address as solanaAddress,
  appendTransactionMessageInstructions,
  assertIsTransactionWithBlockhashLifetime,
  createKeyPairSignerFromBytes,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase58Encoder,
  getSignatureFromTransaction,
  type Instruction,
  type KeyPairSigner,
  pipe,
  sendAndConfirmTransactionFactory,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners
} from "@solana/kit"
import { Effect, Layer, Schema } from "effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import { type Address, createPublicClient, createWalletClient, formatEther, formatUnits, http, parseEther, parseUnits, type PublicClient } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { erc20Abi, erc721Abi, noReturnTokenAbi } from "../../devstack/evm/abis"
import { devChain } from "../../devstack/evm/chains"
import { type EvmInfo, startEvm } from "../../devstack/evm/index"
import type { Started } from "../../server/src/lib/Started"
import { type ServicesInfo, startServices } from "../../devstack/services"
import { type SolanaInfo, startSolana, transferSolInstruction } from "../../devstack/solana"
import {
  createAssociatedTokenIdempotentInstruction,
  findAssociatedTokenAddress,
  transferCheckedInstruction
} from "../../devstack/solana/token"
import { BalanceResponse, HistoryResponse, NftsResponse } from "../../src/domain/Api"
import type { CaipAddress } from "../../src/domain/Caip"
import { localChainA, localSolana } from "../../src/domain/networks"
import { decodeOptionsSync } from "../../src/domain/Options"
import type { Nft, TokenBalance, Transaction } from "../../src/domain/Portfolio"
import { transactionSign } from "../../src/domain/rules"
import { BlockchainApi } from "../../src/services/BlockchainApi"
import { Config } from "../../src/services/Config"
import { Notifications } from "../../src/services/Notifications"
import { Portfolio } from "../../src/services/Portfolio"
import { Storage } from "../../src/services/Storage/Storage"

// Two NFTs per page, so a dev account's handful of NFTs takes several pages.
const NFT_PAGE = 2
const projectId = "devstack-project"
const CHAIN = "eip155:31337"

let evm: Started<EvmInfo>
let solana: Started<SolanaInfo>
let services: Started<ServicesInfo>

const get = async <A>(schema: Schema.Codec<A, unknown>, path: string, query: Record<string, string> = {}): Promise<A> => {
  const response = await fetch(`${services.info.url}${path}?${new URLSearchParams({ projectId, ...query })}`)
  expect(response.status).toBe(200)
  return Schema.decodeUnknownSync(schema)(await response.json())
}
const balances = async (address: string) => (await get(BalanceResponse, `/v1/account/${address}/balance`, { currency: "usd" })).balances
const history = async (address: string) => (await get(HistoryResponse, `/v1/account/${address}/history`)).data
/** Every NFT the address holds, page after page, checking each page's size. */
const allNfts = async (address: string, chainId = CHAIN): Promise<ReadonlyArray<Nft>> => {
  const all: Array<Nft> = []
  let cursor: string | null = null
  do {
    const page: NftsResponse = await get(NftsResponse, `/v1/account/${address}/nfts`, { chainId, ...(cursor === null ? {} : { cursor }) })
    expect(page.data.length).toBeLessThanOrEqual(NFT_PAGE)
    all.push(...page.data)
    cursor = page.next
  } while (cursor !== null)
  return all
}
const bySymbol = (held: ReadonlyArray<TokenBalance>) => Object.fromEntries(held.map((b) => [b.symbol, b]))
/** How the Activity tab reads a row: sign, operation, then each transfer's direction, amount and token. */
const rowOf = (tx: Transaction | undefined) => [
  `${transactionSign(tx?.metadata.operationType ?? "")}${tx?.metadata.operationType} ${tx?.metadata.status}`,
  ...(tx?.transfers ?? []).map((t) => `${t.direction} ${t.quantity.numeric} ${t.fungible_info?.symbol ?? t.nft_info?.name}`)
]
const isSvg = async (url: string | null | undefined) =>
  (await fetch(url ?? "")).headers.get("content-type")?.startsWith("image/svg+xml") ?? false

/** The client over the real services: BlockchainApi and Portfolio with their Schemas and caches. */
const client = <A, E>(effect: Effect.Effect<A, E, Portfolio | BlockchainApi>) => {
  const options = decodeOptionsSync({
    projectId,
    networks: [
      { ...localChainA, rpcUrls: { default: { http: [evm.info.chains[0]?.rpcUrl ?? ""] } } },
      { ...localSolana, rpcUrls: { default: { http: [solana.info.rpcUrl] } } }
    ],
    endpoints: { blockchainApi: services.info.url }
  })
  const layer = Portfolio.layer.pipe(
    Layer.provideMerge(BlockchainApi.layer),
    Layer.provideMerge(Notifications.layer),
    Layer.provide(Storage.layerMemory),
    Layer.provide(Config.layer(options)),
    Layer.provide(FetchHttpClient.layer)
  )
  return Effect.runPromise(Effect.provide(effect, layer))
}

beforeAll(async () => {
  const [startedEvm, startedSolana] = await Promise.all([startEvm({ chainIds: [31337] }), startSolana()])
  evm = startedEvm
  solana = startedSolana
  services = await startServices({
    evm: evm.info,
    solana: { caipNetworkId: solana.info.caipNetworkId, rpcUrl: solana.info.rpcUrl, tokens: solana.info.tokens },
    nftPageSize: NFT_PAGE
  })
})

afterAll(async () => {
  await services?.stop()
  await Promise.all([evm?.stop(), solana?.stop()])
})

describe("the account data of an EVM account after real transfers", () => {
  const chain = () => {
    const found = evm.info.chains[0]
    if (found === undefined) throw new Error("chain 31337 is not running")
    return found
  }
  const tokenAddress = (symbol: string): Address => {
    const found = chain().contracts.tokens.find((t) => t.symbol === symbol)
    if (found === undefined) throw new Error(`no ${symbol}`)
    return found.address
  }

  it("balances equal the chain's, NFTs follow the transfer, history rows carry the right sign and status", async () => {
    const { rpcUrl, contracts } = chain()
    const viemChain = devChain(31337, rpcUrl)
    const reader = createPublicClient({ chain: viemChain, transport: http(rpcUrl) }) as PublicClient
    const sender = privateKeyToAccount(evm.info.accounts[1]?.privateKey ?? "0x")
    const wallet = createWalletClient({ account: sender, chain: viemChain, transport: http(rpcUrl) })
    const receiver = privateKeyToAccount(generatePrivateKey()).address
    const wrc = contracts.collectible.address

    const hashes = {
      eth: await wallet.sendTransaction({ to: receiver, value: parseEther("1.25") }),
      wusd: await wallet.writeContract({ address: tokenAddress("WUSD"), abi: erc20Abi, functionName: "transfer", args: [receiver, parseUnits("12.5", 6)] }),
      wusdt: await wallet.writeContract({ address: tokenAddress("WUSDT"), abi: noReturnTokenAbi, functionName: "transfer", args: [receiver, parseUnits("7", 6)] }),
      nft: await wallet.writeContract({ address: wrc, abi: erc721Abi, functionName: "transferFrom", args: [sender.address, receiver, 5n] }),
      // Account 0's token: the contract refuses. The gas is given so the wallet sends it rather than refusing first.
      failed: await wallet.writeContract({ address: wrc, abi: erc721Abi, functionName: "transferFrom", args: [sender.address, receiver, 1n], gas: 200_000n })
    }
    for (const hash of Object.values(hashes)) await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    expect((await reader.getTransactionReceipt({ hash: hashes.failed })).status).toBe("reverted")

    // Balances: every amount is the chain's own reading; value = quantity × price; each icon is the token image.
    for (const holder of [receiver, sender.address]) {
      const held = bySymbol(await balances(holder))
      expect(held.ETH?.quantity.numeric).toBe(formatEther(await reader.getBalance({ address: holder })))
      for (const symbol of ["WUSD", "WUSDT"]) {
        const onChain = await reader.readContract({ address: tokenAddress(symbol), abi: erc20Abi, functionName: "balanceOf", args: [holder] })
        expect(held[symbol]).toMatchObject({ quantity: { decimals: "6", numeric: formatUnits(onChain, 6) }, price: 1, address: `${CHAIN}:${tokenAddress(symbol)}` })
      }
      for (const token of Object.values(held)) {
        expect(token.value).toBeCloseTo(Number(token.quantity.numeric) * token.price, 6)
        expect(token.iconUrl).toBe(`${services.info.url}/public/getTokenImage/${token.symbol}`)
        expect(await isSvg(token.iconUrl)).toBe(true)
      }
    }
    expect((await balances(receiver)).map((b) => [b.symbol, b.quantity.numeric, b.value])).toEqual([
      ["ETH", "1.25", 3750],
      ["WUSD", "12.5", 12.5],
      ["WUSDT", "7", 7]
    ])

    // NFTs: #5 is the receiver's and no longer the sender's; every listed NFT is its holder's on the chain.
    const received = await allNfts(receiver)
    expect(received).toEqual([
      {
        chainId: CHAIN,
        contract: `${CHAIN}:${wrc}`,
        standard: "erc721",
        tokenId: "5",
        name: "Wallet Runtime Collectibles #5",
        collection: { name: "Wallet Runtime Collectibles", symbol: "WRC" },
        imageUrl: `${services.info.url}/public/getAssetImage/nft-31337-${wrc}-5`,
        flags: { is_spam: false }
      }
    ])
    expect(await isSvg(received[0]?.imageUrl)).toBe(true)
    const kept = await allNfts(sender.address)
    expect(kept.map((n) => `${n.collection.symbol} #${n.tokenId} ${n.flags.is_spam ? "spam" : ""}`.trim())).toEqual([
      "CLAIM #2 spam",
      "WRC #6",
      "WRC #4"
    ])
    for (const nft of [...received, ...kept]) {
      const owner = await reader.readContract({
        address: nft.contract.split(":")[2] as Address,
        abi: erc721Abi,
        functionName: "ownerOf",
        args: [BigInt(nft.tokenId)]
      })
      expect(owner).toBe(received.includes(nft) ? receiver : sender.address)
    }
    // Account 0 never moved a token: it holds WRC 1–3 and the spam one.
    expect((await allNfts(evm.info.accounts[0]?.address ?? "")).map((n) => `${n.collection.symbol} #${n.tokenId}`).sort()).toEqual([
      "CLAIM #1",
      "WRC #1",
      "WRC #2",
      "WRC #3"
    ])

    // History: the receiver's four are receipts (+, in); the sender's are sends (out; spec 4 signs no send), the
    // refused one failed.
    expect((await history(receiver)).map(rowOf)).toEqual([
      ["+receive confirmed", "in 1 Wallet Runtime Collectibles #5"],
      ["+receive confirmed", "in 7 WUSDT"],
      ["+receive confirmed", "in 12.5 WUSD"],
      ["+receive confirmed", "in 1.25 ETH"]
    ])
    const sent = (await history(sender.address)).slice(0, 5)
    expect(sent.map((tx) => tx.id)).toEqual([hashes.failed, hashes.nft, hashes.wusdt, hashes.wusd, hashes.eth])
    expect(sent.map(rowOf)).toEqual([
      ["execute failed"],
      ["send confirmed", "out 1 Wallet Runtime Collectibles #5"],
      ["send confirmed", "out 7 WUSDT"],
      ["send confirmed", "out 12.5 WUSD"],
      ["send confirmed", "out 1.25 ETH"]
    ])
    for (const tx of sent) {
      expect(tx.metadata).toMatchObject({ chain: CHAIN, sentFrom: sender.address, hash: tx.id })
      expect(Date.parse(tx.metadata.minedAt)).toBeGreaterThan(Date.parse("2020-01-01"))
    }
    const nftMove = sent[1]?.transfers[0]?.nft_info
    expect(nftMove).toMatchObject({ flags: { is_spam: false }, content: { preview: { url: received[0]?.imageUrl } } })
    for (const transfer of sent.slice(2).flatMap((tx) => tx.transfers)) expect(await isSvg(transfer.fungible_info?.icon?.url)).toBe(true)
  })

  it("the client reads them through its Schemas: spam left out, the local testnet's balances supported", async () => {
    const owner = `${CHAIN}:${evm.info.accounts[2]?.address}` as CaipAddress
    const { page, raw, supported, tokens } = await client(
      Effect.gen(function* () {
        const portfolio = yield* Portfolio
        const api = yield* BlockchainApi
        return {
          raw: yield* api.nfts(owner),
          page: yield* portfolio.nfts(owner),
          supported: yield* portfolio.balancesSupported(localChainA.caipNetworkId),
          tokens: yield* portfolio.tokenBalances(owner)
        }
      })
    )
    expect(raw.data.some((nft) => nft.flags.is_spam)).toBe(true)
    expect(page.data.every((nft) => !nft.flags.is_spam)).toBe(true)
    expect(page.data.map((nft) => nft.tokenId)).toEqual(raw.data.filter((nft) => !nft.flags.is_spam).map((nft) => nft.tokenId))
    expect(supported).toBe(true)
    expect(tokens.map((t) => t.symbol)).toEqual(["ETH", "WUSD", "WUSDT"])
  })
})

describe("the account data of a Solana account after real transfers", () => {
  it("SOL and the SPL token: balances equal the chain's, history rows carry the right sign, and no NFTs", async () => {
    const rpc = createSolanaRpc(solana.info.rpcUrl)
    const rpcSubscriptions = createSolanaRpcSubscriptions(solana.info.wsUrl)
    const send = async (payer: KeyPairSigner, instructions: ReadonlyArray<Instruction>) => {
      const { value: latest } = await rpc.getLatestBlockhash().send()
      const transaction = await signTransactionMessageWithSigners(
        pipe(
          createTransactionMessage({ version: 0 }),
          (m) => setTransactionMessageFeePayerSigner(payer, m),
          (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
          (m) => appendTransactionMessageInstructions(instructions, m)
        )
      )
      assertIsTransactionWithBlockhashLifetime(transaction)
      await sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions })(transaction, { commitment: "confirmed" })
      return getSignatureFromTransaction(transaction)
    }
    const alice = await createKeyPairSignerFromBytes(getBase58Encoder().encode(solana.info.funded[1]?.secretKey ?? ""))
    const bob = (await generateKeyPairSigner()).address
    const mint = solanaAddress(solana.info.tokens[0]?.address ?? "")
    const [from, to] = await Promise.all([findAssociatedTokenAddress(alice.address, mint), findAssociatedTokenAddress(bob, mint)])

    const solSent = await send(alice, [transferSolInstruction(alice.address, bob, 1_500_000_000n)])
    const tokensSent = await send(alice, [
      createAssociatedTokenIdempotentInstruction({ payer: alice.address, associatedToken: to, owner: bob, mint }),
      transferCheckedInstruction({ source: from, mint, destination: to, authority: alice.address, amount: 25_000_000n, decimals: 6 })
    ])

    const onChain = async (owner: SolanaAddress, tokenAccount: SolanaAddress) => ({
      SOL: formatUnits((await rpc.getBalance(owner).send()).value, 9),
      WSUSD: (await rpc.getTokenAccountBalance(tokenAccount).send()).value.uiAmountString
    })
    for (const [owner, tokenAccount] of [[bob, to], [alice.address, from]] as const) {
      const held = await balances(owner)
      expect(Object.fromEntries(held.map((b) => [b.symbol, b.quantity.numeric]))).toEqual(await onChain(owner, tokenAccount))
      for (const token of held) {
        expect(token).toMatchObject({ chainId: solana.info.caipNetworkId, iconUrl: `${services.info.url}/public/getTokenImage/${token.symbol}` })
        expect(token.value).toBeCloseTo(Number(token.quantity.numeric) * token.price, 6)
      }
    }
    expect((await balances(bob)).map((b) => [b.symbol, b.value])).toEqual([
      ["SOL", 225],
      ["WSUSD", 25]
    ])

    const received = await history(bob)
    expect(received.map((tx) => tx.id)).toEqual([tokensSent, solSent])
    expect(received.map(rowOf)).toEqual([
      ["+receive confirmed", "in 25 WSUSD"],
      ["+receive confirmed", "in 1.5 SOL"]
    ])
    for (const tx of received) expect(tx.metadata).toMatchObject({ chain: solana.info.caipNetworkId, sentFrom: alice.address, sentTo: bob })
    expect((await history(alice.address)).slice(0, 2).map(rowOf)).toEqual([
      ["send confirmed", "out 25 WSUSD"],
      ["send confirmed", "out 1.5 SOL"]
    ])

    expect(await get(NftsResponse, `/v1/account/${bob}/nfts`, { chainId: solana.info.caipNetworkId })).toEqual({ data: [], next: null })
    const page = await client(
      Effect.flatMap(Portfolio, (portfolio) => portfolio.nfts(`${localSolana.caipNetworkId}:${bob}` as CaipAddress))
    )
    expect(page).toEqual({ data: [], next: null })
  })
})

describe("the NFT endpoint", () => {
  it("refuses a cursor it did not give, and an unknown projectId", async () => {
    const response = await fetch(`${services.info.url}/v1/account/${evm.info.accounts[0]?.address}/nfts?projectId=${projectId}&cursor=tomorrow`)
    expect(response.status).toBe(400)
    expect(await response.json()).toEqual({ error: "Invalid cursor: tomorrow is not a cursor this service gave" })
    const unknown = await fetch(`${services.info.url}/v1/account/${evm.info.accounts[0]?.address}/nfts?projectId=not-a-project`)
    expect(await unknown.text()).toBe("Unauthorized: invalid key")
  })
})
