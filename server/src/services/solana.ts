/**
 * Balances and history of Solana addresses, read over the Solana JSON-RPC only (any validator would do, not just
 * the stack's own): SOL and SPL Token balances from `getBalance` and `getTokenAccountsByOwner`, history from
 * `getSignaturesForAddress` (of the address and of its token accounts, since a token sent to an existing token
 * account never names its owner) and `jsonParsed` `getTransaction`.
 */
import { Option, Schema } from "effect"
import { formatUnits } from "viem"
import { BadRequest } from "../../../src/domain/http/errors"
import type { OperationType, TokenBalance, Transaction, Transfer } from "../../../src/domain/Portfolio"
import { rpcBatch, rpcCall } from "../lib/jsonRpc"
import { SPL_TOKEN_PROGRAM } from "./chains"
import { type SolanaState, tokenImageId } from "./state"
import { priceOf } from "./prices"

const SOL_DECIMALS = 9
const SIGNATURES_PER_CALL = 1000

const UiAmount = Schema.Struct({ amount: Schema.String, decimals: Schema.Number })
const ParsedTokenAccount = Schema.Struct({
  pubkey: Schema.String,
  account: Schema.Struct({
    data: Schema.Struct({
      parsed: Schema.Struct({
        type: Schema.Literal("account"),
        info: Schema.Struct({ mint: Schema.String, owner: Schema.String, tokenAmount: UiAmount })
      })
    })
  })
})
const WithValue = Schema.Struct({ value: Schema.Unknown })
const Lamports = Schema.Struct({ value: Schema.Number })
const SignatureInfo = Schema.Struct({ signature: Schema.String, slot: Schema.Number })
const AnyInstruction = Schema.Struct({
  programId: Schema.String,
  program: Schema.optionalKey(Schema.String),
  parsed: Schema.optionalKey(Schema.Unknown)
})
const TokenBalanceEntry = Schema.Struct({
  accountIndex: Schema.Number,
  mint: Schema.String,
  owner: Schema.optionalKey(Schema.String),
  uiTokenAmount: UiAmount
})
const ParsedTransaction = Schema.Struct({
  blockTime: Schema.NullOr(Schema.Number),
  meta: Schema.NullOr(
    Schema.Struct({
      err: Schema.Unknown,
      preTokenBalances: Schema.optionalKey(Schema.NullOr(Schema.Array(TokenBalanceEntry))),
      postTokenBalances: Schema.optionalKey(Schema.NullOr(Schema.Array(TokenBalanceEntry))),
      innerInstructions: Schema.optionalKey(
        Schema.NullOr(Schema.Array(Schema.Struct({ index: Schema.Number, instructions: Schema.Array(AnyInstruction) })))
      )
    })
  ),
  transaction: Schema.Struct({
    signatures: Schema.Array(Schema.String),
    message: Schema.Struct({
      accountKeys: Schema.Array(Schema.Struct({ pubkey: Schema.String })),
      instructions: Schema.Array(AnyInstruction)
    })
  })
})
type ParsedTransaction = typeof ParsedTransaction.Type
type AnyInstruction = typeof AnyInstruction.Type

const SystemTransfer = Schema.Struct({
  type: Schema.Literal("transfer"),
  info: Schema.Struct({ source: Schema.String, destination: Schema.String, lamports: Schema.Number })
})
const TokenTransfer = Schema.Struct({
  type: Schema.Literals(["transfer", "transferChecked"]),
  info: Schema.Struct({ destination: Schema.String })
})
const TokenSupplyChange = Schema.Struct({
  type: Schema.Literals(["mintTo", "mintToChecked", "burn", "burnChecked"]),
  info: Schema.Struct({ account: Schema.String })
})
const systemTransferOf = Schema.decodeUnknownOption(SystemTransfer)
const tokenTransferOf = Schema.decodeUnknownOption(TokenTransfer)
const supplyChangeOf = Schema.decodeUnknownOption(TokenSupplyChange)
const parsedTokenAccountOf = Schema.decodeUnknownOption(ParsedTokenAccount)

/** A Solana transaction signature (base58 of 64 bytes), the cursor of Solana history pages. */
const SIGNATURE = /^[1-9A-HJ-NP-Za-km-z]{64,88}$/

const metaOf = (state: SolanaState, mint: string, decimals: number) =>
  state.tokens.find((token) => token.address === mint) ?? {
    address: mint,
    name: `${mint.slice(0, 4)}…${mint.slice(-4)}`,
    symbol: `${mint.slice(0, 4)}…${mint.slice(-4)}`,
    decimals
  }

