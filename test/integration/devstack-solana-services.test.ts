import { Schema } from "effect"
import {
  type Address,
  address,
  appendTransactionMessageInstructions,
  assertIsTransactionWithBlockhashLifetime,
  createKeyPairSignerFromBytes,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  type Instruction,
  type KeyPairSigner,
  lamports,
  pipe,
  type Rpc,
  type RpcSubscriptions,
  sendAndConfirmTransactionFactory,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type SolanaRpcApi,
  type SolanaRpcSubscriptionsApi
} from "@solana/kit"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { BalanceResponse, HistoryResponse } from "../../src/domain/Api"
import type { Transaction } from "../../src/domain/Portfolio"
import type { Started } from "../../server/src/lib/Started"
import { type ServicesInfo, startServices } from "../../devstack/services"
import { ONRAMP_DEFAULT_SETTINGS } from "../../server/src/config/schema"
import { localOnrampProvider } from "../../server/src/services/onramp/local"
import { fixedPrices } from "../../server/src/services/prices"
import { type SolanaInfo, startSolana, transferSolInstruction } from "../../devstack/solana"
import {
  createAssociatedTokenIdempotentInstruction,
  findAssociatedTokenAddress,
  transferCheckedInstruction
} from "../../devstack/solana/token"

// Four transactions per history page, so paging is exercised with a handful of transfers.
const PAGE = 4
const SOL = 1_000_000_000n
const FEE = 5000n
const projectId = "devstack-project"

let solana: Started<SolanaInfo>
let services: Started<ServicesInfo>
let rpc: Rpc<SolanaRpcApi>
let rpcSubscriptions: RpcSubscriptions<SolanaRpcSubscriptionsApi>
let alice: KeyPairSigner
let mint: Address

const api = (base: string, path: string) =>
  fetch(`${base}${path}${path.includes("?") ? "&" : "?"}projectId=${projectId}`)
const balances = async (owner: string, query: Record<string, string> = {}, base = services.info.url) => {
  const response = await api(base, `/v1/account/${owner}/balance?${new URLSearchParams({ currency: "usd", ...query })}`)
  expect(response.status).toBe(200)
  return Schema.decodeUnknownSync(BalanceResponse)(await response.json()).balances
}
const history = async (owner: string, query: Record<string, string> = {}) => {
  const response = await api(services.info.url, `/v1/account/${owner}/history?${new URLSearchParams(query)}`)
  expect(response.status).toBe(200)
  return Schema.decodeUnknownSync(HistoryResponse)(await response.json())
}
const wholeHistory = async (owner: string): Promise<ReadonlyArray<Transaction>> => {
  const all: Array<Transaction> = []
  let cursor: string | null | undefined
  do {
    const page = await history(owner, cursor ? { cursor } : {})
    expect(page.data.length).toBeLessThanOrEqual(PAGE)
    all.push(...page.data)
    cursor = page.next
  } while (cursor)
  return all
}
const movesOf = (tx: Transaction | undefined) =>
  tx?.transfers.map((t) => `${t.direction} ${t.quantity.numeric} ${t.fungible_info?.symbol}`)

const send = async (payer: KeyPairSigner, instructions: ReadonlyArray<Instruction>, options: { skipPreflight?: true } = {}) => {
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
  if (options.skipPreflight) {
    // The local RPC lands a transaction before it answers, so the send alone is enough here.
    return rpc.sendTransaction(getBase64EncodedWireTransaction(transaction), { encoding: "base64", skipPreflight: true }).send()
  }
  await sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions })(transaction, { commitment: "confirmed" })
  return getSignatureFromTransaction(transaction)
}

const tokenTransfer = async (from: KeyPairSigner, to: Address, amount: bigint, createReceiver: boolean) => {
  const source = await findAssociatedTokenAddress(from.address, mint)
  const destination = await findAssociatedTokenAddress(to, mint)
  return [
    ...(createReceiver
      ? [createAssociatedTokenIdempotentInstruction({ payer: from.address, associatedToken: destination, owner: to, mint })]
      : []),
    transferCheckedInstruction({ source, mint, destination, authority: from.address, amount, decimals: 6 })
  ]
}

beforeAll(async () => {
  solana = await startSolana()
  const token = solana.info.tokens[0]
  if (token === undefined) throw new Error("the local Solana RPC made no token")
  // The services read the Solana RPC over JSON-RPC only, as they would any validator they did not start.
  services = await startServices({
    solana: { caipNetworkId: solana.info.caipNetworkId, rpcUrl: solana.info.rpcUrl, tokens: solana.info.tokens },
    historyPageSize: PAGE
  })
  rpc = createSolanaRpc(solana.info.rpcUrl)
  rpcSubscriptions = createSolanaRpcSubscriptions(solana.info.wsUrl)
  const first = solana.info.funded[0]
  if (first === undefined) throw new Error("no funded Solana key")
  alice = await createKeyPairSignerFromBytes(getBase58Encoder().encode(first.secretKey))
  mint = address(token.address)
})

