/**
 * A software WebAuthn authenticator for server tests, on @noble/curves' P-256: it makes a discoverable credential
 * (attestation format `none`, ES256 COSE key) and signs assertions, answering as a browser would (the JSON shapes of
 * @simplewebauthn/browser: base64url fields). The origin and RP ID it claims are its own, so a test can answer from
 * the wrong ones; its counter rises by one at each assertion.
 */
import { p256 } from "@noble/curves/nist"
import { sha256 } from "@noble/hashes/sha2"

const b64url = (bytes: Uint8Array): string => Buffer.from(bytes).toString("base64url")
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text)

// CBOR (RFC 8949) for the few shapes WebAuthn needs: unsigned and negative integers, byte and text strings, maps.
type Cbor = number | string | Uint8Array | ReadonlyMap<Cbor, Cbor>
const head = (major: number, length: number): Array<number> => {
  if (length < 24) return [(major << 5) | length]
  if (length < 0x100) return [(major << 5) | 24, length]
  return [(major << 5) | 25, length >> 8, length & 0xff]
}
const cbor = (value: Cbor): Array<number> => {
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value)
  if (typeof value === "string") return [...head(3, utf8(value).length), ...utf8(value)]
  if (value instanceof Uint8Array) return [...head(2, value.length), ...value]
  return [...head(5, value.size), ...[...value].flatMap(([k, v]) => [...cbor(k), ...cbor(v)])]
}

const u32 = (n: number): Array<number> => [(n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff]

/** What the authenticator claims in its answers. */
export interface SoftAuthenticatorOptions {
  readonly origin: string
  readonly rpId: string
  /** Answered in a frame embedded in a page of this origin (`crossOrigin` and `topOrigin`, as Chromium says it). */
  readonly topOrigin?: string
}

/** A software authenticator holding one credential once {@link SoftAuthenticator.register} ran. */
export class SoftAuthenticator {
  readonly privateKey = p256.utils.randomPrivateKey()
  readonly credentialId = crypto.getRandomValues(new Uint8Array(32))
  counter = 0
  userHandle = ""

  constructor(readonly claims: SoftAuthenticatorOptions) {}

  /** The credential id, base64url. */
  get id(): string {
    return b64url(this.credentialId)
  }

  private clientData(type: "webauthn.create" | "webauthn.get", challenge: string, claims: SoftAuthenticatorOptions) {
    const embedded = claims.topOrigin === undefined ? { crossOrigin: false } : { crossOrigin: true, topOrigin: claims.topOrigin }
    return utf8(JSON.stringify({ type, challenge, origin: claims.origin, ...embedded }))
  }

  // User present, user verified, and (at registration) attested credential data.
  private authData(claims: SoftAuthenticatorOptions, flags: number, extra: Array<number> = []): Uint8Array {
    return new Uint8Array([...sha256(utf8(claims.rpId)), flags, ...u32(this.counter), ...extra])
  }

  /** The answer to registration options (`PublicKeyCredentialCreationOptionsJSON`): `RegistrationResponseJSON`. */
  register(options: Record<string, unknown>, claims: SoftAuthenticatorOptions = this.claims): Record<string, unknown> {
    const user = options["user"] as { readonly id: string }
    this.userHandle = user.id
    const point = p256.getPublicKey(this.privateKey, false)
    const coseKey = new Map<Cbor, Cbor>([
      [1, 2],
      [3, -7],
      [-1, 1],
      [-2, point.slice(1, 33)],
      [-3, point.slice(33, 65)]
    ])
    const attested = [...new Uint8Array(16), ...[this.credentialId.length >> 8, this.credentialId.length & 0xff], ...this.credentialId, ...cbor(coseKey)]
    const authData = this.authData(claims, 0x01 | 0x04 | 0x40, attested)
    const attestationObject = new Uint8Array(
      cbor(
        new Map<Cbor, Cbor>([
          ["fmt", "none"],
          ["attStmt", new Map()],
          ["authData", authData]
        ])
      )
    )
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(this.clientData("webauthn.create", options["challenge"] as string, claims)),
        attestationObject: b64url(attestationObject),
        transports: ["internal"]
      },
      authenticatorAttachment: "platform",
      clientExtensionResults: { prf: { enabled: true } }
    }
  }

  /** The answer to authentication options (`PublicKeyCredentialRequestOptionsJSON`): `AuthenticationResponseJSON`. */
  assert(options: Record<string, unknown>, claims: SoftAuthenticatorOptions = this.claims): Record<string, unknown> {
    this.counter += 1
    const authData = this.authData(claims, 0x01 | 0x04)
    const clientDataJSON = this.clientData("webauthn.get", options["challenge"] as string, claims)
    const signed = new Uint8Array([...authData, ...sha256(clientDataJSON)])
    const signature = p256.sign(sha256(signed), this.privateKey).toDERRawBytes()
    return {
      id: this.id,
      rawId: this.id,
      type: "public-key",
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: this.userHandle
      },
      authenticatorAttachment: "platform",
      clientExtensionResults: {}
    }
  }
}
