/**
 * The injected test wallet of the browser tests: keys and signing stay in Node (the devstack test wallet over the
 * local chains); the page gets an EIP-1193 provider announced through EIP-6963 and set as `window.ethereum`.
 * Errors cross the binding as `{ ok: false, code, message }` (a thrown error would lose its code) and are rethrown
 * in the page with their code.
 */
import type { BrowserContext, Page } from "playwright-core"
import { makeTestWallet, type TestWallet, type TestWalletOptions } from "../../../devstack/wallet/testWallet"

type Reply = { readonly ok: true; readonly result: unknown } | { readonly ok: false; readonly code: number; readonly message: string }

const pageScript = (info: TestWallet["identity"]) => `(() => {
  const listeners = new Map()
  const provider = {
    isWalletRuntimeTestWallet: true,
    request: async (args) => {
      const reply = await window.__wrTestWalletRequest(JSON.parse(JSON.stringify(args)))
      if (reply.ok) return reply.result
      const error = new Error(reply.message)
      error.code = reply.code
      throw error
    },
    on: (event, listener) => {
      if (!listeners.has(event)) listeners.set(event, new Set())
      listeners.get(event).add(listener)
    },
    removeListener: (event, listener) => listeners.get(event)?.delete(listener)
  }
  window.__wrTestWalletEmit = (event, args) => {
    for (const listener of listeners.get(event) ?? []) listener(...args)
  }
  window.ethereum = provider
  const info = Object.freeze(${JSON.stringify(info)})
  const announce = () => window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail: Object.freeze({ info, provider }) }))
  window.addEventListener("eip6963:requestProvider", announce)
  announce()
})()`

/** Installs the wallet in every page of the context (before any page script runs); returns the Node-side wallet. */
export const installInjectedWallet = async (context: BrowserContext, options: TestWalletOptions): Promise<TestWallet> => {
  const wallet = makeTestWallet(options)
  await context.exposeBinding("__wrTestWalletRequest", async (_source, args: { method: string; params?: unknown }): Promise<Reply> => {
    try {
      return { ok: true, result: await wallet.request(args) }
    } catch (error) {
      const code = typeof (error as { code?: unknown }).code === "number" ? (error as { code: number }).code : -32603
      return { ok: false, code, message: error instanceof Error ? error.message : String(error) }
    }
  })
  const pages = () => context.pages()
  for (const event of ["accountsChanged", "chainChanged", "disconnect", "connect"]) {
    wallet.on(event, (...args: Array<unknown>) => {
      for (const page of pages()) void emitIn(page, event, args)
    })
  }
  await context.addInitScript(pageScript(wallet.identity))
  return wallet
}

const emitIn = (page: Page, event: string, args: ReadonlyArray<unknown>) =>
  page.evaluate(([name, list]) => (window as unknown as { __wrTestWalletEmit?: (e: string, a: unknown) => void }).__wrTestWalletEmit?.(name as string, list), [event, args] as const).catch(() => undefined)
