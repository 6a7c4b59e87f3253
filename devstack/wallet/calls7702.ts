/**
 * EIP-5792 for the test wallets (the injected one and the WalletConnect page), by EIP-7702: the wallet's EOA delegates
 * to the Simple7702Account deployed on the local chains (`devstack/evm/accountAbstraction.ts`), then a batch is ONE
 * transaction from the EOA to itself calling `executeBatch` — atomic: one failing call reverts them all.
 *
 * - `wallet_getCapabilities`: per chain, `atomic: supported` once the EOA is delegated there, `ready` before (the
 *   wallet can upgrade it, with the visitor's approval).
 * - `wallet_sendCalls`: the batch is checked as every wallet of ours checks it (`src/domain/Calls.ts`), before anyone
 *   is asked; then the visitor approves the calls, and — the first time on a chain — the delegation itself (the
 *   prompt {@link EIP7702_AUTHORIZATION} with the delegate's address); the type-4 transaction carries the signed
 *   authorisation (its nonce the transaction's plus one: the sender's nonce is raised before authorisations apply).
 * - `wallet_getCallsStatus`: from the transaction's receipt. Batch ids live as long as the wallet, like an extension's.
 */
import { encodeFunctionData, type Hex, numberToHex, parseAbi } from "viem"
import type { PrivateKeyAccount } from "viem/accounts"
import { batchChainProblem, CALLS_ERROR_CODES, readBatch } from "../../src/domain/Calls"
import { CALLS_STATUS, CALLS_VERSION } from "../../src/domain/callsWire"

/** The prompt a wallet shows before its EOA delegates to a contract (params: `{ address, chainId }`). */
export const EIP7702_AUTHORIZATION = "wallet_authorizeDelegation"

/**
 * Simple7702Account v0.8's address: where eth-infinitism deployed it on public chains, and where the devstack deploys
 * the same artifact (Arachnid's CREATE2 deployer, zero salt) on the local ones.
 */
export const SIMPLE_7702_ACCOUNT: Hex = "0xe6Cae83BdE06E4c305530e199D7217f42808555B"

/** The delegation prompt in plain words: what the visitor lets happen, to which contract, on which network. */
export const delegationQuestion = (delegate: string, network: string): string =>
  `Let your account use the contract ${delegate} on ${network}? It runs several calls together, in one transaction, for ` +
  "you. From now on that contract's code acts for your account on this network (an EIP-7702 delegation), until you " +
  "change it. Approve only if you trust this contract."

const executorAbi = parseAbi(["struct Call { address target; uint256 value; bytes data; }", "function executeBatch(Call[] calls)"])

// A test wallet's one generous gas limit for a batch (unused gas is not paid): estimating a type-4 transaction
// before its authorisation exists is not something every node does.
const BATCH_GAS = 2_000_000n

/** What the batch methods need of the wallet. */
export interface Calls7702Deps {
  /** The delegate contract (Simple7702Account) on every chain the wallet knows. */
  readonly executor: Hex
  /** A JSON-RPC call to the node of `chainId`. */
  readonly rpc: (method: string, params: ReadonlyArray<unknown>, chainId: number) => Promise<unknown>
  readonly account: () => PrivateKeyAccount
  readonly chainId: () => number
  readonly chains: () => ReadonlyArray<number>
  /** Asks the visitor; rejects with 4001 when they refuse. */
  readonly ask: (method: string, params: unknown) => Promise<void>
  /** An error with an EIP-1193 code. */
  readonly error: (code: number, message: string) => Error
}

