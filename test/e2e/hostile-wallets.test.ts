/**
 * Hostile wallets and hostile scripts, in Chromium against the demo on the local stack: announcements that are
 * malformed, that throw, that point their icon at a host, that reuse a listed wallet's rdns or one uuid, or that
 * arrive by the hundred while the list is open; and a connected wallet that floods the page with 1,000
 * `accountsChanged` and 1,000 `chainChanged`, garbage among them. The page raises no error, fetches nothing for an
 * icon, lists one row per wallet, stays connected, ends on the last valid state and asks the network a bounded
 * number of times. The longest task of each flood is printed (a figure for the issue, never asserted: timings on a
 * shared 2-core machine are noise).
 */
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestWallet } from "../../devstack/wallet/testWallet"
import type { Browser } from "./support/browser"
import { type OpenDemo, openDemo } from "./support/demo"
import { installInjectedWallet } from "./support/injectedWallet"

const BOB = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
const ICON_HOST = "icons.attacker.example"

let session: OpenDemo
let browser: Browser
let page: Page
let wallet: TestWallet
const pageErrors: Array<string> = []

const dialog = () => page.getByRole("dialog")
const walletRows = (name: RegExp) => dialog().getByRole("list", { name: "Wallets" }).getByRole("button", { name })
const accountButton = () => page.getByRole("button", { name: /alice\.wallet\.test/ })
const networkButton = () => page.getByRole("button", { name: /^Network: / })

/**
 * Announcements a hostile script makes before the runtime loads, after the test wallet's own: `detail: null`,
 * getters that throw, a Proxy that throws on every read, an icon on a remote host, the test wallet's rdns with
 * another provider (a takeover), and 50 wallets sharing one uuid.
 */
const hostileAnnouncements = (iconHost: string, takenRdns: string) => `(() => {
  const announce = (detail) => window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail }))
  const provider = (label) => ({ label, request: async () => { throw Object.assign(new Error("hostile"), { code: 4001 }) }, on() {}, removeListener() {} })
  const icon = "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E"
  const run = () => {
    announce(null)
    announce(undefined)
    announce(5)
    announce({ get info() { throw new Error("hostile getter") }, provider: provider("getter") })
    announce({ info: { uuid: "a", name: "Getter Wallet", icon, get rdns() { throw new Error("hostile rdns") } }, provider: provider("rdns") })
    announce(new Proxy({}, { get() { throw new Error("hostile proxy") }, has() { throw new Error("hostile proxy") }, ownKeys() { throw new Error("hostile proxy") }, getOwnPropertyDescriptor() { throw new Error("hostile proxy") }, getPrototypeOf() { throw new Error("hostile proxy") } }))
    announce({ info: { uuid: "b", name: "Bad Provider", icon, rdns: "com.hostile.badprovider" }, provider: { get request() { throw new Error("hostile provider") } } })
    announce({ info: { uuid: "c", name: "Remote Icon Wallet", icon: "https://${iconHost}/wallet.png", rdns: "com.hostile.remoteicon" }, provider: provider("remote icon") })
    announce({ info: { uuid: "d", name: "Takeover Wallet", icon, rdns: "${takenRdns}" }, provider: provider("takeover") })
    for (let i = 0; i < 50; i++) announce({ info: { uuid: "one-uuid", name: "Clone Wallet " + i, icon, rdns: "com.hostile.clone" + i }, provider: provider("clone " + i) })
  }
  run()
  window.addEventListener("eip6963:requestProvider", run)
})()`

/** Starts recording the page's long tasks (over 50 ms, as Chromium reports them). */
const watchLongTasks = () =>
  page.evaluate(() => {
    const recorder = window as unknown as { __longTasks: Array<number>; __longTaskObserver: PerformanceObserver }
    recorder.__longTasks = []
    recorder.__longTaskObserver = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) recorder.__longTasks.push(entry.duration)
    })
    recorder.__longTaskObserver.observe({ type: "longtask", buffered: false })
  })

