/**
 * `GET /v1/account/{address}/nfts`, our extension to spec 7.4: the ERC-721 tokens an address holds now on the local
 * chains, from the indexed `Transfer` logs (the last transfer of each token id names its holder), the most recently
 * received first. Names come from the collection contract, images from the services' own image endpoint, and
 * `is_spam` from the devstack's spam list.
 */
import type { NftsResponse } from "../../../src/domain/Api"
import type { CaipAddress } from "../../../src/domain/Caip"
import type { Nft } from "../../../src/domain/Portfolio"
import type { IndexedNft } from "./indexer"
import { pageAfter, type SortKey } from "./paging"
import type { EvmChainState, ServicesState } from "./state"

/** The longest image id the image endpoints take (`ImagePath`). */
const MAX_IMAGE_ID = 128

/**
 * The preview of an NFT, drawn by `/public/getAssetImage` from its chain, contract and token id; `null` for a token
 * id too long to fit an image id (uint256 ids can have 78 digits).
 */
export const nftImageUrl = (state: ServicesState, chain: EvmChainState, contract: string, tokenId: bigint): string | null => {
  const id = `nft-${chain.chainId}-${contract}-${tokenId}`
  return id.length > MAX_IMAGE_ID ? null : `${state.baseUrl}/public/getAssetImage/${id}`
}

/** Whether the devstack's spam list names the collection. */
export const isSpamCollection = (chain: EvmChainState, contract: string): boolean => chain.spamContracts.has(contract.toLowerCase())

const toNft = async (state: ServicesState, chain: EvmChainState, held: IndexedNft): Promise<Nft> => {
  const meta = await chain.tokens.get(held.contract)
  const tokenId = held.tokenId.toString()
  return {
    chainId: chain.caipNetworkId,
    // The chain's CAIP-2 id and a checksummed address make a valid CAIP-10 address.
    contract: `${chain.caipNetworkId}:${held.contract}` as CaipAddress,
    standard: "erc721",
    tokenId,
    name: `${meta.name} #${tokenId}`,
    collection: { name: meta.name, symbol: meta.symbol },
    imageUrl: nftImageUrl(state, chain, held.contract, held.tokenId),
    flags: { is_spam: isSpamCollection(chain, held.contract) }
  }
}

/** A page of the NFTs `address` holds on `chains`, after `cursor` (the `next` of the previous page). */
export const evmNfts = async (
  state: ServicesState,
  chains: ReadonlyArray<EvmChainState>,
  address: string,
  cursor: string | undefined
): Promise<NftsResponse> => {
  await Promise.all(chains.map((chain) => chain.index.sync()))
  const held = (await Promise.all(chains.map(async (chain) => (await chain.index.nftsOf(address)).map((nft) => ({ chain, nft }))))).flat()
  const keyOf = ({ chain, nft }: (typeof held)[number]): SortKey => [nft.timestamp, chain.chainId, nft.blockNumber, nft.logIndex]
  const { page, next } = pageAfter(held, keyOf, cursor, state.nftPageSize)
  return { data: await Promise.all(page.map(({ chain, nft }) => toNft(state, chain, nft))), next }
}