const tokenAccountsOf = async (state: SolanaState, owner: string) => {
  const answer = Schema.decodeUnknownSync(WithValue)(
    await rpcCall(state.rpc, "getTokenAccountsByOwner", [owner, { programId: SPL_TOKEN_PROGRAM }, { encoding: "jsonParsed" }])
  )
  // Accounts the node could not parse (another layout, base64 fallback) are not balances we can read.
  return (Array.isArray(answer.value) ? answer.value : []).flatMap((item) => Option.toArray(parsedTokenAccountOf(item)))
}

/** SOL and the SPL tokens `address` holds (non-zero), priced, in the shape of the balance endpoint. */
export const solanaBalances = async (state: SolanaState, address: string): Promise<ReadonlyArray<TokenBalance>> => {
  const [sol, accounts] = await Promise.all([
    rpcCall(state.rpc, "getBalance", [address]).then((answer) => Schema.decodeUnknownSync(Lamports)(answer).value),
    tokenAccountsOf(state, address)
  ])
  const icon = (symbol: string, mint: string | undefined) => `${state.baseUrl}/public/getTokenImage/${tokenImageId(symbol, mint)}`
  const balances: Array<TokenBalance> = []
  if (sol > 0) {
    const numeric = formatUnits(BigInt(sol), SOL_DECIMALS)
    const price = await priceOf(state.prices, "SOL")
    balances.push({
      name: "Solana",
      symbol: "SOL",
      chainId: state.caipNetworkId,
      value: Number(numeric) * price,
      price,
      quantity: { decimals: String(SOL_DECIMALS), numeric },
      iconUrl: icon("SOL", undefined)
    })
  }
  // An owner may hold several accounts of one mint: their amounts add up.
  const byMint = new Map<string, { amount: bigint; decimals: number }>()
  for (const { account } of accounts) {
    const { mint, tokenAmount } = account.data.parsed.info
    const held = byMint.get(mint)
    byMint.set(mint, { amount: (held?.amount ?? 0n) + BigInt(tokenAmount.amount), decimals: tokenAmount.decimals })
  }
  for (const [mint, { amount, decimals }] of byMint) {
    if (amount === 0n) continue
    const meta = metaOf(state, mint, decimals)
    const numeric = formatUnits(amount, decimals)
    const price = await priceOf(state.prices, meta.symbol)
    balances.push({
      name: meta.name,
      symbol: meta.symbol,
      chainId: state.caipNetworkId,
      address: `${state.caipNetworkId}:${mint}`,
      value: Number(numeric) * price,
      price,
      quantity: { decimals: String(decimals), numeric },
      iconUrl: icon(meta.symbol, mint)
    })
  }
  return balances
}

// Every signature of `address`, newest first, following `before` until the node has no more.
const allSignatures = async (state: SolanaState, address: string) => {
  const signatures: Array<typeof SignatureInfo.Type> = []
  for (;;) {
    const before = signatures.at(-1)?.signature
    const batch = Schema.decodeUnknownSync(Schema.Array(SignatureInfo))(
      await rpcCall(state.rpc, "getSignaturesForAddress", [
        address,
        { limit: SIGNATURES_PER_CALL, ...(before === undefined ? {} : { before }) }
      ])
    )
    signatures.push(...batch)
    if (batch.length < SIGNATURES_PER_CALL) return signatures
  }
}

/** One value movement of a transaction as one address sees it. */
interface Movement {
  readonly mint: string | undefined
  readonly decimals: number
  readonly amount: bigint
  readonly direction: "in" | "out" | "self"
  readonly counterparty: string | undefined
}

const instructionsOf = (tx: ParsedTransaction): ReadonlyArray<AnyInstruction> => [
  ...tx.transaction.message.instructions,
  ...(tx.meta?.innerInstructions ?? []).flatMap((inner) => inner.instructions)
]

// The owner of each token account the transaction touched, from its token balances.
const tokenOwners = (tx: ParsedTransaction): ReadonlyMap<string, string> => {
  const keys = tx.transaction.message.accountKeys
  const owners = new Map<string, string>()
  for (const entry of [...(tx.meta?.preTokenBalances ?? []), ...(tx.meta?.postTokenBalances ?? [])]) {
    const key = keys[entry.accountIndex]?.pubkey
    if (key !== undefined && entry.owner !== undefined) owners.set(key, entry.owner)
  }
  return owners
}

