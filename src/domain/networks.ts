/**
 * The well-known networks the product and the demo use, as literal data in a module of their own: a host importing
 * `ethereum` gets these few objects, not the Schemas of `Network.ts` (nor the Effect code they need).
 */
import { BITCOIN_DECIMALS, SOLANA_DECIMALS } from "./constants"
import type { CaipNetwork, RpcUrlSet } from "./Network"

// Well-known definitions are literal data: decoding them at import would cost every host start-up time and keep
// them from being tree-shaken, so the unit tests decode each one instead.
const define = (network: typeof CaipNetwork.Encoded): CaipNetwork => network as CaipNetwork

/** Ethereum mainnet, `eip155:1`. */
export const ethereum = /* @__PURE__ */ define({
  id: 1,
  caipNetworkId: "eip155:1",
  chainNamespace: "eip155",
  name: "Ethereum",
  nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
  rpcUrls: { default: { http: ["https://cloudflare-eth.com"] } },
  blockExplorers: { default: { name: "Etherscan", url: "https://etherscan.io" } }
})

/** The first local anvil chain of the devstack, `eip155:31337`; its RPC URL is set when the stack starts. */
export const localChainA = /* @__PURE__ */ define({
  id: 31337,
  caipNetworkId: "eip155:31337",
  chainNamespace: "eip155",
  name: "Local Chain A",
  nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
  rpcUrls: { default: { http: ["http://127.0.0.1:8545"] } },
  testnet: true
})

/** The second local anvil chain of the devstack, `eip155:31338`; its RPC URL is set when the stack starts. */
export const localChainB = /* @__PURE__ */ define({
  id: 31338,
  caipNetworkId: "eip155:31338",
  chainNamespace: "eip155",
  name: "Local Chain B",
  nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
  rpcUrls: { default: { http: ["http://127.0.0.1:8546"] } },
  testnet: true
})

/** Solana mainnet, `solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp` (the genesis-hash prefix). */
export const solana = /* @__PURE__ */ define({
  id: "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
  caipNetworkId: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
  chainNamespace: "solana",
  name: "Solana",
  nativeCurrency: { name: "Solana", symbol: "SOL", decimals: SOLANA_DECIMALS },
  rpcUrls: { default: { http: ["https://api.mainnet-beta.solana.com"] } },
  blockExplorers: { default: { name: "Solscan", url: "https://solscan.io" } }
})

/** Solana devnet, `solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1`. */
export const solanaDevnet = /* @__PURE__ */ define({
  id: "EtWTRABZaYq6iMfeYKouRu166VU2xqa1",
  caipNetworkId: "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1",
  chainNamespace: "solana",
  name: "Solana Devnet",
  nativeCurrency: { name: "Solana", symbol: "SOL", decimals: SOLANA_DECIMALS },
  rpcUrls: { default: { http: ["https://api.devnet.solana.com"] } },
  blockExplorers: { default: { name: "Solscan", url: "https://solscan.io" } },
  testnet: true
})

/**
 * The local Solana network of the devstack, named like every Solana cluster by its genesis hash (the devstack's
 * ledger starts from a fixed genesis, so the id is the same on every run); its RPC URL is set when the stack starts.
 */
export const localSolana = /* @__PURE__ */ define({
  id: "AuCF5cjfQuAmAvgqiCQAJBTxY1RURhk6",
  caipNetworkId: "solana:AuCF5cjfQuAmAvgqiCQAJBTxY1RURhk6",
  chainNamespace: "solana",
  name: "Local Solana",
  nativeCurrency: { name: "Solana", symbol: "SOL", decimals: SOLANA_DECIMALS },
  rpcUrls: { default: { http: ["http://127.0.0.1:8899"], webSocket: ["ws://127.0.0.1:8900"] } },
  testnet: true
})

/** Bitcoin mainnet, `bip122:000000000019d6689c085ae165831e93`. */
export const bitcoin = /* @__PURE__ */ define({
  id: "000000000019d6689c085ae165831e93",
  caipNetworkId: "bip122:000000000019d6689c085ae165831e93",
  chainNamespace: "bip122",
  name: "Bitcoin",
  nativeCurrency: { name: "Bitcoin", symbol: "BTC", decimals: BITCOIN_DECIMALS },
  rpcUrls: { default: { http: ["https://mempool.space/api"] } },
  blockExplorers: { default: { name: "Mempool", url: "https://mempool.space" } }
})

