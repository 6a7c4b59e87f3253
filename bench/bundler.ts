import { pathToFileURL } from "node:url"
/**
 * Bundler bench: how many user operations per second the server's bundler takes and gets included on loopback
 * (one anvil chain, EntryPoint v0.8). Each op is a sponsored first operation of its own WalletAccount (deployment
 * and a call), prepared and signed beforehand; the timed part is sending them all at once and waiting until every
 * receipt is there. Figures, not assertions.
 *
 * Run: npx tsx bench/bundler.ts
 */
import { createPublicClient, http, type PublicClient } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { createBundlerClient, createPaymasterClient, formatUserOperationRequest, type UserOperation } from "viem/account-abstraction"
import { devChain } from "../devstack/evm/chains"
import { startEvm } from "../devstack/evm/index"
import { startBundler } from "../server/src/bundler/index"
import { toWalletAccount } from "../server/src/bundler/walletAccount"

const OPS = 48
const MAX_OPS_PER_BUNDLE = 8

/** The bench's rows: ops per second included, and the median time of one `eth_sendUserOperation`. */
export const bundlerRows = async () => {
  const evm = await startEvm({ chainIds: [31337] })
  const chain = evm.info.chains[0]
  if (chain === undefined) throw new Error("no chain")
  const aa = chain.contracts.accountAbstraction
  const bundler = await startBundler({
    chains: [{ chainId: chain.chainId, rpcUrls: [chain.rpcUrl] }],
    entryPoint: aa.entryPoint,
    privateKey: aa.bundler.privateKey,
    maxOpsPerBundle: MAX_OPS_PER_BUNDLE,
    paymaster: { address: aa.paymaster, signerKey: aa.paymasterSigner.privateKey, policy: { sponsor: "all", senders: [], maxGasPerOp: 3_000_000n }, validForSeconds: 600 }
  })
  try {
    const url = `${bundler.info.url}/rpc/${chain.chainId}`
    const reader = createPublicClient({ chain: devChain(chain.chainId, chain.rpcUrl), transport: http(chain.rpcUrl) }) as PublicClient
    const ops: Array<UserOperation<"0.8">> = []
    for (let i = 0; i < OPS; i++) {
      const account = await toWalletAccount({ client: reader, owner: privateKeyToAccount(generatePrivateKey()), factory: aa.walletAccountFactory, entryPoint: aa.entryPoint })
      const client = createBundlerClient({ account, client: reader, transport: http(url), paymaster: createPaymasterClient({ transport: http(url) }) })
      const prepared = (await client.prepareUserOperation({ account, calls: [{ to: "0x000000000000000000000000000000000000dEaD", value: 0n }] })) as unknown as UserOperation<"0.8">
      ops.push({ ...prepared, signature: await account.signUserOperation(prepared) })
    }
    const post = async (method: string, params: ReadonlyArray<unknown>) => {
      const response = await fetch(url, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) })
      const body = (await response.json()) as { result?: unknown; error?: { message: string } }
      if (body.error !== undefined) throw new Error(body.error.message)
      return body.result
    }
    const sendTimes: Array<number> = []
    const start = performance.now()
    const hashes = await Promise.all(
      ops.map(async (op) => {
        const sent = performance.now()
        const hash = await post("eth_sendUserOperation", [formatUserOperationRequest(op), aa.entryPoint])
        sendTimes.push(performance.now() - sent)
        return hash
      })
    )
    // Every receipt, polled each 20 ms, bounded at 60 s.
    const deadline = start + 60_000
    const waiting = new Set(hashes)
    while (waiting.size > 0 && performance.now() < deadline) {
      for (const hash of [...waiting]) if ((await post("eth_getUserOperationReceipt", [hash])) !== null) waiting.delete(hash)
      if (waiting.size > 0) await new Promise((resolve) => setTimeout(resolve, 20))
    }
    if (waiting.size > 0) throw new Error(`${waiting.size} operations not included within 60 s`)
    const elapsed = performance.now() - start
    const sorted = [...sendTimes].sort((a, b) => a - b)
    const medianSend = sorted[Math.floor(sorted.length / 2)] ?? 0
    return [
      {
        metric: `bundler: ${OPS} sponsored first ops (deploy + call) sent at once → all included, loopback, ${MAX_OPS_PER_BUNDLE} per bundle`,
        measured: `${((OPS * 1000) / elapsed).toFixed(1)} ops/s`,
        target: "—",
        peers: ""
      },
      { metric: "bundler: eth_sendUserOperation (checked by an eth_call of handleOps), median under that load", measured: `${medianSend.toFixed(1)} ms`, target: "—", peers: "" }
    ]
  } finally {
    await bundler.stop()
    await evm.stop()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) console.table(await bundlerRows())