afterAll(async () => {
  await services?.stop()
  await solana?.stop()
})

describe("the services for a Solana address", () => {
  it("answer a dev key's SOL and WSUSD, priced, with the mint's CAIP-10 address", async () => {
    const caip = solana.info.caipNetworkId
    expect(await balances(alice.address)).toEqual([
      {
        name: "Solana",
        symbol: "SOL",
        chainId: caip,
        value: 150_000,
        price: 150,
        quantity: { decimals: "9", numeric: "1000" },
        iconUrl: `${services.info.url}/public/getTokenImage/SOL`
      },
      {
        name: "Wallet Runtime Solana USD",
        symbol: "WSUSD",
        chainId: caip,
        address: `${caip}:${mint}`,
        value: 10_000,
        price: 1,
        quantity: { decimals: "6", numeric: "10000" },
        iconUrl: `${services.info.url}/public/getTokenImage/WSUSD`
      }
    ])
    expect(await balances(alice.address, { chainId: caip })).toHaveLength(2)
    expect(await balances(alice.address, { chainId: "eip155:31337" })).toEqual([])

    for (const id of ["WSUSD", mint]) {
      const image = await fetch(`${services.info.url}/public/getTokenImage/${id}`)
      expect(image.status).toBe(200)
      expect(image.headers.get("content-type")).toContain("image/svg+xml")
    }
  })

  it("list SOL and WSUSD sent and received, airdrops and a failed transaction, newest first, page by page", async () => {
    const bob = await generateKeyPairSigner()
    const solToBob = await send(alice, [transferSolInstruction(alice.address, bob.address, (3n * SOL) / 2n)])
    const firstTokens = await send(alice, await tokenTransfer(alice, bob.address, 25_000_000n, true))
    // To Bob's existing token account only: Bob's own address is not in this transaction.
    const moreTokens = await send(alice, await tokenTransfer(alice, bob.address, 1_000_000n, false))
    const airdrop = await rpc.requestAirdrop(bob.address, lamports(2n * SOL)).send()
    const tokensBack = await send(bob, await tokenTransfer(bob, alice.address, 5_000_000n, false))
    const failed = await send(bob, await tokenTransfer(bob, alice.address, 1_000_000_000n, false), { skipPreflight: true })

    const first = await history(bob.address)
    expect(first.data.map((tx) => tx.id)).toEqual([failed, tokensBack, airdrop, moreTokens])
    expect(first.next).toBeTruthy()
    const second = await history(bob.address, { cursor: first.next ?? "" })
    expect(second.data.map((tx) => tx.id)).toEqual([firstTokens, solToBob])
    expect(second.next).toBeNull()

    const [failedTx, backTx, airdropTx, moreTx] = first.data
    const [firstTx, solTx] = second.data
    expect(failedTx?.metadata).toMatchObject({ status: "failed", chain: solana.info.caipNetworkId, sentFrom: bob.address, sentTo: alice.address })
    expect(failedTx?.transfers).toEqual([])
    expect(backTx?.metadata).toMatchObject({ status: "confirmed", operationType: "send", sentFrom: bob.address, sentTo: alice.address })
    expect(movesOf(backTx)).toEqual(["out 5 WSUSD"])
    expect(airdropTx?.metadata).toMatchObject({ operationType: "receive", sentTo: bob.address })
    expect(movesOf(airdropTx)).toEqual(["in 2 SOL"])
    expect(moreTx?.metadata).toMatchObject({ operationType: "receive", sentFrom: alice.address, sentTo: bob.address })
    expect(movesOf(moreTx)).toEqual(["in 1 WSUSD"])
    expect(movesOf(firstTx)).toEqual(["in 25 WSUSD"])
    expect(solTx?.metadata).toMatchObject({ operationType: "receive", sentFrom: alice.address, sentTo: bob.address, hash: solToBob })
    expect(solTx?.transfers).toEqual([
      {
        fungible_info: { name: "Solana", symbol: "SOL", icon: { url: `${services.info.url}/public/getTokenImage/SOL` } },
        direction: "in",
        quantity: { numeric: "1.5" },
        value: 225,
        price: 150
      }
    ])
    // Newest first by the clock too.
    const times = [...first.data, ...second.data].map((tx) => Date.parse(tx.metadata.minedAt))
    expect([...times].sort((a, b) => b - a)).toEqual(times)

    // Bob paid two fees (the failed transaction's too); the failed one moved no token.
    const bobBalances = await balances(bob.address)
    expect(bobBalances.map((b) => [b.symbol, b.quantity.numeric])).toEqual([
      ["SOL", String(Number((3n * SOL) / 2n + 2n * SOL - 2n * FEE) / 1e9)],
      ["WSUSD", "21"]
    ])

    // Alice's side: what she sent and got back, and at the start the mint of her 10000 WSUSD.
    const aliceHistory = await wholeHistory(alice.address)
    expect(aliceHistory.slice(0, 5).map((tx) => [tx.id, tx.metadata.operationType, ...(movesOf(tx) ?? [])])).toEqual([
      [failed, "execute"],
      [tokensBack, "receive", "in 5 WSUSD"],
      [moreTokens, "send", "out 1 WSUSD"],
      [firstTokens, "send", "out 25 WSUSD"],
      [solToBob, "send", "out 1.5 SOL"]
    ])
    expect(aliceHistory.at(-1)?.metadata.operationType).toBe("mint")
    expect(movesOf(aliceHistory.at(-1))).toEqual(["in 10000 WSUSD"])
  })

  it("show what the on-ramp's account delivered as deposits, and keep those alone with ?onramp=, page by page", async () => {
    const depositor = await generateKeyPairSigner()
    const carol = await generateKeyPairSigner()
    await send(alice, [transferSolInstruction(alice.address, depositor.address, 5n * SOL)])
    const withOnramp = await startServices({
      solana: { caipNetworkId: solana.info.caipNetworkId, rpcUrl: solana.info.rpcUrl, tokens: solana.info.tokens },
      historyPageSize: 2,
      onrampProvider: localOnrampProvider({
        pageUrl: "http://127.0.0.1:9/onramp",
        settings: { ...ONRAMP_DEFAULT_SETTINGS, depositors: [depositor.address] },
        assets: [],
        prices: fixedPrices({})
      })
    })
    try {
      const sent: Array<string> = []
      // Oldest first: a plain receipt, then a delivery, three times.
      for (const [from, lamportsSent] of [
        [alice, SOL / 10n],
        [depositor, SOL / 5n],
        [alice, SOL / 10n],
        [depositor, SOL / 4n],
        [alice, SOL / 10n],
        [depositor, SOL / 2n]
      ] as const) {
        sent.push(await send(from, [transferSolInstruction(from.address, carol.address, lamportsSent)]))
      }
      const [r1, d1, r2, d2, r3, d3] = sent
      const read = async (query: Record<string, string>) => {
        const response = await api(withOnramp.info.url, `/v1/account/${carol.address}/history?${new URLSearchParams(query)}`)
        expect(response.status).toBe(200)
        return Schema.decodeUnknownSync(HistoryResponse)(await response.json())
      }
      const first = await read({ onramp: "local" })
      expect(first.data.map((tx) => [tx.id, tx.metadata.operationType, ...(movesOf(tx) ?? [])])).toEqual([
        [d3, "deposit", "in 0.5 SOL"],
        [d2, "deposit", "in 0.25 SOL"]
      ])
      expect(first.next).toBe(d2)
      const second = await read({ onramp: "local", cursor: first.next ?? "" })
      expect(second).toMatchObject({ next: null })
      expect(second.data.map((tx) => [tx.id, tx.metadata.operationType, tx.metadata.sentFrom])).toEqual([[d1, "deposit", depositor.address]])
      // Without ?onramp= everything, the deliveries as deposits and the rest as receipts.
      const all: Array<Transaction> = []
      let cursor: string | null = null
      do {
        const page: HistoryResponse = await read(cursor === null ? {} : { cursor })
        all.push(...page.data)
        cursor = page.next ?? null
      } while (cursor !== null)
      expect(all.map((tx) => [tx.id, tx.metadata.operationType])).toEqual([
        [d3, "deposit"],
        [r3, "receive"],
        [d2, "deposit"],
        [r2, "receive"],
        [d1, "deposit"],
        [r1, "receive"]
      ])
    } finally {
      await withOnramp.stop()
    }
  })

  it("refuse a cursor they did not give, and answer nothing for another network", async () => {
    const bad = await api(services.info.url, `/v1/account/${alice.address}/history?cursor=not-a-cursor`)
    expect(bad.status).toBe(400)
    expect(await bad.json()).toMatchObject({ error: expect.stringContaining("Invalid cursor") })
    expect(await history(alice.address, { chainId: "eip155:31337" })).toEqual({ data: [], next: null })
  })

  it("name a mint they were not told about by its short address, unpriced", async () => {
    const unaware = await startServices({ solana: { caipNetworkId: solana.info.caipNetworkId, rpcUrl: solana.info.rpcUrl } })
    try {
      const token = (await balances(alice.address, {}, unaware.info.url)).find((b) => b.address?.endsWith(mint))
      expect(token).toMatchObject({ symbol: `${mint.slice(0, 4)}…${mint.slice(-4)}`, price: 0, quantity: { decimals: "6" } })
    } finally {
      await unaware.stop()
    }
  })
})
