/**
 * `POST /api/rpc`: the embedded wallet's JSON-RPC on one chain. Signing methods use the user's key, opened only for
 * the call and wiped after; the frame's safe eth_* methods go to the chain's RPC as they are; anything else is
 * `method_not_allowed`. Wallet and node failures come back as `rpc_error` with the JSON-RPC code and the node's words.
 */
import { getBase58Decoder, getBase58Encoder, getBase64Decoder, getBase64Encoder, getTransactionDecoder, getTransactionEncoder, type SignatureBytes, type Transaction } from "@solana/kit"
import {
  BaseError,
  createPublicClient,
  createWalletClient,
  defineChain,
  http,
  type Hex,
  hexToBigInt,
  isAddressEqual,
  isHex,
  type TypedDataDefinition
} from "viem"
import { EMBEDDED_SAFE_RPC_METHODS } from "../../../../src/domain/Frame"
import { createBundlerClient, createPaymasterClient } from "viem/account-abstraction"
import { toWalletAccount, walletAccountFactoryAbi } from "../../bundler/walletAccount"
import { upstreamTransport } from "../../lib/jsonRpc"
import { type RpcUpstream, rpcUpstream, type UpstreamAnswer } from "../../lib/rpcUpstream"
import { CALLS_METHODS, type CallsChain, type CallsStore, walletCalls } from "./calls"
import { ApiError } from "./errors"
import { ed25519Sign, evmAccountOf, type KeyFamily } from "./keys"
import { type GrantScope, isPermissionCall, permissionRpc } from "./permissions"

/** Where a chain's smart accounts (WalletAccount: SimpleAccount of EntryPoint v0.8 with ERC-7739) are made and their operations sent. */
export interface WalletSmartAccounts {
  /** The bundler's endpoint of this chain (`{bundler}/rpc/{chainId}`); it is asked for sponsorship too (ERC-7677). */
  readonly bundlerUrl: string
  readonly entryPoint: Hex
  readonly factory: Hex
}

/** A chain the server signs and sends on: its RPC URL, and more of the same chain tried in order when one fails. */
export interface WalletChain {
  readonly caipNetworkId: string
  readonly rpcUrl: string
  /** Tried in order when `rpcUrl` fails at the transport level (no connection, time-out, 5xx): `lib/rpcUpstream.ts`. */
  readonly fallbackRpcUrls?: ReadonlyArray<string>
  /** Smart accounts on this chain, when a bundler serves it. */
  readonly smartAccount?: WalletSmartAccounts
}

/** The chains the server signs and sends on. */
export interface WalletChains {
  readonly evm: ReadonlyArray<WalletChain>
  readonly solana?: WalletChain | undefined
  /** How long one RPC URL is given to answer before the next is tried (default `RPC_ATTEMPT_TIMEOUT_MS`). */
  readonly rpcAttemptTimeoutMs?: number
}

// One upstream per chain, so that each remembers which of its URLs answered last.
const upstreams = new WeakMap<WalletChain, RpcUpstream>()

const upstreamOf = (chains: WalletChains, chain: WalletChain): RpcUpstream => {
  let upstream = upstreams.get(chain)
  if (upstream === undefined) {
    const urls = [chain.rpcUrl, ...(chain.fallbackRpcUrls ?? [])]
    upstream = rpcUpstream(urls, chains.rpcAttemptTimeoutMs === undefined ? {} : { attemptTimeoutMs: chains.rpcAttemptTimeoutMs })
    upstreams.set(chain, upstream)
  }
  return upstream
}

/** The user the call signs for: their addresses, and a way to open one of their keys for this call only. */
export interface RpcUser {
  readonly evmAddress: string
  readonly solanaAddress: string
  /** The plain private key (EVM) or seed (Solana); the caller wipes it after use. */
  readonly openKey: (family: KeyFamily) => Promise<Uint8Array>
  /** Where the user's EIP-5792 batches are kept (without it, wallet_sendCalls and wallet_getCallsStatus are refused). */
  readonly calls?: CallsStore
}

/** One `/api/rpc` request. */
export interface RpcCall {
  readonly chainId: string
  readonly method: string
  readonly params?: unknown
}

const NOT_ALLOWED = "Requested RPC call is not allowed"
const safeMethods: ReadonlySet<string> = new Set(EMBEDDED_SAFE_RPC_METHODS)

