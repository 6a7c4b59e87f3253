/**
 * Sign-in with the wallet on the local stack: Chromium against the built demo with `servicesSiwx()` (the demo's
 * `?signIn=` switch), the injected test wallet holding a dev account, the services giving the nonce, checking the
 * signature on anvil and keeping the session in their database. Connect → sign view → signed in; a reload keeps
 * it; a refusal says 'Signature declined' and Try again signs; required mode cannot be closed (no Close, Escape shakes), and
 * cancelling disconnects; signing out revokes the session on the service.
 */
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Approval, readableMessage } from "../../devstack/wallet/testWallet"
import { type Browser, launchBrowser } from "./support/browser"
import { type OpenDemo, openDemo } from "./support/demo"
import { axeViolations, expectAxeClean } from "./support/embeddedLogin"
import { installInjectedSolanaWallet } from "./support/injectedSolanaWallet"
import { installInjectedWallet } from "./support/injectedWallet"
import { serviceSessions } from "./support/siwxSessions"

let session: OpenDemo
let page: Page
let account: { readonly address: string; readonly privateKey: string }
let answer: Approval = "approve"
const prompts: Array<string> = []

const dialog = () => page.getByRole("dialog")
const sessionText = () => page.getByTestId("session").textContent()

/** The sessions the services keep for an account (CAIP-10; by default the EVM account on chain 31337). */
const sessionsOf = (caipAddress?: string) => serviceSessions(session.stack, session.url, caipAddress ?? `eip155:31337:${account.address}`)

const connect = async () => {
  await page.getByRole("button", { name: "Connect wallet" }).click()
  await dialog().getByRole("button", { name: /Wallet Runtime Test Wallet/ }).click()
}

beforeAll(async () => {
  session = await openDemo({ name: "siwx" })
  const evm = session.stack.config.evm
  if (evm === null) throw new Error("the demo stack has no EVM part")
  const dev = evm.accounts[6]
  if (dev === undefined) throw new Error("the stack has fewer than seven dev accounts")
  account = dev
  await installInjectedWallet(session.browser.context, {
    privateKeys: [dev.privateKey as `0x${string}`],
    chains: evm.chains.map((chain) => ({ chainId: chain.chainId, name: `Local ${chain.chainId}`, rpcUrl: chain.rpcUrl })),
    chainId: 31337,
    approve: (method) => {
      prompts.push(method)
      return method === "personal_sign" ? answer : "approve"
    }
  })
  page = session.browser.page
}, 120_000)

afterAll(() => session?.stop())

describe("sign-in with the wallet on the local stack", () => {
  it("connecting asks to sign; a refusal says 'Signature declined'; Try again signs in and the service keeps the session", async () => {
    await page.goto(`${session.url}?signIn=on`)
    answer = "reject"
    await connect()
    await dialog().getByRole("heading", { name: "Sign in to Wallet Runtime demo" }).waitFor()
    expect(await dialog().getByText("Signing is free", { exact: false }).count()).toBe(1)
    expect(await axeViolations(page)).toEqual([])
    await dialog().getByRole("button", { name: "Sign", exact: true }).click()
    const declined = dialog().getByRole("alert").filter({ hasText: "Signature declined" })
    await declined.waitFor()
    // The message reads from its warning sign, as in the views laid out from the left: in this centred view its words
    // stood in the middle of the box, the sign alone at its edge.
    const [sign, words] = await declined.evaluate((notice) => [
      notice.querySelector("svg")?.getBoundingClientRect().right ?? Number.NaN,
      // Where each line's words begin (a line's own box, not its block's): every line, the title's too, at the start.
      Math.max(
        ...[...notice.querySelectorAll("span")].flatMap((span) => {
          const range = document.createRange()
          range.selectNodeContents(span)
          return [...range.getClientRects()].map((line) => line.left)
        })
      )
    ])
    expect(words! - sign!).toBeLessThanOrEqual(12)
    expect(await sessionsOf()).toEqual([])
    answer = "approve"
    await dialog().getByRole("button", { name: "Try again" }).click()
    await dialog().waitFor({ state: "detached", timeout: 5_000 }).catch(async (error: unknown) => {
      throw new Error(`${String(error)}\n${await dialog().innerText()}`)
    })
    await expect.poll(sessionText).toContain("Signed in.")
    // The demo's card says until when in words (it showed the message's ISO time, '2026-12-07T05:09:16.925Z').
    expect(await sessionText()).toMatch(/^Signed in\. Until [A-Z][a-z]{2} \d{1,2}, \d{4}, \d{1,2}:\d{2}\s[AP]M\.$/)
    expect(await sessionsOf()).toHaveLength(1)
    expect(prompts.filter((method) => method === "personal_sign")).toHaveLength(2)
  })

  it("a reload keeps the session: the wallet is not asked again", async () => {
    const before = prompts.length
    await page.reload()
    await expect.poll(sessionText, { timeout: 10_000 }).toContain("Signed in.")
    expect(await dialog().count()).toBe(0)
    expect(prompts.slice(before).filter((method) => method === "personal_sign")).toEqual([])
  })

  it("signing out revokes the session on the service", async () => {
    await page.getByRole("button", { name: "Sign out" }).click()
    await expect.poll(sessionText).toContain("Not signed in")
    await expect.poll(() => sessionsOf()).toEqual([])
  })

  it("required: no Close in the header, focus on the view's heading, Escape only shakes the modal, axe-clean in light, dark and at 390 px; Disconnect disconnects the wallet", async () => {
    await page.goto(`${session.url}?signIn=required`)
    // The wallet is still connected from before: restoring it without a session opens the sign view at once.
    const heading = dialog().getByRole("heading", { name: "Sign in to Wallet Runtime demo" })
    await heading.waitFor({ timeout: 10_000 })
    // The modal cannot be closed without a session: no control offers to.
    expect(await dialog().getByRole("button", { name: "Close" }).count()).toBe(0)
    await expect.poll(() => heading.evaluate((element) => element === document.activeElement)).toBe(true)
    await page.keyboard.press("Escape")
    // The shake lasts 0.5 s: Playwright's wait checks the page at every frame.
    await page.locator("[role=dialog][data-shake]").waitFor({ state: "attached", timeout: 5_000 })
    await heading.waitFor()
    expect(await dialog().count()).toBe(1)
    await expectAxeClean(page, ["light", "dark"])
    await dialog().getByRole("button", { name: "Disconnect" }).click()
    await dialog().waitFor({ state: "detached" })
    await page.getByRole("button", { name: "Connect wallet" }).waitFor()
    await expect.poll(sessionText).toContain("Connect a wallet to sign in.")
  })

  it("required: connecting and signing closes the modal signed in", async () => {
    await connect()
    await dialog().getByRole("button", { name: "Sign", exact: true }).click()
    await dialog().waitFor({ state: "detached" })
    await expect.poll(sessionText).toContain("Signed in.")
    expect(await sessionsOf()).toHaveLength(1)
  })
})

