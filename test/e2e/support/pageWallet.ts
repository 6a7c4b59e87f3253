/**
 * How the browser tests put a test wallet in the page, the way a host would with `wallet-runtime/testing`: a page
 * script that imports the family's wallet from the testing entry (bundled here to an IIFE by esbuild and added before
 * any page script runs) over a backend whose every call goes to Node through one exposed binding, where the keys are.
 * Errors cross as `{ ok: false, code, message }` (a thrown error would lose its code); Node pushes wallet events to
 * the page through `window[emit]`.
 */
import { fileURLToPath } from "node:url"
import { build } from "esbuild"
import type { BrowserContext } from "playwright-core"

type Reply = { readonly ok: true; readonly result: unknown } | { readonly ok: false; readonly code: number | null; readonly message: string }

const repoRoot = fileURLToPath(new URL("../../../", import.meta.url))
const testingEntry = fileURLToPath(new URL("../../../src/testing.ts", import.meta.url))

/** Helpers every page script gets: `call(method, args)` over the binding, base64 both ways, and `listeners` for emits. */
const prelude = (binding: string, emit: string, toError: string) => `
const toBase64 = (bytes) => { let text = ""; for (const byte of bytes) text += String.fromCharCode(byte); return btoa(text) }
const fromBase64 = (text) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0))
const call = async (method, args) => {
  const reply = await window.${binding}(method, JSON.parse(JSON.stringify(args)))
  if (reply.ok) return reply.result
  throw (${toError})(reply)
}
const listeners = new Set()
window.${emit} = (...args) => { for (const listener of [...listeners]) listener(...args) }
`

/** What a family's page wallet is made of. */
export interface PageWallet {
  /** Names of the binding and of the page's emit function; distinct per family. */
  readonly binding: string
  readonly emit: string
  /** What `wallet-runtime/testing` exports the page script imports. */
  readonly imports: ReadonlyArray<string>
  /** `(reply) => Error` in the page, for a refused call. */
  readonly toError: string
  /** The page script's body, using `call`, `listeners`, `toBase64` and `fromBase64`. */
  readonly body: string
  /** Runs one call the page forwarded, in Node. */
  readonly run: (method: string, args: ReadonlyArray<unknown>) => Promise<unknown>
  /** The code of an error thrown without one. */
  readonly fallbackCode: number | null
  /** Hands the function that pushes a wallet event to every page. */
  readonly subscribe: (emit: (...args: ReadonlyArray<unknown>) => void) => void
}

const bundle = async (wallet: PageWallet): Promise<string> => {
  const contents = `import { ${wallet.imports.join(", ")} } from ${JSON.stringify(testingEntry)}\n${prelude(wallet.binding, wallet.emit, wallet.toError)}\n${wallet.body}`
  const result = await build({
    stdin: { contents, resolveDir: repoRoot, sourcefile: `${wallet.binding}.js`, loader: "js" },
    bundle: true,
    format: "iife",
    platform: "browser",
    target: "es2022",
    write: false,
    logLevel: "silent"
  })
  const output = result.outputFiles[0]
  if (output === undefined) throw new Error(`esbuild gave no bundle for ${wallet.binding}`)
  return output.text
}

/** Installs a page wallet in every page of the context, before any page script runs. */
export const installPageWallet = async (context: BrowserContext, wallet: PageWallet): Promise<void> => {
  const script = await bundle(wallet)
  await context.exposeBinding(wallet.binding, async (_source, method: string, args: ReadonlyArray<unknown>): Promise<Reply> => {
    try {
      return { ok: true, result: await wallet.run(method, args) }
    } catch (error) {
      const code = typeof (error as { code?: unknown }).code === "number" ? (error as { code: number }).code : wallet.fallbackCode
      return { ok: false, code, message: error instanceof Error ? error.message : String(error) }
    }
  })
  wallet.subscribe((...args) => {
    for (const page of context.pages()) {
      void page
        .evaluate(
          ([name, list]) => (window as unknown as Record<string, ((...a: ReadonlyArray<unknown>) => void) | undefined>)[name as string]?.(...(list as ReadonlyArray<unknown>)),
          [wallet.emit, args] as const
        )
        .catch(() => undefined)
    }
  })
  await context.addInitScript(script)
}

/** An error a forwarded call names a method the wallet lacks. */
export const noMethod = (method: string) => Object.assign(new Error(`The wallet has no method ${method}.`), { code: 4200 })

/** Bytes sent from the page as base64. */
export const bytesOf = (base64: unknown): Uint8Array => {
  if (typeof base64 !== "string") throw new TypeError("expected base64 bytes")
  return new Uint8Array(Buffer.from(base64, "base64"))
}
/** Bytes for the page, as base64. */
export const base64Of = (value: Uint8Array): string => Buffer.from(value).toString("base64")
