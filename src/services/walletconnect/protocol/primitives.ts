/**
 * The curve and hash primitives WalletConnect needs (X25519, Ed25519, SHA-256, HKDF-SHA256), from the platform's
 * WebCrypto when it has X25519 and Ed25519 (Chromium, Firefox, Safari and Node of today), else from @noble's
 * audited code (`./noblePrimitives`), which is fetched only then. A page on plain http (no `crypto.subtle`) or an
 * older browser gets @noble; the others fetch nothing for these. Both give the same bytes: X25519 and Ed25519 are
 * deterministic, and the tests check one against the other.
 */
import type { Primitives } from "./primitiveSet"

// PKCS #8 wraps a 32-byte X25519 or Ed25519 private key (RFC 8410) behind a fixed 16-byte header naming its curve.
const pkcs8Header = (curveOid: number) => Uint8Array.of(0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, curveOid, 0x04, 0x22, 0x04, 0x20)
const X25519_OID = 0x6e
const ED25519_OID = 0x70
const pkcs8 = (curveOid: number, key: Uint8Array): Uint8Array<ArrayBuffer> => {
  const header = pkcs8Header(curveOid)
  const wrapped = new Uint8Array(header.length + key.length)
  wrapped.set(header)
  wrapped.set(key, header.length)
  return wrapped
}
// WebCrypto's inputs must be backed by an ArrayBuffer (not a shared one): a copy is.
const own = (bytes: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(bytes)
const fromBase64Url = (text: string): Uint8Array => Uint8Array.from(atob(text.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0))

/** The primitives over a WebCrypto `SubtleCrypto`. */
export const webCryptoPrimitives = (subtle: SubtleCrypto): Primitives => {
  const ed25519Key = (seed: Uint8Array) => subtle.importKey("pkcs8", pkcs8(ED25519_OID, seed), { name: "Ed25519" }, true, ["sign"])
  return {
    name: "webcrypto",
    sha256: async (data) => new Uint8Array(await subtle.digest("SHA-256", own(data))),
    hkdfSha256: async (ikm, length) => {
      const key = await subtle.importKey("raw", own(ikm), "HKDF", false, ["deriveBits"])
      return new Uint8Array(await subtle.deriveBits({ name: "HKDF", hash: "SHA-256", salt: new Uint8Array(), info: new Uint8Array() }, key, length * 8))
    },
    x25519KeyPair: async () => {
      const pair = (await subtle.generateKey({ name: "X25519" }, true, ["deriveBits"])) as CryptoKeyPair
      const [privateKey, publicKey] = await Promise.all([subtle.exportKey("pkcs8", pair.privateKey), subtle.exportKey("raw", pair.publicKey)])
      return { privateKey: new Uint8Array(privateKey).slice(-32), publicKey: new Uint8Array(publicKey) }
    },
    x25519SharedSecret: async (privateKey, peerPublicKey) => {
      const [mine, theirs] = await Promise.all([
        subtle.importKey("pkcs8", pkcs8(X25519_OID, privateKey), { name: "X25519" }, false, ["deriveBits"]),
        subtle.importKey("raw", own(peerPublicKey), { name: "X25519" }, false, [])
      ])
      return new Uint8Array(await subtle.deriveBits({ name: "X25519", public: theirs }, mine, 256))
    },
    ed25519PublicKey: async (seed) => {
      const jwk = await subtle.exportKey("jwk", await ed25519Key(seed))
      return fromBase64Url(jwk.x ?? "")
    },
    ed25519Sign: async (seed, message) => new Uint8Array(await subtle.sign({ name: "Ed25519" }, await ed25519Key(seed), own(message)))
  }
}

// A valid public key of each curve (each one's base point), to ask the platform whether it knows the curve.
const X25519_BASE_POINT = Uint8Array.of(9, ...new Array<number>(31).fill(0))
const ED25519_BASE_POINT = Uint8Array.of(0x58, ...new Array<number>(31).fill(0x66))

/** Whether `subtle` does X25519 and Ed25519 (some browsers of 2024 and earlier do not). */
export const webCryptoHasCurves = async (subtle: SubtleCrypto | undefined): Promise<boolean> => {
  if (subtle === undefined) return false
  try {
    await Promise.all([
      subtle.importKey("raw", own(X25519_BASE_POINT), { name: "X25519" }, false, []),
      subtle.importKey("raw", own(ED25519_BASE_POINT), { name: "Ed25519" }, false, ["verify"])
    ])
    return true
  } catch {
    return false
  }
}

/**
 * Chooses the primitives for a `subtle` (`undefined`: none, as on a page served over plain http): WebCrypto's when it
 * has both curves, else @noble's, fetched now.
 */
export const choosePrimitives = async (subtle: SubtleCrypto | undefined): Promise<Primitives> =>
  subtle !== undefined && (await webCryptoHasCurves(subtle))
    ? webCryptoPrimitives(subtle)
    : (await import("./noblePrimitives")).noblePrimitives

let chosen: Promise<Primitives> | undefined

/** The page's primitives, chosen once. */
export const primitives = (): Promise<Primitives> => {
  chosen ??= choosePrimitives(globalThis.crypto?.subtle).catch((error: unknown) => {
    chosen = undefined
    throw error
  })
  return chosen
}
