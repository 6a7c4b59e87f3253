/**
 * The injected Solana test wallet of the browser tests: keys and signing stay in Node (the devstack's Solana test
 * wallet over the local Solana RPC); every page of the context gets the Wallet Standard wallet of
 * `devstack/wallet/solana/standardWallet.ts`, bundled here to an IIFE and registered before any page script runs,
 * with a backend that forwards each call to Node through an exposed binding. Bytes cross as base64; errors cross as
 * `{ ok: false, code, message }` (a thrown error would lose its code) and are rethrown in the page with their code.
 */
import { fileURLToPath } from "node:url"
import { build } from "esbuild"
import type { BrowserContext, Page } from "playwright-core"
import {
  makeSolanaTestWallet,
  type SolanaTestWallet,
  type SolanaTestWalletOptions
} from "../../../devstack/wallet/solana/testWallet"

type Reply = { readonly ok: true; readonly result: unknown } | { readonly ok: false; readonly code: number; readonly message: string }

const BINDING = "__wrSolanaWalletRequest"
const EMIT = "__wrSolanaWalletEmit"
const repoRoot = fileURLToPath(new URL("../../../", import.meta.url))
const standardWalletModule = fileURLToPath(new URL("../../../devstack/wallet/solana/standardWallet.ts", import.meta.url))

// The page half: the Wallet Standard object over a backend that asks Node. Built per install (about 0.1 s).
const pageEntry = (walletOptions: { readonly name?: string; readonly icon?: string }) => `
import { createStandardWallet, registerStandardWallet, WalletStandardError } from ${JSON.stringify(standardWalletModule)}
const toBase64 = (bytes) => { let text = ""; for (const byte of bytes) text += String.fromCharCode(byte); return btoa(text) }
const fromBase64 = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0))
const call = async (method, args) => {
  const reply = await window.${BINDING}(method, args)
  if (reply.ok) return reply.result
  throw new WalletStandardError(reply.code, reply.message)
}
const listeners = new Set()
window.${EMIT} = (accounts) => { for (const listener of [...listeners]) listener(accounts) }
const backend = {
  connect: (silent) => call("connect", [silent]),
  disconnect: () => call("disconnect", []),
  signMessage: async (account, message) => fromBase64(await call("signMessage", [account, toBase64(message)])),
  signTransaction: async (account, transaction, chain) =>
    fromBase64(await call("signTransaction", [account, toBase64(transaction), chain ?? null])),
  signAndSendTransaction: async (account, transaction, chain, options) =>
    fromBase64(await call("signAndSendTransaction", [account, toBase64(transaction), chain, options ?? null])),
  onAccountsChanged: (listener) => { listeners.add(listener); return () => listeners.delete(listener) }
}
registerStandardWallet(createStandardWallet(backend, ${JSON.stringify(walletOptions)}))
`

const bundle = async (walletOptions: { readonly name?: string; readonly icon?: string }): Promise<string> => {
  const result = await build({
    stdin: { contents: pageEntry(walletOptions), resolveDir: repoRoot, sourcefile: "injected-solana-wallet.js", loader: "js" },
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent"
  })
  const output = result.outputFiles[0]
  if (output === undefined) throw new Error("esbuild gave no bundle for the injected Solana wallet")
  return output.text
}

const bytes = (base64: unknown): Uint8Array => {
  if (typeof base64 !== "string") throw new TypeError("expected base64 bytes")
  return new Uint8Array(Buffer.from(base64, "base64"))
}
const base64 = (value: Uint8Array): string => Buffer.from(value).toString("base64")

// Runs one backend call the page forwarded; the arguments are what the page script above sends.
const run = async (wallet: SolanaTestWallet, method: string, args: ReadonlyArray<unknown>): Promise<unknown> => {
  const { backend } = wallet
  const [first, second, third, fourth] = args
  const account = String(first)
  switch (method) {
    case "connect":
      return backend.connect(first === true)
    case "disconnect":
      return backend.disconnect()
    case "signMessage":
      return base64(await backend.signMessage(account, bytes(second)))
    case "signTransaction":
      return base64(await backend.signTransaction(account, bytes(second), typeof third === "string" ? third : undefined))
    case "signAndSendTransaction":
      return base64(
        await backend.signAndSendTransaction(
          account,
          bytes(second),
          String(third),
          typeof fourth === "object" && fourth !== null ? fourth : undefined
        )
      )
    default:
      throw Object.assign(new Error(`The wallet has no method ${method}.`), { code: 4200 })
  }
}

const emitIn = (page: Page, accounts: ReadonlyArray<string>) =>
  page
    .evaluate(
      ([name, list]) => (window as unknown as Record<string, ((a: unknown) => void) | undefined>)[name as string]?.(list),
      [EMIT, accounts] as const
    )
    .catch(() => undefined)

/**
 * Installs the wallet in every page of the context (before any page script runs); returns the Node-side wallet.
 * `options` are the Node wallet's; its `name` (default "Solana Test Wallet") and `icon` are what the page shows.
 */
export const installInjectedSolanaWallet = async (
  context: BrowserContext,
  options: SolanaTestWalletOptions
): Promise<SolanaTestWallet> => {
  const wallet = makeSolanaTestWallet(options)
  const script = await bundle({
    ...(options.name === undefined ? {} : { name: options.name }),
    ...(options.icon === undefined ? {} : { icon: options.icon })
  })
  await context.exposeBinding(BINDING, async (_source, method: string, args: ReadonlyArray<unknown>): Promise<Reply> => {
    try {
      return { ok: true, result: await run(wallet, method, args) }
    } catch (error) {
      const code = typeof (error as { code?: unknown }).code === "number" ? (error as { code: number }).code : -32603
      return { ok: false, code, message: error instanceof Error ? error.message : String(error) }
    }
  })
  wallet.backend.onAccountsChanged((accounts) => {
    for (const page of context.pages()) void emitIn(page, accounts)
  })
  await context.addInitScript(script)
  return wallet
}
