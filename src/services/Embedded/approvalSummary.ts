/**
 * What an unsafe request of the embedded wallet asks, in plain words for the ApproveTransaction view: the message
 * text, the typed data's fields, the transaction's receiver, value and data, the calls, the SOL transfer. The input
 * comes from the host page's code (any dApp call), so it is read defensively: unknown shapes become their JSON text,
 * long texts and deep objects are cut, and nothing here throws.
 */
import { formatUnits } from "../../domain/format"
import type { ApprovalSummary } from "./embeddedState"

/** The native currency the values are shown in. */
export interface NativeCurrency {
  readonly symbol: string
  readonly decimals: number
}

// Cut what no one reads in a modal: a field's text, the number of fields and calls, and JSON text.
const MAX_TEXT = 2_000
const MAX_FIELDS = 60
const MAX_CALLS = 20
const MAX_DEPTH = 6

const cut = (text: string, max = MAX_TEXT): string => (text.length > max ? `${text.slice(0, max)}…` : text)

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const jsonText = (value: unknown): string => {
  const seen = new WeakSet<object>()
  const text = JSON.stringify(
    value,
    (_key, inner: unknown) => {
      if (typeof inner === "bigint") return inner.toString()
      if (typeof inner === "object" && inner !== null) {
        if (seen.has(inner)) return "[circular]"
        seen.add(inner)
      }
      return inner
    },
    2
  ) as string | undefined
  return cut(text ?? String(value))
}

const HEX = /^0x(?:[0-9a-fA-F]{2})*$/

/** Bytes as text when they are printable UTF-8 (tabs and line breaks allowed); undefined otherwise. */
export const printableText = (bytes: Uint8Array): string | undefined => {
  const text = new TextDecoder("utf-8", { fatal: false }).decode(bytes)
  // A replacement character means the bytes were not UTF-8; control characters mean they are not meant as text.
  return text.includes("\uFFFD") || /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/.test(text) ? undefined : text
}

const hexBytes = (hex: string): Uint8Array => {
  const bytes = new Uint8Array((hex.length - 2) / 2)
  for (let index = 0; index < bytes.length; index++) bytes[index] = Number.parseInt(hex.slice(2 + index * 2, 4 + index * 2), 16)
  return bytes
}

/** personal_sign's message (0x-hex bytes, or text as some dApps send it) as the visitor reads it. */
export const messageText = (message: unknown): string => {
  if (typeof message !== "string") return jsonText(message)
  if (!HEX.test(message)) return cut(message)
  return cut(printableText(hexBytes(message)) ?? message)
}

/** A value in wei (hex or decimal, as a string, number or bigint) in the native currency: `0.01 ETH`. */
export const nativeValue = (value: unknown, currency: NativeCurrency): string => {
  if (value === undefined || value === null || value === "" || value === "0x" || value === "0x0") return `0 ${currency.symbol}`
  try {
    const amount = typeof value === "bigint" ? value : BigInt(typeof value === "number" ? Math.trunc(value) : String(value))
    return amount < 0n ? jsonText(value) : `${formatUnits(amount, currency.decimals)} ${currency.symbol}`
  } catch {
    return cut(String(value))
  }
}

const optionalText = (value: unknown): string | undefined =>
  value === undefined || value === null || value === "" || value === "0x" ? undefined : typeof value === "string" ? cut(value) : jsonText(value)

const fieldText = (value: unknown): string =>
  typeof value === "string" ? cut(value, 500) : typeof value === "number" || typeof value === "boolean" || typeof value === "bigint" ? String(value) : jsonText(value)

/** A typed data's message as label/value rows: nested fields as `outer.inner`, arrays as `list[0]`. */
const flatten = (value: unknown, prefix: string, rows: Array<readonly [string, string]>, depth: number): void => {
  if (rows.length >= MAX_FIELDS) return
  if (depth < MAX_DEPTH && isRecord(value)) {
    for (const [key, inner] of Object.entries(value)) flatten(inner, prefix === "" ? key : `${prefix}.${key}`, rows, depth + 1)
    return
  }
  if (depth < MAX_DEPTH && Array.isArray(value)) {
    value.slice(0, MAX_FIELDS).forEach((inner, index) => flatten(inner, `${prefix}[${index}]`, rows, depth + 1))
    return
  }
  rows.push([prefix === "" ? "value" : prefix, fieldText(value)])
}

const typedData = (raw: unknown): ApprovalSummary => {
  let data: unknown = raw
  if (typeof raw === "string") {
    try {
      data = JSON.parse(raw)
    } catch {
      return { _tag: "Message", text: cut(raw) }
    }
  }
  if (!isRecord(data)) return { _tag: "Message", text: jsonText(data) }
  const domain = isRecord(data["domain"]) ? data["domain"] : undefined
  const rows: Array<readonly [string, string]> = []
  flatten(data["message"], "", rows, 0)
  return {
    _tag: "TypedData",
    domainName: typeof domain?.["name"] === "string" ? cut(domain["name"], 200) : undefined,
    primaryType: typeof data["primaryType"] === "string" ? cut(data["primaryType"], 200) : "data",
    fields: rows
  }
}

const call = (raw: unknown, currency: NativeCurrency) => {
  const record = isRecord(raw) ? raw : {}
  return { to: optionalText(record["to"]), value: nativeValue(record["value"], currency), data: optionalText(record["data"]) }
}

/**
 * The summary of an eip155 request. `params` are the request's as the dApp sent them: personal_sign
 * `[message, address]`, eth_signTypedData_v4 `[address, typedData]`, eth_sendTransaction `[transaction]`,
 * wallet_sendCalls `[{ calls }]` (permission requests are put in words by `./permissionApproval.ts`).
 */
export const eip155ApprovalSummary = (method: string, params: unknown, currency: NativeCurrency): ApprovalSummary => {
  const list: ReadonlyArray<unknown> = Array.isArray(params) ? params : [params]
  switch (method) {
    case "personal_sign":
      return { _tag: "Message", text: messageText(list[0]) }
    case "eth_signTypedData_v4":
      return typedData(list[1])
    case "eth_sendTransaction":
      return { _tag: "Transaction", ...call(list[0], currency) }
    case "wallet_sendCalls": {
      const calls = isRecord(list[0]) && Array.isArray(list[0]["calls"]) ? list[0]["calls"] : []
      return { _tag: "Calls", calls: calls.slice(0, MAX_CALLS).map((entry: unknown) => call(entry, currency)) }
    }
    default:
      return { _tag: "Message", text: jsonText(params) }
  }
}
