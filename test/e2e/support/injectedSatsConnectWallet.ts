/**
 * A sats-connect-style Bitcoin wallet for the browser tests: the page gets `window.SatsTestProviders.BitcoinProvider`
 * (`request(method, params)` answering JSON-RPC objects, as Xverse's does) listed in `window.btc_providers`, before any
 * page script runs; every request goes to Node, where the devstack's Bitcoin test wallet over the regtest node holds
 * the keys. A refusal is answered as a JSON-RPC error with its code, as such wallets answer.
 */
import type { BrowserContext } from "playwright-core"
import { type BitcoinTestWallet, type BitcoinTestWalletOptions, makeBitcoinTestWallet } from "../../../devstack/wallet/bitcoin/testWallet"
import { BITCOIN_REGTEST_CHAIN } from "../../../src/services/fakes/bitcoinStandardWallet"
import { installPageWallet, noMethod } from "./pageWallet"

// The page half: the provider and its `btc_providers` entry; each answer is a JSON-RPC response object.
const body = (name: string) => `
let id = 0
const BitcoinProvider = {
  request: async (method, params) => {
    id += 1
    try {
      return { jsonrpc: "2.0", id, result: await call("request", [method, params ?? null]) }
    } catch (error) {
      return { jsonrpc: "2.0", id, error: { code: error.code ?? -32603, message: error.message } }
    }
  }
}
window.SatsTestProviders = { BitcoinProvider }
window.btc_providers = [...(Array.isArray(window.btc_providers) ? window.btc_providers : []), { id: "SatsTestProviders.BitcoinProvider", name: ${JSON.stringify(name)} }]
`

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null

// Answers one sats-connect request over the Node wallet's backend.
const run = async (wallet: BitcoinTestWallet, method: string, params: unknown): Promise<unknown> => {
  const { backend } = wallet
  const args = isRecord(params) ? params : {}
  switch (method) {
    case "getAddresses":
    case "getAccounts":
      return { addresses: await backend.connect(false) }
    case "wallet_getAccount": {
      const addresses = await backend.connect(true)
      if (addresses.length === 0) throw Object.assign(new Error("The site has no permission."), { code: 4100 })
      return { addresses }
    }
    case "wallet_renouncePermissions":
      await backend.disconnect()
      return null
    case "signMessage": {
      const signature = await backend.signMessage(String(args["address"]), new TextEncoder().encode(String(args["message"])))
      return { signature: Buffer.from(signature).toString("base64"), address: args["address"] }
    }
    case "sendTransfer": {
      const recipients = (Array.isArray(args["recipients"]) ? args["recipients"] : []).map((entry: { address: string; amount: number }) => ({
        address: String(entry.address),
        amount: BigInt(entry.amount)
      }))
      return { txid: await backend.sendTransfer(wallet.key.paymentAddress, recipients, BITCOIN_REGTEST_CHAIN) }
    }
    default:
      throw Object.assign(noMethod(method), { code: -32601 })
  }
}

/** Installs the provider in every page of the context; returns the Node-side wallet. Its row's name is `options.name` (default "Sats Test Wallet"). */
export const installSatsConnectWallet = async (context: BrowserContext, options: BitcoinTestWalletOptions): Promise<BitcoinTestWallet> => {
  const wallet = makeBitcoinTestWallet(options)
  await installPageWallet(context, {
    binding: "__wrSatsConnectRequest",
    emit: "__wrSatsConnectEmit",
    imports: [],
    toError: "(reply) => Object.assign(new Error(reply.message), { code: reply.code })",
    body: body(options.name ?? "Sats Test Wallet"),
    run: (_method, args) => run(wallet, String(args[0]), args[1]),
    fallbackCode: -32603,
    subscribe: () => undefined
  })
  return wallet
}
