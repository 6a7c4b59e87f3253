/**
 * Sign-in sessions (spec 4 and 7.4; issue 13): a nonce for the account's next sign-in message, the signed message
 * kept as a session once every check holds, the account's live sessions, and revocation. Kept in the services'
 * database (`devstack/db`, tables `siwx_nonces`, `siwx_nonce_uses` and `siwx_sessions`), so they survive a restart.
 *
 * One-click sign-in (WalletConnect's `wc_sessionAuthenticate`) asks for the nonce before any account is known:
 * `POST /v1/sessions/nonce` gives one bound to no account, which each account (a chain and an address) may use once
 * within its 10 minutes, so the messages a wallet signs for several chains with it each become a session. The text a
 * wallet signs there (WalletConnect formats the CACAO's payload, its statement ending in the ReCap sentence and a
 * `Resources: - urn:recap:…` line) is kept under the same rule as every other: it must be the EIP-4361 text of its
 * data, byte for byte (WalletConnect 2.25 writes the same lines in the same order), so a wallet that writes its
 * address in `iss` without the EIP-55 checksum signs a text this service refuses, and the visitor is asked to sign
 * the ordinary way.
 */
import { createHash, randomBytes, randomUUID } from "node:crypto"
import { hexToU8a, stringToU8a, u8aWrapBytes } from "@polkadot/util"
import { cryptoWaitReady, decodeAddress, ed25519Verify, secp256k1Verify, sr25519Verify } from "@polkadot/util-crypto"
import { getBase58Encoder, getPublicKeyFromAddress, isAddress, type SignatureBytes, verifySignature } from "@solana/kit"
import { Effect, Result, Schema } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { SqlClient } from "effect/sql"
import { createPublicClient, type Hex, isHex, type PublicClient, verifyMessage } from "viem"
import type { AddSessionBody, RemoteSiwxSession, SessionNonceResponse } from "../../../src/domain/Api"
import { bitcoinNetworkKindOf } from "../../../src/domain/bitcoinNetwork"
import { type CaipAddress, parseCaipAddress } from "../../../src/domain/Caip"
import { type SiwxMessageData, SiwxMessageData as SiwxMessageDataSchema } from "../../../src/domain/Siwx"
import { formatSiwxMessage } from "../../../src/domain/siwxMessage"
import { BadGateway, BadRequest, Forbidden, NotFound } from "../../../src/domain/http/errors"
import { ServicesApi } from "../../../src/domain/http/ServicesApi"
import { isSs58Address } from "../../../src/services/polkadot/ss58"
import { isBip322Signature, verifyBip322 } from "../bitcoin/bip322"
import { BITCOIN_NETWORKS } from "../bitcoin/networks"
import type { Database } from "../db/index"
import { NodeUnreachable, rpcCall, upstreamTransport } from "../lib/jsonRpc"
import { query } from "./catalogueApi"
import { type EvmChainState, ServicesContext, type ServicesState } from "./state"

/** How long a nonce is accepted after it was handed out (issue 13: 10 minutes). */
const SESSION_NONCE_TTL_MS = 10 * 60_000
/** How far a wallet's clock may run ahead of ours: an issuedAt up to this much in the future is accepted. */
const SESSION_CLOCK_SKEW_MS = 60_000
/** The `account` of a nonce bound to none (`POST /v1/sessions/nonce`): never an account's key, which has colons. */
const ANY_ACCOUNT = "*"

interface Account {
  readonly namespace: string
  readonly chainId: string
  readonly address: string
  /** How the account is stored: EVM addresses lower case (they compare case-insensitively), others as given. */
  readonly key: string
}

const accountOf = (caip: CaipAddress): Effect.Effect<Account, BadRequest> => {
  const parts = parseCaipAddress(caip)
  if (Result.isFailure(parts)) return Effect.fail(new BadRequest({ error: parts.failure.message }))
  const { namespace, reference, address } = parts.success
  const chainId = `${namespace}:${reference}`
  const stored = namespace === "eip155" ? address.toLowerCase() : address
  return Effect.succeed({ namespace, chainId, address, key: `${chainId}:${stored}` })
}

