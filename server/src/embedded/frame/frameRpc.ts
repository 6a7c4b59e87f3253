/**
 * Signing in the frame (issue 30): the wallet's RPC (`../wallet/walletRpc.ts`) run on the frame's origin, with the
 * user's split key put together for each operation by `SplitKeys.withKey` (device share + server share, wiped after)
 * and every chain, bundler and paymaster call sent through the frame's own wallet server (`/api/rpc`), the one host
 * the frame reaches. frameLogic.ts loads this module with `import()` on the first signing request, so the frame page
 * opens without viem's signing code, the curves and Shamir.
 */
import { Effect, Exit, Layer } from "effect"
import type { ChainsResponse } from "../api"
import { ApiError } from "../wallet/errors"
import { type JsonRpcRequest, type RpcCall, type RpcChain, walletRpc } from "../wallet/walletRpc"
import { type FrameSigningApi, type SplitKeysApi, type WalletApi, WalletApiError } from "./apiClient"
import type { FrameStorage, KeyedUser } from "./frameLogic"
import { DeviceShares, ShareServer, SplitKeys } from "./SplitKeys"

/** What signing in the frame needs of the frame: its API client, its storage and the session's token. */
export interface FrameSignerEnv {
  readonly api: WalletApi & SplitKeysApi & FrameSigningApi
  readonly storage: FrameStorage
  readonly token: () => string
  /** Whether the device shares are kept sealed under the session (storage that travels to the server). */
  readonly sealed: boolean
}

// The server's refusal as the wallet RPC code raises it: the same words, status and JSON-RPC code.
const asApiError = (error: unknown): unknown =>
  error instanceof WalletApiError
    ? new ApiError(error.status === 0 ? 502 : error.status, error.code ?? "rpc_error", error.message, error.rpcCode === undefined ? {} : { rpcCode: error.rpcCode })
    : error

/** Runs one signing call for `user` in the frame, on the chains the wallet server serves (`chains`). */
export const signInFrame = async (env: FrameSignerEnv, chains: typeof ChainsResponse.Type, user: KeyedUser, call: RpcCall): Promise<unknown> => {
  // The wallet server answers the node's methods, and the bundler's and paymaster's by their names (walletRpc.ts).
  // Params as JSON carries them (an `undefined` in a list becomes null): viem leaves some in (the paymaster's context),
  // and the API's body codec refuses a value JSON does not have.
  const through = (chainId: string): JsonRpcRequest => (method, params) =>
    env.api.rpc(env.token(), params === undefined ? { chainId, method } : { chainId, method, params: JSON.parse(JSON.stringify(params)) as unknown }).then(
      (answer) => answer.result ?? null,
      (error: unknown) => Promise.reject(asApiError(error))
    )
  const chainOf = (chainId: string): RpcChain => {
    const smart = chains.smartAccounts?.find((c) => c.chainId === chainId)
    return {
      caipNetworkId: chainId,
      node: through(chainId),
      ...(smart === undefined
        ? {}
        : { smartAccount: { entryPoint: smart.entryPoint as `0x${string}`, factory: smart.factory as `0x${string}`, bundler: through(chainId) } })
    }
  }
  const solana = chains.chains.find((c) => c.startsWith("solana:"))
  const keys = SplitKeys.layer.pipe(
    Layer.provide(
      Layer.mergeAll(DeviceShares.layerFor(env.storage, env.token(), env.sealed), ShareServer.layerApi(env.api, env.token))
    )
  )
  return walletRpc(
    { evm: chains.chains.filter((c) => c.startsWith("eip155:")).map(chainOf), solana: solana === undefined ? undefined : chainOf(solana) },
    {
      evmAddress: user.evmAddress,
      solanaAddress: user.solanaAddress,
      withKey: async (family, use) => {
        const exit = await Effect.runPromiseExit(
          Effect.flatMap(Effect.service(SplitKeys), (split) => split.withKey(family, (secret) => Effect.tryPromise({ try: () => use(secret), catch: (error) => error }))).pipe(
            Effect.provide(keys)
          )
        )
        if (Exit.isSuccess(exit)) return exit.value
        const error = exit.cause.reasons.find((reason) => reason._tag === "Fail")?.error
        // The key could not be put together (no device share here, a share refused): in the module's own words.
        if (error !== null && typeof error === "object" && "_tag" in error && "message" in error && typeof error.message === "string" && !(error instanceof ApiError)) {
          throw new ApiError(400, "rpc_error", error.message, { rpcCode: 4100 })
        }
        throw error ?? new ApiError(500, "rpc_error", "The key could not be used", { rpcCode: -32603 })
      },
      // Batches are kept by the server (its processes answer their status); none is read back here.
      calls: {
        save: (calls) => env.api.storeCalls(env.token(), calls).catch((error: unknown) => Promise.reject(asApiError(error))),
        find: () => Promise.reject(new ApiError(400, "method_not_allowed", "Requested RPC call is not allowed"))
      }
    },
    call,
    // A send made with a grant is counted by the server (same lock, same coverage, same count) before it is signed here.
    {
      now: () => Date.now(),
      spend: async (account, context, use) => {
        const answer = await env.api
          .spendPermission(env.token(), {
            chainId: account.chainId,
            account: account.account,
            context,
            use: { to: use.to, amount: use.amount.toString(), ...(use.token === undefined ? {} : { token: use.token }) }
          })
          .catch((error: unknown) => Promise.reject(asApiError(error)))
        const coverage = answer.coverage
        if (coverage === null) return undefined
        return coverage.covered ? { covered: true, spent: BigInt(coverage.spent), periodStart: coverage.periodStart } : coverage
      },
      refund: (context, periodStart, amount) =>
        env.api.refundPermission(env.token(), { context, periodStart, amount: amount.toString() }).catch((error: unknown) => Promise.reject(asApiError(error)))
    }
  )
}
