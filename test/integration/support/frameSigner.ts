/**
 * The embedded wallet's RPC as the frame runs it (issue 30: the server signs nothing), in node against the real
 * wallet server: a method that needs the key runs in the frame's signing code (`signInFrame` of frameRpc.ts, the
 * device share from `storage` and the server's share put together for the operation), every other one goes to the
 * server's `/api/rpc`, exactly as frameLogic.ts routes them. Answers on the wire's terms, a status and a body (the
 * result, or the `ApiFailure` the frame's signing code raised or the server answered), so a test reads the same
 * either way.
 */
import { makeWalletApi } from "../../../server/src/embedded/frame/apiClient"
import { type FrameStorage, type KeyedUser, signsWithKey } from "../../../server/src/embedded/frame/frameLogic"
import { signInFrame } from "../../../server/src/embedded/frame/frameRpc"
import { ApiError } from "../../../server/src/embedded/wallet/errors"
import type { ApiReply, walletApi } from "./walletServerClient"

/** The user's RPC through the frame's code, for the session `token` whose device shares are in `storage`. */
export const frameRpc = (client: ReturnType<typeof walletApi>, url: string, token: string, storage: FrameStorage) => {
  const api = makeWalletApi({ fetch, baseUrl: url, projectId: client.projectId })
  return async (chainId: string, method: string, params?: unknown): Promise<ApiReply> => {
    const call = params === undefined ? { chainId, method } : { chainId, method, params }
    if (!signsWithKey(method)) return client.call("POST", "/api/rpc", call, { token })
    try {
      const [chains, user] = await Promise.all([api.chains(), api.user(token)])
      const result = await signInFrame({ api, storage, token: () => token, sealed: false }, chains, user as KeyedUser, call)
      return { status: 200, body: { result: result ?? null } }
    } catch (error) {
      if (error instanceof ApiError) return { status: error.status, body: { ...error.body() } }
      throw error
    }
  }
}
