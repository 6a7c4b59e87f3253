import { generateKeyPairSync } from "node:crypto"
import { AccountRole, type Address, address, getBase58Decoder, type Instruction } from "@solana/kit"

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

/** The System Program, owner of plain wallet accounts. */
export const SYSTEM_PROGRAM = address("11111111111111111111111111111111")

const TRANSFER = 2

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

/** Reads a System Program transfer's lamports from instruction data, if it is one. */
export const parseTransferLamports = (data: Uint8Array): bigint | undefined => {
  if (data.length !== 12) return undefined
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  return view.getUint32(0, true) === TRANSFER ? view.getBigUint64(4, true) : undefined
}