const solMovements = (tx: ParsedTransaction, address: string): ReadonlyArray<Movement> =>
  instructionsOf(tx).flatMap((ix) => {
    if (ix.program !== "system") return []
    return Option.toArray(systemTransferOf(ix.parsed)).flatMap(({ info }) => {
      const out = info.source === address
      const into = info.destination === address
      if (!out && !into) return []
      return [
        {
          mint: undefined,
          decimals: SOL_DECIMALS,
          amount: BigInt(info.lamports),
          direction: out && into ? "self" : out ? "out" : "in",
          counterparty: out ? info.destination : info.source
        } satisfies Movement
      ]
    })
  })

// Token movements are the changes of the owners' token balances, which also catches transfers made by programs.
const tokenMovements = (tx: ParsedTransaction, address: string): ReadonlyArray<Movement> => {
  const deltas = new Map<string, Map<string, bigint>>()
  const decimals = new Map<string, number>()
  const add = (entries: ReadonlyArray<typeof TokenBalanceEntry.Type>, sign: bigint) => {
    for (const entry of entries) {
      if (entry.owner === undefined) continue
      const perOwner = deltas.get(entry.mint) ?? new Map<string, bigint>()
      perOwner.set(entry.owner, (perOwner.get(entry.owner) ?? 0n) + sign * BigInt(entry.uiTokenAmount.amount))
      deltas.set(entry.mint, perOwner)
      decimals.set(entry.mint, entry.uiTokenAmount.decimals)
    }
  }
  add(tx.meta?.preTokenBalances ?? [], -1n)
  add(tx.meta?.postTokenBalances ?? [], 1n)
  return [...deltas].flatMap(([mint, perOwner]) => {
    const delta = perOwner.get(address) ?? 0n
    if (delta === 0n) return []
    const counterparty = [...perOwner].find(([owner, d]) => owner !== address && (d > 0n) !== (delta > 0n) && d !== 0n)?.[0]
    return [
      {
        mint,
        decimals: decimals.get(mint) ?? 0,
        amount: delta > 0n ? delta : -delta,
        direction: delta > 0n ? "in" : "out",
        counterparty
      } satisfies Movement
    ]
  })
}

// Where the transaction meant to send value: the first transfer's receiver, else the first program it called.
const intendedRecipient = (tx: ParsedTransaction): string => {
  const owners = tokenOwners(tx)
  for (const ix of tx.transaction.message.instructions) {
    if (ix.program === "system") {
      const transfer = Option.getOrUndefined(systemTransferOf(ix.parsed))
      if (transfer !== undefined) return transfer.info.destination
    }
    if (ix.program === "spl-token") {
      const transfer = Option.getOrUndefined(tokenTransferOf(ix.parsed))
      if (transfer !== undefined) return owners.get(transfer.info.destination) ?? transfer.info.destination
    }
  }
  return tx.transaction.message.instructions[0]?.programId ?? ""
}

// Minted to or burnt from one of `address`'s token accounts.
const supplyChange = (tx: ParsedTransaction, address: string): "mint" | "burn" | undefined => {
  const owners = tokenOwners(tx)
  for (const ix of instructionsOf(tx)) {
    if (ix.program !== "spl-token") continue
    const change = Option.getOrUndefined(supplyChangeOf(ix.parsed))
    if (change !== undefined && owners.get(change.info.account) === address) {
      return change.type.startsWith("mint") ? "mint" : "burn"
    }
  }
  return undefined
}

/** An on-ramp deposit: something came in from one of the on-ramp provider's delivering accounts. */
const isDeposit = (movements: ReadonlyArray<Movement>, depositors: ReadonlySet<string>): boolean =>
  depositors.size > 0 && movements.some((m) => m.direction === "in" && m.counterparty !== undefined && depositors.has(m.counterparty))

const movementsOf = (tx: ParsedTransaction, address: string): ReadonlyArray<Movement> =>
  // A failed transaction moved nothing but its fee, as a reverted EVM one shows no transfers.
  tx.meta === null || tx.meta.err !== null ? [] : [...solMovements(tx, address), ...tokenMovements(tx, address)]

const operationTypeOf = (
  tx: ParsedTransaction,
  address: string,
  movements: ReadonlyArray<Movement>,
  depositors: ReadonlySet<string>
): OperationType => {
  const change = movements.length === 0 ? undefined : supplyChange(tx, address)
  if (change !== undefined) return change
  if (isDeposit(movements, depositors)) return "deposit"
  const directions = new Set(movements.map((m) => m.direction))
  if (directions.has("in") && directions.has("out")) return "trade"
  if (directions.has("out") || directions.has("self")) return "send"
  if (directions.has("in")) return "receive"
  return "execute"
}

