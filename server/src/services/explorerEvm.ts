/**
 * The local explorer's pages of an EVM chain, read from its RPC when asked (so a pending transaction shows pending,
 * and the same page shows it confirmed once mined): a transaction with its decoded `Transfer` logs, an address with
 * its balances, NFTs and indexed transactions, an NFT with its holder, a token contract.
 */
import { Schema } from "effect"
import { encodeFunctionData, formatUnits, getAddress, parseAbi } from "viem"
import { escapeHtml } from "../lib/html"
import { rpcBatch, rpcBatchSettled, rpcCall } from "../lib/jsonRpc"
import type { HttpServerResponse } from "effect/http"
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
import { isSpamCollection, nftImageUrl } from "./nfts"
import type { EvmChainState, ServicesState } from "./state"

type EvmNetwork = Extract<ExplorerNetwork, { kind: "evm" }>

/** topic0 of `Transfer(address,address,uint256)`: ERC-20 with 3 topics, ERC-721 with 4. */
const TRANSFER_TOPIC = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef"
const NATIVE = { symbol: "ETH", decimals: 18 }
/** The most transactions an address page lists, newest first. */
const ADDRESS_TRANSACTIONS = 25

const abi = parseAbi([
  "function balanceOf(address) view returns (uint256)",
  "function ownerOf(uint256) view returns (address)",
  "function totalSupply() view returns (uint256)"
])

/** Selectors of the calls the stack's contracts take, by name. */
const METHODS: Readonly<Record<string, string>> = {
  "0xa9059cbb": "transfer(address,uint256)",
  "0x23b872dd": "transferFrom(address,address,uint256)",
  "0x42842e0e": "safeTransferFrom(address,address,uint256)",
  "0xb88d4fde": "safeTransferFrom(address,address,uint256,bytes)",
  "0x095ea7b3": "approve(address,uint256)",
  "0xa22cb465": "setApprovalForAll(address,bool)"
}

const Hex = Schema.String.pipe(Schema.check(Schema.isPattern(/^0x[0-9a-fA-F]*$/)))
const RpcTransaction = Schema.Struct({
  hash: Hex,
  from: Hex,
  to: Schema.NullOr(Hex),
  value: Hex,
  nonce: Hex,
  input: Hex,
  blockNumber: Schema.NullOr(Hex)
})
const RpcLog = Schema.Struct({ address: Hex, topics: Schema.Array(Hex), data: Hex })
const RpcReceipt = Schema.Struct({
  status: Hex,
  blockNumber: Hex,
  gasUsed: Hex,
  effectiveGasPrice: Hex,
  contractAddress: Schema.optionalKey(Schema.NullOr(Hex)),
  logs: Schema.Array(RpcLog)
})
const RpcBlockHeader = Schema.Struct({ timestamp: Hex })
const decodeTransaction = Schema.decodeUnknownSync(Schema.NullOr(RpcTransaction))
const decodeReceipt = Schema.decodeUnknownSync(Schema.NullOr(RpcReceipt))
const decodeHeader = Schema.decodeUnknownSync(RpcBlockHeader)
const decodeHex = Schema.decodeUnknownSync(Hex)

const HASH = /^0x[0-9a-fA-F]{64}$/
const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const TOKEN_ID = /^\d{1,78}$/
const MAX_UINT256 = 2n ** 256n - 1n

/** Whether `text` is an EVM transaction hash; an address (any case) as its checksummed form, else `undefined`. */
export const evmHash = (text: string): boolean => HASH.test(text)
export const evmAddress = (text: string): string | undefined => (ADDRESS.test(text) ? getAddress(text.toLowerCase()) : undefined)

const eth = (wei: bigint) => `${formatUnits(wei, NATIVE.decimals)} ${NATIVE.symbol}`
const topicAddress = (topic: string) => getAddress(`0x${topic.slice(-40)}`)

const addressLink = (network: EvmNetwork, address: string, text = address) => link(explorerPath(network, "address", address), mono(text))
const txLink = (network: EvmNetwork, hash: string) => link(explorerPath(network, "tx", hash), mono(short(hash)))
const nftLink = (network: EvmNetwork, contract: string, tokenId: bigint, html: string) =>
  link(explorerPath(network, "nft", contract, tokenId.toString()), html)