const sameAccount = (account: Account, data: SiwxMessageData): boolean =>
  data.chainId === account.chainId &&
  (account.namespace === "eip155"
    ? data.accountAddress.toLowerCase() === account.address.toLowerCase()
    : data.accountAddress === account.address)

/** The first line where two texts part, for an error a developer can act on. */
const firstDifference = (got: string, want: string): string => {
  const a = got.split("\n")
  const b = want.split("\n")
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    if (a[i] !== b[i]) {
      return `line ${i + 1} is ${JSON.stringify(a[i] ?? "(missing)")}, expected ${JSON.stringify(b[i] ?? "(no line)")}`
    }
  }
  return "they differ"
}

/** Why the message's times do not hold at `now`, or `undefined` when they do. */
const timesProblem = (data: SiwxMessageData, now: number): string | undefined => {
  const issuedAt = Date.parse(data.issuedAt)
  if (Number.isNaN(issuedAt)) return `The issued-at time ${data.issuedAt} cannot be read`
  if (issuedAt > now + SESSION_CLOCK_SKEW_MS) {
    return `The message is issued in the future (${data.issuedAt}); now is ${new Date(now).toISOString()}`
  }
  if (data.notBefore !== undefined) {
    const notBefore = Date.parse(data.notBefore)
    if (Number.isNaN(notBefore) || notBefore > now) {
      return `The message is not valid before ${data.notBefore}; now is ${new Date(now).toISOString()}`
    }
  }
  if (data.expirationTime !== undefined) {
    const expiration = Date.parse(data.expirationTime)
    if (Number.isNaN(expiration) || expiration <= now) {
      return `The message expired at ${data.expirationTime}; now is ${new Date(now).toISOString()}`
    }
  }
  return undefined
}

interface NonceRow {
  readonly account: string
  readonly expires_at: Date
  readonly used_at: Date | null
}

/**
 * Why the nonce cannot be used by `account` now, or `undefined` when it can. `usedByAccount`: whether this account
 * used it already, for a nonce bound to no account (those are used once per account, not once).
 */
const nonceProblem = (nonce: string, row: NonceRow | undefined, account: Account, now: number, usedByAccount: boolean): string | undefined => {
  if (row === undefined) return `The nonce ${nonce} was not given by this service: ask POST /v1/sessions/{account}/nonce for one`
  if (row.account !== account.key && row.account !== ANY_ACCOUNT) return `The nonce ${nonce} was given to another account`
  if (row.used_at !== null || usedByAccount) return `The nonce ${nonce} was already used: ask for a new one`
  if (row.expires_at.getTime() <= now) return `The nonce ${nonce} expired at ${row.expires_at.toISOString()}: ask for a new one`
  return undefined
}

const newNonce = () => randomBytes(16).toString("hex")

const decodeSolanaSignature = (signature: string): SignatureBytes | undefined => {
  try {
    const bytes = getBase58Encoder().encode(signature)
    return bytes.length === 64 ? (bytes as SignatureBytes) : undefined
  } catch {
    return undefined
  }
}

const evmClients = new WeakMap<EvmChainState, PublicClient>()

const evmClient = (chain: EvmChainState): PublicClient => {
  let client = evmClients.get(chain)
  if (client === undefined) {
    client = createPublicClient({ transport: upstreamTransport(chain.rpc) }) as PublicClient
    evmClients.set(chain, client)
  }
  return client
}


/**
 * A Polkadot signature of exactly `message` by the key `publicKey`: 64 bytes of ed25519 or sr25519, or 65 with
 * polkadot-js's MultiSignature prefix (0 ed25519, 1 sr25519) or an ecdsa (blake2) signature.
 */
