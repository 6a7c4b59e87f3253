/**
 * The injected test wallet of the browser tests: keys and signing stay in Node (the devstack test wallet over the
 * local chains); the page gets `wallet-runtime/testing`'s EIP-1193 provider over a backend that forwards to Node,
 * announced through EIP-6963 and set as `window.ethereum`. Errors are rethrown in the page with their code.
 */
import type { BrowserContext } from "playwright-core"
import { makeTestWallet, type TestWallet, type TestWalletOptions } from "../../../devstack/wallet/testWallet"
import { installPageWallet } from "./pageWallet"

const EVENTS = ["accountsChanged", "chainChanged", "disconnect", "connect"] as const

/** Installs the wallet in every page of the context (before any page script runs); returns the Node-side wallet. */
export const installInjectedWallet = async (context: BrowserContext, options: TestWalletOptions): Promise<TestWallet> => {
  const wallet = makeTestWallet(options)
  await installPageWallet(context, {
    binding: "__wrTestWalletRequest",
    emit: "__wrTestWalletEmit",
    imports: ["announceEip6963Provider", "createEip1193Provider"],
    toError: "(reply) => Object.assign(new Error(reply.message), { code: reply.code })",
    body: `
const backend = {
  request: (args) => call("request", [args]),
  onEvent: (listener) => { listeners.add(listener); return () => listeners.delete(listener) }
}
announceEip6963Provider(createEip1193Provider(backend), ${JSON.stringify(wallet.identity)})
`,
    run: (method, [args]) => {
      if (method !== "request") throw new Error(`The wallet has no method ${method}.`)
      return wallet.request(args as { method: string; params?: unknown })
    },
    fallbackCode: -32603,
    subscribe: (emit) => {
      for (const event of EVENTS) wallet.on(event, (...args: Array<unknown>) => emit(event, args))
    }
  })
  return wallet
}