/** A decoded `Transfer` log, in words: what moved, from whom to whom. */
const transferRow = async (network: EvmNetwork, log: typeof RpcLog.Type): Promise<string | undefined> => {
  const [topic, fromTopic, toTopic, idTopic] = log.topics
  if (topic !== TRANSFER_TOPIC || fromTopic === undefined || toTopic === undefined) return undefined
  const contract = getAddress(log.address)
  const meta = await network.chain.tokens.get(contract)
  const parties = `from ${addressLink(network, topicAddress(fromTopic))} to ${addressLink(network, topicAddress(toTopic))}`
  if (log.topics.length === 4 && idTopic !== undefined) {
    const tokenId = BigInt(idTopic)
    return `${nftLink(network, contract, tokenId, escapeHtml(`${meta.name} #${tokenId}`))} (NFT) ${parties}`
  }
  if (log.topics.length !== 3 || log.data.length <= 2) return undefined
  const amount = meta.decimals === undefined ? BigInt(log.data).toString() : formatUnits(BigInt(log.data), meta.decimals)
  return `${strong(`${amount} ${meta.symbol}`)} (${link(explorerPath(network, "token", contract), escapeHtml(meta.name))}) ${parties}`
}

/** `/explorer/{caip2}/tx/{hash}`: status, block, from, to, value, fee, the call, and the decoded `Transfer` logs. */
export const evmTransactionPage = async (network: EvmNetwork, hash: string): Promise<HttpServerResponse.HttpServerResponse> => {
  if (!evmHash(hash)) return badInput("a transaction hash (0x and 64 hexadecimal characters)", hash, network)
  const { rpc } = network.chain
  const [txAnswer, receiptAnswer] = await rpcBatch(rpc, [
    { method: "eth_getTransactionByHash", params: [hash] },
    { method: "eth_getTransactionReceipt", params: [hash] }
  ])
  const tx = decodeTransaction(txAnswer)
  if (tx === null) {
    return notFound(
      "Transaction not found",
      `<p>${escapeHtml(network.name)} has no transaction</p><p>${mono(hash)}</p>` +
        `<p>${muted("It may be on another network, or was never sent to this one.")}</p>`,
      network
    )
  }
  const receipt = decodeReceipt(receiptAnswer)
  const header =
    receipt === null ? undefined : decodeHeader(await rpcCall(rpc, "eth_getBlockByNumber", [receipt.blockNumber, false]))
  const status =
    receipt === null
      ? statusWord("pending", "waiting to be included in a block")
      : BigInt(receipt.status) === 1n
        ? statusWord("confirmed")
        : statusWord("failed", "reverted: nothing moved but the fee")
  const to =
    tx.to !== null
      ? addressLink(network, getAddress(tx.to))
      : receipt?.contractAddress
        ? `Contract created: ${addressLink(network, getAddress(receipt.contractAddress))}`
        : "Contract creation"
  const selector = tx.input.slice(0, 10)
  const call = tx.input === "0x" ? "Transfer of ETH" : mono(METHODS[selector] ?? selector)
  const transfers =
    receipt === null ? [] : (await Promise.all(receipt.logs.map((log) => transferRow(network, log)))).filter((row) => row !== undefined)
  const rows: Array<readonly [string, string]> = [
    ["Transaction hash", mono(tx.hash)],
    ["Status", status],
    [
      "Block",
      receipt === null || header === undefined
        ? "Not yet"
        : `${BigInt(receipt.blockNumber).toString()} ${muted(utc(Number(BigInt(header.timestamp))))}`
    ],
    ["From", addressLink(network, getAddress(tx.from))],
    ["To", to],
    ["Value", escapeHtml(eth(BigInt(tx.value)))],
    ["Fee", receipt === null ? "Not yet" : escapeHtml(eth(BigInt(receipt.gasUsed) * BigInt(receipt.effectiveGasPrice)))],
    ["Call", call],
    ["Nonce", BigInt(tx.nonce).toString()]
  ]
  return explorerPage(200, "Transaction", `${fields(rows)}${section("Token transfers", transfers)}`, network)
}

const balanceOfCall = (contract: string, owner: string) => ({
  method: "eth_call",
  params: [{ to: contract, data: encodeFunctionData({ abi, functionName: "balanceOf", args: [owner as `0x${string}`] }) }, "latest"]
})

