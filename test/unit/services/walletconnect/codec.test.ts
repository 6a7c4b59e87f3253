/**
 * The protocol's pure parts: sealed envelopes (type 0 and 1) both ways and refused when touched, the pairing URI, the
 * relay JWT both ways and refused when wrong, the namespaces rule, and the one-click text.
 */
import { ed25519, x25519 } from "@noble/curves/ed25519"
import { hkdf } from "@noble/hashes/hkdf"
import { sha256 } from "@noble/hashes/sha2"
import { bytesToHex } from "@noble/hashes/utils"
import { Effect } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { formatAuthMessage, makeRecap, encodeRecap, statementWithRecap, recapOf, methodsOfRecap } from "../../../../src/services/walletconnect/protocol/cacao"
import {
  deriveSymKey,
  EnvelopeUnreadable,
  generateKeyPair,
  hashKey,
  open,
  randomKey,
  readEnvelope,
  seal,
  unseal
} from "../../../../src/services/walletconnect/protocol/crypto"
import { noblePrimitives } from "../../../../src/services/walletconnect/protocol/noblePrimitives"
import type { Primitives } from "../../../../src/services/walletconnect/protocol/primitiveSet"
import { choosePrimitives, primitives, webCryptoPrimitives } from "../../../../src/services/walletconnect/protocol/primitives"
import { verifyRelayJwt } from "../../../../src/services/walletconnect/protocol/relayAuth"
import { clientIdOf, generateClientSeed, publicKeyOfDid, signRelayJwt } from "../../../../src/services/walletconnect/protocol/relayJwt"
import { namespacesBreak } from "../../../../src/services/walletconnect/protocol/sign"
import { formatPairingUri, parsePairingUri } from "../../../../src/services/walletconnect/protocol/uri"
import { fromBase64, toBase64 } from "../../../../src/domain/encoding"

const key = fc.uint8Array({ minLength: 32, maxLength: 32 }).map(bytesToHex)

describe("envelopes", () => {
  it("decrypt(encrypt(x)) = x, for type 0 and type 1", () => {
    fc.assert(
      fc.property(key, fc.string({ unit: "grapheme" }), key, (symKey, message, sender) => {
        expect(unseal(symKey, seal(symKey, message))).toBe(message)
        const envelope = readEnvelope(seal(symKey, message, { type: 1, senderPublicKey: sender }))
        expect(envelope).not.toBeInstanceOf(EnvelopeUnreadable)
        if (envelope instanceof EnvelopeUnreadable) return
        expect(envelope.type).toBe(1)
        expect(envelope.senderPublicKey).toBe(sender)
        expect(open(symKey, envelope)).toBe(message)
      })
    )
  })

  it("refuses an envelope with any one byte changed, and one opened with another key", () => {
    fc.assert(
      fc.property(key, fc.string({ minLength: 1 }), fc.nat(), fc.integer({ min: 1, max: 255 }), key, (symKey, message, at, flip, other) => {
        const bytes = fromBase64(seal(symKey, message))!
        const i = at % bytes.length
        bytes[i] = bytes[i]! ^ flip
        expect(unseal(symKey, toBase64(bytes))).toBeInstanceOf(EnvelopeUnreadable)
        if (other !== symKey) expect(unseal(other, seal(symKey, message))).toBeInstanceOf(EnvelopeUnreadable)
      })
    )
  })

  it("refuses what is not an envelope: not base64, empty, an unknown type, too short", () => {
    const symKey = randomKey()
    for (const text of ["%%%", "", toBase64(Uint8Array.of(2, ...new Uint8Array(40))), toBase64(Uint8Array.of(0, 1, 2, 3))]) {
      expect(unseal(symKey, text)).toBeInstanceOf(EnvelopeUnreadable)
    }
  })

  it("two peers agree on the same key and topic from each other's public key; a key of small order agrees on none", async () => {
    const [a, b] = await Effect.runPromise(Effect.all([generateKeyPair, generateKeyPair]))
    const shared = await Effect.runPromise(deriveSymKey(a.privateKey, b.publicKey))
    expect(await Effect.runPromise(deriveSymKey(b.privateKey, a.publicKey))).toBe(shared)
    expect(await Effect.runPromise(hashKey(shared))).toMatch(/^[0-9a-f]{64}$/)
    for (const bad of ["00".repeat(32), "01" + "00".repeat(31), "abcd"]) {
      const refused = await Effect.runPromise(Effect.flip(deriveSymKey(a.privateKey, bad)))
      expect(refused._tag).toBe("KeyAgreementFailed")
    }
  })
})

