/**
 * Sign-in sessions on the devstack services (issue 13), against the real services server, anvil and the database:
 * nonce → signed message → session → list → revoke, every refusal, Solana's ed25519, contract accounts (ERC-1271
 * deployed, ERC-6492 undeployed), and sessions and nonces surviving a restart of the services on the same database.
 * The suite runs on the embedded PGlite, and again on a real Postgres: a throw-away cluster (`test/support/postgres.ts`),
 * or the one of `DATABASE_URL` when it is set.
 */
import { createHash } from "node:crypto"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Keyring } from "@polkadot/keyring"
import { stringToU8a, u8aToHex, u8aWrapBytes } from "@polkadot/util"
import { cryptoWaitReady } from "@polkadot/util-crypto"
import { generateKeyPair, getAddressFromPublicKey, getBase58Decoder, signBytes } from "@solana/kit"
import { Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Hex } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import type { DatabaseOptions } from "../../server/src/db/index"
import type { EvmChain, EvmInfo } from "../../devstack/evm/index"
import { startEvm } from "../../devstack/evm/index"
import { deployedSmartAccount, undeployedSmartAccount } from "../../devstack/evm/smartAccounts"
import { signBip322 } from "../../server/src/bitcoin/bip322"
import { devBitcoinKey, REGTEST, REGTEST_CAIP_NETWORK_ID } from "../../devstack/bitcoin/keys"
import type { Started } from "../../server/src/lib/Started"
import { type ServicesInfo, startServices } from "../../devstack/services"
import { RemoteSiwxSession, SessionNonceResponse, SessionsResponse } from "../../src/domain/Api"
import type { CaipNetworkId } from "../../src/domain/Caip"
import type { SiwxMessageData } from "../../src/domain/Siwx"
import { formatSiwxMessage } from "../../src/domain/siwxMessage"
import { type RunningPostgres, startPostgres } from "../support/postgres"

const PROJECT = "devstack-project"
const SOLANA_DEVNET = "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1" as CaipNetworkId
const WESTEND = "polkadot:e143f23803ac50e8f6f8e62695d1ce9e" as CaipNetworkId
const MINUTE = 60_000

interface Signer {
  readonly address: string
  readonly signMessage: (message: string) => Promise<string>
}

const evmSigner = (account: { readonly address: string; readonly signMessage: (opts: { message: string }) => Promise<Hex> }): Signer => ({
  address: account.address,
  signMessage: (message) => account.signMessage({ message })
})

const solanaSigner = async (): Promise<Signer> => {
  const keys = await generateKeyPair()
  return {
    address: await getAddressFromPublicKey(keys.publicKey),
    signMessage: async (message) => getBase58Decoder().decode(await signBytes(keys.privateKey, new TextEncoder().encode(message)))
  }
}

let evm: Started<EvmInfo>
let chain: EvmChain

beforeAll(async () => {
  // One chain is enough: sessions on it, contract accounts deployed on it.
  evm = await startEvm({ chainIds: [31337] })
  const first = evm.info.chains[0]
  if (first === undefined) throw new Error("the EVM part started no chain")
  chain = first
})

afterAll(async () => {
  await evm?.stop()
})

const devKey = (index: number): Hex => {
  const account = evm.info.accounts[index]
  if (account === undefined) throw new Error(`no dev account ${index}`)
  return account.privateKey
}

/**
 * The suite, on the database `database()` names. `owned` says whether the database is this suite's alone (a fresh
 * PGlite or a throw-away Postgres) or shared (the Postgres of DATABASE_URL, which other runs wrote to): then only what
 * this run added is asserted. `chainDown` adds the test of a chain that cannot be reached (it needs no database).
 */