/** `/explorer/{caip2}/address/{address}`: ETH and token balances, NFTs held, and the transactions it took part in. */
export const evmAddressPage = async (network: EvmNetwork, input: string): Promise<HttpServerResponse.HttpServerResponse> => {
  const address = evmAddress(input)
  if (address === undefined) return badInput("an address (0x and 40 hexadecimal characters)", input, network)
  const { chain } = network
  await chain.index.sync()
  const [balance, nonce, code] = await rpcBatch(chain.rpc, [
    { method: "eth_getBalance", params: [address, "latest"] },
    { method: "eth_getTransactionCount", params: [address, "latest"] },
    { method: "eth_getCode", params: [address, "latest"] }
  ])
  const contracts = [...new Set([...chain.listedTokens, ...(await chain.index.fungibleContractsOf(address))].map((c) => getAddress(c)))]
  const held = await rpcBatchSettled(chain.rpc, contracts.map((contract) => balanceOfCall(contract, address)))
  const tokens = (
    await Promise.all(
      contracts.map(async (contract, i) => {
        const answer = held[i]
        const amount = typeof answer === "string" && answer.length > 2 ? BigInt(answer) : 0n
        if (amount === 0n) return undefined
        const meta = await chain.tokens.get(contract)
        const name = link(explorerPath(network, "token", contract), escapeHtml(meta.name))
        return `${strong(`${formatUnits(amount, meta.decimals ?? 0)} ${meta.symbol}`)} ${name}`
      })
    )
  ).filter((row) => row !== undefined)
  const nfts = await Promise.all(
    (await chain.index.nftsOf(address)).map(async (nft) => {
      const meta = await chain.tokens.get(nft.contract)
      const spam = isSpamCollection(chain, nft.contract) ? ` ${muted("(spam list)")}` : ""
      return `${nftLink(network, nft.contract, nft.tokenId, escapeHtml(`${meta.name} #${nft.tokenId}`))}${spam}`
    })
  )
  const isContract = decodeHex(code) !== "0x"
  // The token registry names a contract without name() by its short address: such a contract is no token.
  const known = isContract ? await chain.tokens.get(address) : undefined
  const token = known !== undefined && known.name !== `${address.slice(0, 6)}…${address.slice(-4)}` ? known : undefined
  const transactions = [...(await chain.index.transactionsOf(address))].reverse()
  const listed = transactions.slice(0, ADDRESS_TRANSACTIONS).map((tx) => {
    const direction =
      tx.from.toLowerCase() !== address.toLowerCase()
        ? `from ${addressLink(network, tx.from, short(tx.from))}`
        : tx.to === null
          ? "contract creation"
          : `to ${addressLink(network, tx.to, short(tx.to))}`
    const native = tx.transfers.find((t) => t.kind === "native")
    const value = native === undefined ? "" : ` · ${escapeHtml(eth(native.amount))}`
    return `${txLink(network, tx.hash)} ${statusWord(tx.status)} ${muted(`block ${tx.blockNumber} · ${utc(tx.timestamp)}`)}<br>${direction}${value}`
  })
  const rows: Array<readonly [string, string]> = [
    ["Address", mono(address)],
    [
      "Kind",
      !isContract
        ? "Account"
        : token === undefined
          ? "Contract"
          : `Contract — ${link(explorerPath(network, "token", address), escapeHtml(`${token.name} (${token.symbol})`))}`
    ],
    ["Balance", escapeHtml(eth(BigInt(decodeHex(balance))))],
    ["Transactions sent", BigInt(decodeHex(nonce)).toString()]
  ]
  const body = [
    fields(rows),
    section("Tokens", tokens, "No tokens."),
    section("NFTs", nfts, "No NFTs."),
    section("Transactions", listed, "No transactions yet."),
    transactions.length > ADDRESS_TRANSACTIONS ? `<p>${muted(`The ${ADDRESS_TRANSACTIONS} newest of ${transactions.length}.`)}</p>` : ""
  ]
  return explorerPage(200, isContract ? "Contract" : "Address", body.join(""), network)
}

const readCall = (contract: string, data: `0x${string}`) => ({ method: "eth_call", params: [{ to: contract, data }, "latest"] })

