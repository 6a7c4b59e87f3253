/**
 * The local regtest network's parameters and the devstack's Bitcoin dev keys. The keys come from fixed texts (like
 * anvil's public mnemonic), so they are the same on every run and public knowledge: local use only. Each dev key
 * index has a payment key (a P2WPKH address, BIP-84 style) and an ordinals key (a P2TR key-path address, BIP-86
 * style), as Bitcoin wallets keep the two apart.
 */
import { p2tr, p2wpkh } from "@scure/btc-signer"
import { pubECDSA, pubSchnorr, sha256 } from "@scure/btc-signer/utils.js"
import { REGTEST } from "../../server/src/bitcoin/networks"

export { REGTEST }

/**
 * The genesis block hash of Bitcoin Core's regtest. Every regtest chain starts from this block, so CAIP-2 names
 * them all `bip122:` + its first 32 hex characters; the devstack's node uses it as its own genesis.
 */
export const REGTEST_GENESIS_HASH = "0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206"

/** CAIP-2 id of the local regtest network. */
export const REGTEST_CAIP_NETWORK_ID = `bip122:${REGTEST_GENESIS_HASH.slice(0, 32)}`

/** The Wallet Standard chain of regtest. */
export const REGTEST_WALLET_CHAIN = "bitcoin:regtest"

/** One dev key pair set: its payment (P2WPKH) and ordinals (P2TR) keys and addresses on regtest. */
export interface BitcoinDevKey {
  readonly index: number
  /** 32-byte secp256k1 private key of the payment address, hex. */
  readonly paymentPrivateKey: string
  /** Compressed public key (33 bytes), hex. */
  readonly paymentPublicKey: string
  /** P2WPKH, `bcrt1q…`. */
  readonly paymentAddress: string
  /** 32-byte secp256k1 private key of the ordinals address (untweaked), hex. */
  readonly ordinalsPrivateKey: string
  /** x-only internal public key (32 bytes), hex. */
  readonly ordinalsPublicKey: string
  /** P2TR key path, `bcrt1p…`. */
  readonly ordinalsAddress: string
}

const hex = (bytes: Uint8Array): string => Buffer.from(bytes).toString("hex")
const keyOf = (text: string): Uint8Array => sha256(new TextEncoder().encode(text))

/** Dev key set `index` (0, 1, 2… the same on every run). */
export const devBitcoinKey = (index: number): BitcoinDevKey => {
  const payment = keyOf(`wallet-runtime bitcoin payment key ${index}`)
  const ordinals = keyOf(`wallet-runtime bitcoin ordinals key ${index}`)
  const paymentPublic = pubECDSA(payment)
  const ordinalsPublic = pubSchnorr(ordinals)
  return {
    index,
    paymentPrivateKey: hex(payment),
    paymentPublicKey: hex(paymentPublic),
    paymentAddress: p2wpkh(paymentPublic, REGTEST).address!,
    ordinalsPrivateKey: hex(ordinals),
    ordinalsPublicKey: hex(ordinalsPublic),
    ordinalsAddress: p2tr(ordinalsPublic, undefined, REGTEST).address!
  }
}
