/**
 * The injected Solana test wallet in Chromium: on a blank loopback page, the Wallet Standard app side
 * (`@wallet-standard/app`'s `getWallets()`, bundled into the page) finds the wallet registered before any page
 * script, connects, signs a message (verified in Node) and signs and sends a SOL transfer built with @solana/kit
 * that lands on the local Solana RPC. Keys stay in Node.
 */
import { fileURLToPath } from "node:url"
import {
  appendTransactionMessageInstruction,
  type Address,
  compileTransaction,
  createSolanaRpc,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase58Decoder,
  getPublicKeyFromAddress,
  getTransactionEncoder,
  pipe,
  type Rpc,
  type Signature,
  type SignatureBytes,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type SolanaRpcApi,
  verifySignature
} from "@solana/kit"
import { build } from "esbuild"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { listenHttp, type LocalHttpServer } from "../../server/src/lib/httpServer"
import type { Started } from "../../server/src/lib/Started"
import { type SolanaInfo, startSolana, transferSolInstruction } from "../../devstack/solana"
import { devSolanaKey } from "../../devstack/solana/keys"
import type { SolanaTestWallet } from "../../devstack/wallet/solana/testWallet"
import { type Browser, isLoopback, launchBrowser } from "./support/browser"
import { installInjectedSolanaWallet } from "./support/injectedSolanaWallet"

const SOL = 1_000_000_000n
const FEE = 5000n
const NAME = "Solana Test Wallet"

let solana: Started<SolanaInfo>
let blank: LocalHttpServer
let browser: Browser
let page: Page
let testWallet: SolanaTestWallet
let rpc: Rpc<SolanaRpcApi>
let appScript: string

// The app side of the Wallet Standard, as a dapp ships it; plus, for one test, the means to register another wallet.
const bundleApp = async (): Promise<string> => {
  const result = await build({
    stdin: {
      contents: `
        import { getWallets } from "@wallet-standard/app"
        import { createStandardWallet, registerStandardWallet } from "./devstack/wallet/solana/standardWallet.ts"
        window.__app = { wallets: getWallets(), createStandardWallet, registerStandardWallet }
      `,
      resolveDir: fileURLToPath(new URL("../../", import.meta.url)),
      loader: "js"
    },
    bundle: true,
    format: "iife",
    platform: "browser",
    write: false,
    logLevel: "silent"
  })
  return result.outputFiles[0]?.text ?? ""
}

const openApp = async () => {
  await page.goto(`${blank.url}/`)
  await page.addScriptTag({ content: appScript })
}

// Runs `body` in the page with the wallet the app found by name; bytes travel as number arrays.
const inWallet = <A, R>(body: string, arg: A): Promise<R> =>
  page.evaluate(
    ([source, name, input]) => {
      const app = (window as unknown as { __app: { wallets: { get: () => ReadonlyArray<{ name: string }> } } }).__app
      const wallet = app.wallets.get().find((w) => w.name === name)
      if (wallet === undefined) throw new Error(`the app found no wallet named ${name}`)
      return (new Function("wallet", "input", `return (async () => { ${source} })()`) as (w: unknown, i: unknown) => Promise<unknown>)(wallet, input)
    },
    [body, NAME, arg] as const
  ) as Promise<R>

const transferBytes = async (from: Address, to: Address, amount: bigint): Promise<ReadonlyArray<number>> => {
  const { value: latest } = await rpc.getLatestBlockhash().send()
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(from, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
    (m) => appendTransactionMessageInstruction(transferSolInstruction(from, to, amount), m)
  )
  return [...getTransactionEncoder().encode(compileTransaction(message))]
}

beforeAll(async () => {
  ;[solana, blank, appScript] = await Promise.all([startSolana(), listenHttp(), bundleApp()])
  blank.handle((_request, response) => {
    response.writeHead(200, { "content-type": "text/html" }).end("<!doctype html><title>blank</title><p>blank</p>")
  })
  rpc = createSolanaRpc(solana.info.rpcUrl)
  browser = await launchBrowser()
  page = browser.page
  testWallet = await installInjectedSolanaWallet(browser.context, { rpcUrl: solana.info.rpcUrl })
  await openApp()
})

afterAll(async () => {
  await browser?.close()
  await blank?.stop()
  await solana?.stop()
})