const polkadotSignatureHolds = (message: Uint8Array, signature: Uint8Array, publicKey: Uint8Array): boolean => {
  const holds = (verify: () => boolean) => {
    try {
      return verify()
    } catch {
      return false
    }
  }
  const edOrSr = (bytes: Uint8Array) =>
    holds(() => ed25519Verify(message, bytes, publicKey)) || holds(() => sr25519Verify(message, bytes, publicKey))
  if (signature.length === 64) return edOrSr(signature)
  if (signature.length !== 65) return false
  if ((signature[0] === 0 || signature[0] === 1) && edOrSr(signature.subarray(1))) return true
  return holds(() => secp256k1Verify(message, signature, publicKey, "blake2", true))
}

/**
 * Whether `signature` is the account's signature of `message`. EVM on a chain the stack runs: through that chain
 * (viem's `verifyMessage`: EOAs, ERC-1271 contract accounts, ERC-6492 undeployed accounts); on another EVM chain only
 * an EOA's signature can be checked (ecrecover, no chain to ask). Solana: ed25519 over the message's UTF-8 bytes with
 * the address as public key, the signature in base58. Bitcoin: BIP-322 simple (P2WPKH and P2TR key-path addresses of
 * the network in the CAIP id), the signature in base64. Polkadot: sr25519 or ed25519 (or ecdsa) over the message's
 * bytes wrapped in `<Bytes>…</Bytes>`, as the polkadot-js extension signs text — over those bytes only (polkadot-js's
 * `signatureVerify` would also accept the bare text), the signature in 0x-hex.
 */
const signatureHolds = Effect.fn("sessions.signatureHolds")(function* (
  state: ServicesState,
  account: Account,
  message: string,
  signature: string
): Effect.fn.Return<boolean, BadRequest | BadGateway> {
  const badSignature = (error: string) => Effect.fail(new BadRequest({ error }))
  if (account.namespace === "eip155") {
    if (!isHex(signature)) return yield* badSignature("The signature must be 0x-prefixed hex on eip155")
    const params = { address: account.address as Hex, message, signature }
    const chain = state.evm.find((c) => c.caipNetworkId === account.chainId)
    if (chain === undefined) return yield* Effect.promise(() => verifyMessage(params).catch(() => false))
    const valid = yield* Effect.promise(() => evmClient(chain).verifyMessage(params).catch(() => false))
    // viem answers false when the chain cannot be asked; that says nothing about the signature: it is our failure.
    if (!valid) {
      yield* Effect.tryPromise({
        try: () => rpcCall(chain.rpc, "eth_blockNumber"),
        catch: (error) =>
          new BadGateway({
            error: `Could not reach ${account.chainId} to verify the signature: ${error instanceof NodeUnreachable ? error.reason : String(error)}`
          })
      })
    }
    return valid
  }
  if (account.namespace === "solana") {
    const bytes = decodeSolanaSignature(signature)
    if (bytes === undefined) return yield* badSignature("The signature must be 64 bytes in base58 on solana")
    const address = account.address
    if (!isAddress(address)) return yield* badSignature(`${address} is not a Solana address`)
    return yield* Effect.promise(async () => verifySignature(await getPublicKeyFromAddress(address), bytes, new TextEncoder().encode(message)))
  }
  if (account.namespace === "bip122") {
    if (!isBip322Signature(signature)) return yield* badSignature("The signature must be a BIP-322 signature (a witness in base64) on bip122")
    return verifyBip322(account.address, BITCOIN_NETWORKS[bitcoinNetworkKindOf(account.chainId)], message, signature)
  }
  if (account.namespace === "polkadot") {
    if (!/^0x([0-9a-fA-F]{2}){64,65}$/.test(signature)) return yield* badSignature("The signature must be 64 or 65 bytes in 0x-hex on polkadot")
    if (!isSs58Address(account.address)) return yield* badSignature(`${account.address} is not an SS58 address`)
    // sr25519 is WebAssembly: ready once, then synchronous.
    yield* Effect.promise(() => cryptoWaitReady())
    return polkadotSignatureHolds(u8aWrapBytes(stringToU8a(message)), hexToU8a(signature), decodeAddress(account.address))
  }
  return yield* badSignature(`Sign-in on ${account.namespace} is not served here yet: eip155, solana, bip122 and polkadot are`)
})