const invalidParams = (message: string) => new ApiError(400, "rpc_error", message, { rpcCode: -32602 })
const notThisWallet = (address: unknown) =>
  new ApiError(400, "rpc_error", `The address ${String(address)} is not this wallet's account`, { rpcCode: 4100 })

/** Runs `use` with the user's key of `family`, then wipes the key's bytes. */
const withKey = async <A>(user: RpcUser, family: KeyFamily, use: (secret: Uint8Array) => Promise<A>): Promise<A> => {
  const secret = await user.openKey(family)
  try {
    return await use(secret)
  } finally {
    secret.fill(0)
  }
}

/** A JSON-RPC call to a chain's node; its error becomes `rpc_error` with the node's code and words. */
const nodeRequest = async (upstream: RpcUpstream, method: string, params: unknown): Promise<unknown> => {
  let answer: UpstreamAnswer
  try {
    answer = await upstream.post(JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: params ?? [] }))
  } catch (error) {
    throw new ApiError(502, "rpc_error", `The chain's RPC cannot be reached: ${error instanceof Error ? error.message : String(error)}`, {
      rpcCode: -32603
    })
  }
  const { status, text } = answer
  let body: { readonly result?: unknown; readonly error?: { readonly code?: unknown; readonly message?: unknown } }
  try {
    body = JSON.parse(text) as typeof body
  } catch {
    throw new ApiError(502, "rpc_error", `The chain's RPC answered HTTP ${status}: ${text.slice(0, 200)}`, { rpcCode: -32603 })
  }
  if (body.error !== undefined) {
    throw new ApiError(400, "rpc_error", typeof body.error.message === "string" ? body.error.message : JSON.stringify(body.error), {
      rpcCode: typeof body.error.code === "number" ? body.error.code : -32603
    })
  }
  return body.result ?? null
}

/** A viem failure as `rpc_error`: the innermost JSON-RPC code and the node's own words. */
const viemFailure = (error: unknown): ApiError => {
  if (error instanceof ApiError) return error
  if (error instanceof BaseError) {
    const withCode = error.walk((e) => typeof (e as { readonly code?: unknown }).code === "number") as
      | { readonly code?: number }
      | null
    return new ApiError(400, "rpc_error", error.details || error.shortMessage, { rpcCode: withCode?.code ?? -32603 })
  }
  return new ApiError(500, "rpc_error", error instanceof Error ? error.message : String(error), { rpcCode: -32603 })
}

const paramsArray = (params: unknown): ReadonlyArray<unknown> => {
  if (params === undefined) return []
  if (!Array.isArray(params)) throw invalidParams("params must be an array")
  return params
}

const quantity = (field: string, value: unknown): bigint | undefined => {
  if (value === undefined || value === null) return undefined
  if (typeof value !== "string" || !isHex(value)) throw invalidParams(`${field} must be a hex quantity`)
  return hexToBigInt(value)
}

const sameEvmAddress = (user: RpcUser, address: unknown) =>
  typeof address === "string" && isHex(address) && address.length === 42 && isAddressEqual(address, user.evmAddress as Hex)

const viemChainOf = (chain: WalletChain, upstream: RpcUpstream) =>
  defineChain({
    id: Number(chain.caipNetworkId.slice("eip155:".length)),
    name: chain.caipNetworkId,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    rpcUrls: { default: { http: [...upstream.urls] } }
  })

const smartAccountsOf = (chain: WalletChain): WalletSmartAccounts => {
  if (chain.smartAccount === undefined) {
    throw new ApiError(400, "rpc_error", `Smart accounts are not available on ${chain.caipNetworkId}`, { rpcCode: 4200 })
  }
  return chain.smartAccount
}

/** The user's smart account on `chain` (WalletAccount of their EVM key, salt 0): its address, and whether it exists yet. */
const smartAccountOf = async (chain: WalletChain, upstream: RpcUpstream, user: RpcUser) => {
  const config = smartAccountsOf(chain)
  const reader = createPublicClient({ chain: viemChainOf(chain, upstream), transport: upstreamTransport(upstream) })
  const address = await reader.readContract({
    address: config.factory,
    abi: walletAccountFactoryAbi,
    functionName: "getAddress",
    args: [user.evmAddress as Hex, 0n]
  })
  const code = await reader.getCode({ address })
  return { address, deployed: code !== undefined && code !== "0x" }
}

