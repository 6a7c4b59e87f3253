/**
 * Which kind of Bitcoin network a bip122 network is — mainnet, a test network or regtest — from its CAIP-2 id alone.
 * Apart from the address rules (`bitcoinAddress.ts`), so wallet discovery can tell networks apart without their hash
 * functions.
 */

/** Bitcoin's kinds of network: their addresses differ. */
export type BitcoinNetworkKind = "mainnet" | "testnet" | "regtest"

const MAINNET_REFERENCE = "000000000019d6689c085ae165831e93"
const REGTEST_REFERENCE = "0f9188f13cb7b2c71f2a335e3a4fc328"

/**
 * The kind of a bip122 network from its CAIP-2 id: mainnet and regtest by their genesis hashes, every other one
 * (testnet3, testnet4, signet) a test network.
 */
export const bitcoinNetworkKindOf = (caipNetworkId: string): BitcoinNetworkKind => {
  const reference = caipNetworkId.slice(caipNetworkId.indexOf(":") + 1)
  return reference === MAINNET_REFERENCE ? "mainnet" : reference === REGTEST_REFERENCE ? "regtest" : "testnet"
}
