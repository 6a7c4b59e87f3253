/**
 * WalletConnect's Verify (specs: core/verify/verify-client-api, servers/verify/verify-server-api): an attestation id
 * is the SHA-256 of the JSON-RPC text a dapp sends; the dapp registers it with the Verify server under its origin
 * (`POST {verify}/attestation/{id}` with `{ origin }`) before the message goes out, and the wallet, which computes the
 * same id from the text it opens, asks the server whose it is (`GET {verify}/attestation/{id}` → `{ origin, isScam }`).
 * Used only when a host names a Verify server; nothing here runs otherwise. HTTP is the platform's `fetch`, at the edge.
 */
import { Data, Effect, Schema } from "effect"

/** The Verify server could not be asked, or refused: why. */
export class VerifyUnavailable extends Data.TaggedError("VerifyUnavailable")<{ readonly message: string }> {}

const base = (verifyUrl: string) => verifyUrl.replace(/\/+$/, "")

const ask = (url: string, init: RequestInit) =>
  Effect.tryPromise({
    try: (signal) => fetch(url, { ...init, signal }),
    catch: (error) => new VerifyUnavailable({ message: `The Verify server cannot be reached: ${error instanceof Error ? error.message : String(error)}` })
  })

/** Registers an attestation id under `origin` with the Verify server at `verifyUrl`. */
export const registerAttestation = (verifyUrl: string, origin: string, attestationId: string): Effect.Effect<void, VerifyUnavailable> =>
  Effect.flatMap(
    ask(`${base(verifyUrl)}/attestation/${attestationId}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ origin })
    }),
    (response) => (response.ok ? Effect.void : Effect.fail(new VerifyUnavailable({ message: `The Verify server answered ${response.status}` })))
  )

/** What a Verify server says of an attestation: the origin that registered it, and whether that origin is a scam. */
export const Attestation = Schema.Struct({ origin: Schema.String, isScam: Schema.optionalKey(Schema.NullOr(Schema.Boolean)) })
/** What a Verify server says of an attestation. */
export type Attestation = typeof Attestation.Type

const decodeAttestation = Schema.decodeUnknownEffect(Attestation)

/** The attestation registered under `attestationId`, or `undefined` when the server has none (404). */
export const resolveAttestation = (verifyUrl: string, attestationId: string): Effect.Effect<Attestation | undefined, VerifyUnavailable> =>
  Effect.gen(function* () {
    const response = yield* ask(`${base(verifyUrl)}/attestation/${attestationId}`, { method: "GET" })
    if (response.status === 404) return undefined
    if (!response.ok) return yield* new VerifyUnavailable({ message: `The Verify server answered ${response.status}` })
    const body = yield* Effect.tryPromise({ try: () => response.json() as Promise<unknown>, catch: () => new VerifyUnavailable({ message: "The Verify server's answer is not JSON" }) })
    return yield* decodeAttestation(body).pipe(Effect.mapError(() => new VerifyUnavailable({ message: "The Verify server's answer is not an attestation" })))
  })

/** How a wallet judges a request by its attestation: the dapp's claimed URL against the origin Verify names. */
export type Validation = "VALID" | "INVALID" | "UNKNOWN"

/** The validation of a dapp whose metadata says `claimedUrl`, given its attestation (none: UNKNOWN). */
export const validationOf = (claimedUrl: string, attestation: Attestation | undefined): Validation => {
  if (attestation === undefined) return "UNKNOWN"
  try {
    return new URL(claimedUrl).origin === new URL(attestation.origin).origin ? "VALID" : "INVALID"
  } catch {
    return "INVALID"
  }
}
