/**
 * The blockchain service (spec 7.4) as an HTTP API group: the networks served, an address's name and avatar, its
 * balances, history and NFTs (our extension), and token prices. Every route needs a project.
 */
import { HttpApiEndpoint, HttpApiGroup, OpenApi } from "effect/http-api"
import {
  AccountPath,
  BalanceQuery,
  BalanceResponse,
  FungiblePriceRequest,
  FungiblePriceResponse,
  HistoryQuery,
  HistoryResponse,
  Identity,
  IdentityPath,
  IdentityQuery,
  NftsPath,
  NftsQuery,
  NftsResponse,
  ProjectQuery,
  SupportedChains
} from "../Api"
import { BadGateway, BadRequest } from "./errors"
import { ProjectAuth } from "./middleware"

/** The blockchain service's endpoints; a chain that cannot be read is a 502, a cursor the service did not give a 400. */
export const BlockchainGroup = HttpApiGroup.make("blockchain")
  .add(
    HttpApiEndpoint.get("supportedChains", "/v1/supported-chains", { query: ProjectQuery, success: SupportedChains }).annotate(
      OpenApi.Summary,
      "The networks this service serves (over HTTP; none over websocket)"
    )
  )
  .add(
    HttpApiEndpoint.get("identity", "/v1/identity/:address", { params: IdentityPath, query: IdentityQuery, success: Identity }).annotate(
      OpenApi.Summary,
      "An EVM address's own name (the newest it registered) and avatar, null when it has none"
    )
  )
  .add(
    HttpApiEndpoint.get("balance", "/v1/account/:address/balance", {
      params: AccountPath,
      query: BalanceQuery,
      success: BalanceResponse,
      error: BadGateway
    }).annotate(OpenApi.Summary, "The address's non-zero token balances, read from the chains and priced")
  )
  .add(
    HttpApiEndpoint.get("history", "/v1/account/:address/history", {
      params: AccountPath,
      query: HistoryQuery,
      success: HistoryResponse,
      error: [BadRequest, BadGateway]
    }).annotate(OpenApi.Summary, "A page of the address's transactions, newest first; `next` is the cursor of the following page")
  )
  .add(
    HttpApiEndpoint.get("nfts", "/v1/account/:address/nfts", {
      params: NftsPath,
      query: NftsQuery,
      success: NftsResponse,
      error: [BadRequest, BadGateway]
    }).annotate(OpenApi.Summary, "Our extension: a page of the NFTs the address holds now, the most recently received first")
  )
  .add(
    HttpApiEndpoint.post("fungiblePrice", "/v1/fungible/price", {
      query: ProjectQuery,
      payload: FungiblePriceRequest,
      success: FungiblePriceResponse,
      error: BadGateway
    }).annotate(OpenApi.Summary, "The prices of tokens (CAIP-10 addresses); tokens without a price are left out")
  )
  .middleware(ProjectAuth)
