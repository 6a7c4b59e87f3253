/**
 * The demo as a strict host serves it, and as a long visit wears it: Chromium against the built demo on the local
 * stack, with a Content-Security-Policy that allows the page's own files and only the hosts the options name
 * (0 violations, the modal styled, a wallet connects); then a soak of 300 open/close and 100 connect/disconnect
 * cycles after which the page holds as many DOM nodes and listeners as before.
 */
import type { CDPSession, Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { demoStackConfig } from "../../devstack/demoConfig"
import type { DevstackInfo } from "../../devstack/main"
import type { Browser } from "./support/browser"
import { type OpenDemo, openDemo } from "./support/demo"
import { installInjectedWallet } from "./support/injectedWallet"

let session: OpenDemo
let browser: Browser
let page: Page
let cdp: CDPSession
let policy: string
const pageErrors: Array<string> = []

const dialog = () => page.getByRole("dialog")
const accountButton = () => page.getByRole("button", { name: /alice\.wallet\.test/ })
const connectButton = () => page.getByRole("button", { name: "Connect wallet" })

/** Every origin named in the options the demo builds from the stack (services, RPC endpoints). */
const namedOrigins = (config: unknown): Array<string> => {
  const found = new Set<string>()
  const walk = (value: unknown): void => {
    if (typeof value === "string" && /^(https?|wss?):\/\//.test(value)) found.add(new URL(value).origin)
    else if (Array.isArray(value)) value.forEach(walk)
    else if (typeof value === "object" && value !== null) Object.values(value).forEach(walk)
  }
  walk(config)
  return [...found]
}

const violations = () => page.evaluate(() => (window as unknown as { __cspViolations: Array<string> }).__cspViolations)

/** DOM nodes and JS event listeners of the page once garbage is collected. */
const footprint = async () => {
  await cdp.send("HeapProfiler.collectGarbage")
  const { metrics } = await cdp.send("Performance.getMetrics")
  const metric = (name: string) => metrics.find((m) => m.name === name)?.value ?? Number.NaN
  return { nodes: metric("Nodes"), listeners: metric("JSEventListeners") }
}

const openAndClose = async () => {
  await connectButton().click()
  await dialog().waitFor()
  await page.keyboard.press("Escape")
  await dialog().waitFor({ state: "detached" })
}

const connectAndDisconnect = async () => {
  await connectButton().click()
  await dialog().getByRole("button", { name: /Wallet Runtime Test Wallet/ }).click()
  await accountButton().waitFor()
  await accountButton().click()
  await dialog().getByRole("button", { name: "Disconnect" }).click()
  await connectButton().waitFor()
  await dialog().waitFor({ state: "detached" })
}

/**
 * Runs the cycles inside the page, clicking and pressing as a visitor does and waiting on the DOM, so hundreds of
 * cycles cost the page's own work and not a round trip to the test per step.
 */
const cyclesInPage = (kind: "open-close" | "connect-disconnect", count: number) =>
  page.evaluate(
    async ([kind, count]) => {
      const shownDialog = () =>
        [...document.querySelectorAll<HTMLElement>("[role=dialog]")].find((element) => element.closest("[aria-hidden=true],[inert]") === null)
      const button = (root: ParentNode, text: RegExp) => [...root.querySelectorAll<HTMLButtonElement>("button")].find((b) => text.test(b.textContent ?? "") || text.test(b.getAttribute("aria-label") ?? ""))
      const until = <T,>(find: () => T | undefined | false): Promise<T> =>
        new Promise((resolve, reject) => {
          const found = find()
          if (found) return resolve(found)
          const timer = window.setTimeout(() => (observer.disconnect(), reject(new Error(`stuck in ${kind}`))), 10_000)
          const observer = new MutationObserver(() => {
            const now = find()
            if (now) (observer.disconnect(), window.clearTimeout(timer), resolve(now))
          })
          observer.observe(document.body, { subtree: true, childList: true, attributes: true, characterData: true })
        })
      const escape = () => (document.activeElement ?? document.body).dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }))
      for (let i = 0; i < count; i++) {
        ;(await until(() => button(document, /^Connect wallet$/))).click()
        const open = await until(shownDialog)
        if (kind === "open-close") {
          escape()
        } else {
          ;(await until(() => button(open, /Wallet Runtime Test Wallet/))).click()
          ;(await until(() => button(document, /alice\.wallet\.test/))).click()
          ;(await until(() => { const d = shownDialog(); return d && button(d, /^Disconnect$/) })).click()
        }
        await until(() => shownDialog() === undefined && button(document, /^Connect wallet$/))
      }
    },
    [kind, count] as const
  )

