/**
 * The embedded wallet's JSON-RPC on one chain, as the server or the frame runs it: signing methods use the user's key,
 * opened by the runner for the one operation ({@link WalletKeys}); the frame's safe eth_* methods go to the chain's
 * node as they are; anything else is `method_not_allowed`. Wallet and node failures come back as `rpc_error` with
 * the JSON-RPC code and the node's words.
 *
 * Nothing here is of node or of the server: the chain's node and bundler are JSON-RPC functions the runner hands in
 * ({@link JsonRpcRequest}), batches and grants live behind the stores it hands in (`CallsStore`, `GrantStore`).
 */
import { getBase58Decoder, getBase58Encoder, getBase64Decoder, getBase64Encoder, getTransactionDecoder, getTransactionEncoder, type SignatureBytes, type Transaction } from "@solana/kit"
import {
  BaseError,
  createPublicClient,
  createWalletClient,
  custom,
  defineChain,
  type Hex,
  hexToBigInt,
  isAddressEqual,
  isHex,
  RpcRequestError,
  type TypedDataDefinition
} from "viem"
import { createBundlerClient, createPaymasterClient } from "viem/account-abstraction"
import { EMBEDDED_SAFE_RPC_METHODS } from "../../../../src/domain/Frame"
import { toWalletAccount, walletAccountFactoryAbi } from "../../bundler/walletAccount"
import { CALLS_METHODS, type CallsChain, type CallsStore, walletCalls } from "./calls"
import { ApiError } from "./errors"
import { ed25519Sign, evmAccountOf, type WalletKeys } from "./keys"
import { type GrantSpends, type GrantStore, isPermissionCall, permissionRpc } from "./permissions"

/**
 * One JSON-RPC endpoint: answers `method` with `params`, or rejects with an {@link ApiError} — `rpc_error` with the
 * endpoint's JSON-RPC code and words when it answered an error, a 502 when it could not be reached.
 */
export type JsonRpcRequest = (method: string, params: unknown) => Promise<unknown>

/** A chain the wallet signs and sends on. */
export interface RpcChain {
  readonly caipNetworkId: string
  /** The chain's node. */
  readonly node: JsonRpcRequest
  /** Smart accounts (WalletAccount: SimpleAccount of EntryPoint v0.8 with ERC-7739) on this chain, when a bundler serves it. */
  readonly smartAccount?: {
    readonly entryPoint: Hex
    readonly factory: Hex
    /** The chain's bundler, asked for sponsorship too (ERC-7677 `pm_*`). */
    readonly bundler: JsonRpcRequest
  }
}

/** The chains the wallet signs and sends on. */
export interface RpcChains {
  readonly evm: ReadonlyArray<RpcChain>
  readonly solana?: RpcChain | undefined
}

/** The user the call signs for: their keys, and where their EIP-5792 batches are kept (without it, wallet_sendCalls and wallet_getCallsStatus are refused). */
export interface RpcUser extends WalletKeys {
  readonly calls?: CallsStore
}

/** One wallet RPC request. */
export interface RpcCall {
  readonly chainId: string
  readonly method: string
  readonly params?: unknown
}

type SmartAccounts = NonNullable<RpcChain["smartAccount"]>

const NOT_ALLOWED = "Requested RPC call is not allowed"
const safeMethods: ReadonlySet<string> = new Set(EMBEDDED_SAFE_RPC_METHODS)

/**
 * The chain's bundler's methods (ERC-4337) and its paymaster's (ERC-7677), answered by the bundler: what an operation
 * signed in the frame needs of it, asked through the wallet server (the frame reaches no other host).
 */
export const BUNDLER_METHODS: ReadonlySet<string> = new Set([
  "eth_sendUserOperation",
  "eth_estimateUserOperationGas",
  "eth_getUserOperationReceipt",
  "eth_getUserOperationByHash",
  "eth_supportedEntryPoints",
  "pm_getPaymasterStubData",
  "pm_getPaymasterData"
])