const toTransfer = async (state: SolanaState, movement: Movement): Promise<Transfer> => {
  const meta =
    movement.mint === undefined ? { name: "Solana", symbol: "SOL" } : metaOf(state, movement.mint, movement.decimals)
  const numeric = formatUnits(movement.amount, movement.decimals)
  const price = await priceOf(state.prices, meta.symbol)
  return {
    fungible_info: {
      name: meta.name,
      symbol: meta.symbol,
      icon: { url: `${state.baseUrl}/public/getTokenImage/${tokenImageId(meta.symbol, movement.mint)}` }
    },
    direction: movement.direction,
    quantity: { numeric },
    value: Number(numeric) * price,
    price
  }
}

const toTransaction = async (
  state: SolanaState,
  signature: string,
  tx: ParsedTransaction,
  address: string,
  depositors: ReadonlySet<string>
): Promise<Transaction> => {
  const failed = tx.meta === null || tx.meta.err !== null
  const movements = movementsOf(tx, address)
  const feePayer = tx.transaction.message.accountKeys[0]?.pubkey ?? ""
  const first = movements.find((m) => m.counterparty !== undefined) ?? movements[0]
  const [sentFrom, sentTo] =
    first === undefined
      ? [feePayer, intendedRecipient(tx)]
      : first.direction === "in"
        ? [first.counterparty ?? feePayer, address]
        : first.direction === "self"
          ? [address, address]
          : [address, first.counterparty ?? intendedRecipient(tx)]
  return {
    id: signature,
    metadata: {
      minedAt: new Date((tx.blockTime ?? 0) * 1000).toISOString(),
      chain: state.caipNetworkId,
      operationType: operationTypeOf(tx, address, movements, depositors),
      status: failed ? "failed" : "confirmed",
      sentFrom,
      sentTo,
      hash: signature
    },
    transfers: await Promise.all(movements.map((movement) => toTransfer(state, movement)))
  }
}

/**
 * A page of `address`'s history, newest first: every transaction that loaded the address or one of its token
 * accounts. `cursor` is the last signature of the previous page; `next` is null on the last page. What came in from
 * one of `depositors` (the on-ramp provider's delivering accounts) is a deposit; with `onrampOnly` (`?onramp=`, any
 * provider name) only deposits are listed, read a page's worth of transactions at a time until the page is full.
 */
export const solanaHistory = async (
  state: SolanaState,
  address: string,
  cursor: string | undefined,
  pageSize: number,
  depositors: ReadonlySet<string> = new Set(),
  onrampOnly = false
): Promise<{ readonly data: ReadonlyArray<Transaction>; readonly next: string | null }> => {
  if (cursor !== undefined && !SIGNATURE.test(cursor)) {
    throw new BadRequest({ error: `Invalid cursor: ${cursor} is not a cursor this service gave` })
  }
  const tokenAccounts = await tokenAccountsOf(state, address)
  const lists = await Promise.all([address, ...tokenAccounts.map((account) => account.pubkey)].map((a) => allSignatures(state, a)))
  const bySignature = new Map<string, number>()
  for (const list of lists) for (const { signature, slot } of list) bySignature.set(signature, slot)
  // Newest first; within one slot, the order the node listed them (sort is stable).
  const all = [...bySignature].sort((a, b) => b[1] - a[1]).map(([signature]) => signature)
  const start = cursor === undefined ? 0 : all.indexOf(cursor) + 1
  if (start === 0 && cursor !== undefined) throw new BadRequest({ error: `Invalid cursor: ${cursor} is not a cursor this service gave` })
  const kept: Array<{ readonly signature: string; readonly tx: ParsedTransaction }> = []
  let at = start
  // Without `onrampOnly` every transaction is kept: one batch is the page.
  do {
    const batch = all.slice(at, at + pageSize)
    const answers = await rpcBatch(
      state.rpc,
      batch.map((signature) => ({
        method: "getTransaction",
        params: [signature, { encoding: "jsonParsed", maxSupportedTransactionVersion: 0, commitment: "confirmed" }]
      }))
    )
    for (const [i, signature] of batch.entries()) {
      at++
      const answer = answers[i]
      // A signature listed but not yet readable as a transaction (another node's lag) is left for a later page load.
      if (answer === null || answer === undefined) continue
      const tx = Schema.decodeUnknownSync(ParsedTransaction)(answer)
      if (onrampOnly && !isDeposit(movementsOf(tx, address), depositors)) continue
      kept.push({ signature, tx })
      if (kept.length === pageSize) break
    }
  } while (onrampOnly && at < all.length && kept.length < pageSize)
  const data = await Promise.all(kept.map(({ signature, tx }) => toTransaction(state, signature, tx, address, depositors)))
  // The next page starts after the last transaction looked at (what was skipped there is no deposit).
  const last = all[at - 1]
  return { data, next: at < all.length && last !== undefined ? last : null }
}