interface SessionRow {
  readonly pci: string
  readonly data: unknown
  readonly message: string
  readonly signature: string
}

const decodeData = Schema.decodeUnknownSync(SiwxMessageDataSchema)
const toSession = (row: SessionRow): RemoteSiwxSession => ({
  // jsonb arrives parsed from Postgres; a driver that hands it back as text is read the same way.
  data: decodeData(typeof row.data === "string" ? JSON.parse(row.data) : row.data),
  message: row.message,
  signature: row.signature,
  pci: row.pci
})

const handOut = (db: Database, now: number, account: string): Effect.Effect<SessionNonceResponse> => {
  const nonce = newNonce()
  const expiresAt = new Date(now + SESSION_NONCE_TTL_MS)
  return query(
    db,
    Effect.flatMap(SqlClient.SqlClient, (sql) => sql`INSERT INTO siwx_nonces (nonce, account, expires_at) VALUES (${nonce}, ${account}, ${expiresAt})`)
  ).pipe(Effect.as({ nonce, expiresAt: expiresAt.toISOString() }))
}

/** Keeps a signed sign-in message as a session of the account of `path`, once every check holds (see the module). */
const addSession = Effect.fn("sessions.add")(function* (
  state: ServicesState,
  path: CaipAddress,
  body: AddSessionBody
): Effect.fn.Return<RemoteSiwxSession, BadRequest | Forbidden | BadGateway> {
  const { db } = state
  const account = yield* accountOf(path)
  const { data, message, signature } = body
  const revocationKeyHash = body.revocationKeyHash ?? null
  if (!sameAccount(account, data)) {
    return yield* new BadRequest({
      error: `The message is for ${data.chainId}:${data.accountAddress}, not for the account of the path ${path}`
    })
  }
  const text = formatSiwxMessage(data)
  if (Result.isFailure(text)) return yield* new BadRequest({ error: `Invalid sign-in data: ${text.failure}` })
  if (message !== text.success) {
    return yield* new BadRequest({ error: `The message is not the sign-in text of its data: ${firstDifference(message, text.success)}` })
  }
  const now = state.now()
  const [nonceRow, uses] = yield* query(
    db,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      return yield* Effect.all([
        sql<NonceRow>`SELECT account, expires_at, used_at FROM siwx_nonces WHERE nonce = ${data.nonce}`,
        sql`SELECT 1 FROM siwx_nonce_uses WHERE nonce = ${data.nonce} AND account = ${account.key}`
      ])
    })
  )
  const problem = nonceProblem(data.nonce, nonceRow[0], account, now, uses.length > 0)
  if (problem !== undefined) return yield* new Forbidden({ error: problem })
  const times = timesProblem(data, now)
  if (times !== undefined) return yield* new BadRequest({ error: times })
  if (!(yield* signatureHolds(state, account, message, signature))) {
    return yield* new Forbidden({ error: `The signature is not ${account.address}'s signature of the message` })
  }
  const pci = randomUUID()
  const expiresAt = data.expirationTime === undefined ? null : new Date(Date.parse(data.expirationTime))
  // The nonce is taken and the session kept together: of two requests racing with one nonce, one wins.
  const kept = yield* query(
    db,
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const keep = Effect.gen(function* () {
        const taken =
          nonceRow[0]?.account === ANY_ACCOUNT
            ? yield* sql`INSERT INTO siwx_nonce_uses (nonce, account, used_at)
                SELECT nonce, ${account.key}, ${new Date(now)} FROM siwx_nonces
                WHERE nonce = ${data.nonce} AND account = ${ANY_ACCOUNT} AND expires_at > ${new Date(now)}
                ON CONFLICT DO NOTHING
                RETURNING nonce`
            : yield* sql`UPDATE siwx_nonces SET used_at = ${new Date(now)}
                WHERE nonce = ${data.nonce} AND account = ${account.key} AND used_at IS NULL AND expires_at > ${new Date(now)}
                RETURNING nonce`
        if (taken.length === 0) return false
        yield* sql`INSERT INTO siwx_sessions (pci, account, data, message, signature, expires_at, created_at, revocation_key_hash)
          VALUES (${pci}, ${account.key}, ${JSON.stringify(data)}::jsonb, ${message}, ${signature}, ${expiresAt}, ${new Date(now)}, ${revocationKeyHash})`
        return true
      })
      return yield* sql.withTransaction(keep)
    })
  )
  if (!kept) return yield* new Forbidden({ error: `The nonce ${data.nonce} was already used: ask for a new one` })
  return { data, message, signature, pci }
})