// How long a smart-account send waits for its operation to be included.
const USER_OPERATION_TIMEOUT_MS = 60_000

/**
 * Sends `calls` from the user's smart account as one user operation through the chain's bundler (`execute` for one,
 * `executeBatch` for more): sponsored when the host's paymaster accepts it, else paid by the account. The account is
 * deployed by its first operation. Answers the operation's hash once the bundler took it.
 */
const submitUserOperation = async (
  chain: WalletChain,
  upstream: RpcUpstream,
  user: RpcUser,
  calls: ReadonlyArray<{ readonly to: Hex; readonly value?: bigint; readonly data?: Hex }>
): Promise<Hex> => {
  const config = smartAccountsOf(chain)
  const reader = createPublicClient({ chain: viemChainOf(chain, upstream), transport: upstreamTransport(upstream) })
  return withKey(user, "eip155", async (secret) => {
    const account = await toWalletAccount({ client: reader, owner: evmAccountOf(secret), factory: config.factory, entryPoint: config.entryPoint })
    const send = (sponsored: boolean) =>
      createBundlerClient({
        account,
        client: reader,
        transport: http(config.bundlerUrl, { retryCount: 0 }),
        ...(sponsored ? { paymaster: createPaymasterClient({ transport: http(config.bundlerUrl, { retryCount: 0 }) }) } : {})
      }).sendUserOperation({ account, calls: [...calls] })
    // The host may not sponsor (no paymaster, or its policy says no): then the account pays its own gas.
    return send(true).catch((error: unknown) => {
      const code = error instanceof BaseError ? (error.walk((e) => typeof (e as { code?: unknown }).code === "number") as { code?: number } | null)?.code : undefined
      if (code === -32501 || code === -32601) return send(false)
      throw error
    })
  }).catch((error: unknown) => Promise.reject(viemFailure(error)))
}

/**
 * Sends `call` from the user's smart account (see {@link submitUserOperation}) and waits for its inclusion. Answers
 * the hash of the transaction that included it, as `eth_sendTransaction` does.
 */
const sendFromSmartAccount = async (
  chain: WalletChain,
  upstream: RpcUpstream,
  user: RpcUser,
  call: { readonly to: Hex; readonly value?: bigint; readonly data?: Hex }
): Promise<Hex> => {
  const hash = await submitUserOperation(chain, upstream, user, [call])
  const reader = createPublicClient({ chain: viemChainOf(chain, upstream), transport: upstreamTransport(upstream) })
  const bundler = createBundlerClient({ client: reader, transport: http(smartAccountsOf(chain).bundlerUrl, { retryCount: 0 }) })
  const receipt = await bundler
    .waitForUserOperationReceipt({ hash, pollingInterval: 100, timeout: USER_OPERATION_TIMEOUT_MS })
    .catch((error: unknown) => Promise.reject(viemFailure(error)))
  if (!receipt.success) throw new ApiError(400, "rpc_error", "The transaction reverted", { rpcCode: -32521 })
  return receipt.receipt.transactionHash
}

/** What calls.ts needs of `chain` for the user: its node, their smart account, and the two ways to send. */
const callsChainOf = (chains: WalletChains, chain: WalletChain, user: RpcUser): CallsChain => {
  const upstream = upstreamOf(chains, chain)
  return {
    caipNetworkId: chain.caipNetworkId,
    chainId: Number(chain.caipNetworkId.slice("eip155:".length)),
    bundlerUrl: chain.smartAccount?.bundlerUrl,
    entryPoint: chain.smartAccount?.entryPoint,
    node: (method, params) => nodeRequest(upstream, method, params),
    smartAccount: () =>
      chain.smartAccount === undefined
        ? Promise.resolve(undefined)
        : smartAccountOf(chain, upstream, user).catch((error: unknown) => Promise.reject(viemFailure(error))),
    sendUserOperation: (calls) =>
      submitUserOperation(chain, upstream, user, calls.map((call) => ({ to: call.to, value: call.value, ...(call.data === undefined ? {} : { data: call.data }) }))),
    sendTransaction: (call) =>
      withKey(user, "eip155", (secret) =>
        createWalletClient({ account: evmAccountOf(secret), chain: viemChainOf(chain, upstream), transport: upstreamTransport(upstream) }).sendTransaction({
          to: call.to,
          value: call.value,
          ...(call.data === undefined ? {} : { data: call.data })
        })
      ).catch((error: unknown) => Promise.reject(viemFailure(error)))
  }
}

