/**
 * A Westend transfer payload for the browser tests' `polkadot_signTransaction` (the polkadot-js `SignerPayloadJSON`
 * our namespace carries as `transactionPayload`), and the bytes a wallet must sign for it, written out here by hand
 * from the extrinsic payload's SCALE layout (call, then the signed extensions' extra, then their additional data) —
 * not with the test wallet's encoder, so a wallet that signs anything else fails the check.
 */
import { hexToU8a, u8aConcat, u8aToHex } from "@polkadot/util"
import { decodeAddress } from "@polkadot/util-crypto"

/** Westend's genesis hash: the network the payload is for. */
export const WESTEND_GENESIS = "0xe143f23803ac50e8f6f8e62695d1ce9e4e1d68aa36c1cd2cfd15340213f3423e"
/** //Bob in the generic format: the transfer's receiver. */
const BOB = "5FHneW46xGXgs5mUiveU4sbTyGBzmstUspZC92UhjJM694ty"
const BLOCK_HASH = `0x${"11".repeat(32)}`

/**
 * The call: Balances (pallet 4) transfer_keep_alive (call 3) of 1 WND (10^12 planck, compact: 0x070010a5d4e8) to //Bob
 * (MultiAddress::Id, 0x00 then his key).
 */
export const transferCall = (): string => u8aToHex(u8aConcat([0x04, 0x03, 0x00], decodeAddress(BOB), hexToU8a("0x070010a5d4e8")))

/** The payload `address` signs: nonce 1, no tip, spec 1000000, transaction version 26, mortal on `BLOCK_HASH`. */
export const westendTransferPayload = (address: string) => ({
  address,
  blockHash: BLOCK_HASH,
  blockNumber: "0x00000010",
  era: "0x0500",
  genesisHash: WESTEND_GENESIS,
  method: transferCall(),
  nonce: "0x00000001",
  specVersion: "0x000f4240",
  tip: "0x00000000000000000000000000000000",
  transactionVersion: "0x0000001a",
  signedExtensions: ["CheckNonZeroSender", "CheckSpecVersion", "CheckTxVersion", "CheckGenesis", "CheckMortality", "CheckNonce", "CheckWeight", "ChargeTransactionPayment"],
  version: 4
})

/**
 * The bytes signed for {@link westendTransferPayload} with `nonce`: the call; extra — era, compact nonce, compact tip
 * (0); additional — spec and transaction versions (u32 little-endian), genesis hash, the era's block hash. Under 256
 * bytes, so signed as they are (not hashed).
 */
export const signedBytesOfTransfer = (nonce = 1): Uint8Array =>
  u8aConcat(
    hexToU8a(transferCall()),
    hexToU8a("0x0500"),
    [nonce << 2],
    [0x00],
    hexToU8a("0x40420f00"),
    hexToU8a("0x1a000000"),
    hexToU8a(WESTEND_GENESIS),
    hexToU8a(BLOCK_HASH)
  )
