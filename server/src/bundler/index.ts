/**
 * The ERC-4337 bundler and verifying paymaster a host runs: one HTTP JSON-RPC endpoint per chain,
 * `POST {url}/rpc/{chainId}`, answering the bundler's methods (ERC-7769: `eth_sendUserOperation`,
 * `eth_estimateUserOperationGas`, `eth_getUserOperationByHash`, `eth_getUserOperationReceipt`,
 * `eth_supportedEntryPoints`, `eth_chainId`) and, when the host sponsors, the paymaster's (ERC-7677:
 * `pm_getPaymasterStubData`, `pm_getPaymasterData`). Every parameter is decoded before any chain is asked; a refusal
 * is a JSON-RPC error with ERC-7769's code and words a wallet can show; garbage gets an error and the next request is
 * served as usual. `GET /healthz` answers 200.
 *
 * @example
 * const bundler = await startBundler({ chains: [{ chainId: 31337, rpcUrls: [rpcUrl] }], entryPoint, privateKey })
 * createBundlerClient({ transport: http(`${bundler.info.url}/rpc/31337`) })
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { Socket } from "node:net"
import { type Address, getAddress, type Hex, hexToBigInt, type LocalAccount, toHex } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { listenOnLoopback } from "../lib/httpServer"
import { upstreamTransport } from "../lib/jsonRpc"
import { rpcUpstream } from "../lib/rpcUpstream"
import type { Started } from "../lib/Started"
import { type ChainBundler, chainBundler } from "./chain"
import { BundlerRpcError, RpcErrorCode } from "./errors"
import { PAYMASTER_STUB_VERIFICATION_GAS, signPaymasterData, stubPaymasterData } from "./paymaster"
import { gasOf, type SponsorPolicy, sponsorDecision } from "./policy"
import { decodeAddress, decodeHash, decodePartialUserOperation, decodeUserOperation } from "./userOperation"

/** The host's paymaster: its contract (the same address on every chain served), its approving key and its policy. */
export interface BundlerPaymasterOptions {
  readonly address: Address
  readonly signerKey: Hex
  readonly policy: SponsorPolicy
  /** How long an approval stays good, in seconds (the op must be included within it). */
  readonly validForSeconds: number
}

/** How the bundler is started. */
export interface BundlerOptions {
  readonly chains: ReadonlyArray<{ readonly chainId: number; readonly rpcUrls: ReadonlyArray<string> }>
  readonly entryPoint: Address
  /** The funded key that submits bundles. */
  readonly privateKey: Hex
  readonly maxOpsPerBundle?: number
  readonly paymaster?: BundlerPaymasterOptions
  readonly host?: string
  /** 0 or absent: a port the OS chooses. */
  readonly port?: number
  /** Where clients reach it, when not the listen address. */
  readonly publicUrl?: string
  readonly maxBodyBytes?: number
  readonly rpcAttemptTimeoutMs?: number
  readonly receiptLookbackBlocks?: number
  readonly receiptTimeoutMs?: number
  readonly log?: (line: string, fields?: Record<string, unknown>) => void
}

/** A running bundler. */
export interface BundlerInfo {
  /** Its base URL; a chain's endpoint is `${url}/rpc/${chainId}`. */
  readonly url: string
  readonly port: number
  /** The address that submits bundles (and is paid back). */
  readonly bundlerAddress: Address
  readonly entryPoint: Address
  readonly chainIds: ReadonlyArray<number>
  /** The pending operations of a chain (for tests and the bench). */
  readonly pendingCount: (chainId: number) => number
}

const DEFAULT_MAX_BODY_BYTES = 1_000_000

interface RpcRequest {
  readonly id: unknown
  readonly method: string
  readonly params: ReadonlyArray<unknown>
}

const asRequest = (value: unknown): RpcRequest | BundlerRpcError => {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return new BundlerRpcError(RpcErrorCode.InvalidRequest, "Not a JSON-RPC request")
  const { jsonrpc, id, method, params } = value as Record<string, unknown>
  if (jsonrpc !== "2.0" || typeof method !== "string") return new BundlerRpcError(RpcErrorCode.InvalidRequest, "Not a JSON-RPC 2.0 request")
  if (params !== undefined && !Array.isArray(params)) return new BundlerRpcError(RpcErrorCode.InvalidParams, "params must be a list")
  return { id: id ?? null, method, params: (params as ReadonlyArray<unknown> | undefined) ?? [] }
}

