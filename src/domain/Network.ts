/**
 * Networks (spec point 3, "Network (CAIP)"): the chains a host offers, each named by its CAIP-2 id, plus the
 * placeholder for a chain outside the host's list. The well-known definitions are in `networks.ts`.
 */
import { Schema } from "effect"
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
