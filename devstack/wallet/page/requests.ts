/**
 * What the test wallet page shows for a WalletConnect request, and which requests wait for the visitor: pure
 * functions of the method and its params, so the page stays a thin view.
 */
import {
  decompileTransactionMessage,
  getBase58Encoder,
  getBase64Encoder,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  type Instruction,
  type ReadonlyUint8Array
} from "@solana/kit"
import { formatEther, type Hex, hexToBytes, isHex } from "viem"
import { delegationQuestion, SIMPLE_7702_ACCOUNT } from "../calls7702"

/** `eip155` methods the wallet approves in a session; the ones in {@link promptedMethods} wait for the visitor. */
export const sessionMethods = [
  "personal_sign",
  "eth_signTypedData",
  "eth_signTypedData_v4",
  "eth_sendTransaction",
  "wallet_switchEthereumChain",
  "wallet_addEthereumChain",
  "eth_accounts",
  "eth_requestAccounts",
  "eth_chainId",
  "wallet_getCapabilities",
  "wallet_sendCalls",
  "wallet_getCallsStatus",
  "eth_blockNumber",
  "eth_call",
  "eth_estimateGas",
  "eth_gasPrice",
  "eth_getBalance",
  "eth_getTransactionCount",
  "eth_getTransactionReceipt"
] as const

/** `solana` methods the wallet approves in a session (WalletConnect's Solana RPC); the signing ones wait for the visitor. */
export const solanaSessionMethods = [
  "solana_signMessage",
  "solana_signTransaction",
  "solana_signAllTransactions",
  "solana_signAndSendTransaction",
  "solana_getAccounts",
  "solana_requestAccounts"
] as const

/** Session events the wallet emits. */
export const sessionEvents = ["accountsChanged", "chainChanged"] as const

/** Methods that need the visitor's Approve; the others are answered at once. */
export const promptedMethods: ReadonlySet<string> = new Set([
  "personal_sign",
  "eth_signTypedData",
  "eth_signTypedData_v4",
  "eth_sendTransaction",
  "wallet_sendCalls",
  "wallet_switchEthereumChain",
  "wallet_addEthereumChain",
  "solana_signMessage",
  "solana_signTransaction",
  "solana_signAllTransactions",
  "solana_signAndSendTransaction",
  "polkadot_signMessage",
  "polkadot_signTransaction"
])

/** One labelled line of a request's details. */
export interface Field {
  readonly label: string
  readonly value: string
  /** Addresses, hashes and JSON: shown in a monospace block. */
  readonly code?: boolean
}

/** A request as the visitor reads it: a title and its details. */
export interface RequestSummary {
  readonly title: string
  readonly fields: ReadonlyArray<Field>
}

const asArray = (params: unknown): ReadonlyArray<unknown> => (Array.isArray(params) ? params : [])

const strict = new TextDecoder("utf-8", { fatal: true })

/** The UTF-8 text of `bytes`, or undefined when they are not text a person reads. */
export const readableText = (bytes: ReadonlyUint8Array): string | undefined => {
  try {
    const text = strict.decode(bytes)
    // Control characters other than line breaks and tabs mean binary data, not a message to read.
    return /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(text) ? undefined : text
  } catch {
    return undefined
  }
}

/** The text a personal_sign payload carries: UTF-8 decoded from hex, or the hex itself when it is not text. */
export const decodeSignedMessage = (message: string): { readonly text: string; readonly isText: boolean } => {
  if (!isHex(message)) return { text: message, isText: true }
  const text = readableText(hexToBytes(message))
  return text === undefined ? { text: message, isText: false } : { text, isText: true }
}

/** The text a solana_signMessage payload (base58 bytes) carries, or the base58 itself when it is not text. */
export const decodeSolanaMessage = (message: string): { readonly text: string; readonly isText: boolean } => {
  try {
    const text = readableText(getBase58Encoder().encode(message))
    return text === undefined ? { text: message, isText: false } : { text, isText: true }
  } catch {
    return { text: message, isText: false }
  }
}

const LAMPORTS_PER_SOL = 1_000_000_000n

/** Lamports as SOL, with no trailing zeros ("1.5 SOL"). */
export const solText = (lamports: bigint): string => {
  const fraction = (lamports % LAMPORTS_PER_SOL).toString().padStart(9, "0").replace(/0+$/, "")
  return `${lamports / LAMPORTS_PER_SOL}${fraction === "" ? "" : `.${fraction}`} SOL`
}

const SYSTEM_PROGRAM = "11111111111111111111111111111111"
const SYSTEM_TRANSFER = 2