/** Starts the bundler (and the paymaster when configured) on `host:port`. */
export const startBundler = async (given: BundlerOptions): Promise<Started<BundlerInfo>> => {
  // Compared with what clients send, checksummed alike.
  const options = { ...given, entryPoint: getAddress(given.entryPoint) }
  const account = privateKeyToAccount(options.privateKey)
  const log = options.log ?? (() => undefined)
  const bundlers = new Map<number, ChainBundler>(
    options.chains.map((chain) => [
      chain.chainId,
      chainBundler({
        chainId: chain.chainId,
        entryPoint: options.entryPoint,
        transport: upstreamTransport(rpcUpstream(chain.rpcUrls, options.rpcAttemptTimeoutMs === undefined ? {} : { attemptTimeoutMs: options.rpcAttemptTimeoutMs })),
        account,
        maxOpsPerBundle: options.maxOpsPerBundle ?? 8,
        receiptLookbackBlocks: BigInt(options.receiptLookbackBlocks ?? 10_000),
        receiptTimeoutMs: options.receiptTimeoutMs ?? 60_000,
        log
      })
    ])
  )
  const paymaster = options.paymaster
  const paymasterSigner: LocalAccount | undefined = paymaster === undefined ? undefined : privateKeyToAccount(paymaster.signerKey)

  const checkEntryPoint = (input: unknown) => {
    const entryPoint = decodeAddress(input, "EntryPoint")
    if (entryPoint !== options.entryPoint) {
      throw new BundlerRpcError(RpcErrorCode.InvalidParams, `This bundler serves the EntryPoint ${options.entryPoint}, not ${entryPoint}`)
    }
  }

  const sponsorOrRefuse = (bundler: ChainBundler, params: ReadonlyArray<unknown>, final: boolean) => {
    if (paymaster === undefined || paymasterSigner === undefined) throw new BundlerRpcError(RpcErrorCode.MethodNotFound, "This bundler has no paymaster")
    const op = decodePartialUserOperation(params[0])
    checkEntryPoint(params[1])
    if (params[2] !== undefined && (typeof params[2] !== "string" || !/^0x[0-9a-fA-F]{1,16}$/.test(params[2]) || Number(hexToBigInt(params[2] as Hex)) !== bundler.chainId)) {
      throw new BundlerRpcError(RpcErrorCode.InvalidParams, `This endpoint is for chain ${bundler.chainId}`)
    }
    const decision = sponsorDecision(paymaster.policy, { sender: op.sender, gas: final ? gasOf(op) : 0n })
    if (!decision.sponsored) throw new BundlerRpcError(RpcErrorCode.RejectedByPaymaster, decision.reason)
    return op
  }

  const validUntil = async (bundler: ChainBundler) => {
    const block = await bundler.client.getBlock({ blockTag: "latest" })
    return Number(block.timestamp) + (paymaster?.validForSeconds ?? 0)
  }

  const call = async (bundler: ChainBundler, request: RpcRequest): Promise<unknown> => {
    const { params } = request
    switch (request.method) {
      case "eth_chainId":
        return toHex(bundler.chainId)
      case "eth_supportedEntryPoints":
        return [options.entryPoint]
      case "eth_sendUserOperation": {
        const op = decodeUserOperation(params[0])
        checkEntryPoint(params[1])
        return bundler.send(op)
      }
      case "eth_estimateUserOperationGas": {
        const op = decodePartialUserOperation(params[0])
        checkEntryPoint(params[1])
        return bundler.estimate(op)
      }
      case "eth_getUserOperationByHash":
        return bundler.byHash(decodeHash(params[0]))
      case "eth_getUserOperationReceipt":
        return bundler.receipt(decodeHash(params[0]))
      case "pm_getPaymasterStubData": {
        sponsorOrRefuse(bundler, params, false)
        return {
          paymaster: paymaster?.address,
          paymasterData: stubPaymasterData(await validUntil(bundler)),
          paymasterVerificationGasLimit: toHex(PAYMASTER_STUB_VERIFICATION_GAS),
          paymasterPostOpGasLimit: "0x0",
          isFinal: false
        }
      }
      case "pm_getPaymasterData": {
        const op = sponsorOrRefuse(bundler, params, true)
        if (paymaster === undefined || paymasterSigner === undefined) return null
        const signed = { ...op, paymaster: paymaster.address, paymasterVerificationGasLimit: op.paymasterVerificationGasLimit ?? PAYMASTER_STUB_VERIFICATION_GAS, paymasterPostOpGasLimit: op.paymasterPostOpGasLimit ?? 0n }
        const paymasterData = await signPaymasterData({
          op: signed,
          paymaster: paymaster.address,
          chainId: bundler.chainId,
          validUntil: await validUntil(bundler),
          signer: paymasterSigner
        })
        return {
          paymaster: paymaster.address,
          paymasterData,
          paymasterVerificationGasLimit: toHex(signed.paymasterVerificationGasLimit),
          paymasterPostOpGasLimit: toHex(signed.paymasterPostOpGasLimit)
        }
      }
      default:
        throw new BundlerRpcError(RpcErrorCode.MethodNotFound, `The method ${request.method} is not served here`)
    }
  }

  const answer = async (bundler: ChainBundler, input: unknown) => {
    const request = asRequest(input)
    if (request instanceof BundlerRpcError) return { jsonrpc: "2.0", id: null, error: { code: request.code, message: request.message } }
    try {
      return { jsonrpc: "2.0", id: request.id, result: await call(bundler, request) }
    } catch (error) {
      if (error instanceof BundlerRpcError) {
        return { jsonrpc: "2.0", id: request.id, error: { code: error.code, message: error.message, ...(error.data === undefined ? {} : { data: error.data }) } }
      }
      log("bundler request failed", { method: request.method, error: error instanceof Error ? error.message : String(error) })
      return { jsonrpc: "2.0", id: request.id, error: { code: RpcErrorCode.Internal, message: "The bundler could not answer: the chain's node failed" } }
    }
  }

  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES
  const reply = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { "content-type": "application/json", "access-control-allow-origin": "*" })
    res.end(JSON.stringify(body))
  }
  const readBody = (req: IncomingMessage): Promise<string | undefined> =>
    new Promise((resolve, reject) => {
      const chunks: Array<Buffer> = []
      let length = 0
      req.on("data", (chunk: Buffer) => {
        length += chunk.length
        if (length > maxBodyBytes) {
          resolve(undefined)
          req.destroy()
          return
        }
        chunks.push(chunk)
      })
      req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
      req.on("error", reject)
    })

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? "/", "http://bundler").pathname
    if (req.method === "OPTIONS") {
      res.writeHead(204, { "access-control-allow-origin": "*", "access-control-allow-methods": "POST", "access-control-allow-headers": "content-type" })
      return res.end()
    }
    if (path === "/healthz" || path === "/readyz") return reply(res, 200, { ok: true })
    const match = /^\/rpc\/(\d{1,16})$/.exec(path)
    const bundler = match === null ? undefined : bundlers.get(Number(match[1]))
    if (bundler === undefined) return reply(res, 404, { error: `No bundler here: POST /rpc/{chainId}, chains ${[...bundlers.keys()].join(", ")}` })
    if (req.method !== "POST") return reply(res, 405, { error: "POST a JSON-RPC request" })
    const text = await readBody(req)
    if (text === undefined) return reply(res, 413, { error: `The body is larger than ${maxBodyBytes} bytes` })
    let body: unknown
    try {
      body = JSON.parse(text)
    } catch {
      return reply(res, 200, { jsonrpc: "2.0", id: null, error: { code: RpcErrorCode.ParseError, message: "The body is not JSON" } })
    }
    if (Array.isArray(body)) {
      if (body.length === 0 || body.length > 100) {
        return reply(res, 200, { jsonrpc: "2.0", id: null, error: { code: RpcErrorCode.InvalidRequest, message: "A batch holds 1 to 100 requests" } })
      }
      return reply(res, 200, await Promise.all(body.map((item) => answer(bundler, item))))
    }
    return reply(res, 200, await answer(bundler, body))
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      log("bundler request failed", { error: error instanceof Error ? error.message : String(error) })
      if (!res.headersSent) reply(res, 500, { error: "The bundler failed" })
    })
  })
  const sockets = new Set<Socket>()
  server.on("connection", (socket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
  })
  const host = options.host ?? "127.0.0.1"
  const port = await listenOnLoopback(server, options.port ?? 0, host)
  const url = options.publicUrl ?? `http://${host.includes(":") ? `[${host}]` : host}:${port}`
  let stopping: Promise<void> | undefined
  return {
    info: {
      url,
      port,
      bundlerAddress: account.address,
      entryPoint: options.entryPoint,
      chainIds: [...bundlers.keys()],
      pendingCount: (chainId) => bundlers.get(chainId)?.pendingCount() ?? 0
    },
    stop: () => {
      stopping ??= (async () => {
        const closed = new Promise<void>((resolve) => server.close(() => resolve()))
        for (const socket of sockets) if (!socket.destroyed) socket.end()
        // Bundles in flight finish (each bounded by its receipt's wait); nothing new is taken.
        await Promise.all([...bundlers.values()].map((bundler) => bundler.settle()))
        for (const socket of sockets) socket.destroy()
        await closed
      })()
      return stopping
    }
  }
}
