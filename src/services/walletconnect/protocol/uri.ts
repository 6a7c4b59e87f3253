/**
 * The pairing URI (spec: core/pairing/pairing-uri, EIP-1328):
 * `wc:{topic}@2?relay-protocol=irn&symKey={key}&expiryTimestamp={s}&methods={m,…}`. Pure.
 */
import { Effect } from "effect"
import { hashKey, isKey } from "./crypto"

/** What a pairing URI carries. */
export interface PairingUri {
  readonly topic: string
  readonly symKey: string
  readonly relayProtocol: string
  /** Seconds since the epoch; absent in old URIs. */
  readonly expiryTimestamp: number | undefined
  readonly methods: ReadonlyArray<string>
}

/** Writes a pairing URI. */
export const formatPairingUri = (uri: Omit<PairingUri, "relayProtocol">): string => {
  const query = [
    "relay-protocol=irn",
    `symKey=${uri.symKey}`,
    ...(uri.expiryTimestamp === undefined ? [] : [`expiryTimestamp=${uri.expiryTimestamp}`]),
    ...(uri.methods.length === 0 ? [] : [`methods=${uri.methods.map(encodeURIComponent).join(",")}`])
  ]
  return `wc:${uri.topic}@2?${query.join("&")}`
}

/**
 * Reads a pairing URI; `undefined` when it is not a version 2 WalletConnect URI with a topic and a 32-byte key whose
 * hash is the topic (a URI whose key does not match its topic would pair on a topic nobody else can read).
 */
export const parsePairingUri = (text: string): Effect.Effect<PairingUri | undefined> =>
  Effect.gen(function* () {
    const match = /^wc:([0-9a-f]{64})@2\?(.*)$/i.exec(text.trim())
    if (match === null) return undefined
    const params = new URLSearchParams(match[2])
    const topic = match[1]!.toLowerCase()
    const symKey = params.get("symKey")?.toLowerCase()
    if (!isKey(symKey) || (yield* hashKey(symKey)) !== topic) return undefined
    const expiry = params.get("expiryTimestamp")
    const methods = params.get("methods") ?? ""
    return {
      topic,
      symKey,
      relayProtocol: params.get("relay-protocol") ?? "irn",
      expiryTimestamp: expiry !== null && /^\d+$/.test(expiry) ? Number(expiry) : undefined,
      methods: methods
        .replace(/^\[|\]$/g, "")
        .split(",")
        .map((m) => m.trim())
        .filter((m) => m !== "")
    }
  })