const eip155 = async (chain: WalletChain, upstream: RpcUpstream, user: RpcUser, method: string, params: unknown) => {
  const chainId = Number(chain.caipNetworkId.slice("eip155:".length))
  // Whether `address` is the user's smart account on this chain (a chain without smart accounts has none).
  const isSmartAccount = async (address: unknown) => {
    if (chain.smartAccount === undefined || typeof address !== "string" || !isHex(address) || address.length !== 42) return false
    const smart = await smartAccountOf(chain, upstream, user).catch((error: unknown) => Promise.reject(viemFailure(error)))
    return isAddressEqual(address, smart.address)
  }
  // A signature asked of the smart account: ERC-1271 by ERC-7739 (the owner signs inside the account's own domain),
  // ERC-6492-wrapped while the account is not deployed.
  const signAsSmartAccount = (sign: (account: Awaited<ReturnType<typeof toWalletAccount>>) => Promise<Hex>) => {
    const config = smartAccountsOf(chain)
    const reader = createPublicClient({ chain: viemChainOf(chain, upstream), transport: upstreamTransport(upstream) })
    return withKey(user, "eip155", async (secret) =>
      sign(await toWalletAccount({ client: reader, owner: evmAccountOf(secret), factory: config.factory, entryPoint: config.entryPoint }))
    ).catch((error: unknown) => Promise.reject(viemFailure(error)))
  }
  switch (method) {
    // The frame's own question (GET_USER, INIT_SMART_ACCOUNT): the user's smart account on this chain.
    case "wallet_getSmartAccount":
      return smartAccountOf(chain, upstream, user).catch((error: unknown) => Promise.reject(viemFailure(error)))
    case "eth_accounts":
    case "eth_requestAccounts":
      return [user.evmAddress]
    case "eth_chainId":
      return `0x${chainId.toString(16)}`
    case "personal_sign": {
      const [message, address] = paramsArray(params)
      const smart = !sameEvmAddress(user, address) && (await isSmartAccount(address))
      if (!sameEvmAddress(user, address) && !smart) throw notThisWallet(address)
      if (typeof message !== "string") throw invalidParams("personal_sign: the message must be a string")
      const signable = isHex(message) ? { raw: message } : message
      if (smart) return signAsSmartAccount((account) => account.signMessage({ message: signable }))
      return withKey(user, "eip155", (secret) =>
        evmAccountOf(secret).signMessage({ message: signable })
      ).catch((error: unknown) => Promise.reject(viemFailure(error)))
    }
    case "eth_signTypedData_v4": {
      const [address, data] = paramsArray(params)
      const smart = !sameEvmAddress(user, address) && (await isSmartAccount(address))
      if (!sameEvmAddress(user, address) && !smart) throw notThisWallet(address)
      let typed: unknown
      try {
        typed = typeof data === "string" ? JSON.parse(data) : data
      } catch {
        throw invalidParams("eth_signTypedData_v4: the typed data is not valid JSON")
      }
      if (typeof typed !== "object" || typed === null) throw invalidParams("eth_signTypedData_v4: the typed data must be an object")
      if (smart) return signAsSmartAccount((account) => account.signTypedData(typed as TypedDataDefinition))
      return withKey(user, "eip155", (secret) => evmAccountOf(secret).signTypedData(typed as TypedDataDefinition)).catch(
        (error: unknown) => Promise.reject(viemFailure(error))
      )
    }
    case "eth_sendTransaction": {
      const [tx] = paramsArray(params)
      if (typeof tx !== "object" || tx === null) throw invalidParams("eth_sendTransaction: the transaction must be an object")
      const t = tx as Record<string, unknown>
      const fromSmartAccount =
        chain.smartAccount !== undefined &&
        typeof t["from"] === "string" &&
        isHex(t["from"]) &&
        t["from"].length === 42 &&
        isAddressEqual(t["from"], (await smartAccountOf(chain, upstream, user).catch((error: unknown) => Promise.reject(viemFailure(error)))).address)
      if (t["from"] !== undefined && !fromSmartAccount && !sameEvmAddress(user, t["from"])) throw notThisWallet(t["from"])
      const to = t["to"]
      if (to !== undefined && to !== null && (typeof to !== "string" || !isHex(to) || to.length !== 42)) {
        throw invalidParams("eth_sendTransaction: to must be an address")
      }
      const data = t["data"] ?? t["input"]
      if (data !== undefined && (typeof data !== "string" || !isHex(data))) throw invalidParams("eth_sendTransaction: data must be hex")
      const gas = quantity("gas", t["gas"])
      const nonce = quantity("nonce", t["nonce"])
      const maxFeePerGas = quantity("maxFeePerGas", t["maxFeePerGas"])
      const maxPriorityFeePerGas = quantity("maxPriorityFeePerGas", t["maxPriorityFeePerGas"])
      const gasPrice = quantity("gasPrice", t["gasPrice"])
      const value = quantity("value", t["value"])
      if (fromSmartAccount) {
        if (typeof to !== "string") throw invalidParams("eth_sendTransaction: a smart account's transaction needs a to")
        return sendFromSmartAccount(chain, upstream, user, {
          to: to as Hex,
          ...(value !== undefined ? { value } : {}),
          ...(typeof data === "string" ? { data: data as Hex } : {})
        })
      }
      const viemChain = viemChainOf(chain, upstream)
      return withKey(user, "eip155", async (secret) => {
        const client = createWalletClient({ account: evmAccountOf(secret), chain: viemChain, transport: upstreamTransport(upstream) })
        // Fees: a legacy gasPrice when the caller gave one, else EIP-1559 (viem fills what is missing from the chain).
        return gasPrice !== undefined
          ? client.sendTransaction({
              ...(typeof to === "string" ? { to: to as Hex } : {}),
              ...(typeof data === "string" ? { data: data as Hex } : {}),
              ...(value !== undefined ? { value } : {}),
              ...(gas !== undefined ? { gas } : {}),
              ...(nonce !== undefined ? { nonce: Number(nonce) } : {}),
              gasPrice
            })
          : client.sendTransaction({
              ...(typeof to === "string" ? { to: to as Hex } : {}),
              ...(typeof data === "string" ? { data: data as Hex } : {}),
              ...(value !== undefined ? { value } : {}),
              ...(gas !== undefined ? { gas } : {}),
              ...(nonce !== undefined ? { nonce: Number(nonce) } : {}),
              ...(maxFeePerGas !== undefined ? { maxFeePerGas } : {}),
              ...(maxPriorityFeePerGas !== undefined ? { maxPriorityFeePerGas } : {})
            })
      }).catch((error: unknown) => Promise.reject(viemFailure(error)))
    }
    default:
      if (safeMethods.has(method)) return nodeRequest(upstream, method, params)
      throw new ApiError(400, "method_not_allowed", NOT_ALLOWED)
  }
}