// A System Program transfer's lamports: instruction 2, then a little-endian u64.
const transferLamports = (data: ReadonlyUint8Array | undefined): bigint | undefined => {
  if (data === undefined || data.length !== 12) return undefined
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  return view.getUint32(0, true) === SYSTEM_TRANSFER ? view.getBigUint64(4, true) : undefined
}

/** What a base64 wire transaction does, for the visitor: its fee payer, then each transfer or program it calls. */
export const describeSolanaTransaction = (wire: unknown): Array<Field> => {
  let bytes: ReadonlyUint8Array
  try {
    bytes = getBase64Encoder().encode(String(wire))
  } catch {
    return [{ label: "Transaction (not base64)", value: String(wire), code: true }]
  }
  return describeSolanaTransactionBytes(bytes)
}

/** What a wire transaction (bytes) does, for the visitor: its fee payer, then each transfer or program it calls. */
export const describeSolanaTransactionBytes = (bytes: ReadonlyUint8Array): Array<Field> => {
  try {
    const transaction = getTransactionDecoder().decode(bytes)
    const message = decompileTransactionMessage(getCompiledTransactionMessageDecoder().decode(transaction.messageBytes))
    // Every message version's instructions have these; the union of their array types is not callable as one.
    const instructions: ReadonlyArray<Pick<Instruction, "programAddress" | "accounts" | "data">> = message.instructions
    return [
      { label: "Fee payer", value: message.feePayer.address, code: true },
      ...instructions.flatMap((instruction): Array<Field> => {
        const lamports = instruction.programAddress === SYSTEM_PROGRAM ? transferLamports(instruction.data) : undefined
        const [from, to] = (instruction.accounts ?? []).map((account) => account.address)
        if (lamports === undefined || from === undefined || to === undefined) {
          return [{ label: "Calls program", value: instruction.programAddress, code: true }]
        }
        return [
          { label: "From", value: from, code: true },
          { label: "To", value: to, code: true },
          { label: "Amount", value: solText(lamports) }
        ]
      })
    ]
  } catch (error) {
    return [{ label: "Transaction (not readable)", value: error instanceof Error ? error.message : String(error), code: true }]
  }
}

/** Parses a chain id given as a number, a hex string or a decimal string. */
export const parseChainId = (value: unknown): number | undefined => {
  if (typeof value === "number" && Number.isSafeInteger(value)) return value
  if (typeof value === "string" && /^0x[0-9a-f]+$/i.test(value)) return Number.parseInt(value, 16)
  if (typeof value === "string" && /^[0-9]+$/.test(value)) return Number.parseInt(value, 10)
  return undefined
}

const pretty = (value: unknown): string => JSON.stringify(value, null, 2)

const typedData = (json: unknown): Array<Field> => {
  if (typeof json !== "string") return [{ label: "Typed data", value: pretty(json), code: true }]
  try {
    const parsed = JSON.parse(json) as { domain?: Record<string, unknown>; primaryType?: unknown; message?: unknown }
    const domain = parsed.domain ?? {}
    const fields: Array<Field> = []
    if (typeof parsed.primaryType === "string") fields.push({ label: "Type", value: parsed.primaryType })
    if (domain["name"] !== undefined) fields.push({ label: "Domain", value: String(domain["name"]) })
    if (domain["chainId"] !== undefined) fields.push({ label: "Domain chain", value: String(parseChainId(domain["chainId"]) ?? domain["chainId"]) })
    if (typeof domain["verifyingContract"] === "string") fields.push({ label: "Contract", value: domain["verifyingContract"], code: true })
    fields.push({ label: "Message", value: pretty(parsed.message ?? null), code: true })
    return fields
  } catch {
    return [{ label: "Typed data (not valid JSON)", value: json, code: true }]
  }
}

const weiText = (value: unknown): string => {
  if (value === undefined || value === null) return "0 ETH"
  try {
    return `${formatEther(BigInt(value as string | number))} ETH`
  } catch {
    return String(value)
  }
}

