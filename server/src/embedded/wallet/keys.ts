/**
 * The wallet's keys as its RPC code uses them, in the frame or on the server alike: the key itself is opened by the
 * runner for one operation ({@link WalletKeys}), signed with through viem (eip155) and `@noble/curves` (solana), and
 * wiped by the runner after. No primitives of our own, nothing of node.
 */
import { ed25519 } from "@noble/curves/ed25519"
import { bytesToHex, type Hex } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import type { KeyFamily } from "../sharesApi"

/** The user the wallet signs for: their addresses, and their key of one family opened for one operation only. */
export interface WalletKeys {
  readonly evmAddress: string
  readonly solanaAddress: string
  /** Runs `use` with the plain private key (eip155) or seed (solana) of `family`, wiped when `use` ends. */
  readonly withKey: <A>(family: KeyFamily, use: (secret: Uint8Array) => Promise<A>) => Promise<A>
}

/** The viem local account of an EVM private key. */
export const evmAccountOf = (secret: Uint8Array) => privateKeyToAccount(bytesToHex(secret) as Hex)

/** The 64-byte ed25519 signature of `message` by the key of `seed`. */
export const ed25519Sign = (seed: Uint8Array, message: Uint8Array): Uint8Array => ed25519.sign(message, seed)

/** `bytes` random bytes from the platform's CSPRNG, as 0x-hex (batch ids, grant contexts). */
export const randomHex = (bytes: number): Hex => bytesToHex(crypto.getRandomValues(new Uint8Array(bytes)))