describe("the injected Solana test wallet", () => {
  it("is found by the app through the Wallet Standard with its Solana features", async () => {
    const found = await inWallet<null, unknown>(
      `return {
        version: wallet.version,
        icon: wallet.icon.slice(0, 26),
        chains: wallet.chains,
        features: Object.keys(wallet.features).sort(),
        versions: wallet.features["solana:signAndSendTransaction"].supportedTransactionVersions,
        accounts: wallet.accounts.length
      }`,
      null
    )
    expect(found).toEqual({
      version: "1.0.0",
      icon: "data:image/svg+xml;base64,",
      chains: ["solana:localnet"],
      features: [
        "solana:signAndSendTransaction",
        "solana:signMessage",
        "solana:signTransaction",
        "standard:connect",
        "standard:disconnect",
        "standard:events"
      ],
      versions: ["legacy", 0],
      accounts: 0
    })
  })

  it("connects silently only once authorised, then after a reload too", async () => {
    const silent = `return (await wallet.features["standard:connect"].connect({ silent: true })).accounts.map((a) => a.address)`
    expect(await inWallet(silent, null)).toEqual([])
    expect(testWallet.requests).toEqual(["standard:connect"])
    const connected = await inWallet<null, ReadonlyArray<string>>(
      `return (await wallet.features["standard:connect"].connect()).accounts.map((a) => a.address)`,
      null
    )
    expect(connected).toEqual([devSolanaKey(0).address])
    await openApp()
    expect(await inWallet(silent, null)).toEqual([devSolanaKey(0).address])
  })

  it("signs a message that verifies in Node with the account's key", async () => {
    const message = "Sign in to the blank page"
    const signature = await inWallet<string, ReadonlyArray<number>>(
      `const [account] = wallet.accounts
       const [output] = await wallet.features["solana:signMessage"].signMessage({ account, message: new TextEncoder().encode(input) })
       return [...output.signature]`,
      message
    )
    const key = await getPublicKeyFromAddress(devSolanaKey(0).address)
    expect(await verifySignature(key, new Uint8Array(signature) as SignatureBytes, new TextEncoder().encode(message))).toBe(true)
  })

  it("signs and sends a SOL transfer that lands on the local RPC", async () => {
    const from = devSolanaKey(0).address
    const to = (await generateKeyPairSigner()).address
    const before = (await rpc.getBalance(from).send()).value
    const signature = await inWallet<ReadonlyArray<number>, ReadonlyArray<number>>(
      `const [account] = wallet.accounts
       const [output] = await wallet.features["solana:signAndSendTransaction"].signAndSendTransaction({
         account, chain: "solana:localnet", transaction: new Uint8Array(input)
       })
       return [...output.signature]`,
      await transferBytes(from, to, 3n * SOL)
    )
    const landed = await rpc
      .getTransaction(getBase58Decoder().decode(new Uint8Array(signature)) as Signature, { encoding: "json", maxSupportedTransactionVersion: 0 })
      .send()
    expect(landed?.meta?.err).toBeNull()
    expect((await rpc.getBalance(to).send()).value).toBe(3n * SOL)
    expect((await rpc.getBalance(from).send()).value).toBe(before - 3n * SOL - FEE)
  })

  it("refuses in the page with code 4001 when the visitor says no", async () => {
    testWallet.setApproval("reject")
    try {
      const refusal = await inWallet(
        `const [account] = wallet.accounts
         try {
           await wallet.features["solana:signMessage"].signMessage({ account, message: new Uint8Array([1, 2, 3]) })
           return "signed"
         } catch (error) {
           return { code: error.code, message: error.message }
         }`,
        null
      )
      expect(refusal).toEqual({ code: 4001, message: "User rejected the request." })
    } finally {
      testWallet.setApproval("approve")
    }
  })

  it("tells the page when the visitor picks another account in the wallet", async () => {
    await inWallet(
      `window.__changes = []
       wallet.features["standard:events"].on("change", ({ accounts }) => window.__changes.push(accounts.map((a) => a.address)))`,
      null
    )
    testWallet.selectAccount(1)
    await page.waitForFunction(() => (window as unknown as { __changes: Array<unknown> }).__changes.length > 0, null, { timeout: 5000 })
    expect(await page.evaluate(() => (window as unknown as { __changes: unknown }).__changes)).toEqual([[devSolanaKey(1).address]])
    expect(await inWallet(`return wallet.accounts.map((a) => a.address)`, null)).toEqual([devSolanaKey(1).address])
  })

  it("registers a wallet with an app that is already running, and unregisters it", async () => {
    const names = await page.evaluate(() => {
      const app = (window as unknown as {
        __app: {
          wallets: { get: () => ReadonlyArray<{ name: string }> }
          createStandardWallet: (backend: unknown, options: unknown) => unknown
          registerStandardWallet: (wallet: unknown) => () => void
        }
      }).__app
      const nothing = async () => []
      const late = app.createStandardWallet(
        { connect: nothing, disconnect: nothing, signMessage: nothing, signTransaction: nothing, signAndSendTransaction: nothing, onAccountsChanged: () => () => {} },
        { name: "Late Wallet" }
      )
      const unregister = app.registerStandardWallet(late)
      const registered = app.wallets.get().map((w) => w.name)
      unregister()
      return { registered, after: app.wallets.get().map((w) => w.name) }
    })
    expect(names).toEqual({ registered: [NAME, "Late Wallet"], after: [NAME] })
  })

  it("reached nothing but loopback", () => {
    expect(browser.requests.filter((url) => !isLoopback(url))).toEqual([])
  })
})
