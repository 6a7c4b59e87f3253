/**
 * Networks (spec point 3, "Network (CAIP)"): the chains a host offers, each named by its CAIP-2 id, plus the
 * placeholder for a chain outside the host's list. The well-known definitions are in `networks.ts`.
 */
import { Schema } from "effect"
import {
  type CaipNetworkId,
  CaipNetworkId as CaipNetworkIdSchema,
  ChainNamespace,
  isCaipReference,
  isNamespaceReference
} from "./Caip"
import { HttpUrl, ImageUrl, WsUrl } from "./Url"

// Most decimals a native currency may have: real ones use at most 18 (EVM); 36 leaves ample room.
const MAX_DECIMALS = 36

// A name the modal shows: present, and short enough for a list row.
const Label = (maxLength: number) => Schema.String.pipe(Schema.check(Schema.isNonEmpty(), Schema.isMaxLength(maxLength)))

/** The native currency of a network; decimals are a whole number from 0 to 36. */
export const NativeCurrency = Schema.Struct({
  name: Label(64),
  symbol: Label(16),
  decimals: Schema.Number.pipe(
    Schema.check(
      Schema.makeFilter((decimals: number) => Number.isInteger(decimals) && decimals >= 0 && decimals <= MAX_DECIMALS, {
        expected: `a whole number of decimals from 0 to ${MAX_DECIMALS}`
      })
    )
  )
})
/** The native currency of a network. */
export type NativeCurrency = typeof NativeCurrency.Type

// A network with more endpoints than this is a mistake, and every one may be pinged by the ranking.
const MAX_ENDPOINTS = 16

/** One set of RPC endpoints: at least one http(s) URL, and optional ws(s) URLs. */
export const RpcUrlSet = Schema.Struct({
  http: Schema.Array(HttpUrl).pipe(Schema.check(Schema.isNonEmpty(), Schema.isMaxLength(MAX_ENDPOINTS))),
  webSocket: Schema.optionalKey(Schema.Array(WsUrl).pipe(Schema.check(Schema.isMaxLength(MAX_ENDPOINTS))))
})
/** One set of RPC endpoints. */
export type RpcUrlSet = typeof RpcUrlSet.Type

/** RPC endpoints of a network: the `default` set and any other named sets. */
export const RpcUrls = Schema.StructWithRest(Schema.Struct({ default: RpcUrlSet }), [
  Schema.Record(Schema.String, RpcUrlSet)
]).pipe(Schema.check(Schema.isMaxProperties(MAX_ENDPOINTS)))
/** RPC endpoints of a network. */
export type RpcUrls = typeof RpcUrls.Type

/** A block explorer: its name and base http(s) URL. */
export const BlockExplorer = Schema.Struct({ name: Label(64), url: HttpUrl })
/** A block explorer. */
export type BlockExplorer = typeof BlockExplorer.Type

/** Images of a network: a catalogue image id and/or a picture URL (http(s) or `data:image/…`). */
export const NetworkAssets = Schema.Struct({
  // The id goes into the catalogue's image path, so it keeps to that path's characters.
  imageId: Schema.optionalKey(
    Schema.String.pipe(Schema.check(Schema.isPattern(/^[A-Za-z0-9._:-]{1,128}$/, { expected: "an image id" })))
  ),
  imageUrl: Schema.optionalKey(ImageUrl)
})
/** Images of a network. */
export type NetworkAssets = typeof NetworkAssets.Type

/**
 * The chain id part of a network: for eip155 a number from 1 to 2^53 − 1 (larger ones are not exact in JavaScript),
 * for the others the CAIP-2 reference string. Which of the two a namespace takes is checked with the network.
 */
export const NetworkChainId = Schema.Union([
  Schema.Number.pipe(
    Schema.check(
      Schema.makeFilter((id: number) => Number.isSafeInteger(id) && id >= 1, {
        expected: "a chain id: a whole number from 1 to 9007199254740991"
      })
    )
  ),
  Schema.String.pipe(Schema.check(Schema.makeFilter(isCaipReference, { expected: "a CAIP-2 reference" })))
])
/** The chain id part of a network. */
export type NetworkChainId = typeof NetworkChainId.Type

const CHAIN_ID_RULE: { readonly [N in ChainNamespace]: string } = {
  eip155: "a number from 1 to 9007199254740991",
  solana: "32 base58 characters (the genesis hash's first 32)",
  bip122: "32 lower-case hex characters (the genesis block hash's first 32)",
  polkadot: "32 lower-case hex characters (the genesis hash's first 32)"
}

const isChainIdOf = (namespace: ChainNamespace, id: NetworkChainId): boolean =>
  namespace === "eip155" ? typeof id === "number" : typeof id === "string" && isNamespaceReference(namespace, id)

/** The CAIP-2 id a network with this namespace and chain id must carry. */
export const expectedCaipNetworkId = (chainNamespace: ChainNamespace, id: NetworkChainId): string =>
  `${chainNamespace}:${id}`

/**
 * A network; its id follows its namespace's rules (an eip155 chain id is a number from 1 to 2^53 − 1) and its
 * `caipNetworkId` must equal `${chainNamespace}:${id}`.
 */
export const CaipNetwork = Schema.Struct({
  id: NetworkChainId,
  caipNetworkId: CaipNetworkIdSchema,
  chainNamespace: ChainNamespace,
  name: Label(64),
  nativeCurrency: NativeCurrency,
  rpcUrls: RpcUrls,
  blockExplorers: Schema.optionalKey(
    Schema.StructWithRest(Schema.Struct({ default: BlockExplorer }), [Schema.Record(Schema.String, BlockExplorer)]).pipe(
      Schema.check(Schema.isMaxProperties(MAX_ENDPOINTS))
    )
  ),
  testnet: Schema.optionalKey(Schema.Boolean),
  deprecatedCaipNetworkId: Schema.optionalKey(CaipNetworkIdSchema),
  assets: Schema.optionalKey(NetworkAssets)
}).check(
  Schema.makeFilter((network) => {
    if (!isChainIdOf(network.chainNamespace, network.id)) {
      return {
        path: ["id"],
        issue: `Expected ${CHAIN_ID_RULE[network.chainNamespace]} as the ${network.chainNamespace} chain id, got ${JSON.stringify(network.id)}`
      }
    }
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