/** Bitcoin testnet, `bip122:000000000933ea01ad0ee984209779ba`. */
export const bitcoinTestnet = /* @__PURE__ */ define({
  id: "000000000933ea01ad0ee984209779ba",
  caipNetworkId: "bip122:000000000933ea01ad0ee984209779ba",
  chainNamespace: "bip122",
  name: "Bitcoin Testnet",
  nativeCurrency: { name: "Bitcoin", symbol: "BTC", decimals: BITCOIN_DECIMALS },
  rpcUrls: { default: { http: ["https://mempool.space/testnet/api"] } },
  blockExplorers: { default: { name: "Mempool", url: "https://mempool.space/testnet" } },
  testnet: true
})

/**
 * A Bitcoin regtest network, `bip122:0f9188f13cb7b2c71f2a335e3a4fc328`: the first 32 hex characters of regtest's
 * genesis block hash, which every regtest chain (Bitcoin Core's, the devstack's node) shares. Its RPC URL is an
 * Esplora-style API, set when the local stack starts.
 */
export const bitcoinRegtest = /* @__PURE__ */ define({
  id: "0f9188f13cb7b2c71f2a335e3a4fc328",
  caipNetworkId: "bip122:0f9188f13cb7b2c71f2a335e3a4fc328",
  chainNamespace: "bip122",
  name: "Bitcoin Regtest",
  nativeCurrency: { name: "Bitcoin", symbol: "BTC", decimals: BITCOIN_DECIMALS },
  rpcUrls: { default: { http: ["http://127.0.0.1:3002"] } },
  testnet: true
})

/** Polkadot relay chain, `polkadot:91b171bb158e2d3848fa23a9f1c25182` (the genesis-hash prefix). */
export const polkadot = /* @__PURE__ */ define({
  id: "91b171bb158e2d3848fa23a9f1c25182",
  caipNetworkId: "polkadot:91b171bb158e2d3848fa23a9f1c25182",
  chainNamespace: "polkadot",
  name: "Polkadot",
  nativeCurrency: { name: "Polkadot", symbol: "DOT", decimals: 10 },
  rpcUrls: { default: { http: ["https://rpc.polkadot.io"], webSocket: ["wss://rpc.polkadot.io"] } },
  blockExplorers: { default: { name: "Subscan", url: "https://polkadot.subscan.io" } }
})

/** Kusama, Polkadot's canary relay chain, `polkadot:b0a8d493285c2df73290dfb7e61f870f` (the genesis-hash prefix). */
export const kusama = /* @__PURE__ */ define({
  id: "b0a8d493285c2df73290dfb7e61f870f",
  caipNetworkId: "polkadot:b0a8d493285c2df73290dfb7e61f870f",
  chainNamespace: "polkadot",
  name: "Kusama",
  nativeCurrency: { name: "Kusama", symbol: "KSM", decimals: 12 },
  rpcUrls: { default: { http: ["https://kusama-rpc.polkadot.io"], webSocket: ["wss://kusama-rpc.polkadot.io"] } },
  blockExplorers: { default: { name: "Subscan", url: "https://kusama.subscan.io" } }
})

/** Westend, Polkadot's test relay chain, `polkadot:e143f23803ac50e8f6f8e62695d1ce9e` (the genesis-hash prefix). */
export const westend = /* @__PURE__ */ define({
  id: "e143f23803ac50e8f6f8e62695d1ce9e",
  caipNetworkId: "polkadot:e143f23803ac50e8f6f8e62695d1ce9e",
  chainNamespace: "polkadot",
  name: "Westend",
  nativeCurrency: { name: "Westend", symbol: "WND", decimals: 12 },
  rpcUrls: { default: { http: ["https://westend-rpc.polkadot.io"], webSocket: ["wss://westend-rpc.polkadot.io"] } },
  blockExplorers: { default: { name: "Subscan", url: "https://westend.subscan.io" } },
  testnet: true
})

/** Every well-known network above. */
export const WELL_KNOWN_NETWORKS: ReadonlyArray<CaipNetwork> = [
  ethereum,
  localChainA,
  localChainB,
  solana,
  solanaDevnet,
  localSolana,
  bitcoin,
  bitcoinTestnet,
  bitcoinRegtest,
  polkadot,
  kusama,
  westend
]

/** A copy of `network` whose default RPC endpoints are replaced (the local chains get their ports at start). */
export const withDefaultRpcUrls = (network: CaipNetwork, rpc: RpcUrlSet): CaipNetwork => ({
  ...network,
  rpcUrls: { ...network.rpcUrls, default: rpc }
})
