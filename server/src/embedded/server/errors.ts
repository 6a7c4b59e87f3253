import type { ApiError } from "../wallet/errors"
import { WalletBadGateway, WalletBadRequest, WalletInternalError } from "../WalletServerApi"

/** How `POST /api/rpc` answers a signing failure: a 502 when the chain cannot be reached, a 400 for the request, else a 500. */
export const rpcFailure = (error: ApiError): WalletBadRequest | WalletBadGateway | WalletInternalError =>
  error.status === 400 ? new WalletBadRequest(error.body()) : error.status === 502 ? new WalletBadGateway(error.body()) : new WalletInternalError(error.body())