const sessionSuite = (database: () => DatabaseOptions, owned: boolean, chainDown: boolean) => {
  let services: Started<ServicesInfo> | undefined
  // The services' clock: the tests move it forward to expire nonces and sessions.
  let offset = 0
  const now = () => Date.now() + offset
  const start = async () => {
    services = await startServices({ evm: evm.info, database: database(), now })
  }
  const url = () => {
    if (services === undefined) throw new Error("the services are not running")
    return services.info.url
  }

  beforeAll(start)
  afterAll(async () => {
    await services?.stop()
  })

  const call = (method: "GET" | "POST", path: string, body?: unknown) =>
    fetch(`${url()}${path}`, {
      method,
      headers: { "content-type": "application/json", "x-project-id": PROJECT },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
  const caip = (chainId: string, address: string) => `${chainId}:${address}`
  const nonceFor = async (account: string) => {
    const response = await call("POST", `/v1/sessions/${account}/nonce`)
    expect(response.status).toBe(200)
    return Schema.decodeUnknownSync(SessionNonceResponse)(await response.json())
  }
  const sessionsOf = async (account: string) => {
    const response = await call("GET", `/v1/sessions/${account}`)
    expect(response.status).toBe(200)
    return Schema.decodeUnknownSync(SessionsResponse)(await response.json()).sessions
  }
  const iso = (ms: number) => new Date(ms).toISOString()
  const messageData = (chainId: CaipNetworkId, address: string, nonce: string, over: Partial<SiwxMessageData> = {}): SiwxMessageData => ({
    domain: "127.0.0.1:5173",
    uri: "http://127.0.0.1:5173/",
    version: "1",
    chainId,
    accountAddress: address,
    nonce,
    issuedAt: iso(now()),
    expirationTime: iso(now() + 60 * MINUTE),
    statement: "Sign in to the Wallet Runtime demo",
    ...over
  })
  const textOf = (data: SiwxMessageData) => {
    const text = formatSiwxMessage(data)
    if (text._tag === "Failure") throw new Error(`the test's message data is wrong: ${text.failure}`)
    return text.success
  }
  /** A signed session body for `signer` on `chainId`, with a fresh nonce unless one is given. */
  const signedBody = async (
    signer: Signer,
    chainId: CaipNetworkId,
    opts: { readonly nonce?: string; readonly over?: Partial<SiwxMessageData>; readonly path?: string } = {}
  ) => {
    const nonce = opts.nonce ?? (await nonceFor(opts.path ?? caip(chainId, signer.address))).nonce
    const data = messageData(chainId, signer.address, nonce, opts.over)
    const message = textOf(data)
    return { data, message, signature: await signer.signMessage(message) }
  }
  const add = (account: string, body: unknown) => call("POST", `/v1/sessions/${account}`, body)
  const refused = async (response: Response, status: number, words: RegExp) => {
    expect(response.status).toBe(status)
    expect(response.headers.get("content-type")).toMatch(/application\/json/)
    const { error } = (await response.json()) as { error: string }
    expect(error).toMatch(words)
  }
  const eoa = () => evmSigner(privateKeyToAccount(generatePrivateKey()))
  const evmChainId = () => chain.caipNetworkId

  it("hands out single-use nonces that last 10 minutes", async () => {
    const account = caip(evmChainId(), eoa().address)
    const before = now()
    const first = await nonceFor(account)
    const second = await nonceFor(account)
    expect(first.nonce).toMatch(/^[A-Za-z0-9]{16,64}$/)
    expect(second.nonce).not.toBe(first.nonce)
    const lifetime = Date.parse(first.expiresAt) - before
    expect(lifetime).toBeGreaterThanOrEqual(10 * MINUTE - 1_000)
    expect(lifetime).toBeLessThanOrEqual(10 * MINUTE + 1_000)
  })

  it("keeps an EOA's signed message as a session, lists it, and revokes it with its signature", async () => {
    const signer = eoa()
    const account = caip(evmChainId(), signer.address)
    expect(await sessionsOf(account)).toEqual([])
    const body = await signedBody(signer, evmChainId())
    const response = await add(account, body)
    expect(response.status).toBe(200)
    const session = Schema.decodeUnknownSync(RemoteSiwxSession)(await response.json())
    expect(session).toMatchObject(body)
    expect(session.pci).toMatch(/^[0-9a-f-]{36}$/)
    expect(await sessionsOf(account)).toEqual([session])
    // The path's address compares case-insensitively on eip155.
    expect(await sessionsOf(caip(evmChainId(), signer.address.toLowerCase()))).toEqual([session])
    // Another chain's account of the same address has none.
    expect(await sessionsOf(caip("eip155:31338", signer.address))).toEqual([])

    const revoked = await call("POST", `/v1/sessions/${account}/revoke`, { pci: session.pci, signature: body.signature })
    expect(revoked.status).toBe(200)
    expect(await revoked.json()).toEqual({ pci: session.pci })
    expect(await sessionsOf(account)).toEqual([])
  })

  it("refuses a signature that is not the account's, without using up the nonce", async () => {
    const signer = eoa()
    const account = caip(evmChainId(), signer.address)
    const body = await signedBody(signer, evmChainId())
    const forged = { ...body, signature: await eoa().signMessage(body.message) }
    await refused(await add(account, forged), 403, /not .*signature of the message/)
    await refused(await add(account, { ...body, signature: "0x1234" }), 403, /not .*signature/)
    await refused(await add(account, { ...body, signature: "not hex" }), 400, /hex/)
    expect(await sessionsOf(account)).toEqual([])
    expect((await add(account, body)).status).toBe(200)
  })

  it("refuses a nonce used once already, one it never gave, and one given to another account", async () => {
    const signer = eoa()
    const account = caip(evmChainId(), signer.address)
    const body = await signedBody(signer, evmChainId())
    expect((await add(account, body)).status).toBe(200)
    await refused(await add(account, body), 403, /nonce .* already used/)
    await refused(await add(account, await signedBody(signer, evmChainId(), { nonce: "0123456789abcdef" })), 403, /not given by this service/)
    const othersNonce = (await nonceFor(caip(evmChainId(), eoa().address))).nonce
    await refused(await add(account, await signedBody(signer, evmChainId(), { nonce: othersNonce })), 403, /given to another account/)
    expect(await sessionsOf(account)).toHaveLength(1)
  })

  it("refuses a nonce after its 10 minutes", async () => {
    const signer = eoa()
    const account = caip(evmChainId(), signer.address)
    const { nonce } = await nonceFor(account)
    offset += 10 * MINUTE + 1_000
    await refused(await add(account, await signedBody(signer, evmChainId(), { nonce })), 403, /nonce .* expired/)
    expect(await sessionsOf(account)).toEqual([])
  })

  it("refuses a message past its expiration time, issued in the future, or not yet valid", async () => {
    const signer = eoa()
    const account = caip(evmChainId(), signer.address)
    const expired = await signedBody(signer, evmChainId(), {
      over: { issuedAt: iso(now() - 10 * MINUTE), expirationTime: iso(now() - MINUTE) }
    })
    await refused(await add(account, expired), 400, /expired at/)
    const future = await signedBody(signer, evmChainId(), { over: { issuedAt: iso(now() + 5 * MINUTE) } })
    await refused(await add(account, future), 400, /issued in the future/)
    const notYet = await signedBody(signer, evmChainId(), { over: { notBefore: iso(now() + 5 * MINUTE) } })
    await refused(await add(account, notYet), 400, /not valid before/)
    // A wallet's clock a little ahead of ours is fine.
    const ahead = await signedBody(signer, evmChainId(), { over: { issuedAt: iso(now() + 20_000) } })
    expect((await add(account, ahead)).status).toBe(200)
  })

  it("refuses a message for another account than the path's", async () => {
    const signer = eoa()
    const other = eoa()
    const body = await signedBody(signer, evmChainId())
    await refused(await add(caip(evmChainId(), other.address), body), 400, /not for the account of the path/)
    await refused(await add(caip("eip155:31338", signer.address), body), 400, /not for the account of the path/)
    expect(await sessionsOf(caip(evmChainId(), other.address))).toEqual([])
  })

  it("refuses a message whose text is not the sign-in text of its data, and data that makes no sign-in text", async () => {
    const signer = eoa()
    const account = caip(evmChainId(), signer.address)
    const body = await signedBody(signer, evmChainId())
    // The wallet signed a text that says something else than the data the service would keep.
    const altered = body.message.replace("Sign in to the Wallet Runtime demo", "Transfer everything")
    const signedAltered = { ...body, message: altered, signature: await signer.signMessage(altered) }
    await refused(await add(account, signedAltered), 400, /not the sign-in text of its data: line 4/)
    const otherDomain = { ...body, data: { ...body.data, domain: "evil.example" } }
    await refused(await add(account, otherDomain), 400, /not the sign-in text of its data: line 1/)
    const badData = { ...body, data: { ...body.data, domain: "" } }
    await refused(await add(account, badData), 400, /Invalid sign-in data/)
    await refused(await add(account, { data: body.data, message: body.message }), 400, /Invalid body/)
    expect(await sessionsOf(account)).toEqual([])
  })

  it("revokes only with the session's own signature, and says when the session is unknown", async () => {
    const signer = eoa()
    const account = caip(evmChainId(), signer.address)
    const body = await signedBody(signer, evmChainId())
    const session = Schema.decodeUnknownSync(RemoteSiwxSession)(await (await add(account, body)).json())
    const revoke = (pci: string, signature: string, on = account) => call("POST", `/v1/sessions/${on}/revoke`, { pci, signature })
    await refused(await revoke(session.pci, await signer.signMessage("another message")), 403, /only its holder can revoke/)
    await refused(await revoke("00000000-0000-0000-0000-000000000000", body.signature), 404, /No session/)
    // A session is revoked on its own account's path only.
    await refused(await revoke(session.pci, body.signature, caip(evmChainId(), eoa().address)), 404, /No session/)
    expect(await sessionsOf(account)).toEqual([session])
    expect((await revoke(session.pci, body.signature)).status).toBe(200)
    expect(await sessionsOf(account)).toEqual([])
  })

  it("a session kept with a revocation key is revoked with that key only: its signature, shown to anyone who lists it, is not enough", async () => {
    const signer = eoa()
    const account = caip(evmChainId(), signer.address)
    const key = "a-secret-only-this-browser-knows"
    const revocationKeyHash = createHash("sha256").update(key, "utf8").digest("hex")
    const body = { ...(await signedBody(signer, evmChainId())), revocationKeyHash }
    const kept = await add(account, body)
    expect(kept.status).toBe(200)
    const session = Schema.decodeUnknownSync(RemoteSiwxSession)(await kept.json())
    const listed = await sessionsOf(account)
    expect(listed.map((s) => s.signature)).toEqual([body.signature])
    const revoke = (signature: string) => call("POST", `/v1/sessions/${account}/revoke`, { pci: session.pci, signature })
    await refused(await revoke(body.signature), 403, /only its holder can revoke/)
    await refused(await revoke("another secret"), 403, /only its holder can revoke/)
    expect(await sessionsOf(account)).toHaveLength(1)
    expect((await revoke(key)).status).toBe(200)
    expect(await sessionsOf(account)).toEqual([])
    await refused(await add(account, { ...(await signedBody(signer, evmChainId())), revocationKeyHash: "ABC" }), 400, /Invalid body/)
  })

  it("lists only sessions that have not expired", async () => {
    const signer = eoa()
    const account = caip(evmChainId(), signer.address)
    const short = await signedBody(signer, evmChainId(), { over: { expirationTime: iso(now() + 5 * MINUTE) } })
    const long = await signedBody(signer, evmChainId(), { over: { expirationTime: iso(now() + 60 * MINUTE) } })
    expect((await add(account, short)).status).toBe(200)
    expect((await add(account, long)).status).toBe(200)
    expect((await sessionsOf(account)).map((s) => s.signature).sort()).toEqual([short.signature, long.signature].sort())
    offset += 6 * MINUTE
    expect((await sessionsOf(account)).map((s) => s.signature)).toEqual([long.signature])
  })

  it("keeps a Solana session signed with ed25519 (base58 signature) and refuses another key's", async () => {
    const signer = await solanaSigner()
    const account = caip(SOLANA_DEVNET, signer.address)
    const body = await signedBody(signer, SOLANA_DEVNET)
    expect(body.message).toContain("wants you to sign in with your Solana account:")
    const stranger = await solanaSigner()
    await refused(await add(account, { ...body, signature: await stranger.signMessage(body.message) }), 403, /not .*signature/)
    await refused(await add(account, { ...body, signature: `0x${"ab".repeat(64)}` }), 400, /base58/)
    const response = await add(account, body)
    expect(response.status).toBe(200)
    const session = Schema.decodeUnknownSync(RemoteSiwxSession)(await response.json())
    expect(await sessionsOf(account)).toEqual([session])
    // Solana addresses are case-sensitive: the same letters in another case are another account.
    expect(await sessionsOf(caip(SOLANA_DEVNET, signer.address.toLowerCase()))).toEqual([])
    expect((await call("POST", `/v1/sessions/${account}/revoke`, { pci: session.pci, signature: body.signature })).status).toBe(200)
    expect(await sessionsOf(account)).toEqual([])
  })

  it("keeps a Bitcoin session signed with BIP-322 (P2WPKH and P2TR addresses) and refuses another key's", async () => {
    for (const purpose of ["payment", "ordinals"] as const) {
      const key = devBitcoinKey(purpose === "payment" ? 3 : 4)
      const address = purpose === "payment" ? key.paymentAddress : key.ordinalsAddress
      const privateKey = Buffer.from(purpose === "payment" ? key.paymentPrivateKey : key.ordinalsPrivateKey, "hex")
      const signer: Signer = { address, signMessage: async (message) => signBip322(address, REGTEST, privateKey, message) }
      const account = caip(REGTEST_CAIP_NETWORK_ID, address)
      const body = await signedBody(signer, REGTEST_CAIP_NETWORK_ID as CaipNetworkId)
      expect(body.message).toContain("wants you to sign in with your Bitcoin account:")
      const other = devBitcoinKey(5)
      const strangerSignature = signBip322(other.paymentAddress, REGTEST, Buffer.from(other.paymentPrivateKey, "hex"), body.message)
      await refused(await add(account, { ...body, signature: strangerSignature }), 403, /not .*signature/)
      await refused(await add(account, { ...body, signature: `0x${"ab".repeat(64)}` }), 400, /base64/)
      const response = await add(account, body)
      expect(response.status).toBe(200)
      const session = Schema.decodeUnknownSync(RemoteSiwxSession)(await response.json())
      // Fixed dev keys: a shared database keeps their sessions of earlier runs.
      expect(await sessionsOf(account)).toEqual(owned ? [session] : expect.arrayContaining([session]))
    }
  })

  it("keeps a Polkadot session signed with sr25519 or ed25519 over the text in <Bytes>…</Bytes>, and refuses another key's", async () => {
    await cryptoWaitReady()
    const wrapped = (message: string) => u8aWrapBytes(stringToU8a(message))
    const bob = new Keyring({ type: "sr25519" }).addFromUri("//Bob")
    for (const [uri, type] of [["//Alice", "sr25519"], ["//Charlie", "ed25519"]] as const) {
      const pair = new Keyring({ type, ss58Format: 42 }).addFromUri(uri)
      const signer: Signer = { address: pair.address, signMessage: async (message) => u8aToHex(pair.sign(wrapped(message))) }
      const account = caip(WESTEND, pair.address)
      const body = await signedBody(signer, WESTEND)
      expect(body.message).toContain("wants you to sign in with your Polkadot account:")
      await refused(await add(account, { ...body, signature: u8aToHex(bob.sign(wrapped(body.message))) }), 403, /not .*signature/)
      await refused(await add(account, { ...body, signature: "c2lnbmF0dXJl" }), 400, /0x-hex/)
      // The bare text is not what the extension signs: its signature is not accepted for the wrapped one.
      await refused(await add(account, { ...body, signature: u8aToHex(pair.sign(stringToU8a(body.message))) }), 403, /not .*signature/)
      const response = await add(account, body)
      expect(response.status).toBe(200)
      const session = Schema.decodeUnknownSync(RemoteSiwxSession)(await response.json())
      // Fixed dev keys: a shared database keeps their sessions of earlier runs.
      expect(await sessionsOf(account)).toEqual(owned ? [session] : expect.arrayContaining([session]))
    }
  })

  it("keeps a session of a deployed ERC-1271 contract account (its owner signs) and refuses a stranger's signature", async () => {
    const owner = privateKeyToAccount(devKey(0))
    const contract = deployedSmartAccount(chain.contracts.smartAccounts.deployed.address, owner)
    const signer: Signer = { address: contract.address, signMessage: (message) => contract.signMessage({ message }) }
    const account = caip(evmChainId(), signer.address)
    const body = await signedBody(signer, evmChainId())
    await refused(await add(account, { ...body, signature: await privateKeyToAccount(devKey(5)).signMessage({ message: body.message }) }), 403, /not .*signature/)
    const response = await add(account, body)
    expect(response.status).toBe(200)
    const { pci } = Schema.decodeUnknownSync(RemoteSiwxSession)(await response.json())
    expect((await sessionsOf(account)).map((s) => s.pci)).toContain(pci)
    if (owned) expect(await sessionsOf(account)).toHaveLength(1)
    expect((await call("POST", `/v1/sessions/${account}/revoke`, { pci, signature: body.signature })).status).toBe(200)
    expect((await sessionsOf(account)).map((s) => s.pci)).not.toContain(pci)
  })

  it("keeps a session of an undeployed ERC-6492 account, and refuses the owner's bare signature for it", async () => {
    const owner = privateKeyToAccount(devKey(1))
    const salt = BigInt(`0x${generatePrivateKey().slice(2, 18)}`)
    const contract = undeployedSmartAccount({ factory: chain.contracts.smartAccounts.factory, owner, salt })
    const signer: Signer = { address: contract.address, signMessage: (message) => contract.signMessage({ message }) }
    const account = caip(evmChainId(), signer.address)
    const body = await signedBody(signer, evmChainId())
    expect(body.signature.endsWith("6492".repeat(16))).toBe(true)
    // Without ERC-6492's wrapping nothing at the address can vouch for the owner.
    await refused(await add(account, { ...body, signature: await owner.signMessage({ message: body.message }) }), 403, /not .*signature/)
    const response = await add(account, body)
    expect(response.status).toBe(200)
    expect(await sessionsOf(account)).toHaveLength(1)
  })

  it("on an EVM chain the stack does not run, checks an EOA's signature without a chain and refuses a contract account's", async () => {
    const mainnet = "eip155:1" as CaipNetworkId
    const signer = eoa()
    const account = caip(mainnet, signer.address)
    const body = await signedBody(signer, mainnet)
    await refused(await add(account, { ...body, signature: await eoa().signMessage(body.message) }), 403, /not .*signature/)
    expect((await add(account, body)).status).toBe(200)
    expect(await sessionsOf(account)).toHaveLength(1)
    // Only a chain can vouch for a contract account: none to ask here.
    const contract = deployedSmartAccount(chain.contracts.smartAccounts.deployed.address, privateKeyToAccount(devKey(0)))
    const contractSigner: Signer = { address: contract.address, signMessage: (message) => contract.signMessage({ message }) }
    await refused(await add(caip(mainnet, contract.address), await signedBody(contractSigner, mainnet)), 403, /not .*signature/)
  })

  it("serves concurrent requests, and of two racing with one nonce keeps exactly one", async () => {
    const signers = Array.from({ length: 6 }, eoa)
    const bodies = await Promise.all(signers.map((signer) => signedBody(signer, evmChainId())))
    const statuses = await Promise.all(bodies.map((body, i) => add(caip(evmChainId(), signers[i]?.address ?? ""), body).then((r) => r.status)))
    expect(statuses).toEqual(signers.map(() => 200))

    const signer = eoa()
    const account = caip(evmChainId(), signer.address)
    const { nonce } = await nonceFor(account)
    const twins = await Promise.all([signedBody(signer, evmChainId(), { nonce }), signedBody(signer, evmChainId(), { nonce, over: { statement: "Twin" } })])
    const raced = await Promise.all(twins.map((body) => add(account, body).then((r) => r.status)))
    expect([...raced].sort()).toEqual([200, 403])
    expect(await sessionsOf(account)).toHaveLength(1)
  })

  // About the chain, not the database: defined in one suite only, the PGlite one (it starts a second anvil, ~3 s).
  if (chainDown) it("says the chain could not be reached (502), not that a contract account's signature is wrong, when its chain is down", async () => {
    const down = await startEvm({ chainIds: [31338] })
    const downChain = down.info.chains[0]
    if (downChain === undefined) throw new Error("no chain")
    const other = await startServices({ evm: down.info, now })
    try {
      const contract = deployedSmartAccount(downChain.contracts.smartAccounts.deployed.address, privateKeyToAccount(devKey(0)))
      const account = caip(downChain.caipNetworkId, contract.address)
      const post = (path: string, body?: unknown) =>
        fetch(`${other.info.url}${path}?projectId=${PROJECT}`, { method: "POST", ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
      const { nonce } = Schema.decodeUnknownSync(SessionNonceResponse)(await (await post(`/v1/sessions/${account}/nonce`)).json())
      const data = messageData(downChain.caipNetworkId, contract.address, nonce)
      const message = textOf(data)
      const body = { data, message, signature: await contract.signMessage({ message }) }
      await down.stop()
      await refused(await post(`/v1/sessions/${account}`, body), 502, /Could not reach eip155:31338/)
    } finally {
      await other.stop()
      await down.stop()
    }
  })

  it("needs a projectId, as every service endpoint does", async () => {
    const account = caip(evmChainId(), eoa().address)
    const response = await fetch(`${url()}/v1/sessions/${account}`)
    expect(response.status).toBe(400)
    expect(await response.text()).toMatch(/Missing projectId/)
    expect((await fetch(`${url()}/v1/sessions/${account}?projectId=nope`)).status).toBe(401)
  })

  it("keeps sessions and unused nonces across a restart of the services on the same database", async () => {
    const signer = eoa()
    const account = caip(evmChainId(), signer.address)
    const body = await signedBody(signer, evmChainId())
    const session = Schema.decodeUnknownSync(RemoteSiwxSession)(await (await add(account, body)).json())
    const pending = await signedBody(signer, evmChainId())
    const used = body

    await services?.stop()
    services = undefined
    await start()

    expect(await sessionsOf(account)).toEqual([session])
    // The nonce handed out before the restart is still good once, the one used before is still used.
    expect((await add(account, pending)).status).toBe(200)
    await refused(await add(account, used), 403, /already used/)
    expect(await sessionsOf(account)).toHaveLength(2)
  })
}

describe("sign-in sessions on PGlite (the default database)", () => {
  const root = mkdtempSync(join(tmpdir(), "wallet-runtime-sessions-"))
  afterAll(() => rmSync(root, { recursive: true, force: true }))
  sessionSuite(() => ({ dataDir: join(root, "pglite") }), true, true)

  it("refuses to open a data directory another running stack has open (PGlite has no lock of its own)", async () => {
    const dataDir = join(root, "shared")
    const first = await startServices({ database: { dataDir } })
    try {
      await expect(startServices({ database: { dataDir } })).rejects.toThrow(/in use by process \d+/)
    } finally {
      await first.stop()
    }
    const again = await startServices({ database: { dataDir } })
    await again.stop()
  })
})

const databaseUrl = process.env["DATABASE_URL"] || undefined
describe(
  databaseUrl === undefined
    ? "sign-in sessions on a real Postgres (a throw-away cluster of test/support/postgres.ts)"
    : "sign-in sessions on the Postgres of DATABASE_URL",
  () => {
    let postgres: RunningPostgres | undefined
    beforeAll(async () => {
      if (databaseUrl !== undefined) return
      const began = performance.now()
      postgres = await startPostgres()
      console.log(`Postgres cluster started in ${(performance.now() - began).toFixed(0)} ms`)
    })
    // Registered before the suite's own afterAll, so it runs after it (hooks unwind as a stack): services stop first.
    afterAll(async () => {
      await postgres?.stop()
    })
    sessionSuite(() => ({ url: databaseUrl ?? postgres?.url ?? "" }), databaseUrl === undefined, false)
  }
)
