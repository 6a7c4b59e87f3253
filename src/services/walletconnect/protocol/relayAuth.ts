/**
 * The relay's side of relay client auth (spec: core/relay/relay-client-auth): `verifyRelayJwt` checks what a client
 * signs with `./relayJwt`. The server imports it; the library's entry points do not, so no page fetches @noble's
 * Ed25519 for it.
 */
import { ed25519 } from "@noble/curves/ed25519"
import { fromBase64Url } from "../../../domain/encoding"
import { publicKeyOfDid, utf8 } from "./relayJwt"

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

/** Checks an Ed25519 signature of `message` by the 32-byte public key `publicKey` (false for any bad input). */
export type Ed25519Verify = (signature: Uint8Array, message: Uint8Array, publicKey: Uint8Array) => boolean

/** @noble's Ed25519 check, which runs anywhere; a server may give its platform's own (`options.verify`). */
const nobleVerify: Ed25519Verify = (signature, message, publicKey) => {
  baseReady()
  try {
    return ed25519.verify(signature, message, publicKey)
  } catch {
    return false
  }
}

/**
 * Checks a relay JWT: EdDSA, its signature by the Ed25519 key of its `iss` did:key, `aud` accepted by `audience`, and
 * `iat` ≤ now (with a minute's skew) < `exp`. Gives the claims, or why it is refused. The signature is checked by
 * `options.verify` when given (the relay gives node's native Ed25519, ~50 times faster than @noble's), else by @noble.
 */
export const verifyRelayJwt = (
  token: string,
  options: { readonly audience: (aud: string) => boolean; readonly now: number; readonly verify?: Ed25519Verify | undefined }
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
  const valid = signature.length === 64 && (options.verify ?? nobleVerify)(signature, utf8(`${parts[0]}.${parts[1]}`), key)
  if (!valid) return { ok: false, refusal: "signature" }
  if (!options.audience(aud)) return { ok: false, refusal: "audience" }
  const now = Math.floor(options.now / 1000)
  if (exp <= now) return { ok: false, refusal: "expired" }
  if (iat > now + CLOCK_SKEW_SECONDS) return { ok: false, refusal: "not yet valid" }
  return { ok: true, claims: { iss, sub, aud, iat, exp } }
}