// Of those, the ones that carry an operation: only the user's own smart account's is sent, estimated or sponsored (the
// host's paymaster pays for no one else's).
const OPERATION_METHODS: ReadonlySet<string> = new Set(["eth_sendUserOperation", "eth_estimateUserOperationGas", "pm_getPaymasterStubData", "pm_getPaymasterData"])

const invalidParams = (message: string) => new ApiError(400, "rpc_error", message, { rpcCode: -32602 })
const notThisWallet = (address: unknown) =>
  new ApiError(400, "rpc_error", `The address ${String(address)} is not this wallet's account`, { rpcCode: 4100 })

/**
 * viem's transport over a {@link JsonRpcRequest}: an endpoint's JSON-RPC error goes to viem as its RpcRequestError
 * (so viem reads its code as it would over HTTP); a failure to reach it stays the ApiError it is.
 */
const viemTransport = (request: JsonRpcRequest, url: string) =>
  custom(
    {
      request: ({ method, params }: { readonly method: string; readonly params?: unknown }) => {
        const list = Array.isArray(params) ? params : []
        return request(method, list).catch((error: unknown) => {
          if (!(error instanceof ApiError) || error.status !== 400 || error.extra.rpcCode === undefined) throw error
          throw new RpcRequestError({ body: { jsonrpc: "2.0", id: 1, method, params: list }, error: { code: error.extra.rpcCode, message: error.message }, url })
        })
      }
    },
    { retryCount: 0 }
  )

