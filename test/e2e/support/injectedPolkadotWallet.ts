/**
 * The injected Polkadot test wallet of the browser tests: keys and signing stay in Node (the devstack's Polkadot
 * test wallet, @polkadot/keyring dev accounts); every page of the context gets the `window.injectedWeb3` entry of
 * `devstack/wallet/polkadot/extension.ts`, bundled here to an IIFE and injected before any page script runs, with a
 * backend that forwards each call to Node through an exposed binding. Errors cross as `{ ok: false, code, message }`
 * (a thrown error would lose its code) and are rethrown in the page as polkadot-js throws them.
 */
import { fileURLToPath } from "node:url"
import { build } from "esbuild"
import type { BrowserContext, Page } from "playwright-core"
import { POLKADOT_TEST_WALLET_KEY } from "../../../devstack/wallet/polkadot/extension"
import {
  createPolkadotTestWallet,
  type PolkadotTestWallet,
  type PolkadotTestWalletOptions
} from "../../../devstack/wallet/polkadot/testWallet"

type Reply = { readonly ok: true; readonly result: unknown } | { readonly ok: false; readonly code: number | null; readonly message: string }

const BINDING = "__wrPolkadotWalletRequest"
const EMIT = "__wrPolkadotWalletEmit"
const repoRoot = fileURLToPath(new URL("../../../", import.meta.url))
const extensionModule = fileURLToPath(new URL("../../../devstack/wallet/polkadot/extension.ts", import.meta.url))

// The page half: the injectedWeb3 entry over a backend that asks Node. Built per install (about 0.1 s).
const pageEntry = (key: string) => `
import { createInjectedWeb3Extension, injectWeb3Extension } from ${JSON.stringify(extensionModule)}
const call = async (method, args) => {
  const reply = await window.${BINDING}(method, args)
  if (reply.ok) return reply.result
  throw reply.code === null ? new Error(reply.message) : Object.assign(new Error(reply.message), { code: reply.code })
}
const listeners = new Set()
window.${EMIT} = (accounts) => { for (const listener of [...listeners]) listener(accounts) }
const backend = {
  enable: (appName) => call("enable", [appName]),
  accounts: () => call("accounts", []),
  signRaw: (input) => call("signRaw", [input]),
  signPayload: (input) => call("signPayload", [input]),
  onAccountsChanged: (listener) => { listeners.add(listener); return () => listeners.delete(listener) }
}
injectWeb3Extension(createInjectedWeb3Extension(backend), ${JSON.stringify(key)})
`

const bundle = async (key: string): Promise<string> => {
  const result = await build({
    stdin: { contents: pageEntry(key), resolveDir: repoRoot, sourcefile: "injected-polkadot-wallet.js", loader: "js" },
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent"
  })
  const output = result.outputFiles[0]
  if (output === undefined) throw new Error("esbuild gave no bundle for the injected Polkadot wallet")
  return output.text
}

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
      throw Object.assign(new Error(`The wallet has no method ${method}.`), { code: 4200 })
  }
}

const emitIn = (page: Page, accounts: unknown) =>
  page
    .evaluate(([name, list]) => (window as unknown as Record<string, ((a: unknown) => void) | undefined>)[name as string]?.(list), [EMIT, accounts] as const)
    .catch(() => undefined)

/**
 * Installs the wallet in every page of the context (before any page script runs) under `key` of `injectedWeb3`
 * (default "polkadot-test-wallet", listed as "Polkadot Test Wallet"); returns the Node-side wallet.
 */
export const installInjectedPolkadotWallet = async (
  context: BrowserContext,
  options: PolkadotTestWalletOptions & { readonly key?: string } = {}
): Promise<PolkadotTestWallet> => {
  const wallet = await createPolkadotTestWallet(options)
  const script = await bundle(options.key ?? POLKADOT_TEST_WALLET_KEY)
  await context.exposeBinding(BINDING, async (_source, method: string, args: ReadonlyArray<unknown>): Promise<Reply> => {
    try {
      return { ok: true, result: await run(wallet, method, args) }
    } catch (error) {
      const code = typeof (error as { code?: unknown }).code === "number" ? (error as { code: number }).code : null
      return { ok: false, code, message: error instanceof Error ? error.message : String(error) }
    }
  })
  wallet.backend.onAccountsChanged((accounts) => {
    for (const page of context.pages()) void emitIn(page, accounts)
  })
  await context.addInitScript(script)
  return wallet
}
