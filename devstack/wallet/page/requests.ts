/**
 * What the test wallet page shows for a WalletConnect request, and which requests wait for the visitor: pure
 * functions of the method and its params, so the page stays a thin view.
 */
import { formatEther, type Hex, hexToBytes, isHex } from "viem"

/** Methods the wallet approves in a session; the ones in {@link promptedMethods} wait for the visitor. */
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
  "eth_blockNumber",
  "eth_call",
  "eth_estimateGas",
  "eth_gasPrice",
  "eth_getBalance",
  "eth_getTransactionCount",
  "eth_getTransactionReceipt"
] as const

/** Session events the wallet emits. */
export const sessionEvents = ["accountsChanged", "chainChanged"] as const

/** Methods that need the visitor's Approve; the others are answered at once. */
export const promptedMethods: ReadonlySet<string> = new Set([
  "personal_sign",
  "eth_signTypedData",
  "eth_signTypedData_v4",
  "eth_sendTransaction",
  "wallet_switchEthereumChain",
  "wallet_addEthereumChain"
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

/** The text a personal_sign payload carries: UTF-8 decoded from hex, or the hex itself when it is not text. */
export const decodeSignedMessage = (message: string): { readonly text: string; readonly isText: boolean } => {
  if (!isHex(message)) return { text: message, isText: true }
  try {
    const text = strict.decode(hexToBytes(message))
    // Control characters other than line breaks and tabs mean binary data, not a message to read.
    if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(text)) return { text: message, isText: false }
    return { text, isText: true }
  } catch {
    return { text: message, isText: false }
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
    case "wallet_switchEthereumChain":
    case "wallet_addEthereumChain": {
      const target = parseChainId((args[0] as { chainId?: unknown } | undefined)?.chainId)
      return {
        title: method === "wallet_switchEthereumChain" ? "Switch network" : "Add network",
        fields: [{ label: "Network", value: target === undefined ? "(no chain id given)" : `${chainName(target)} (chain id ${target})` }]
      }
    }
    default:
      return { title: method, fields: [{ label: "Params", value: pretty(params ?? []), code: true }] }
  }
}