const record = (params: unknown, method: string): Record<string, unknown> => {
  if (typeof params !== "object" || params === null || Array.isArray(params)) throw invalidParams(`${method}: params must be an object`)
  return params as Record<string, unknown>
}

const decodeTransaction = (wire: unknown): Transaction => {
  if (typeof wire !== "string") throw invalidParams("The transaction must be a base64 string")
  try {
    return getTransactionDecoder().decode(getBase64Encoder().encode(wire))
  } catch (error) {
    throw invalidParams(`The transaction cannot be read: ${error instanceof Error ? error.message : String(error)}`)
  }
}

const signSolanaTransaction = (user: RpcUser, seed: Uint8Array, transaction: Transaction): Transaction => {
  // Only a transaction that names this wallet as a signer (fee payer or another required signer) is signed.
  if (!(user.solanaAddress in transaction.signatures)) {
    throw new ApiError(400, "rpc_error", `The transaction does not need a signature of ${user.solanaAddress}`, { rpcCode: -32602 })
  }
  const signature = ed25519Sign(seed, new Uint8Array(transaction.messageBytes)) as SignatureBytes
  return { ...transaction, signatures: { ...transaction.signatures, [user.solanaAddress]: signature } }
}

const wire = (transaction: Transaction): string => getBase64Decoder().decode(getTransactionEncoder().encode(transaction))

