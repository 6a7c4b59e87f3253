/**
 * WalletConnect's curve and hash primitives from @noble (audited, MIT), for platforms whose WebCrypto lacks X25519 or
 * Ed25519, or that have no WebCrypto (plain http): fetched by `./primitives` only then.
 */
import { ed25519, x25519 } from "@noble/curves/ed25519"
import { hkdf } from "@noble/hashes/hkdf"
import { sha256 } from "@noble/hashes/sha2"
import type { Primitives } from "./primitiveSet"

/** The primitives, from @noble. */
export const noblePrimitives: Primitives = {
  name: "noble",
  sha256: async (data) => sha256(data),
  hkdfSha256: async (ikm, length) => hkdf(sha256, ikm, undefined, undefined, length),
  x25519KeyPair: async () => {
    const privateKey = x25519.utils.randomPrivateKey()
    return { privateKey, publicKey: x25519.getPublicKey(privateKey) }
  },
  x25519SharedSecret: async (privateKey, peerPublicKey) => x25519.getSharedSecret(privateKey, peerPublicKey),
  ed25519PublicKey: async (seed) => ed25519.getPublicKey(seed),
  ed25519Sign: async (seed, message) => ed25519.sign(message, seed)
}