/** A viem failure as `rpc_error`: the innermost JSON-RPC code and the node's own words; an ApiError inside it as it is. */
const viemFailure = (error: unknown): ApiError => {
  if (error instanceof ApiError) return error
  if (error instanceof BaseError) {
    const inner = error.walk((e) => e instanceof ApiError)
    if (inner instanceof ApiError) return inner
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

const viemChainOf = (chain: RpcChain) =>
  defineChain({
    id: Number(chain.caipNetworkId.slice("eip155:".length)),
    name: chain.caipNetworkId,
    nativeCurrency: { name: "Ether", symbol: "ETH", decimals: 18 },
    // Never read: every client here is given the chain's node as its transport.
    rpcUrls: { default: { http: [] } }
  })

const smartAccountsOf = (chain: RpcChain): SmartAccounts => {
  if (chain.smartAccount === undefined) {
    throw new ApiError(400, "rpc_error", `Smart accounts are not available on ${chain.caipNetworkId}`, { rpcCode: 4200 })
  }
  return chain.smartAccount
}

const nodeClient = (chain: RpcChain) => createPublicClient({ chain: viemChainOf(chain), transport: viemTransport(chain.node, "the chain's RPC") })

/** The user's smart account on `chain` (WalletAccount of their EVM key, salt 0): its address, and whether it exists yet. */
const smartAccountOf = async (chain: RpcChain, user: RpcUser) => {
  const config = smartAccountsOf(chain)
  const reader = nodeClient(chain)
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
  chain: RpcChain,
  user: RpcUser,
  calls: ReadonlyArray<{ readonly to: Hex; readonly value?: bigint; readonly data?: Hex }>
): Promise<Hex> => {
  const config = smartAccountsOf(chain)
  const reader = nodeClient(chain)
  return user.withKey("eip155", async (secret) => {
    const account = await toWalletAccount({ client: reader, owner: evmAccountOf(secret), factory: config.factory, entryPoint: config.entryPoint })
    const send = (sponsored: boolean) =>
      createBundlerClient({
        account,
        client: reader,
        transport: viemTransport(config.bundler, "the bundler"),
        ...(sponsored ? { paymaster: createPaymasterClient({ transport: viemTransport(config.bundler, "the bundler") }) } : {})
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
  chain: RpcChain,
  user: RpcUser,
  call: { readonly to: Hex; readonly value?: bigint; readonly data?: Hex }
): Promise<Hex> => {
  const hash = await submitUserOperation(chain, user, [call])
  const reader = nodeClient(chain)
  const bundler = createBundlerClient({ client: reader, transport: viemTransport(smartAccountsOf(chain).bundler, "the bundler") })
  const receipt = await bundler
    .waitForUserOperationReceipt({ hash, pollingInterval: 100, timeout: USER_OPERATION_TIMEOUT_MS })
    .catch((error: unknown) => Promise.reject(viemFailure(error)))
  if (!receipt.success) throw new ApiError(400, "rpc_error", "The transaction reverted", { rpcCode: -32521 })
  return receipt.receipt.transactionHash
}

/** What calls.ts needs of `chain` for the user: its node and bundler, their smart account, and the two ways to send. */
const callsChainOf = (chain: RpcChain, user: RpcUser): CallsChain => ({
  caipNetworkId: chain.caipNetworkId,
  chainId: Number(chain.caipNetworkId.slice("eip155:".length)),
  bundler: chain.smartAccount?.bundler,
  entryPoint: chain.smartAccount?.entryPoint,
  node: chain.node,
  smartAccount: () =>
    chain.smartAccount === undefined
      ? Promise.resolve(undefined)
      : smartAccountOf(chain, user).catch((error: unknown) => Promise.reject(viemFailure(error))),
  sendUserOperation: (calls) =>
    submitUserOperation(chain, user, calls.map((call) => ({ to: call.to, value: call.value, ...(call.data === undefined ? {} : { data: call.data }) }))),
  sendTransaction: (call) =>
    user.withKey("eip155", (secret) =>
      createWalletClient({ account: evmAccountOf(secret), chain: viemChainOf(chain), transport: viemTransport(chain.node, "the chain's RPC") }).sendTransaction({
        to: call.to,
        value: call.value,
        ...(call.data === undefined ? {} : { data: call.data })
      })
    ).catch((error: unknown) => Promise.reject(viemFailure(error)))
})

const eip155 = async (chain: RpcChain, user: RpcUser, method: string, params: unknown) => {
  const chainId = Number(chain.caipNetworkId.slice("eip155:".length))
  // Whether `address` is the user's smart account on this chain (a chain without smart accounts has none).
  const isSmartAccount = async (address: unknown) => {
    if (chain.smartAccount === undefined || typeof address !== "string" || !isHex(address) || address.length !== 42) return false
    const smart = await smartAccountOf(chain, user).catch((error: unknown) => Promise.reject(viemFailure(error)))
    return isAddressEqual(address, smart.address)
  }
  // A signature asked of the smart account: ERC-1271 by ERC-7739 (the owner signs inside the account's own domain),
  // ERC-6492-wrapped while the account is not deployed.
  const signAsSmartAccount = (sign: (account: Awaited<ReturnType<typeof toWalletAccount>>) => Promise<Hex>) => {
    const config = smartAccountsOf(chain)
    const reader = nodeClient(chain)
    return user.withKey("eip155", async (secret) =>
      sign(await toWalletAccount({ client: reader, owner: evmAccountOf(secret), factory: config.factory, entryPoint: config.entryPoint }))
    ).catch((error: unknown) => Promise.reject(viemFailure(error)))
  }
  switch (method) {
    // The frame's own question (GET_USER, INIT_SMART_ACCOUNT): the user's smart account on this chain.
    case "wallet_getSmartAccount":
      return smartAccountOf(chain, user).catch((error: unknown) => Promise.reject(viemFailure(error)))
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
      return user.withKey("eip155", (secret) =>
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
      return user.withKey("eip155", (secret) => evmAccountOf(secret).signTypedData(typed as TypedDataDefinition)).catch(
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
        isAddressEqual(t["from"], (await smartAccountOf(chain, user).catch((error: unknown) => Promise.reject(viemFailure(error)))).address)
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
        return sendFromSmartAccount(chain, user, {
          to: to as Hex,
          ...(value !== undefined ? { value } : {}),
          ...(typeof data === "string" ? { data: data as Hex } : {})
        })
      }
      const viemChain = viemChainOf(chain)
      return user.withKey("eip155", async (secret) => {
        const client = createWalletClient({ account: evmAccountOf(secret), chain: viemChain, transport: viemTransport(chain.node, "the chain's RPC") })
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
      if (BUNDLER_METHODS.has(method)) {
        const { bundler } = smartAccountsOf(chain)
        if (OPERATION_METHODS.has(method)) {
          const [operation] = paramsArray(params)
          const sender = typeof operation === "object" && operation !== null ? (operation as { readonly sender?: unknown }).sender : undefined
          if (!(await isSmartAccount(sender))) throw notThisWallet(sender)
        }
        return bundler(method, params)
      }
      if (safeMethods.has(method)) return chain.node(method, params)
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

const solana = async (chain: RpcChain, user: RpcUser, method: string, params: unknown) => {
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
      return user.withKey("solana", async (seed) => ({ signature: getBase58Decoder().decode(ed25519Sign(seed, bytes)) }))
    }
    case "solana_signTransaction": {
      const transaction = decodeTransaction(record(params, method)["transaction"])
      return user.withKey("solana", async (seed) => ({ transaction: wire(signSolanaTransaction(user, seed, transaction)) }))
    }
    case "solana_signAllTransactions": {
      const all = record(params, method)["transactions"]
      if (!Array.isArray(all)) throw invalidParams("solana_signAllTransactions: transactions must be an array")
      const transactions = all.map(decodeTransaction)
      return user.withKey("solana", async (seed) => ({
        transactions: transactions.map((transaction) => wire(signSolanaTransaction(user, seed, transaction)))
      }))
    }
    case "solana_signAndSendTransaction": {
      const p = record(params, method)
      const transaction = decodeTransaction(p["transaction"])
      const options = typeof p["options"] === "object" && p["options"] !== null ? (p["options"] as Record<string, unknown>) : {}
      const signed = await user.withKey("solana", async (seed) => wire(signSolanaTransaction(user, seed, transaction)))
      const config: Record<string, unknown> = { encoding: "base64" }
      for (const key of ["skipPreflight", "preflightCommitment", "maxRetries", "minContextSlot"]) {
        if (options[key] !== undefined) config[key] = options[key]
      }
      const signature = await chain.node("sendTransaction", [signed, config])
      return { signature }
    }
    // A transaction signed in the frame, sent through the wallet server (the frame reaches no other host).
    case "sendTransaction":
      return chain.node(method, params)
    default:
      throw new ApiError(400, "method_not_allowed", NOT_ALLOWED)
  }
}

/** Answers one wallet RPC call for `user` on `chains`; ERC-7715 grants (without them, refused as not allowed) live in `grants`. */
export const walletRpc = async (chains: RpcChains, user: RpcUser, call: RpcCall, grants?: GrantStore | GrantSpends): Promise<unknown> => {
  if (call.chainId.startsWith("eip155:")) {
    const chain = chains.evm.find((c) => c.caipNetworkId === call.chainId)
    if (chain === undefined) throw new ApiError(400, "bad_request", `The wallet server does not run the chain ${call.chainId}`)
    if (grants !== undefined && isPermissionCall(call.method, call.params)) {
      return permissionRpc(grants, {
        chainId: Number(chain.caipNetworkId.slice("eip155:".length)),
        smartAccounts: chain.smartAccount !== undefined,
        smartAccount: () => smartAccountOf(chain, user).then((smart) => smart.address, (error: unknown) => Promise.reject(viemFailure(error))),
        send: (transfer) => sendFromSmartAccount(chain, user, transfer)
      }, call.method, call.params)
    }
    if (CALLS_METHODS.has(call.method)) {
      const current = callsChainOf(chain, user)
      const all = chains.evm.map((c) => (c === chain ? current : callsChainOf(c, user)))
      return walletCalls(all, current, { evmAddress: user.evmAddress, calls: user.calls }, call.method, call.params)
    }
    return eip155(chain, user, call.method, call.params)
  }
  if (call.chainId.startsWith("solana:")) {
    if (chains.solana === undefined || chains.solana.caipNetworkId !== call.chainId) {
      throw new ApiError(400, "bad_request", `The wallet server does not run the chain ${call.chainId}`)
    }
    return solana(chains.solana, user, call.method, call.params)
  }
  throw new ApiError(400, "bad_request", `The wallet server does not run the chain ${call.chainId}`)
}
