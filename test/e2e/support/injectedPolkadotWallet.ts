/**
 * The injected Polkadot test wallet of the browser tests: keys and signing stay in Node (the devstack's Polkadot
 * test wallet, @polkadot/keyring dev accounts); every page of the context gets `wallet-runtime/testing`'s
 * `window.injectedWeb3` entry, injected before any page script runs, over a backend that forwards each call to Node.
 * Errors are rethrown in the page as polkadot-js throws them.
 */
import type { BrowserContext } from "playwright-core"
import { POLKADOT_TEST_WALLET_KEY } from "../../../devstack/wallet/polkadot/extension"
import {
  createPolkadotTestWallet,
  type PolkadotTestWallet,
  type PolkadotTestWalletOptions
} from "../../../devstack/wallet/polkadot/testWallet"
import { installPageWallet, noMethod } from "./pageWallet"

// The page half: the injectedWeb3 entry over a backend that asks Node.
const body = (key: string) => `
const backend = {
  enable: (appName) => call("enable", [appName]),
  accounts: () => call("accounts", []),
  signRaw: (input) => call("signRaw", [input]),
  signPayload: (input) => call("signPayload", [input]),
  onAccountsChanged: (listener) => { listeners.add(listener); return () => listeners.delete(listener) }
}
injectWeb3Extension(createInjectedWeb3Extension(backend), ${JSON.stringify(key)})
`

// Runs one backend call the page forwarded; the arguments are what the page script above sends.
const run = async (wallet: PolkadotTestWallet, method: string, args: ReadonlyArray<unknown>): Promise<unknown> => {
  const { backend } = wallet
  const [first] = args
  switch (method) {
    case "enable":
      return backend.enable(String(first))
    case "accounts":
      return backend.accounts()
    case "signRaw":
      return backend.signRaw(first as Parameters<typeof backend.signRaw>[0])
    case "signPayload":
      return backend.signPayload(first as Parameters<typeof backend.signPayload>[0])
    default:
      throw noMethod(method)
  }
}

/**
 * Installs the wallet in every page of the context (before any page script runs) under `key` of `injectedWeb3`
 * (default "polkadot-test-wallet", listed as "Polkadot Test Wallet"); returns the Node-side wallet.
 */
export const installInjectedPolkadotWallet = async (
  context: BrowserContext,
  options: PolkadotTestWalletOptions & { readonly key?: string } = {}
): Promise<PolkadotTestWallet> => {
  const wallet = await createPolkadotTestWallet(options)
  await installPageWallet(context, {
    binding: "__wrPolkadotWalletRequest",
    emit: "__wrPolkadotWalletEmit",
    imports: ["createInjectedWeb3Extension", "injectWeb3Extension"],
    toError: "(reply) => reply.code === null ? new Error(reply.message) : Object.assign(new Error(reply.message), { code: reply.code })",
    body: body(options.key ?? POLKADOT_TEST_WALLET_KEY),
    run: (method, args) => run(wallet, method, args),
    fallbackCode: null,
    subscribe: (emit) => wallet.backend.onAccountsChanged((accounts) => emit(accounts))
  })
  return wallet
}