describe("curve and hash primitives", () => {
  const subtle = globalThis.crypto.subtle
  const bytes = (length: number) => fc.uint8Array({ minLength: length, maxLength: length })
  const both: ReadonlyArray<Primitives> = [webCryptoPrimitives(subtle), noblePrimitives]

  it("the platform's WebCrypto is used here (Node has X25519 and Ed25519): nothing of @noble's curves is fetched", async () => {
    expect((await primitives()).name).toBe("webcrypto")
  })

  it("a WebCrypto without X25519 or Ed25519, or none (plain http), gets @noble's", async () => {
    const without = (curve: string): SubtleCrypto =>
      new Proxy(subtle, {
        get: (target, property) =>
          property === "importKey"
            ? (format: KeyFormat, key: BufferSource, algorithm: { name: string }, ...rest: [boolean, Array<KeyUsage>]) =>
                algorithm.name === curve ? Promise.reject(new DOMException("Unrecognized name", "NotSupportedError")) : target.importKey(format as "raw", key, algorithm, ...rest)
            : (Reflect.get(target, property) as unknown)
      })
    expect((await choosePrimitives(without("X25519"))).name).toBe("noble")
    expect((await choosePrimitives(without("Ed25519"))).name).toBe("noble")
    expect((await choosePrimitives(undefined)).name).toBe("noble")
    expect((await choosePrimitives(subtle)).name).toBe("webcrypto")
  })

  it("WebCrypto's and @noble's give the same bytes: SHA-256, HKDF, X25519 agreement, Ed25519 keys and signatures", async () => {
    await fc.assert(
      fc.asyncProperty(bytes(32), bytes(32), fc.uint8Array({ maxLength: 300 }), async (seed, peerSeed, message) => {
        const peerPublic = x25519.getPublicKey(peerSeed)
        const results = await Promise.all(
          both.map(async (p) => [
            bytesToHex(await p.sha256(message)),
            bytesToHex(await p.hkdfSha256(seed, 32)),
            bytesToHex(await p.x25519SharedSecret(seed, peerPublic)),
            bytesToHex(await p.ed25519PublicKey(seed)),
            bytesToHex(await p.ed25519Sign(seed, message))
          ])
        )
        expect(results[0]).toEqual(results[1])
        expect(results[0]).toEqual([
          bytesToHex(sha256(message)),
          bytesToHex(hkdf(sha256, seed, undefined, undefined, 32)),
          bytesToHex(x25519.getSharedSecret(seed, peerPublic)),
          bytesToHex(ed25519.getPublicKey(seed)),
          bytesToHex(ed25519.sign(message, seed))
        ])
      }),
      { numRuns: 30 }
    )
  })

  it("a key pair from either agrees with the other", async () => {
    for (const [a, b] of [both, [...both].reverse()] as const) {
      const mine = await a!.x25519KeyPair()
      const theirs = await b!.x25519KeyPair()
      expect(bytesToHex(await a!.x25519SharedSecret(mine.privateKey, theirs.publicKey))).toBe(bytesToHex(await b!.x25519SharedSecret(theirs.privateKey, mine.publicKey)))
    }
  })
})

describe("pairing URI", () => {
  it("reads what it writes; a key that does not hash to the topic is refused", async () => {
    const symKey = randomKey()
    const topic = await Effect.runPromise(hashKey(symKey))
    expect(topic).toBe(bytesToHex(sha256(Buffer.from(symKey, "hex"))))
    const uri = formatPairingUri({ topic, symKey, expiryTimestamp: 1_900_000_000, methods: ["wc_sessionAuthenticate"] })
    expect(uri).toBe(`wc:${topic}@2?relay-protocol=irn&symKey=${symKey}&expiryTimestamp=1900000000&methods=wc_sessionAuthenticate`)
    const parse = (text: string) => Effect.runPromise(parsePairingUri(text))
    expect(await parse(uri)).toEqual({
      topic,
      symKey,
      relayProtocol: "irn",
      expiryTimestamp: 1_900_000_000,
      methods: ["wc_sessionAuthenticate"]
    })
    expect(await parse(uri.replace(symKey, randomKey()))).toBeUndefined()
    expect(await parse("wc:abc@1?symKey=00")).toBeUndefined()
  })
})