/** Stops recording; the longest task since `watchLongTasks`, as printed words. */
const longestTask = async (): Promise<string> => {
  const longest = await page.evaluate(() => {
    const recorder = window as unknown as { __longTasks: Array<number>; __longTaskObserver: PerformanceObserver }
    recorder.__longTaskObserver.disconnect()
    return Math.max(0, ...recorder.__longTasks)
  })
  return longest === 0 ? "no task over 50 ms" : `longest task ${Math.round(longest)} ms`
}

/** Runs `script` (the body of an async function) in the page. */
const inPage = (script: string) => page.evaluate((body) => new Function(`return (async () => { ${body} })()`)() as Promise<void>, script)

/**
 * A wallet's events, each in its own task as an extension's content script delivers them (one message each), so
 * nothing gathers them for the runtime; resolves once all are delivered.
 */
const deliverEachInItsOwnTask = (event: string, payloads: string) => `
  const emit = window.__wrTestWalletEmit
  const payloads = ${payloads}
  const channel = new MessageChannel()
  await new Promise((resolve) => {
    let next = 0
    channel.port1.onmessage = () => {
      emit(${JSON.stringify(event)}, [payloads[next]])
      next += 1
      if (next < payloads.length) channel.port2.postMessage(null)
      else resolve()
    }
    channel.port2.postMessage(null)
  })
  channel.port1.close()
`

/** Waits until the page has made no new request for a while (what a flood set off has been asked by then). */
const requestsSettled = async () => {
  let seen = -1
  while (seen !== browser.requests.length) {
    seen = browser.requests.length
    await page.waitForTimeout(400)
  }
}

/** Requests the page made since `from` beyond its own files. */
const requestsSince = (from: number) => browser.requests.slice(from).filter((url) => !url.startsWith(session.url))

beforeAll(async () => {
  session = await openDemo({ name: "hostile" })
  const evm = session.stack.config.evm
  if (evm === null) throw new Error("the demo stack has no EVM part")
  browser = session.browser
  wallet = await installInjectedWallet(browser.context, {
    privateKeys: evm.accounts.slice(0, 2).map((account) => account.privateKey as `0x${string}`),
    chains: evm.chains.map((chain) => ({ chainId: chain.chainId, name: `Local Chain ${chain.chainId === 31337 ? "A" : "B"}`, rpcUrl: chain.rpcUrl })),
    chainId: 31337
  })
  await browser.context.addInitScript(hostileAnnouncements(ICON_HOST, wallet.identity.rdns))
  page = browser.page
  page.on("pageerror", (error) => pageErrors.push(error.message))
  await page.goto(session.url)
})

afterAll(() => session?.stop())