/**
 * The policy the README gives a host: its own files, the hosts its options name, data: images (generated icons). No
 * hash of any inline element: the demo, which hosts copy, has none (its stack config is a JSON data block, not a script).
 */
const strictPolicy = (stack: DevstackInfo): string => {
  const config = demoStackConfig(stack.config)
  const origins = namedOrigins(config).join(" ")
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    `img-src 'self' data: ${origins}`,
    `connect-src 'self' ${origins}`,
    "object-src 'none'",
    "base-uri 'none'",
    "frame-ancestors 'none'"
  ].join("; ")
}

beforeAll(async () => {
  session = await openDemo({
    name: "attacks",
    headers: (_outDir, stack) => {
      policy = strictPolicy(stack)
      return { "content-security-policy": policy }
    }
  })
  const evm = session.stack.config.evm
  if (evm === null) throw new Error("the demo stack has no EVM part")
  browser = session.browser
  await installInjectedWallet(browser.context, {
    privateKeys: evm.accounts.slice(0, 1).map((account) => account.privateKey as `0x${string}`),
    chains: evm.chains.map((chain) => ({ chainId: chain.chainId, name: `Local ${chain.chainId}`, rpcUrl: chain.rpcUrl })),
    chainId: 31337,
    approve: () => "approve"
  })
  await browser.context.addInitScript(() => {
    const seen: Array<string> = []
    ;(window as unknown as { __cspViolations: Array<string> }).__cspViolations = seen
    document.addEventListener("securitypolicyviolation", (event) => seen.push(`${event.effectiveDirective} ${event.blockedURI}`))
  })
  page = browser.page
  page.on("pageerror", (error) => pageErrors.push(error.message))
  cdp = await browser.context.newCDPSession(page)
  await cdp.send("Performance.enable")
  await page.goto(session.url)
}, 120_000)

afterAll(() => session?.stop())

describe("a strict Content-Security-Policy", () => {
  it("0 violations: the modal is styled by its stylesheet and a wallet connects, under the policy the README gives", async () => {
    expect(policy).not.toContain("unsafe")
    await connectButton().click()
    const shown = dialog()
    await shown.getByRole("button", { name: /Wallet Runtime Test Wallet/ }).waitFor()
    // Styled: the theme's surface colour and radius reach the dialog (an unstyled dialog is transparent and square).
    const style = await shown.evaluate((element) => {
      const computed = getComputedStyle(element)
      return { background: computed.backgroundColor, radius: computed.borderTopLeftRadius, width: element.getBoundingClientRect().width }
    })
    expect(style.background).not.toBe("rgba(0, 0, 0, 0)")
    expect(style.radius).not.toBe("0px")
    expect(style.width).toBeLessThanOrEqual(400)
    await shown.getByRole("button", { name: /Wallet Runtime Test Wallet/ }).click()
    await accountButton().waitFor()
    await expect.poll(() => accountButton().textContent()).toMatch(/ETH/)
    await accountButton().click()
    await dialog().getByRole("button", { name: "Disconnect" }).click()
    await connectButton().waitFor()
    expect(await violations()).toEqual([])
    expect(pageErrors).toEqual([])
    // The recorder itself is live: an inline style the policy does not allow is reported.
    await page.evaluate(() => document.head.append(Object.assign(document.createElement("style"), { textContent: "body{}" })))
    await expect.poll(violations).toEqual([expect.stringMatching(/^style-src-elem inline$/)])
    await page.evaluate(() => (window as unknown as { __cspViolations: Array<string> }).__cspViolations.splice(0))
  })
})

describe("a long visit", () => {
  it("300 open/close and 100 connect/disconnect cycles leave the DOM nodes and listeners where they were", async () => {
    // A few rounds first, so every view's code and first-time state exist before the baseline is taken.
    for (let i = 0; i < 3; i++) await connectAndDisconnect()
    for (let i = 0; i < 3; i++) await openAndClose()
    const before = await footprint()
    await cyclesInPage("open-close", 300)
    const afterOpenClose = await footprint()
    await cyclesInPage("connect-disconnect", 100)
    const after = await footprint()
    console.info(`soak: nodes ${before.nodes} → ${afterOpenClose.nodes} → ${after.nodes}; listeners ${before.listeners} → ${afterOpenClose.listeners} → ${after.listeners}`)
    // A leak of one node or listener per cycle would add 300 or 100; a settled page varies by a handful.
    expect(afterOpenClose.nodes - before.nodes).toBeLessThan(30)
    expect(after.nodes - before.nodes).toBeLessThan(30)
    expect(afterOpenClose.listeners - before.listeners).toBeLessThan(10)
    expect(after.listeners - before.listeners).toBeLessThan(10)
    expect(await violations()).toEqual([])
    expect(pageErrors).toEqual([])
  }, 240_000)
})
