/** Address parameters of the Bitcoin networks the services check signatures on, by kind (`bitcoinNetworkKindOf`). */
import { NETWORK, TEST_NETWORK } from "@scure/btc-signer"

/** Address parameters of regtest (bech32 `bcrt`, the testnet base58 versions). */
export const REGTEST = { bech32: "bcrt", pubKeyHash: 0x6f, scriptHash: 0xc4, wif: 0xef } as const

/** Mainnet, testnet and regtest address parameters. */
export const BITCOIN_NETWORKS = { mainnet: NETWORK, testnet: TEST_NETWORK, regtest: REGTEST } as const
