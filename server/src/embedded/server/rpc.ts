/**
 * `POST /api/rpc` on the server: the chains it is configured with, turned into the JSON-RPC endpoints the wallet's
 * RPC code (`../wallet/walletRpc.ts`) is handed — each chain's node asked with failover (`lib/rpcUpstream.ts`), its
 * bundler and paymaster at the configured URL.
 */
import type { Hex } from "viem"
import { type RpcUpstream, rpcUpstream, type UpstreamAnswer } from "../../lib/rpcUpstream"
import { ApiError } from "../wallet/errors"
import type { JsonRpcRequest, RpcChain, RpcChains } from "../wallet/walletRpc"

/** Where a chain's smart accounts (WalletAccount: SimpleAccount of EntryPoint v0.8 with ERC-7739) are made and their operations sent. */
export interface WalletSmartAccounts {
  /** The bundler's endpoint of this chain (`{bundler}/rpc/{chainId}`); it is asked for sponsorship too (ERC-7677). */
  readonly bundlerUrl: string
  readonly entryPoint: Hex
  readonly factory: Hex
}

/** A chain the server serves the frame on (reads, and what the frame signed, sent): its RPC URL, and more of the same chain tried in order when one fails. */
export interface WalletChain {
  readonly caipNetworkId: string
  readonly rpcUrl: string
  /** Tried in order when `rpcUrl` fails at the transport level (no connection, time-out, 5xx): `lib/rpcUpstream.ts`. */
  readonly fallbackRpcUrls?: ReadonlyArray<string>
  /** Smart accounts on this chain, when a bundler serves it. */
  readonly smartAccount?: WalletSmartAccounts
}

/** The chains the server serves the frame on. */
export interface WalletChains {
  readonly evm: ReadonlyArray<WalletChain>
  readonly solana?: WalletChain | undefined
  /** How long one RPC URL is given to answer before the next is tried (default `RPC_ATTEMPT_TIMEOUT_MS`). */
  readonly rpcAttemptTimeoutMs?: number
}

/** A JSON-RPC call to an upstream; its error becomes `rpc_error` with the endpoint's code and words. */
const upstreamRequest = (upstream: RpcUpstream, name: string): JsonRpcRequest => async (method, params) => {
  let answer: UpstreamAnswer
  try {
    answer = await upstream.post(JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: params ?? [] }))
  } catch (error) {
    throw new ApiError(502, "rpc_error", `The ${name} cannot be reached: ${error instanceof Error ? error.message : String(error)}`, {
      rpcCode: -32603
    })
  }
  const { status, text } = answer
  let body: { readonly result?: unknown; readonly error?: { readonly code?: unknown; readonly message?: unknown } }
  try {
    body = JSON.parse(text) as typeof body
  } catch {
    throw new ApiError(502, "rpc_error", `The ${name} answered HTTP ${status}: ${text.slice(0, 200)}`, { rpcCode: -32603 })
  }
  if (body.error !== undefined) {
    throw new ApiError(400, "rpc_error", typeof body.error.message === "string" ? body.error.message : JSON.stringify(body.error), {
      rpcCode: typeof body.error.code === "number" ? body.error.code : -32603
    })
  }
  return body.result ?? null
}

// One set of endpoints per configuration, so that each chain's upstream remembers which of its URLs answered last.
const endpoints = new WeakMap<WalletChains, RpcChains>()

/** The wallet RPC's chains of the server's configured `chains`: each node with failover, each bundler at its URL. */
export const rpcChainsOf = (chains: WalletChains): RpcChains => {
  const known = endpoints.get(chains)
  if (known !== undefined) return known
  const options = chains.rpcAttemptTimeoutMs === undefined ? {} : { attemptTimeoutMs: chains.rpcAttemptTimeoutMs }
  const chainOf = (chain: WalletChain): RpcChain => ({
    caipNetworkId: chain.caipNetworkId,
    node: upstreamRequest(rpcUpstream([chain.rpcUrl, ...(chain.fallbackRpcUrls ?? [])], options), "chain's RPC"),
    ...(chain.smartAccount === undefined
      ? {}
      : {
          smartAccount: {
            entryPoint: chain.smartAccount.entryPoint,
            factory: chain.smartAccount.factory,
            bundler: upstreamRequest(rpcUpstream([chain.smartAccount.bundlerUrl], options), "bundler")
          }
        })
  })
  const made: RpcChains = { evm: chains.evm.map(chainOf), solana: chains.solana === undefined ? undefined : chainOf(chains.solana) }
  endpoints.set(chains, made)
  return made
}