/** The three EIP-5792 methods of a test wallet. */
export const makeCalls7702 = (deps: Calls7702Deps) => {
  const batches = new Map<string, { readonly chainId: number; readonly hash: Hex }>()
  const delegationCode = `0xef0100${deps.executor.slice(2).toLowerCase()}`
  const delegated = async (address: Hex, chainId: number) =>
    String(await deps.rpc("eth_getCode", [address, "latest"], chainId)).toLowerCase() === delegationCode

  const capabilities = async (params: unknown) => {
    const [address, wanted] = Array.isArray(params) ? params : []
    if (typeof address !== "string" || address.toLowerCase() !== deps.account().address.toLowerCase()) {
      throw deps.error(4100, "The address is not the selected account.")
    }
    const answer: Record<string, unknown> = {}
    for (const chainId of deps.chains()) {
      const id = numberToHex(chainId)
      if (Array.isArray(wanted) && !wanted.some((w) => typeof w === "string" && w.toLowerCase() === id)) continue
      answer[id] = { atomic: { status: (await delegated(deps.account().address, chainId)) ? "supported" : "ready" } }
    }
    return answer
  }

  const sendCalls = async (params: unknown) => {
    const chainId = deps.chainId()
    const checked = readBatch(params, chainId)
    if (!checked.ok) throw deps.error(checked.problem.code, checked.problem.message)
    const { batch } = checked
    const self = deps.account()
    if (batch.from !== undefined && batch.from.toLowerCase() !== self.address.toLowerCase()) {
      throw deps.error(4100, "The batch's from is not the selected account.")
    }
    const [codes, balance] = await Promise.all([
      Promise.all(batch.calls.map((call) => (call.data === undefined ? "0x" : deps.rpc("eth_getCode", [call.to, "latest"], chainId)))),
      deps.rpc("eth_getBalance", [self.address, "latest"], chainId)
    ])
    const problem = batchChainProblem(batch, {
      hasCode: codes.map((code) => typeof code === "string" && code !== "0x"),
      balance: BigInt(String(balance)),
      currency: { symbol: "ETH", decimals: 18 }
    })
    if (problem !== undefined) throw deps.error(problem.code, problem.message)
    const upgraded = await delegated(self.address, chainId)
    await deps.ask("wallet_sendCalls", params)
    if (!upgraded) await deps.ask(EIP7702_AUTHORIZATION, { address: deps.executor, chainId })
    const [nonceHex, gasPriceHex] = (await Promise.all([
      deps.rpc("eth_getTransactionCount", [self.address, "pending"], chainId),
      deps.rpc("eth_gasPrice", [], chainId)
    ])) as [Hex, Hex]
    const nonce = Number(BigInt(nonceHex))
    const fee = BigInt(gasPriceHex) * 2n
    const data = encodeFunctionData({
      abi: executorAbi,
      functionName: "executeBatch",
      args: [batch.calls.map((call) => ({ target: call.to, value: call.value, data: call.data ?? "0x" }))]
    })
    const common = { chainId, nonce, to: self.address, data, value: 0n, gas: BATCH_GAS, maxFeePerGas: fee, maxPriorityFeePerGas: fee / 2n }
    const signed = upgraded
      ? await self.signTransaction({ type: "eip1559", ...common })
      : await self.signTransaction({
          type: "eip7702",
          ...common,
          authorizationList: [await self.signAuthorization({ chainId, address: deps.executor, nonce: nonce + 1 })]
        })
    const hash = (await deps.rpc("eth_sendRawTransaction", [signed], chainId)) as Hex
    const id = numberToHex(crypto.getRandomValues(new Uint8Array(32)).reduce((n, byte) => (n << 8n) | BigInt(byte), 0n), { size: 32 })
    batches.set(id, { chainId, hash })
    return { id }
  }

  const getCallsStatus = async (params: unknown) => {
    const [id] = Array.isArray(params) ? params : []
    const batch = typeof id === "string" ? batches.get(id.toLowerCase()) : undefined
    if (batch === undefined) throw deps.error(CALLS_ERROR_CODES.unknownBundle, `This wallet knows no batch with the id ${String(id).slice(0, 80)}`)
    const receipt = (await deps.rpc("eth_getTransactionReceipt", [batch.hash], batch.chainId)) as {
      readonly status: Hex
      readonly transactionHash: Hex
      readonly blockHash: Hex
      readonly blockNumber: Hex
      readonly gasUsed: Hex
      readonly logs: ReadonlyArray<{ readonly address: Hex; readonly data: Hex; readonly topics: ReadonlyArray<Hex> }>
    } | null
    const base = { version: CALLS_VERSION, id, chainId: numberToHex(batch.chainId), atomic: true }
    if (receipt === null) return { ...base, status: CALLS_STATUS.pending }
    const { status, transactionHash, blockHash, blockNumber, gasUsed, logs } = receipt
    return {
      ...base,
      status: status === "0x1" ? CALLS_STATUS.confirmed : CALLS_STATUS.reverted,
      receipts: [{ status, transactionHash, blockHash, blockNumber, gasUsed, logs: logs.map(({ address, data, topics }) => ({ address, data, topics })) }]
    }
  }

  return { capabilities, sendCalls, getCallsStatus }
}
