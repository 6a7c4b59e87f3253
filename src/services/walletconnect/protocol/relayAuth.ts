/**
 * Who a relay client is (spec: core/relay/relay-client-auth): an Ed25519 key whose `did:key` is the client id, and a
 * JWT it signs for each connection (`iss` its did:key, `sub` a random session id, `aud` the relay's URL, `iat`/`exp`
 * in seconds). A client signs with the page's primitives (`./primitives`: WebCrypto, else @noble); `verifyRelayJwt`
 * is the relay's side of the same rules, on the server, with @noble.
 */
import { ed25519 } from "@noble/curves/ed25519"
import { Effect } from "effect"
import { fromBase58, fromBase64, toBase58, toBase64 } from "../../../domain/encoding"
import { fromHex, randomKey } from "./crypto"
import { primitives } from "./primitives"

// The multicodec of an Ed25519 public key (0xed, as a varint), which a did:key carries before the key.
const ED25519_MULTICODEC = [0xed, 0x01] as const
const DID_KEY_PREFIX = "did:key:z"
/** How long a relay JWT lasts: one day, as WalletConnect clients sign them. */
export const RELAY_JWT_TTL_SECONDS = 86_400

const toBase64Url = (bytes: Uint8Array) => toBase64(bytes).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
const fromBase64Url = (text: string) =>
  /^[A-Za-z0-9_-]*$/.test(text) ? fromBase64(text.replace(/-/g, "+").replace(/_/g, "/").padEnd(Math.ceil(text.length / 4) * 4, "=")) : undefined
const utf8 = (text: string) => new TextEncoder().encode(text)
const json = (value: unknown) => toBase64Url(utf8(JSON.stringify(value)))
const seedBytes = (seed: string) => fromHex(seed) ?? new Uint8Array()

/** A new client key: an Ed25519 seed, hex. */
export const generateClientSeed = (): string => randomKey()

/** The `did:key` of an Ed25519 public key. */
export const didKeyOf = (publicKey: Uint8Array): string => `${DID_KEY_PREFIX}${toBase58(Uint8Array.of(...ED25519_MULTICODEC, ...publicKey))}`

/** The Ed25519 public key a `did:key` names, or `undefined` when it names no Ed25519 key. */
export const publicKeyOfDid = (did: string): Uint8Array | undefined => {
  if (!did.startsWith(DID_KEY_PREFIX)) return undefined
  const bytes = fromBase58(did.slice(DID_KEY_PREFIX.length))
  if (bytes === undefined || bytes.length !== 34 || bytes[0] !== ED25519_MULTICODEC[0] || bytes[1] !== ED25519_MULTICODEC[1]) return undefined
  return bytes.subarray(2)
}

/** The client id (did:key) of a client seed. */
export const clientIdOf = (seed: string): Effect.Effect<string> =>
  Effect.promise(async () => didKeyOf(await (await primitives()).ed25519PublicKey(seedBytes(seed))))

/** The JWT a client signs to connect to the relay at `aud`, valid `ttl` seconds from `now` (ms). */
export const signRelayJwt = (
  seed: string,
  options: { readonly aud: string; readonly sub: string; readonly now: number; readonly ttl?: number }
): Effect.Effect<string> =>
  Effect.promise(async () => {
    const using = await primitives()
    const key = seedBytes(seed)
    const iat = Math.floor(options.now / 1000)
    const header = json({ alg: "EdDSA", typ: "JWT" })
    const payload = json({ iss: didKeyOf(await using.ed25519PublicKey(key)), sub: options.sub, aud: options.aud, iat, exp: iat + (options.ttl ?? RELAY_JWT_TTL_SECONDS) })
    const signature = await using.ed25519Sign(key, utf8(`${header}.${payload}`))
    return `${header}.${payload}.${toBase64Url(signature)}`
  })

/** Why a relay JWT is refused. */
export type RelayJwtRefusal = "malformed" | "algorithm" | "issuer" | "signature" | "audience" | "expired" | "not yet valid"

/** What a verified relay JWT says. */
export interface RelayJwtClaims {
  readonly iss: string
  readonly sub: string
  readonly aud: string
  readonly iat: number
  readonly exp: number
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)
const parse = (part: string | undefined): unknown => {
  const bytes = part === undefined ? undefined : fromBase64Url(part)
  if (bytes === undefined) return undefined
  try {
    return JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes))
  } catch {
    return undefined
  }
}

// A small precomputed window for the base point: the relay's first check costs ~10 ms instead of ~200 (the default
// table is built on first use).
let precomputed = false
const baseReady = () => {
  if (precomputed) return
  ed25519.Point.BASE.precompute(4, false)
  precomputed = true
}

// A client's clock may run a little ahead of the relay's.
const CLOCK_SKEW_SECONDS = 60

/**
 * Checks a relay JWT: EdDSA, its signature by the Ed25519 key of its `iss` did:key, `aud` accepted by `audience`, and
 * `iat` ≤ now (with a minute's skew) < `exp`. Gives the claims, or why it is refused.
 */
export const verifyRelayJwt = (
  token: string,
  options: { readonly audience: (aud: string) => boolean; readonly now: number }
): { readonly ok: true; readonly claims: RelayJwtClaims } | { readonly ok: false; readonly refusal: RelayJwtRefusal } => {
  const parts = token.split(".")
  const header = parse(parts[0])
  const payload = parse(parts[1])
  const signature = parts.length === 3 ? fromBase64Url(parts[2]!) : undefined
  if (!isRecord(header) || !isRecord(payload) || signature === undefined) return { ok: false, refusal: "malformed" }
  if (header["alg"] !== "EdDSA") return { ok: false, refusal: "algorithm" }
  const { iss, sub, aud, iat, exp } = payload
  if (typeof iss !== "string" || typeof sub !== "string" || typeof aud !== "string" || typeof iat !== "number" || typeof exp !== "number") {
    return { ok: false, refusal: "malformed" }
  }
  const key = publicKeyOfDid(iss)
  if (key === undefined) return { ok: false, refusal: "issuer" }
  baseReady()
  let valid = false
  try {
    valid = signature.length === 64 && ed25519.verify(signature, utf8(`${parts[0]}.${parts[1]}`), key)
  } catch {
    valid = false
  }
  if (!valid) return { ok: false, refusal: "signature" }
  if (!options.audience(aud)) return { ok: false, refusal: "audience" }
  const now = Math.floor(options.now / 1000)
  if (exp <= now) return { ok: false, refusal: "expired" }
  if (iat > now + CLOCK_SKEW_SECONDS) return { ok: false, refusal: "not yet valid" }
  return { ok: true, claims: { iss, sub, aud, iat, exp } }
}
