/**
 * A test wallet: an EIP-1193 provider over the local chains, with keys held by viem local accounts. It behaves like
 * a browser wallet extension — it asks for approval (scriptable), knows some chains and answers 4902 for others,
 * can be told to change account or chain on its own, and forwards reads to the RPC of its current chain. Runs in
 * Node (integration tests, the browser tests' exposed binding) and in a page (the demo's development wallet).
 * Its keys are anvil's public dev keys: never give it a real key.
 */
import { type Hex, hexToString, isHex, numberToHex, type TypedDataDefinition } from "viem"
import { type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts"
import { makeCalls7702 } from "./calls7702"

/** An EIP-1193 error, with its numeric code. */
export class ProviderRpcError extends Error {
  readonly code: number
  readonly data: unknown
  constructor(code: number, message: string, data?: unknown) {
    super(message)
    this.code = code
    this.data = data
  }
}

/** A chain the wallet knows: its id, name and RPC URL. */
export interface TestWalletChain {
  readonly chainId: number
  readonly name: string
  readonly rpcUrl: string
}

/** What the wallet says to a request that needs the visitor's approval. */
export type Approval = "approve" | "reject"

/** The EIP-6963 identity of a wallet. */
export interface WalletIdentity {
  readonly uuid: string
  readonly name: string
  readonly icon: string
  readonly rdns: string
}

/**
 * Where the wallet keeps whether the site is authorised. A browser extension remembers it across reloads; the demo's
 * development wallet keeps it in the page's localStorage.
 */
export interface AuthorisationStore {
  readonly read: () => boolean
  readonly write: (authorised: boolean) => void
}

/** Options of {@link makeTestWallet}. */
export interface TestWalletOptions {
  readonly privateKeys: ReadonlyArray<Hex>
  readonly chains: ReadonlyArray<TestWalletChain>
  readonly chainId: number
  readonly identity?: Partial<WalletIdentity>
  /** Decides approval prompts; by default every prompt is approved. */
  readonly approve?: (method: string, params: unknown) => Approval | Promise<Approval>
  /** The fetch used for RPC (tests may pass their own). */
  readonly fetch?: typeof fetch
  /** Keeps the site's authorisation beyond this instance; by default it lasts as long as the instance. */
  readonly authorised?: AuthorisationStore
  /**
   * The EIP-7702 delegate (Simple7702Account) on the wallet's chains: with it the wallet answers EIP-5792's batch
   * methods (`./calls7702.ts`); without it, `wallet_getCapabilities` is `{}` and batches are not supported.
   */
  readonly batchExecutor?: Hex
}

type Listener = (...args: Array<unknown>) => void

/** The EIP-1193 provider of the test wallet plus controls for tests and the demo. */
export interface TestWallet {
  readonly request: (args: { readonly method: string; readonly params?: unknown }) => Promise<unknown>
  readonly on: (event: string, listener: Listener) => void
  readonly removeListener: (event: string, listener: Listener) => void
  readonly identity: WalletIdentity
  /** Every method requested, in order (for tests). */
  readonly requests: ReadonlyArray<string>
  /** Sets how prompts are answered from now on. */
  readonly setApproval: (approval: Approval) => void
  /** The visitor picks another account in the wallet. */
  readonly selectAccount: (index: number) => void
  /** The visitor moves the wallet to another chain (known or not). */
  readonly moveToChain: (chainId: number) => void
  /** The visitor disconnects the site in the wallet. */
  readonly revoke: () => void
  readonly address: () => Hex
  readonly chainId: () => number
}

const ICON =
  "data:image/svg+xml;base64," +
  btoa(
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#4b6bfb"/><path d="M8 12h16v10H8z" fill="#fff"/><circle cx="20" cy="17" r="2" fill="#4b6bfb"/></svg>'
  )

const hexChainId = (chainId: number): Hex => numberToHex(chainId)

const parseChainId = (value: unknown): number | undefined => {
  if (typeof value === "number" && Number.isSafeInteger(value)) return value
  if (typeof value === "string" && /^0x[0-9a-f]+$/i.test(value)) return Number.parseInt(value, 16)
  return undefined
}

const asArray = (params: unknown): ReadonlyArray<unknown> => (Array.isArray(params) ? params : [])

/** Makes a test wallet. */
export const makeTestWallet = (options: TestWalletOptions): TestWallet => {
  const accounts: ReadonlyArray<PrivateKeyAccount> = options.privateKeys.map((key) => privateKeyToAccount(key))
  if (accounts.length === 0) throw new Error("a test wallet needs at least one key")
  const known = new Map(options.chains.map((chain) => [chain.chainId, chain]))
  const listeners = new Map<string, Set<Listener>>()
  const requests: Array<string> = []
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis)
  let current = 0
  let chainId = options.chainId
  let authorised = options.authorised?.read() ?? false
  let approval: Approval = "approve"
  let rpcId = 1
  const identity: WalletIdentity = {
    uuid: options.identity?.uuid ?? "6f1c3b4e-2a1d-4e5f-9a7b-1c2d3e4f5a6b",
    name: options.identity?.name ?? "Wallet Runtime Test Wallet",
    icon: options.identity?.icon ?? ICON,
    rdns: options.identity?.rdns ?? "dev.wallet-runtime.testwallet"
  }

  const emit = (event: string, ...args: Array<unknown>) => {
    for (const listener of listeners.get(event) ?? []) listener(...args)
  }
  const account = (): PrivateKeyAccount => accounts[current] ?? (accounts[0] as PrivateKeyAccount)

  const ask = async (method: string, params: unknown) => {
    const answer = options.approve !== undefined ? await options.approve(method, params) : approval
    if (answer === "reject") throw new ProviderRpcError(4001, "User rejected the request.")
  }

  const authorise = (value: boolean) => {
    authorised = value
    options.authorised?.write(value)
  }

  const requireAuthorised = () => {
    if (!authorised) throw new ProviderRpcError(4100, "The requested account and/or method has not been authorized by the user.")
  }

  const rpc = async (method: string, params: unknown, on: number = chainId): Promise<unknown> => {
    const chain = known.get(on)
    if (chain === undefined) throw new ProviderRpcError(4901, `The wallet is on chain ${on}, which it cannot reach.`)
    const response = await doFetch(chain.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: rpcId++, method, params: params ?? [] })
    })
    const body = (await response.json()) as { result?: unknown; error?: { code: number; message: string; data?: unknown } }
    if (body.error !== undefined) throw new ProviderRpcError(body.error.code, body.error.message, body.error.data)
    return body.result
  }

  const sendTransaction = async (params: unknown): Promise<Hex> => {
    const [tx] = asArray(params) as ReadonlyArray<{ to?: Hex; value?: Hex; data?: Hex; gas?: Hex; from?: Hex }>
    if (tx === undefined) throw new ProviderRpcError(-32602, "eth_sendTransaction needs a transaction")
    if (tx.from !== undefined && tx.from.toLowerCase() !== account().address.toLowerCase()) {
      throw new ProviderRpcError(4100, "The transaction's from is not the selected account.")
    }
    await ask("eth_sendTransaction", params)
    const from = account().address
    const call = { from, to: tx.to, value: tx.value ?? "0x0", data: tx.data ?? "0x" }
    const [nonce, gasPrice, gas] = await Promise.all([
      rpc("eth_getTransactionCount", [from, "pending"]) as Promise<Hex>,
      rpc("eth_gasPrice", []) as Promise<Hex>,
      tx.gas !== undefined ? Promise.resolve(tx.gas) : (rpc("eth_estimateGas", [call]) as Promise<Hex>)
    ])
    const signed = await account().signTransaction({
      type: "legacy",
      chainId,
      nonce: Number(BigInt(nonce)),
      gasPrice: BigInt(gasPrice),
      gas: BigInt(gas),
      ...(tx.to !== undefined ? { to: tx.to } : {}),
      value: BigInt(call.value),
      data: call.data
    })
    return (await rpc("eth_sendRawTransaction", [signed])) as Hex
  }

  const calls =
    options.batchExecutor === undefined
      ? undefined
      : makeCalls7702({
          executor: options.batchExecutor,
          rpc,
          account,
          chainId: () => chainId,
          chains: () => [...known.keys()],
          ask,
          error: (code, message) => new ProviderRpcError(code, message)
        })

  const request = async ({ method, params }: { readonly method: string; readonly params?: unknown }): Promise<unknown> => {
    requests.push(method)
    switch (method) {
      case "eth_requestAccounts":
        if (!authorised) {
          await ask(method, params)
          authorise(true)
          emit("connect", { chainId: hexChainId(chainId) })
        }
        return [account().address]
      case "eth_accounts":
        return authorised ? [account().address] : []
      case "eth_chainId":
        return hexChainId(chainId)
      case "net_version":
        return String(chainId)
      case "wallet_requestPermissions":
        await ask(method, params)
        authorise(true)
        return [{ parentCapability: "eth_accounts" }]
      case "wallet_revokePermissions":
        authorise(false)
        return null
      case "wallet_switchEthereumChain": {
        const target = parseChainId((asArray(params)[0] as { chainId?: unknown } | undefined)?.chainId)
        if (target === undefined) throw new ProviderRpcError(-32602, "wallet_switchEthereumChain needs a chainId")
        if (!known.has(target)) throw new ProviderRpcError(4902, `Unrecognized chain ID "${hexChainId(target)}".`)
        if (target !== chainId) {
          await ask(method, params)
          chainId = target
          emit("chainChanged", hexChainId(chainId))
        }
        return null
      }
      case "wallet_addEthereumChain": {
        const spec = asArray(params)[0] as { chainId?: unknown; chainName?: string; rpcUrls?: ReadonlyArray<string> } | undefined
        const target = parseChainId(spec?.chainId)
        const rpcUrl = spec?.rpcUrls?.[0]
        if (target === undefined || rpcUrl === undefined) throw new ProviderRpcError(-32602, "wallet_addEthereumChain needs chainId and rpcUrls")
        await ask(method, params)
        known.set(target, { chainId: target, name: spec?.chainName ?? `Chain ${target}`, rpcUrl })
        if (target !== chainId) {
          chainId = target
          emit("chainChanged", hexChainId(chainId))
        }
        return null
      }
      case "personal_sign": {
        requireAuthorised()
        const [message, address] = asArray(params) as ReadonlyArray<string>
        if (typeof message !== "string" || address?.toLowerCase() !== account().address.toLowerCase()) {
          throw new ProviderRpcError(-32602, "personal_sign needs a message and the selected address")
        }
        await ask(method, params)
        return account().signMessage({ message: isHex(message) ? { raw: message } : message })
      }
      case "eth_signTypedData_v4": {
        requireAuthorised()
        const [address, json] = asArray(params) as ReadonlyArray<string>
        if (address?.toLowerCase() !== account().address.toLowerCase() || typeof json !== "string") {
          throw new ProviderRpcError(-32602, "eth_signTypedData_v4 needs the selected address and typed data")
        }
        await ask(method, params)
        const typed = JSON.parse(json) as TypedDataDefinition & { types: Record<string, unknown> }
        const { EIP712Domain: _domain, ...types } = typed.types
        return account().signTypedData({ ...typed, types } as TypedDataDefinition)
      }
      case "eth_sendTransaction":
        requireAuthorised()
        return sendTransaction(params)
      case "wallet_getCapabilities":
        return calls === undefined ? {} : calls.capabilities(params)
      case "wallet_sendCalls":
      case "wallet_getCallsStatus":
        requireAuthorised()
        if (calls === undefined) throw new ProviderRpcError(4200, `The wallet does not support ${method}.`)
        return method === "wallet_sendCalls" ? calls.sendCalls(params) : calls.getCallsStatus(params)
      default:
        if (method.startsWith("wallet_") || method === "eth_sign" || method === "eth_signTransaction") {
          throw new ProviderRpcError(4200, `The wallet does not support ${method}.`)
        }
        return rpc(method, params)
    }
  }

  return {
    request,
    identity,
    requests,
    on: (event, listener) => {
      const set = listeners.get(event) ?? new Set()
      set.add(listener)
      listeners.set(event, set)
    },
    removeListener: (event, listener) => {
      listeners.get(event)?.delete(listener)
    },
    setApproval: (next) => {
      approval = next
    },
    selectAccount: (index) => {
      if (index < 0 || index >= accounts.length) throw new Error(`no account ${index}`)
      current = index
      if (authorised) emit("accountsChanged", [account().address])
    },
    moveToChain: (target) => {
      chainId = target
      emit("chainChanged", hexChainId(target))
    },
    revoke: () => {
      authorise(false)
      emit("accountsChanged", [])
    },
    address: () => account().address,
    chainId: () => chainId
  }
}

/** Decodes a personal_sign payload for display (hex of UTF-8 text, or the text itself). */
export const readableMessage = (message: string): string => (isHex(message) ? hexToString(message) : message)