describe("sign-in with a Solana wallet", () => {
  let browser: Browser
  beforeAll(async () => {
    browser = await launchBrowser()
  })
  afterAll(async () => browser?.close())

  it("the Sign-In With Solana text is signed (ed25519) and the service keeps the session", async () => {
    const solana = session.stack.config.solana
    if (solana === null) throw new Error("the demo stack has no Solana part")
    const wallet = await installInjectedSolanaWallet(browser.context, { rpcUrl: solana.rpcUrl })
    const solanaPage = browser.page
    await solanaPage.goto(`${session.url}?signIn=on`)
    await solanaPage.getByRole("button", { name: "Connect wallet" }).click()
    await solanaPage.getByRole("dialog").getByRole("button", { name: /Solana Test Wallet/ }).click()
    await solanaPage.getByRole("dialog").getByRole("heading", { name: "Sign in to Wallet Runtime demo" }).waitFor()
    await solanaPage.getByRole("dialog").getByRole("button", { name: "Sign", exact: true }).click()
    await solanaPage.getByRole("dialog").waitFor({ state: "detached" })
    await expect.poll(() => solanaPage.getByTestId("session").textContent()).toContain("Signed in.")
    expect(await sessionsOf(`${solana.caipNetworkId}:${wallet.address()}`)).toHaveLength(1)
  })
})

describe("sign-in through the host's own siweConfig (the legacy option)", () => {
  it("connecting asks to sign the host's EIP-4361 message; the host's verifyMessage keeps the session; a reload keeps it without asking again", async () => {
    const other = await launchBrowser()
    try {
      const evm = session.stack.config.evm!
      const dev = evm.accounts[7]!
      const signed: Array<string> = []
      await installInjectedWallet(other.context, {
        privateKeys: [dev.privateKey as `0x${string}`],
        chains: evm.chains.map((chain) => ({ chainId: chain.chainId, name: `Local ${chain.chainId}`, rpcUrl: chain.rpcUrl })),
        chainId: 31337,
        approve: (method, params) => {
          if (method === "personal_sign") signed.push(readableMessage(String((params as ReadonlyArray<unknown>)[0])))
          return "approve"
        }
      })
      const visitor = other.page
      const modal = () => visitor.getByRole("dialog")
      await visitor.goto(`${session.url}?signIn=siwe`)
      await visitor.getByRole("button", { name: "Connect wallet" }).click()
      await modal().getByRole("button", { name: /Wallet Runtime Test Wallet/ }).click()
      await modal().getByRole("heading", { name: "Sign in to Wallet Runtime demo" }).waitFor()
      await modal().getByRole("button", { name: "Sign", exact: true }).click()
      await expect.poll(() => visitor.getByTestId("session").textContent(), { timeout: 15_000 }).toContain("Signed in.")
      expect(signed).toHaveLength(1)
      const message = signed[0] ?? ""
      expect(message.split("\n").slice(0, 2)).toEqual([`${new URL(session.url).host} wants you to sign in with your Ethereum account:`, dev.address])
      expect(message).toContain("Sign in to the Wallet Runtime demo with its own SIWE configuration.")
      expect(message).toContain("Chain ID: 31337")
      // The host's own store holds who signed in; the services were not asked to keep a session.
      expect(JSON.parse((await visitor.evaluate(() => localStorage.getItem("demo:siwe-session"))) ?? "null")).toEqual({ address: dev.address, chainId: 31337 })
      expect(await sessionsOf(`eip155:31337:${dev.address}`)).toEqual([])
      await visitor.reload()
      await expect.poll(() => visitor.getByTestId("session").textContent(), { timeout: 15_000 }).toContain("Signed in.")
      expect(signed).toHaveLength(1)
    } finally {
      await other.close()
    }
  })
})
