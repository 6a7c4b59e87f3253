/**
 * The local explorer's pages of the Solana network, read over its JSON-RPC when asked: a signature's status, slot,
 * fee, SOL transfers and token balance changes; an account's SOL, its token accounts and its latest signatures.
 */
import { Option, Schema } from "effect"
import { formatUnits } from "viem"
import { escapeHtml } from "../lib/html"
import { rpcCall } from "../lib/jsonRpc"
import type { HttpServerResponse } from "effect/http"
import { SPL_TOKEN_PROGRAM } from "./chains"
import {
  badInput,
  type ExplorerNetwork,
  explorerPage,
  explorerPath,
  fields,
  link,
  mono,
  muted,
  notFound,
  section,
  short,
  statusWord,
  strong,
  utc
} from "./explorerHtml"

type SolanaNetwork = Extract<ExplorerNetwork, { kind: "solana" }>

const SOL_DECIMALS = 9
/** The most signatures an account page lists, newest first. */
const ACCOUNT_SIGNATURES = 25

const SIGNATURE = /^[1-9A-HJ-NP-Za-km-z]{64,88}$/
const ADDRESS = /^[1-9A-HJ-NP-Za-km-z]{32,44}$/

/** Whether `text` reads as a Solana transaction signature, or as an account address (base58). */
export const solanaSignature = (text: string): boolean => SIGNATURE.test(text)
export const solanaAddress = (text: string): boolean => ADDRESS.test(text)

const Status = Schema.Struct({ slot: Schema.Number, err: Schema.Unknown, confirmationStatus: Schema.NullOr(Schema.String) })
const Statuses = Schema.Struct({ value: Schema.Array(Schema.NullOr(Status)) })
const Amount = Schema.Struct({ amount: Schema.String, decimals: Schema.Number })
const TokenBalance = Schema.Struct({ accountIndex: Schema.Number, mint: Schema.String, owner: Schema.optionalKey(Schema.String), uiTokenAmount: Amount })
const Instruction = Schema.Struct({ program: Schema.optionalKey(Schema.String), programId: Schema.String, parsed: Schema.optionalKey(Schema.Unknown) })
const ParsedTransaction = Schema.Struct({
  slot: Schema.Number,
  blockTime: Schema.NullOr(Schema.Number),
  meta: Schema.NullOr(
    Schema.Struct({
      err: Schema.Unknown,
      fee: Schema.Number,
      preTokenBalances: Schema.optionalKey(Schema.NullOr(Schema.Array(TokenBalance))),
      postTokenBalances: Schema.optionalKey(Schema.NullOr(Schema.Array(TokenBalance))),
      innerInstructions: Schema.optionalKey(Schema.NullOr(Schema.Array(Schema.Struct({ instructions: Schema.Array(Instruction) }))))
    })
  ),
  transaction: Schema.Struct({
    message: Schema.Struct({ accountKeys: Schema.Array(Schema.Struct({ pubkey: Schema.String })), instructions: Schema.Array(Instruction) })
  })
})
const SystemTransfer = Schema.Struct({
  type: Schema.Literal("transfer"),
  info: Schema.Struct({ source: Schema.String, destination: Schema.String, lamports: Schema.Number })
})
const TokenAccount = Schema.Struct({
  pubkey: Schema.String,
  account: Schema.Struct({
    data: Schema.Struct({ parsed: Schema.Struct({ info: Schema.Struct({ mint: Schema.String, tokenAmount: Amount }) }) })
  })
})
const Signature = Schema.Struct({ signature: Schema.String, slot: Schema.Number, err: Schema.Unknown, blockTime: Schema.NullOr(Schema.Number) })
const systemTransferOf = Schema.decodeUnknownOption(SystemTransfer)
const tokenAccountOf = Schema.decodeUnknownOption(TokenAccount)

const sol = (lamports: bigint) => `${formatUnits(lamports, SOL_DECIMALS)} SOL`
const accountLink = (network: SolanaNetwork, address: string, text = address) => link(explorerPath(network, "account", address), mono(text))
const symbolOf = (network: SolanaNetwork, mint: string) =>
  network.solana.tokens.find((token) => token.address === mint)?.symbol ?? short(mint)