/**
 * The sessions group (`src/domain/http/sessions.ts`): nonce, add, list and revoke under `/v1/sessions/{CAIP-10
 * account}`, and the nonce bound to no account, `/v1/sessions/nonce`.
 */
export const SessionsGroupLive = HttpApiBuilder.group(ServicesApi, "sessions", (handlers) =>
  Effect.map(Effect.service(ServicesContext), (state) => {
    const { db } = state
    return handlers
      .handle("anyAccountNonce", () => handOut(db, state.now(), ANY_ACCOUNT))
      .handle("nonce", ({ params }) => Effect.flatMap(accountOf(params.address), (account) => handOut(db, state.now(), account.key)))
      .handle("add", ({ params, payload }) => addSession(state, params.address, payload))
      .handle("list", ({ params }) =>
        Effect.gen(function* () {
          const account = yield* accountOf(params.address)
          const rows = yield* query(
            db,
            Effect.flatMap(
              SqlClient.SqlClient,
              (sql) => sql<SessionRow>`SELECT pci, data, message, signature FROM siwx_sessions
                WHERE account = ${account.key} AND revoked_at IS NULL
                  AND (expires_at IS NULL OR expires_at > ${new Date(state.now())})
                ORDER BY created_at, pci`
            )
          )
          return { sessions: rows.map(toSession) }
        })
      )
      .handle("revoke", ({ params, payload }) =>
        Effect.gen(function* () {
          const account = yield* accountOf(params.address)
          const rows = yield* query(
            db,
            Effect.flatMap(
              SqlClient.SqlClient,
              (sql) => sql<{ readonly signature: string; readonly revocation_key_hash: string | null }>`SELECT signature, revocation_key_hash
                FROM siwx_sessions WHERE pci = ${payload.pci} AND account = ${account.key}`
            )
          )
          const row = rows[0]
          if (row === undefined) return yield* new NotFound({ error: `No session ${payload.pci} for ${params.address}` })
          // A session kept with a revocation key is revoked with that key only; one kept without, with its signature.
          const holds =
            row.revocation_key_hash === null
              ? row.signature === payload.signature
              : createHash("sha256").update(payload.signature, "utf8").digest("hex") === row.revocation_key_hash
          if (!holds) {
            return yield* new Forbidden({ error: `That is not the proof of holding session ${payload.pci}: only its holder can revoke it` })
          }
          yield* query(
            db,
            Effect.flatMap(
              SqlClient.SqlClient,
              (sql) => sql`UPDATE siwx_sessions SET revoked_at = ${new Date(state.now())} WHERE pci = ${payload.pci} AND revoked_at IS NULL`
            )
          )
          return { pci: payload.pci }
        })
      )
  })
)
