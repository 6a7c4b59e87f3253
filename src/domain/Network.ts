/**
 * Networks (spec point 3, "Network (CAIP)"): the chains a host offers, each named by its CAIP-2 id, plus the
 * well-known definitions the product and the demo use, and the placeholder for a chain outside the host's list.
 */
import { Schema } from "effect"
import { BITCOIN_DECIMALS, SOLANA_DECIMALS } from "./constants"
import { type CaipNetworkId, CaipNetworkId as CaipNetworkIdSchema, ChainNamespace } from "./Caip"

/** The native currency of a network. */
export const NativeCurrency = Schema.Struct({
  name: Schema.String,
  symbol: Schema.String,
  decimals: Schema.Number.pipe(Schema.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0)))
})
/** The native currency of a network. */
export type NativeCurrency = typeof NativeCurrency.Type

/** One set of RPC endpoints: HTTP URLs and optional WebSocket URLs. */
export const RpcUrlSet = Schema.Struct({
  http: Schema.Array(Schema.String),
  webSocket: Schema.optionalKey(Schema.Array(Schema.String))
})
/** One set of RPC endpoints. */
export type RpcUrlSet = typeof RpcUrlSet.Type

/** RPC endpoints of a network: the `default` set and any other named sets. */
export const RpcUrls = Schema.StructWithRest(Schema.Struct({ default: RpcUrlSet }), [
  Schema.Record(Schema.String, RpcUrlSet)
])
/** RPC endpoints of a network. */
export type RpcUrls = typeof RpcUrls.Type

/** A block explorer: its name and base URL. */
export const BlockExplorer = Schema.Struct({ name: Schema.String, url: Schema.String })
/** A block explorer. */
export type BlockExplorer = typeof BlockExplorer.Type

/** Images of a network: a catalogue image id and/or a direct URL. */
export const NetworkAssets = Schema.Struct({
  imageId: Schema.optionalKey(Schema.String),
  imageUrl: Schema.optionalKey(Schema.String)
})
/** Images of a network. */
export type NetworkAssets = typeof NetworkAssets.Type

/** The chain id part of a network: a number for eip155, the CAIP-2 reference string for the others. */
export const NetworkChainId = Schema.Union([Schema.Number, Schema.String])
/** The chain id part of a network. */
export type NetworkChainId = typeof NetworkChainId.Type

/** The CAIP-2 id a network with this namespace and chain id must carry. */
export const expectedCaipNetworkId = (chainNamespace: ChainNamespace, id: NetworkChainId): string =>
  `${chainNamespace}:${id}`

/** A network; its `caipNetworkId` must equal `${chainNamespace}:${id}`. */
export const CaipNetwork = Schema.Struct({
  id: NetworkChainId,
  caipNetworkId: CaipNetworkIdSchema,
  chainNamespace: ChainNamespace,
  name: Schema.String,
  nativeCurrency: NativeCurrency,
  rpcUrls: RpcUrls,
  blockExplorers: Schema.optionalKey(
    Schema.StructWithRest(Schema.Struct({ default: BlockExplorer }), [Schema.Record(Schema.String, BlockExplorer)])
  ),
  testnet: Schema.optionalKey(Schema.Boolean),
  deprecatedCaipNetworkId: Schema.optionalKey(CaipNetworkIdSchema),
  assets: Schema.optionalKey(NetworkAssets)
}).check(
  Schema.makeFilter((network) => {
    const expected = expectedCaipNetworkId(network.chainNamespace, network.id)
    return network.caipNetworkId === expected
      ? undefined
      : { path: ["caipNetworkId"], issue: `Expected ${expected} (chainNamespace:id), got ${network.caipNetworkId}` }
  })
)
/** A network. */
export type CaipNetwork = typeof CaipNetwork.Type

/** The CAIP-2 id of a network. */
export const caipNetworkIdOf = (network: Pick<CaipNetwork, "caipNetworkId">): CaipNetworkId => network.caipNetworkId

/** True when two networks are the same chain (same CAIP-2 id). */
export const isSameNetwork = (
  a: Pick<CaipNetwork, "caipNetworkId">,
  b: Pick<CaipNetwork, "caipNetworkId">
): boolean => a.caipNetworkId === b.caipNetworkId

/** The network of `networks` with this CAIP-2 id, if any. */
export const findNetwork = <N extends Pick<CaipNetwork, "caipNetworkId">>(
  networks: ReadonlyArray<N>,
  caipNetworkId: string
): N | undefined => networks.find((network) => network.caipNetworkId === caipNetworkId)

/** A copy of `network` whose default RPC endpoints are replaced (the local chains get their ports at start). */
export const withDefaultRpcUrls = (network: CaipNetwork, rpc: RpcUrlSet): CaipNetwork => ({
  ...network,
  rpcUrls: { ...network.rpcUrls, default: rpc }
})

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
  polkadot
]

/** Name of the placeholder network for a chain the host did not configure (spec point 4). */
export const UNSUPPORTED_NETWORK_NAME = "Unsupported Network"

/**
 * The placeholder for a chain outside the host's list: it keeps the wallet's chain id so the UnsupportedChain view
 * can name it, and has no RPC endpoints, so nothing is ever sent to it.
 */
export const unsupportedNetwork = (namespace: ChainNamespace, id: NetworkChainId): CaipNetwork => ({
  id,
  caipNetworkId: expectedCaipNetworkId(namespace, id) as CaipNetworkId,
  chainNamespace: namespace,
  name: UNSUPPORTED_NETWORK_NAME,
  nativeCurrency: { name: "Unknown", symbol: "", decimals: 18 },
  rpcUrls: { default: { http: [] } }
})

/** True for the unsupported-network placeholder. */
export const isUnsupportedNetwork = (network: Pick<CaipNetwork, "name">): boolean =>
  network.name === UNSUPPORTED_NETWORK_NAME