/** `/explorer/{caip2}/tx/{signature}`: status, slot, fee, fee payer, SOL transfers and token balance changes. */
export const solanaTransactionPage = async (network: SolanaNetwork, signature: string): Promise<HttpServerResponse.HttpServerResponse> => {
  if (!solanaSignature(signature)) return badInput("a transaction signature (base58)", signature, network)
  const { rpc } = network.solana
  const [statuses, answer] = await Promise.all([
    rpcCall(rpc, "getSignatureStatuses", [[signature], { searchTransactionHistory: true }]),
    rpcCall(rpc, "getTransaction", [signature, { encoding: "jsonParsed", maxSupportedTransactionVersion: 0 }])
  ])
  const status = Schema.decodeUnknownSync(Statuses)(statuses).value[0] ?? null
  if (status === null) {
    return notFound(
      "Transaction not found",
      `<p>${escapeHtml(network.name)} has no transaction</p><p>${mono(signature)}</p>` +
        `<p>${muted("It may be on another network, or was never sent to this one.")}</p>`,
      network
    )
  }
  const tx = answer === null ? undefined : Schema.decodeUnknownSync(ParsedTransaction)(answer)
  const failed = status.err !== null
  const instructions =
    tx === undefined
      ? []
      : [...tx.transaction.message.instructions, ...(tx.meta?.innerInstructions ?? []).flatMap((inner) => inner.instructions)]
  const transfers = failed
    ? []
    : instructions.flatMap((ix) =>
        ix.program !== "system"
          ? []
          : Option.toArray(systemTransferOf(ix.parsed)).map(
              ({ info }) =>
                `${strong(sol(BigInt(info.lamports)))} from ${accountLink(network, info.source)} to ${accountLink(network, info.destination)}`
            )
      )
  // Token movements are the owners' token balance changes: they catch transfers made by programs too.
  const changes = new Map<string, { owner: string; mint: string; decimals: number; delta: bigint }>()
  const add = (entries: ReadonlyArray<typeof TokenBalance.Type>, sign: bigint) => {
    for (const entry of entries) {
      if (entry.owner === undefined) continue
      const key = `${entry.owner}/${entry.mint}`
      const before = changes.get(key)?.delta ?? 0n
      const delta = before + sign * BigInt(entry.uiTokenAmount.amount)
      changes.set(key, { owner: entry.owner, mint: entry.mint, decimals: entry.uiTokenAmount.decimals, delta })
    }
  }
  add(tx?.meta?.preTokenBalances ?? [], -1n)
  add(tx?.meta?.postTokenBalances ?? [], 1n)
  const tokenRows = [...changes.values()]
    .filter((change) => change.delta !== 0n)
    .map((change) => {
      const size = formatUnits(change.delta > 0n ? change.delta : -change.delta, change.decimals)
      const amount = `${change.delta > 0n ? "+" : "−"}${size} ${symbolOf(network, change.mint)}`
      return `${strong(amount)} ${accountLink(network, change.owner)}`
    })
  const feePayer = tx?.transaction.message.accountKeys[0]?.pubkey
  const rows: Array<readonly [string, string]> = [
    ["Signature", mono(signature)],
    ["Status", failed ? statusWord("failed", JSON.stringify(status.err)) : statusWord("confirmed", status.confirmationStatus ?? "")],
    ["Slot", `${status.slot}${tx?.blockTime == null ? "" : ` ${muted(utc(tx.blockTime))}`}`],
    ...(feePayer === undefined ? [] : [["Fee payer", accountLink(network, feePayer)] as const]),
    ...(tx?.meta == null ? [] : [["Fee", escapeHtml(sol(BigInt(tx.meta.fee)))] as const])
  ]
  const body = [fields(rows), section("SOL transfers", transfers), section("Token balance changes", tokenRows)]
  return explorerPage(200, "Transaction", body.join(""), network)
}

/** `/explorer/{caip2}/account/{address}`: SOL, the token accounts it owns, and its latest signatures. */
export const solanaAccountPage = async (network: SolanaNetwork, address: string): Promise<HttpServerResponse.HttpServerResponse> => {
  if (!solanaAddress(address)) return badInput("an account address (base58)", address, network)
  const { rpc } = network.solana
  const [balance, accounts, signatures] = await Promise.all([
    rpcCall(rpc, "getBalance", [address]),
    rpcCall(rpc, "getTokenAccountsByOwner", [address, { programId: SPL_TOKEN_PROGRAM }, { encoding: "jsonParsed" }]),
    rpcCall(rpc, "getSignaturesForAddress", [address, { limit: ACCOUNT_SIGNATURES }])
  ])
  const lamports = BigInt(Schema.decodeUnknownSync(Schema.Struct({ value: Schema.Number }))(balance).value)
  const owned = Schema.decodeUnknownSync(Schema.Struct({ value: Schema.Array(Schema.Unknown) }))(accounts).value.flatMap((item) => Option.toArray(tokenAccountOf(item)))
  const tokens = owned.map(({ pubkey, account }) => {
    const { mint, tokenAmount } = account.data.parsed.info
    const amount = `${formatUnits(BigInt(tokenAmount.amount), tokenAmount.decimals)} ${symbolOf(network, mint)}`
    return `${strong(amount)} ${muted("token account")} ${mono(short(pubkey))}`
  })
  const listed = Schema.decodeUnknownSync(Schema.Array(Signature))(signatures).map((entry) => {
    const when = `slot ${entry.slot}${entry.blockTime === null ? "" : ` · ${utc(entry.blockTime)}`}`
    return `${link(explorerPath(network, "tx", entry.signature), mono(short(entry.signature)))} ${statusWord(entry.err === null ? "confirmed" : "failed")} ${muted(when)}`
  })
  const rows: Array<readonly [string, string]> = [
    ["Address", mono(address)],
    ["Balance", escapeHtml(sol(lamports))]
  ]
  const body = [
    fields(rows),
    section("Tokens", tokens, "No tokens."),
    section("Transactions", listed, "No transactions yet."),
    listed.length === ACCOUNT_SIGNATURES ? `<p>${muted(`The ${ACCOUNT_SIGNATURES} newest.`)}</p>` : ""
  ]
  return explorerPage(200, "Account", body.join(""), network)
}

/** The rows of the Solana network's page: its latest slot. */
export const solanaNetworkRows = async (network: SolanaNetwork): Promise<ReadonlyArray<readonly [string, string]>> => {
  const slot = Schema.decodeUnknownSync(Schema.Number)(await rpcCall(network.solana.rpc, "getSlot"))
  return [["Latest slot", String(slot)]]
}
