/**
 * The relay checks a connection's JWT with node's native Ed25519 (`nodeEd25519Verify`): it must say exactly what
 * @noble's check says, for good signatures, tampered ones, other keys and garbage, and never throw.
 */
import { ed25519 } from "@noble/curves/ed25519"
import { Effect } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { authenticateConnection, nodeEd25519Verify } from "../../../server/src/relay/auth"
import { generateClientSeed, signRelayJwt } from "../../../src/services/walletconnect/protocol/relayJwt"

const noble = (signature: Uint8Array, message: Uint8Array, key: Uint8Array) => {
  try {
    return ed25519.verify(signature, message, key)
  } catch {
    return false
  }
}

describe("the relay's Ed25519 check", () => {
  it("agrees with @noble on signatures, tampered signatures and messages, and other keys", () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ maxLength: 200 }), fc.nat(63), (seed, message, at) => {
        const key = ed25519.getPublicKey(seed)
        const signature = ed25519.sign(message, seed)
        expect(nodeEd25519Verify(signature, message, key)).toBe(true)
        const tampered = Uint8Array.from(signature)
        tampered[at] = tampered[at]! ^ 1
        expect(nodeEd25519Verify(tampered, message, key)).toBe(noble(tampered, message, key))
        expect(nodeEd25519Verify(tampered, message, key)).toBe(false)
        const other = ed25519.getPublicKey(ed25519.utils.randomSecretKey())
        expect(nodeEd25519Verify(signature, message, other)).toBe(false)
        if (message.length > 0) {
          const changed = Uint8Array.from(message)
          changed[0] = changed[0]! ^ 0x80
          expect(nodeEd25519Verify(signature, changed, key)).toBe(false)
        }
      }),
      { numRuns: 60 }
    )
  })

  it("refuses garbage without throwing: keys and signatures of any length and content", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 70 }), fc.uint8Array({ maxLength: 40 }), fc.uint8Array({ maxLength: 8 }), (signature, key, message) => {
        expect(nodeEd25519Verify(signature, message, key)).toBe(noble(signature, message, key))
      }),
      { numRuns: 200 }
    )
  })

  it("authenticates a client's relay JWT with it, and refuses a forged one", async () => {
    const now = Date.now()
    const aud = "ws://127.0.0.1:4000"
    const token = await Effect.runPromise(signRelayJwt(generateClientSeed(), { aud, sub: "client", now }))
    const url = (auth: string) => `/?auth=${auth}&projectId=p`
    expect(authenticateConnection(url(token), { port: 4000, host: undefined, now })).toMatchObject({ ok: true })
    const [header, payload] = token.split(".")
    const other = await Effect.runPromise(signRelayJwt(generateClientSeed(), { aud, sub: "client", now }))
    expect(authenticateConnection(url(`${header}.${payload}.${other.split(".")[2]}`), { port: 4000, host: undefined, now })).toEqual({
      ok: false,
      reason: "Unauthorized: auth JWT refused (signature)"
    })
  })
})
