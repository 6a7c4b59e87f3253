/**
 * Who a relay client is (spec: core/relay/relay-client-auth): an Ed25519 key whose `did:key` is the client id, and a
 * JWT it signs for each connection (`iss` its did:key, `sub` a random session id, `aud` the relay's URL, `iat`/`exp`
 * in seconds), with the page's primitives (`./primitives`: WebCrypto, else @noble). The relay's side of the same
 * rules is `./relayAuth` (`verifyRelayJwt`), which the server imports and no page fetches.
 */
import { Effect } from "effect"
import { fromBase58, toBase58, toBase64Url } from "../../../domain/encoding"
import { fromHex, randomKey } from "./crypto"
import { primitives } from "./primitives"

// The multicodec of an Ed25519 public key (0xed, as a varint), which a did:key carries before the key.
const ED25519_MULTICODEC = [0xed, 0x01] as const
const DID_KEY_PREFIX = "did:key:z"
/** How long a relay JWT lasts: one day, as WalletConnect clients sign them. */
export const RELAY_JWT_TTL_SECONDS = 86_400

/** A text's UTF-8 bytes. */
export const utf8 = (text: string) => new TextEncoder().encode(text)
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