/** `/explorer/{caip2}/nft/{contract}/{tokenId}`: the collection, the token's picture and its holder now. */
export const evmNftPage = async (state: ServicesState, network: EvmNetwork, contractInput: string, idInput: string): Promise<HttpServerResponse.HttpServerResponse> => {
  const contract = evmAddress(contractInput)
  if (contract === undefined) return badInput("a collection address (0x and 40 hexadecimal characters)", contractInput, network)
  if (!TOKEN_ID.test(idInput) || BigInt(idInput) > MAX_UINT256) return badInput("a token id (a whole number)", idInput, network)
  const tokenId = BigInt(idInput)
  const { chain } = network
  const [owner] = await rpcBatchSettled(chain.rpc, [readCall(contract, encodeFunctionData({ abi, functionName: "ownerOf", args: [tokenId] }))])
  // ERC-721 reverts for a token that does not exist; a plain mapping answers the zero address.
  if (typeof owner !== "string" || owner.length < 42 || BigInt(owner) === 0n) {
    return notFound(
      "NFT not found",
      `<p>${escapeHtml(network.name)} has no token #${escapeHtml(tokenId.toString())} in</p><p>${mono(contract)}</p>`,
      network
    )
  }
  const holder = topicAddress(owner)
  const meta = await chain.tokens.get(contract)
  await chain.index.sync()
  const moved = (await chain.index.nftsOf(holder)).find((nft) => nft.contract === contract && nft.tokenId === tokenId)
  const image = nftImageUrl(state, chain, contract, tokenId)
  const rows: Array<readonly [string, string]> = [
    ["Collection", `${link(explorerPath(network, "token", contract), escapeHtml(meta.name))} ${muted(meta.symbol)}`],
    ["Contract", addressLink(network, contract)],
    ["Token ID", escapeHtml(tokenId.toString())],
    ["Owner", addressLink(network, holder)],
    ...(moved === undefined ? [] : [["Received", `block ${moved.blockNumber} ${muted(utc(moved.timestamp))}`] as const]),
    ...(isSpamCollection(chain, contract) ? [["Flag", "On the stack's spam list: wallets hide it"] as const] : [])
  ]
  const picture = image === null ? "" : `<p><img src="${escapeHtml(image)}" alt="${escapeHtml(`${meta.name} #${tokenId}`)}" width="240" height="240"></p>`
  return explorerPage(200, `${meta.name} #${tokenId}`, `${picture}${fields(rows)}`, network)
}

/** `/explorer/{caip2}/token/{contract}`: a token contract's name, symbol, decimals and supply. */
export const evmTokenPage = async (network: EvmNetwork, input: string): Promise<HttpServerResponse.HttpServerResponse> => {
  const contract = evmAddress(input)
  if (contract === undefined) return badInput("a token address (0x and 40 hexadecimal characters)", input, network)
  const { chain } = network
  const code = decodeHex(await rpcCall(chain.rpc, "eth_getCode", [contract, "latest"]))
  if (code === "0x") {
    return notFound("Token not found", `<p>${escapeHtml(network.name)} has no contract at</p><p>${mono(contract)}</p>`, network)
  }
  const meta = await chain.tokens.get(contract)
  const [supply] = await rpcBatchSettled(chain.rpc, [readCall(contract, encodeFunctionData({ abi, functionName: "totalSupply" }))])
  const rows: Array<readonly [string, string]> = [
    ["Name", escapeHtml(meta.name)],
    ["Symbol", escapeHtml(meta.symbol)],
    ["Standard", meta.decimals === undefined ? "ERC-721 (NFTs)" : "ERC-20"],
    ...(meta.decimals === undefined ? [] : [["Decimals", String(meta.decimals)] as const]),
    ...(typeof supply === "string" && supply.length > 2
      ? [["Total supply", escapeHtml(meta.decimals === undefined ? BigInt(supply).toString() : formatUnits(BigInt(supply), meta.decimals))] as const]
      : []),
    ["Contract", addressLink(network, contract)],
    ...(isSpamCollection(chain, contract) ? [["Flag", "On the stack's spam list: wallets hide it"] as const] : [])
  ]
  return explorerPage(200, meta.name, fields(rows), network)
}

/** `/explorer/{caip2}`: the chain's latest block and a search box. */
export const evmNetworkRows = async (chain: EvmChainState): Promise<ReadonlyArray<readonly [string, string]>> => {
  const latest = BigInt(decodeHex(await rpcCall(chain.rpc, "eth_blockNumber")))
  return [
    ["Chain id", String(chain.chainId)],
    ["Latest block", latest.toString()]
  ]
}
