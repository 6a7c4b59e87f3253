/**
 * The injected Bitcoin test wallet of the browser tests: keys and signing stay in Node (the devstack's Bitcoin test
 * wallet over the regtest node); every page of the context gets the Wallet Standard wallet of
 * `devstack/wallet/bitcoin/standardWallet.ts`, bundled here to an IIFE and registered before any page script runs,
 * with a backend that forwards each call to Node through an exposed binding. Bytes cross as base64 and satoshis as
 * decimal text; errors cross as `{ ok: false, code, message }` (a thrown error would lose its code) and are rethrown
 * in the page with their code.
 */
import { fileURLToPath } from "node:url"
import { build } from "esbuild"
import type { BrowserContext, Page } from "playwright-core"
import type { BitcoinWalletAddress } from "../../../devstack/wallet/bitcoin/standardWallet"
import { type BitcoinTestWallet, type BitcoinTestWalletOptions, makeBitcoinTestWallet } from "../../../devstack/wallet/bitcoin/testWallet"

type Reply = { readonly ok: true; readonly result: unknown } | { readonly ok: false; readonly code: number; readonly message: string }

const BINDING = "__wrBitcoinWalletRequest"
const EMIT = "__wrBitcoinWalletEmit"
const repoRoot = fileURLToPath(new URL("../../../", import.meta.url))
const standardWalletModule = fileURLToPath(new URL("../../../devstack/wallet/bitcoin/standardWallet.ts", import.meta.url))

/** What the page shows of the wallet: its name, icon and the features it lacks. */
interface PageOptions {
  readonly name?: string
  readonly icon?: string
  readonly without?: ReadonlyArray<string>
}

// The page half: the Wallet Standard object over a backend that asks Node. Built per install (about 0.1 s).
const pageEntry = (options: PageOptions) => `
import { createBitcoinStandardWallet, registerStandardWallet, WalletStandardError } from ${JSON.stringify(standardWalletModule)}
const toBase64 = (bytes) => { let text = ""; for (const byte of bytes) text += String.fromCharCode(byte); return btoa(text) }
const fromBase64 = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0))
const call = async (method, args) => {
  const reply = await window.${BINDING}(method, args)
  if (reply.ok) return reply.result
  throw new WalletStandardError(reply.code, reply.message)
}
const listeners = new Set()
window.${EMIT} = (addresses) => { for (const listener of [...listeners]) listener(addresses) }
const backend = {
  connect: (silent) => call("connect", [silent]),
  disconnect: () => call("disconnect", []),
  signMessage: async (address, message) => fromBase64(await call("signMessage", [address, toBase64(message)])),
  signPsbt: async (psbt, inputs, chain) =>
    fromBase64(await call("signPsbt", [toBase64(psbt), inputs.map((i) => ({ address: i.address, indexes: [...i.indexes], sigHash: i.sigHash ?? null })), chain])),
  sendTransfer: (address, recipients, chain) =>
    call("sendTransfer", [address, recipients.map((r) => ({ address: r.address, amount: String(r.amount) })), chain]),
  onAccountsChanged: (listener) => { listeners.add(listener); return () => listeners.delete(listener) }
}
registerStandardWallet(createBitcoinStandardWallet(backend, ${JSON.stringify(options)}))
`

const bundle = async (options: PageOptions): Promise<string> => {
  const result = await build({
    stdin: { contents: pageEntry(options), resolveDir: repoRoot, sourcefile: "injected-bitcoin-wallet.js", loader: "js" },
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent"
  })
  const output = result.outputFiles[0]
  if (output === undefined) throw new Error("esbuild gave no bundle for the injected Bitcoin wallet")
  return output.text
}

const bytes = (base64: unknown): Uint8Array => {
  if (typeof base64 !== "string") throw new TypeError("expected base64 bytes")
  return new Uint8Array(Buffer.from(base64, "base64"))
}
const base64 = (value: Uint8Array): string => Buffer.from(value).toString("base64")

// Runs one backend call the page forwarded; the arguments are what the page script above sends.
const run = async (wallet: BitcoinTestWallet, method: string, args: ReadonlyArray<unknown>): Promise<unknown> => {
  const { backend } = wallet
  const [first, second, third] = args
  switch (method) {
    case "connect":
      return backend.connect(first === true)
    case "disconnect":
      return backend.disconnect()
    case "signMessage":
      return base64(await backend.signMessage(String(first), bytes(second)))
    case "signPsbt": {
      const inputs = (Array.isArray(second) ? second : []).map((entry: { address: string; indexes: ReadonlyArray<number>; sigHash: number | null }) => ({
        address: entry.address,
        indexes: entry.indexes,
        ...(entry.sigHash === null ? {} : { sigHash: entry.sigHash })
      }))
      return base64(await backend.signPsbt(bytes(first), inputs, String(third)))
    }
    case "sendTransfer": {
      const recipients = (Array.isArray(second) ? second : []).map((entry: { address: string; amount: string }) => ({
        address: entry.address,
        amount: BigInt(entry.amount)
      }))
      return backend.sendTransfer(String(first), recipients, String(third))
    }
    default:
      throw Object.assign(new Error(`The wallet has no method ${method}.`), { code: 4200 })
  }
}

const emitIn = (page: Page, addresses: ReadonlyArray<BitcoinWalletAddress>) =>
  page
    .evaluate(
      ([name, list]) => (window as unknown as Record<string, ((a: unknown) => void) | undefined>)[name as string]?.(list),
      [EMIT, addresses] as const
    )
    .catch(() => undefined)

/**
 * Installs the wallet in every page of the context (before any page script runs); returns the Node-side wallet.
 * `options` are the Node wallet's; its `name` (default "Bitcoin Test Wallet"), `icon` and `without` are what the
 * page shows.
 */
export const installInjectedBitcoinWallet = async (context: BrowserContext, options: BitcoinTestWalletOptions): Promise<BitcoinTestWallet> => {
  const wallet = makeBitcoinTestWallet(options)
  const script = await bundle({
    ...(options.name === undefined ? {} : { name: options.name }),
    ...(options.icon === undefined ? {} : { icon: options.icon }),
    ...(options.without === undefined ? {} : { without: options.without })
  })
  await context.exposeBinding(BINDING, async (_source, method: string, args: ReadonlyArray<unknown>): Promise<Reply> => {
    try {
      return { ok: true, result: await run(wallet, method, args) }
    } catch (error) {
      const code = typeof (error as { code?: unknown }).code === "number" ? (error as { code: number }).code : -32603
      return { ok: false, code, message: error instanceof Error ? error.message : String(error) }
    }
  })
  wallet.backend.onAccountsChanged((addresses) => {
    for (const page of context.pages()) void emitIn(page, addresses)
  })
  await context.addInitScript(script)
  return wallet
}
