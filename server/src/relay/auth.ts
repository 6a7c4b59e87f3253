/**
 * Who is talking to the relay (spec: core/relay/relay-client-auth): the `auth` JWT of the connection URL, its EdDSA
 * signature checked against the Ed25519 key of its `iss` did:key, `aud` this relay, `exp` not passed. The verified
 * `iss` is the client's id: nobody can claim another client's id (and so take its acknowledgements or its mailbox)
 * without its key. A refused connection is closed with RELAY_AUTH_REFUSED and the reason.
 */
import { createPublicKey, verify } from "node:crypto"
import { type Ed25519Verify, verifyRelayJwt } from "../../../src/services/walletconnect/protocol/relayAuth"

/**
 * Node's native Ed25519 check (OpenSSL): a connection's JWT costs tens of microseconds instead of the milliseconds
 * @noble's pure-JS check takes, which bounded how fast a node could take new connections (the relay's CPU profile at
 * 1,000 clients showed a fifth of its time there). Any bad input is a refusal, never a throw.
 */
export const nodeEd25519Verify: Ed25519Verify = (signature, message, publicKey) => {
  if (publicKey.length !== 32 || signature.length !== 64) return false
  try {
    const key = createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: Buffer.from(publicKey).toString("base64url") }, format: "jwk" })
    return verify(null, message, key, signature)
  } catch {
    return false
  }
}

/** The close code of a connection whose auth JWT is missing or refused (4000–4999: the application's own). */
export const RELAY_AUTH_REFUSED = 4401

/** The outcome of a connection's authentication: the client's id, or why it is refused. */
export type RelayAuthentication = { readonly ok: true; readonly clientId: string } | { readonly ok: false; readonly reason: string }

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]"])

/**
 * Authenticates a connection to the relay listening on `port`: the JWT in the URL's `auth` must be valid now and be
 * meant for this relay (`aud` a ws:/wss: URL of a loopback host, or of the host the client connected to, on this port;
 * or of `publicUrl`, where clients reach the relay through a proxy on another host and port).
 */
export const authenticateConnection = (
  requestUrl: string | undefined,
  options: { readonly port: number; readonly host: string | undefined; readonly now: number; readonly publicUrl?: string | undefined }
): RelayAuthentication => {
  const token = new URL(requestUrl ?? "/", "ws://relay").searchParams.get("auth")
  if (token === null || token === "") return { ok: false, reason: "Unauthorized: an auth JWT is required" }
  const audience = (aud: string) => {
    try {
      const url = new URL(aud)
      if (options.publicUrl !== undefined && url.origin === new URL(options.publicUrl).origin) return true
      const hostOk = LOOPBACK.has(url.hostname) || (options.host !== undefined && url.host === options.host)
      return (url.protocol === "ws:" || url.protocol === "wss:") && hostOk && Number(url.port) === options.port
    } catch {
      return false
    }
  }
  const checked = verifyRelayJwt(token, { audience, now: options.now, verify: nodeEd25519Verify })
  return checked.ok ? { ok: true, clientId: checked.claims.iss } : { ok: false, reason: `Unauthorized: auth JWT refused (${checked.refusal})` }
}