/** Describes a request for the visitor; `chainName` names a chain id (the page's local chains). */
export const describeRequest = (method: string, params: unknown, chainName: (chainId: number) => string): RequestSummary => {
  const args = asArray(params)
  switch (method) {
    case "personal_sign": {
      const [message, address] = args
      const decoded = decodeSignedMessage(typeof message === "string" ? message : String(message))
      return {
        title: "Sign a message",
        fields: [
          { label: "Account", value: String(address), code: true },
          { label: decoded.isText ? "Message" : "Message (bytes, not text)", value: decoded.text, code: !decoded.isText }
        ]
      }
    }
    case "eth_signTypedData":
    case "eth_signTypedData_v4": {
      const [address, json] = args
      return { title: "Sign typed data", fields: [{ label: "Account", value: String(address), code: true }, ...typedData(json)] }
    }
    case "eth_sendTransaction": {
      const [tx] = args as ReadonlyArray<{ from?: Hex; to?: Hex; value?: Hex; data?: Hex } | undefined>
      const fields: Array<Field> = [
        { label: "From", value: String(tx?.from ?? "the session's account"), code: true },
        { label: "To", value: tx?.to ?? "(a new contract)", code: true },
        { label: "Value", value: weiText(tx?.value) }
      ]
      if (tx?.data !== undefined && tx.data !== "0x") fields.push({ label: "Data", value: tx.data, code: true })
      return { title: "Send a transaction", fields }
    }
    case "wallet_sendCalls": {
      const batch = (args[0] ?? {}) as { from?: unknown; chainId?: unknown; calls?: unknown }
      const calls = Array.isArray(batch.calls) ? (batch.calls as ReadonlyArray<{ to?: unknown; value?: unknown; data?: unknown } | undefined>) : []
      const target = parseChainId(batch.chainId)
      const network = target === undefined ? "this network" : chainName(target)
      return {
        title: calls.length === 1 ? "Send 1 call" : `Send ${calls.length} calls together`,
        fields: [
          { label: "From", value: String(batch.from ?? "the session's account"), code: true },
          { label: "Network", value: network },
          ...calls.flatMap((call, index): Array<Field> => [
            { label: `Call ${index + 1}: to`, value: String(call?.to), code: true },
            { label: `Call ${index + 1}: value`, value: weiText(call?.value) },
            ...(typeof call?.data === "string" && call.data !== "0x" ? [{ label: `Call ${index + 1}: data`, value: call.data, code: true }] : [])
          ]),
          // The page approves the batch and, the first time on a network, the delegation it needs: both asked here.
          { label: "The first batch on this network also asks", value: delegationQuestion(SIMPLE_7702_ACCOUNT, network) }
        ]
      }
    }
    case "wallet_switchEthereumChain":
    case "wallet_addEthereumChain": {
      const target = parseChainId((args[0] as { chainId?: unknown } | undefined)?.chainId)
      return {
        title: method === "wallet_switchEthereumChain" ? "Switch network" : "Add network",
        fields: [{ label: "Network", value: target === undefined ? "(no chain id given)" : `${chainName(target)} (chain id ${target})` }]
      }
    }
    case "solana_signMessage": {
      const { message, pubkey } = (params ?? {}) as { message?: unknown; pubkey?: unknown }
      const decoded = decodeSolanaMessage(String(message))
      return {
        title: "Sign a message",
        fields: [
          { label: "Account", value: String(pubkey), code: true },
          { label: decoded.isText ? "Message" : "Message (bytes, not text)", value: decoded.text, code: !decoded.isText }
        ]
      }
    }
    case "solana_signTransaction":
    case "solana_signAndSendTransaction": {
      const { transaction } = (params ?? {}) as { transaction?: unknown }
      return {
        title: method === "solana_signTransaction" ? "Sign a transaction" : "Send a transaction",
        fields: describeSolanaTransaction(transaction)
      }
    }
    case "solana_signAllTransactions": {
      const { transactions } = (params ?? {}) as { transactions?: unknown }
      const all = Array.isArray(transactions) ? transactions : []
      return {
        title: all.length === 1 ? "Sign a transaction" : `Sign ${all.length} transactions`,
        fields: all.flatMap((one, index) =>
          describeSolanaTransaction(one).map((field) => ({ ...field, label: `#${index + 1} ${field.label}` }))
        )
      }
    }
    case "polkadot_signMessage": {
      const { address, message } = (params ?? {}) as { address?: unknown; message?: unknown }
      const text = String(message)
      // The hex of the bytes (the product sends `<Bytes>text</Bytes>` so), or the text itself.
      const decoded = /^0x([0-9a-fA-F]{2})*$/.test(text) ? decodeSignedMessage(text) : { text, isText: true }
      return {
        title: "Sign a message",
        fields: [
          { label: "Account", value: String(address), code: true },
          { label: decoded.isText ? "Message" : "Message (bytes, not text)", value: decoded.text, code: !decoded.isText }
        ]
      }
    }
    case "polkadot_signTransaction": {
      const { address, transactionPayload } = (params ?? {}) as { address?: unknown; transactionPayload?: unknown }
      const payload = (transactionPayload ?? {}) as Record<string, unknown>
      return {
        title: "Sign a transaction",
        fields: [
          { label: "Account", value: String(address), code: true },
          { label: "Network (genesis hash)", value: String(payload["genesisHash"]), code: true },
          { label: "Call", value: String(payload["method"]), code: true }
        ]
      }
    }
    default:
      return { title: method, fields: [{ label: "Params", value: pretty(params ?? []), code: true }] }
  }
}