describe("hostile announcements", () => {
  it("raise no page error, fetch no icon, and list one row per wallet: the first announcement of an rdns keeps it", async () => {
    await page.getByRole("button", { name: "Connect wallet" }).click()
    await dialog().getByRole("button", { name: "All wallets" }).click()
    await walletRows(/Remote Icon Wallet/).waitFor()

    expect(pageErrors).toEqual([])
    expect(browser.requests.filter((url) => url.includes(ICON_HOST))).toEqual([])
    const remoteIcon = await walletRows(/Remote Icon Wallet/).locator("img").getAttribute("src")
    expect(remoteIcon).toMatch(/^data:image\//)
    // The test wallet announced first: its row stays its own, and no later script takes it over.
    expect(await walletRows(/Wallet Runtime Test Wallet/).count()).toBe(1)
    expect(await walletRows(/Takeover Wallet/).count()).toBe(0)
    // Fifty announcements with one uuid are one wallet.
    expect(await walletRows(/Clone Wallet/).count()).toBe(1)
    expect(await walletRows(/Getter Wallet|Bad Provider/).count()).toBe(0)
  })

  it("500 wallets announced while the list is open: listed, the list stays virtual", async () => {
    const status = () => dialog().getByRole("status").filter({ hasText: /wallets$/ }).textContent()
    const before = Number((await status())?.replace(/\D/g, ""))
    await watchLongTasks()
    await inPage(`
      const provider = { request: async () => [], on() {}, removeListener() {} }
      for (let i = 0; i < 500; i++) {
        const info = { uuid: "many-" + i, name: "Many Wallet " + i, icon: "data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg'/%3E", rdns: "com.many.w" + i }
        window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail: { info, provider } }))
      }
    `)
    await expect.poll(async () => Number((await status())?.replace(/\D/g, ""))).toBe(before + 500)
    console.log(`500 announcements while the list is open: ${await longestTask()}`)
    expect(await dialog().getByRole("listitem").count()).toBeLessThan(60)
    expect(pageErrors).toEqual([])
    await page.keyboard.press("Escape")
    await dialog().waitFor({ state: "detached" })
  })
})

describe("a connected wallet floods the page", () => {
  it("1,000 accountsChanged with garbage among them: one state, the last valid account, a bounded number of requests", async () => {
    await page.getByRole("button", { name: "Connect wallet" }).click()
    await dialog().getByRole("button", { name: /Wallet Runtime Test Wallet/ }).click()
    await accountButton().waitFor()
    // The row connected the test wallet itself, not the script that announced its rdns later.
    expect(wallet.requests).toContain("eth_requestAccounts")
    await requestsSettled()
    const from = browser.requests.length
    await watchLongTasks()
    await inPage(
      deliverEachInItsOwnTask(
        "accountsChanged",
        `Array.from({ length: 1000 }, (_, i) =>
          i === 999 ? [${JSON.stringify(BOB)}]
          : i % 10 === 1 ? null : i % 10 === 3 ? 5 : i % 10 === 5 ? {} : i % 10 === 7 ? ["0xZZ"]
          : ["0x" + (i + 1).toString(16).padStart(40, "0")])`
      )
    )
    await page.getByRole("button", { name: /bob\.wallet\.test/ }).waitFor()
    await requestsSettled()
    const asked = requestsSince(from)
    console.log(`1,000 accountsChanged: ${await longestTask()}; ${asked.length} requests`, asked.map((url) => new URL(url).pathname))
    expect(asked.length).toBeLessThanOrEqual(5)
    expect(pageErrors).toEqual([])
  })

  it("garbage accountsChanged alone leaves the visitor connected", async () => {
    await inPage(deliverEachInItsOwnTask("accountsChanged", `[null, 5, {}, "0xZZ", ["0xZZ"], [null]]`))
    await requestsSettled()
    expect(await page.getByRole("button", { name: /bob\.wallet\.test/ }).count()).toBe(1)
    expect(await page.getByRole("button", { name: "Connect wallet" }).count()).toBe(0)
  })

  it("1,000 chainChanged with garbage and a 300-digit chain id: the last valid chain, no Unsupported view, bounded requests", async () => {
    const from = browser.requests.length
    await watchLongTasks()
    await inPage(
      deliverEachInItsOwnTask(
        "chainChanged",
        `Array.from({ length: 1000 }, (_, i) =>
          i === 999 ? "0x7a6a"
          : i % 10 === 1 ? null : i % 10 === 3 ? "0xZZ" : i % 10 === 5 ? {} : i % 10 === 7 ? "0x" + "f".repeat(300)
          : i % 2 === 0 ? "0x7a69" : "0x7a6a")`
      )
    )
    await expect.poll(() => networkButton().getAttribute("aria-label")).toContain("Local Chain B")
    await requestsSettled()
    const asked = requestsSince(from)
    console.log(`1,000 chainChanged: ${await longestTask()}; ${asked.length} requests`, asked.map((url) => new URL(url).pathname))
    expect(asked.length).toBeLessThanOrEqual(5)
    expect(await dialog().count()).toBe(0)
    expect(await page.getByRole("button", { name: /bob\.wallet\.test/ }).count()).toBe(1)
    expect(pageErrors).toEqual([])
  })
})
