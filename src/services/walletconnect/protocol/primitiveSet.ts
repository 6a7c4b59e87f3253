/**
 * The curve and hash primitives WalletConnect needs, as one interface that WebCrypto's (`./primitives`) and @noble's
 * (`./noblePrimitives`, fetched only where WebCrypto lacks the curves) both implement.
 */

/** The primitives, each on raw bytes. */
export interface Primitives {
  /** Which implementation this is (the tests check which one a platform gets). */
  readonly name: "webcrypto" | "noble"
  readonly sha256: (data: Uint8Array) => Promise<Uint8Array>
  /** HKDF-SHA256 with no salt and no info, `length` bytes. */
  readonly hkdfSha256: (ikm: Uint8Array, length: number) => Promise<Uint8Array>
  /** A fresh X25519 key pair (the private key as its 32 raw bytes). */
  readonly x25519KeyPair: () => Promise<{ readonly privateKey: Uint8Array; readonly publicKey: Uint8Array }>
  readonly x25519SharedSecret: (privateKey: Uint8Array, peerPublicKey: Uint8Array) => Promise<Uint8Array>
  /** The Ed25519 public key of a 32-byte seed. */
  readonly ed25519PublicKey: (seed: Uint8Array) => Promise<Uint8Array>
  readonly ed25519Sign: (seed: Uint8Array, message: Uint8Array) => Promise<Uint8Array>
}
