import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync } from "node:crypto"
import { AccountRole, type Address, address, getAddressDecoder, getAddressEncoder, getBase58Decoder, type Instruction } from "@solana/kit"
import { SYSTEM_PROGRAM } from "./token"

/** A key generated for this run of the stack: address and 64-byte secret (seed then public key), both base58. */
export interface DevKey {
  readonly address: Address
  /** base58 of the 64 bytes `solana-keygen`, Phantom and `createKeyPairSignerFromBytes` take. */
  readonly secretKey: string
  readonly bytes: Uint8Array
}

/** A fresh ed25519 key pair in Solana's formats. */
export const generateDevKey = (): DevKey => {
  const { publicKey, privateKey } = generateKeyPairSync("ed25519")
  const seed = Buffer.from(privateKey.export({ format: "jwk" }).d ?? "", "base64url")
  const pub = Buffer.from(publicKey.export({ format: "jwk" }).x ?? "", "base64url")
  const bytes = new Uint8Array([...seed, ...pub])
  const base58 = getBase58Decoder()
  return { address: address(base58.decode(pub)), secretKey: base58.decode(bytes), bytes }
}

// PKCS#8 DER prefix of an ed25519 private key; the 32-byte seed follows it.
const ED25519_PKCS8_PREFIX = Buffer.from("302e020100300506032b657004220420", "hex")

/** The ed25519 key pair of a 32-byte seed, in Solana's formats. */
export const devKeyFromSeed = (seed: Uint8Array): DevKey => {
  const privateKey = createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: "der", type: "pkcs8" })
  const pub = Buffer.from(createPublicKey(privateKey).export({ format: "jwk" }).x ?? "", "base64url")
  const bytes = new Uint8Array([...seed, ...pub])
  const base58 = getBase58Decoder()
  return { address: address(base58.decode(pub)), secretKey: base58.decode(bytes), bytes }
}

/**
 * The stack's Solana dev key `index`: the same on every run (like anvil's public mnemonic), so the demo's Solana
 * address and a restored session survive a restart. Public knowledge: local use only.
 */
export const devSolanaKey = (index: number): DevKey =>
  devKeyFromSeed(createHash("sha256").update(`wallet-runtime devstack solana dev key ${index}`).digest())

/** A key of the stack's own named from `purpose` (a test token's mint, its authority): the same on every run. */
export const namedDevKey = (purpose: string): DevKey =>
  devKeyFromSeed(createHash("sha256").update(`wallet-runtime devstack solana ${purpose}`).digest())

const CREATE_ACCOUNT = 0
const TRANSFER = 2

/** A System Program `CreateAccount`: `payer` funds `newAccount` (both sign) with `space` bytes owned by `owner`. */
export const createAccountInstruction = (args: {
  readonly payer: Address
  readonly newAccount: Address
  readonly lamports: bigint
  readonly space: bigint
  readonly owner: Address
}): Instruction => {
  const data = new Uint8Array(52)
  const view = new DataView(data.buffer)
  view.setUint32(0, CREATE_ACCOUNT, true)
  view.setBigUint64(4, args.lamports, true)
  view.setBigUint64(12, args.space, true)
  data.set(getAddressEncoder().encode(args.owner), 20)
  return {
    programAddress: SYSTEM_PROGRAM,
    accounts: [
      { address: args.payer, role: AccountRole.WRITABLE_SIGNER },
      { address: args.newAccount, role: AccountRole.WRITABLE_SIGNER }
    ],
    data
  }
}

/** A System Program transfer of `lamports` from `source` (which signs) to `destination`. */
export const transferSolInstruction = (source: Address, destination: Address, lamports: bigint): Instruction => {
  const data = new Uint8Array(12)
  const view = new DataView(data.buffer)
  view.setUint32(0, TRANSFER, true)
  view.setBigUint64(4, lamports, true)
  return {
    programAddress: SYSTEM_PROGRAM,
    accounts: [
      { address: source, role: AccountRole.WRITABLE_SIGNER },
      { address: destination, role: AccountRole.WRITABLE }
    ],
    data
  }
}

/** Reads a System Program `CreateAccount` (lamports, space, owner) from instruction data, if it is one. */
export const parseCreateAccount = (
  data: Uint8Array
): { readonly lamports: bigint; readonly space: bigint; readonly owner: Address } | undefined => {
  if (data.length !== 52) return undefined
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  if (view.getUint32(0, true) !== CREATE_ACCOUNT) return undefined
  return {
    lamports: view.getBigUint64(4, true),
    space: view.getBigUint64(12, true),
    owner: getAddressDecoder().decode(data.slice(20, 52))
  }
}

/** Reads a System Program transfer's lamports from instruction data, if it is one. */
export const parseTransferLamports = (data: Uint8Array): bigint | undefined => {
  if (data.length !== 12) return undefined
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  return view.getUint32(0, true) === TRANSFER ? view.getBigUint64(4, true) : undefined
}