describe("relay JWT", () => {
  const aud = "ws://127.0.0.1:4000"
  const now = 1_800_000_000_000
  const accept = (token: string, at = now) => verifyRelayJwt(token, { audience: (value) => value === aud, now: at })

  const sign = (seed: string, claims: { aud: string; sub: string; now: number }) => Effect.runPromise(signRelayJwt(seed, claims))
  const idOf = (seed: string) => Effect.runPromise(clientIdOf(seed))

  it("verifies what a client signs: its did:key issuer, the audience, the time", async () => {
    const seed = generateClientSeed()
    const result = accept(await sign(seed, { aud, sub: randomKey(), now }))
    expect(result).toMatchObject({ ok: true, claims: { iss: await idOf(seed), aud, iat: now / 1000, exp: now / 1000 + 86_400 } })
    expect(bytesToHex(publicKeyOfDid(await idOf(seed))!)).toBe(bytesToHex(ed25519.getPublicKey(Uint8Array.from(Buffer.from(seed, "hex")))))
  })

  it("refuses another key's signature, another relay, an expired token, a claim of another client's id", async () => {
    const seed = generateClientSeed()
    const token = await sign(seed, { aud, sub: randomKey(), now })
    const [header, payload, signature] = token.split(".")
    const forged = `${header}.${payload}.${(await sign(generateClientSeed(), { aud, sub: "x", now })).split(".")[2]}`
    expect(accept(forged)).toEqual({ ok: false, refusal: "signature" })
    expect(accept(await sign(seed, { aud: "ws://elsewhere", sub: "x", now }))).toEqual({ ok: false, refusal: "audience" })
    expect(accept(token, now + 86_401_000)).toEqual({ ok: false, refusal: "expired" })
    const claims = JSON.parse(Buffer.from(payload!, "base64url").toString()) as Record<string, unknown>
    const impostor = Buffer.from(JSON.stringify({ ...claims, iss: await idOf(generateClientSeed()) })).toString("base64url")
    expect(accept(`${header}.${impostor}.${signature}`)).toEqual({ ok: false, refusal: "signature" })
    expect(accept("not.a.jwt")).toEqual({ ok: false, refusal: "malformed" })
  })
})

describe("namespaces a session may have", () => {
  const proposed = { optionalNamespaces: { eip155: { chains: ["eip155:1", "eip155:10"], methods: ["personal_sign"], events: [] } } }
  const granted = (accounts: Array<string>, key = "eip155") => ({ [key]: { accounts, methods: ["personal_sign"], events: [] } })

  it("keeps accounts on proposed chains of proposed namespaces", () => {
    expect(namespacesBreak(proposed, granted(["eip155:10:0xabc"]))).toBeUndefined()
  })

  it("refuses a namespace not proposed, an account on another chain, a required namespace left out, nothing at all", () => {
    expect(namespacesBreak(proposed, granted(["solana:x:abc"], "solana"))).toContain("not proposed")
    expect(namespacesBreak(proposed, granted(["eip155:5:0xabc"]))).toContain("chain not proposed")
    expect(namespacesBreak({ ...proposed, requiredNamespaces: { solana: { chains: ["solana:x"], methods: [], events: [] } } }, granted(["eip155:1:0xabc"]))).toContain("required")
    expect(namespacesBreak(proposed, {})).toBe("no namespace granted")
  })
})

describe("one-click text", () => {
  it("writes the ReCap's sentence into the statement and the CAIP-122 text WalletConnect signs", () => {
    const recap = makeRecap("eip155", "request", ["personal_sign", "eth_sendTransaction"])
    expect(methodsOfRecap(recapOf([encodeRecap(recap)])!)).toEqual(["eth_sendTransaction", "personal_sign"])
    expect(statementWithRecap("Sign in", recap)).toBe(
      "Sign in I further authorize the stated URI to perform the following actions on my behalf: (1) 'request': 'eth_sendTransaction', 'personal_sign' for 'eip155'."
    )
    const text = formatAuthMessage({
      iss: "did:pkh:eip155:1:0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
      domain: "shop.test",
      aud: "https://shop.test",
      version: "1",
      nonce: "abcd1234",
      iat: "2030-01-01T00:00:00.000Z",
      statement: "Sign in",
      resources: [encodeRecap(recap)]
    })
    expect(text.split("\n")).toEqual([
      "shop.test wants you to sign in with your Ethereum account:",
      "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266",
      "",
      statementWithRecap("Sign in", recap),
      "",
      "URI: https://shop.test",
      "Version: 1",
      "Chain ID: 1",
      "Nonce: abcd1234",
      "Issued At: 2030-01-01T00:00:00.000Z",
      "Resources:",
      `- ${encodeRecap(recap)}`
    ])
  })
})