const solana = async (upstream: RpcUpstream, user: RpcUser, method: string, params: unknown) => {
  switch (method) {
    case "solana_getAccounts":
    case "solana_requestAccounts":
      return [{ pubkey: user.solanaAddress }]
    case "solana_signMessage": {
      const p = record(params, method)
      if (p["pubkey"] !== undefined && p["pubkey"] !== user.solanaAddress) throw notThisWallet(p["pubkey"])
      const message = p["message"]
      if (typeof message !== "string") throw invalidParams("solana_signMessage: message must be base58")
      let bytes: Uint8Array
      try {
        bytes = new Uint8Array(getBase58Encoder().encode(message))
      } catch {
        throw invalidParams("solana_signMessage: message must be base58")
      }
      return withKey(user, "solana", async (seed) => ({ signature: getBase58Decoder().decode(ed25519Sign(seed, bytes)) }))
    }
    case "solana_signTransaction": {
      const transaction = decodeTransaction(record(params, method)["transaction"])
      return withKey(user, "solana", async (seed) => ({ transaction: wire(signSolanaTransaction(user, seed, transaction)) }))
    }
    case "solana_signAllTransactions": {
      const all = record(params, method)["transactions"]
      if (!Array.isArray(all)) throw invalidParams("solana_signAllTransactions: transactions must be an array")
      const transactions = all.map(decodeTransaction)
      return withKey(user, "solana", async (seed) => ({
        transactions: transactions.map((transaction) => wire(signSolanaTransaction(user, seed, transaction)))
      }))
    }
    case "solana_signAndSendTransaction": {
      const p = record(params, method)
      const transaction = decodeTransaction(p["transaction"])
      const options = typeof p["options"] === "object" && p["options"] !== null ? (p["options"] as Record<string, unknown>) : {}
      const signed = await withKey(user, "solana", async (seed) => wire(signSolanaTransaction(user, seed, transaction)))
      const config: Record<string, unknown> = { encoding: "base64" }
      for (const key of ["skipPreflight", "preflightCommitment", "maxRetries", "minContextSlot"]) {
        if (options[key] !== undefined) config[key] = options[key]
      }
      const signature = await nodeRequest(upstream, "sendTransaction", [signed, config])
      return { signature }
    }
    default:
      throw new ApiError(400, "method_not_allowed", NOT_ALLOWED)
  }
}

/** Answers one `/api/rpc` call for `user` on the chains the server runs; ERC-7715 grants live in `grants`' scope. */
export const walletRpc = async (chains: WalletChains, user: RpcUser, call: RpcCall, grants?: GrantScope): Promise<unknown> => {
  if (call.chainId.startsWith("eip155:")) {
    const chain = chains.evm.find((c) => c.caipNetworkId === call.chainId)
    if (chain === undefined) throw new ApiError(400, "bad_request", `The wallet server does not run the chain ${call.chainId}`)
    const upstream = upstreamOf(chains, chain)
    if (grants !== undefined && isPermissionCall(call.method, call.params)) {
      return permissionRpc(grants, {
        chainId: Number(chain.caipNetworkId.slice("eip155:".length)),
        smartAccounts: chain.smartAccount !== undefined,
        smartAccount: () => smartAccountOf(chain, upstream, user).then((smart) => smart.address, (error: unknown) => Promise.reject(viemFailure(error))),
        send: (transfer) => sendFromSmartAccount(chain, upstream, user, transfer)
      }, call.method, call.params)
    }
    if (CALLS_METHODS.has(call.method)) {
      const current = callsChainOf(chains, chain, user)
      const all = chains.evm.map((c) => (c === chain ? current : callsChainOf(chains, c, user)))
      return walletCalls(all, current, { evmAddress: user.evmAddress, calls: user.calls }, call.method, call.params)
    }
    return eip155(chain, upstream, user, call.method, call.params)
  }
  if (call.chainId.startsWith("solana:")) {
    if (chains.solana === undefined || chains.solana.caipNetworkId !== call.chainId) {
      throw new ApiError(400, "bad_request", `The wallet server does not run the chain ${call.chainId}`)
    }
    return solana(upstreamOf(chains, chains.solana), user, call.method, call.params)
  }
  throw new ApiError(400, "bad_request", `The wallet server does not run the chain ${call.chainId}`)
}
