/**
 * Social login in the demo (issue 27), on the local stack: the wallet server as the OpenID Connect / OAuth 2 client
 * of the devstack's six identity providers (oidc-provider, one issuer each on loopback), the popup opened by the
 * click, the provider's login page where the test user types an account, the callback page on the frame origin
 * handing the result back to the host page. With each provider the visitor logs in, sees the provider and the name
 * on the Account view, signs a message and sends 0.01 ETH after approving, keeps the wallet across a reload, and
 * signs out. Then a page whose popups are blocked logs in by a full-page redirect that comes back with `result_uri`.
 */
import type { Page } from "playwright-core"
import { createWalletClient, http, parseEther, verifyMessage } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { foundry } from "viem/chains"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { SOCIAL_PROVIDERS } from "../../src/domain/validation"
import { SOCIAL_LOOK } from "../../src/ui/components/SocialIcon/SocialIcon"
import { type OpenDemo, openDemo } from "./support/demo"
import { accountButton, axeViolations, connectedAddress } from "./support/embeddedLogin"

let session: OpenDemo
let page: Page

const dialog = () => page.getByRole("dialog")
const socialButton = (provider: (typeof SOCIAL_PROVIDERS)[number]) =>
  dialog().getByRole("button", { name: `Continue with ${SOCIAL_LOOK[provider].name}`, exact: true })

/** Logs `account` in on the provider's page (in the popup or the page itself). */
const logInAtProvider = async (at: Page, account: string) => {
  await at.getByText("pick a test account").waitFor({ timeout: 15_000 })
  await at.getByRole("textbox", { name: "Account name" }).fill(account)
  await at.getByRole("button", { name: "Log in" }).click()
}

beforeAll(async () => {
  session = await openDemo({ name: "social", parts: ["evm", "mail", "services", "embedded"] })
  page = session.browser.page
}, 180_000)

afterAll(() => session?.stop())

describe("social login in the demo", () => {
  it("axe finds nothing on Connect with the social buttons (folded and with More open) nor while the popup is open", async () => {
    await page.goto(session.url)
    await page.getByRole("button", { name: "Connect wallet" }).click()
    await socialButton("google").waitFor()
    expect(await axeViolations(page)).toEqual([])
    await dialog().getByRole("button", { name: "More social logins" }).click()
    await socialButton("facebook").waitFor()
    expect(await axeViolations(page)).toEqual([])
    const popupOpened = page.waitForEvent("popup", { timeout: 10_000 })
    await socialButton("discord").click()
    const popup = await popupOpened
    await dialog().getByText("Continue in the Discord window…").waitFor()
    expect(await axeViolations(page)).toEqual([])
    await dialog().getByRole("button", { name: "Cancel" }).click()
    await expect.poll(() => popup.isClosed(), { timeout: 10_000 }).toBe(true)
    await socialButton("google").waitFor()
    await page.keyboard.press("Escape")
  })

  for (const provider of SOCIAL_PROVIDERS) {
    it(`${provider}: logs in in a popup, signs, sends 0.01 ETH, survives a reload, signs out`, async () => {
      const account = `e2e-${provider}`
      await page.goto(session.url)
      await page.getByRole("button", { name: "Connect wallet" }).click()
      // The first is wide, three more are icons (x, discord, farcaster); the last three are behind "More".
      await socialButton("google").waitFor()
      if ((await socialButton(provider).count()) === 0) {
        expect(["github", "apple", "facebook"]).toContain(provider)
        await dialog().getByRole("button", { name: "More social logins" }).click()
      }
      const popupOpened = page.waitForEvent("popup", { timeout: 10_000 })
      await socialButton(provider).click()
      const popup = await popupOpened
      await dialog().getByText(`Continue in the ${SOCIAL_LOOK[provider].name} window…`).waitFor()
      await logInAtProvider(popup, account)
      // The callback page hands the result back and closes; the modal closes once connected.
      await dialog().waitFor({ state: "hidden", timeout: 20_000 })
      await expect.poll(() => popup.isClosed(), { timeout: 10_000 }).toBe(true)
      const address = await connectedAddress(page)

      // The Account view names the provider and the user.
      await accountButton(page, address).click()
      await dialog().getByText(account, { exact: true }).waitFor()
      await dialog().getByText(`${SOCIAL_LOOK[provider].name}:`).waitFor({ state: "attached" })
      if (provider === "google") expect(await axeViolations(page)).toEqual([])
      await page.keyboard.press("Escape")
      await dialog().waitFor({ state: "hidden" })

      const message = `Hello from ${provider}`
      await page.getByRole("textbox", { name: "Message" }).fill(message)
      await page.getByRole("button", { name: "Sign message" }).click()
      await dialog().getByText(message).waitFor()
      await dialog().getByRole("button", { name: "Approve" }).click()
      await expect.poll(() => page.getByTestId("signature").textContent(), { timeout: 20_000 }).toMatch(/^0x[0-9a-f]+$/)
      const signature = (await page.getByTestId("signature").textContent()) as `0x${string}`
      expect(await verifyMessage({ address, message, signature })).toBe(true)
      await dialog().waitFor({ state: "hidden" })

      const evm = session.stack.config.evm!
      const chain = evm.chains.find((c) => c.chainId === 31337)!
      const funder = createWalletClient({ account: privateKeyToAccount(evm.accounts[0]!.privateKey as `0x${string}`), chain: foundry, transport: http(chain.rpcUrl) })
      await funder.sendTransaction({ to: address, value: parseEther("1") })
      await page.getByRole("button", { name: "Send", exact: true }).click()
      await dialog().getByRole("heading", { name: "Approve this transaction" }).waitFor()
      await dialog().getByText("0.01 ETH").waitFor()
      await dialog().getByRole("button", { name: "Approve" }).click()
      await expect.poll(() => page.getByTestId("transaction").textContent(), { timeout: 30_000 }).toContain("confirmed in block")

      await page.reload()
      await page.getByText(`From ${address} on`).waitFor({ timeout: 20_000 })
      await accountButton(page, address).click()
      await dialog().getByText(account, { exact: true }).waitFor()

      await dialog().getByRole("button", { name: "Disconnect" }).click()
      await page.getByRole("button", { name: "Connect wallet" }).waitFor()
      await page.reload()
      await page.getByRole("button", { name: "Connect wallet" }).waitFor()
      expect(await page.getByText(/^From 0x/).count()).toBe(0)
    }, 120_000)
  }

  it("a closed popup ends the wait as cancelled", async () => {
    await page.goto(session.url)
    await page.getByRole("button", { name: "Connect wallet" }).click()
    const popupOpened = page.waitForEvent("popup", { timeout: 10_000 })
    // Discord: among the icons shown (GitHub is behind More since Farcaster came before it).
    await socialButton("discord").click()
    const popup = await popupOpened
    await popup.getByText("pick a test account").waitFor({ timeout: 15_000 })
    // While the window is open, the modal's Cancel is a target of 24 px or more each way (WCAG 2.5.8), not a word's size.
    const cancel = await dialog().getByRole("button", { name: "Cancel" }).boundingBox()
    expect(Math.min(cancel?.width ?? 0, cancel?.height ?? 0)).toBeGreaterThanOrEqual(24)
    await popup.close()
    await dialog().getByText("The login was cancelled: the window was closed.").waitFor({ timeout: 10_000 })
    await page.keyboard.press("Escape")
  })

  it("in the mini-app mode (Android): google only of google/x/facebook, no popup, the page goes and comes back with result_uri", async () => {
    await page.goto(`${session.url}?miniapp=android`)
    await page.getByRole("button", { name: "Connect wallet" }).click()
    await socialButton("google").waitFor()
    // Android's mini-app drops facebook and x.
    expect(await socialButton("x").count()).toBe(0)
    expect(await dialog().getByRole("button", { name: "More social logins" }).count()).toBe(0)
    expect(await socialButton("facebook").count()).toBe(0)
    let popups = 0
    page.on("popup", () => popups++)
    await socialButton("google").click()
    await logInAtProvider(page, "e2e-miniapp")
    await page.waitForURL((url) => url.href.startsWith(session.url), { timeout: 20_000 })
    const address = await connectedAddress(page)
    const here = new URL(page.url())
    expect(here.searchParams.has("result_uri")).toBe(false)
    expect(here.searchParams.get("miniapp")).toBe("android")
    expect(popups).toBe(0)
    await accountButton(page, address).click()
    await dialog().getByText("e2e-miniapp", { exact: true }).waitFor()
    await dialog().getByRole("button", { name: "Disconnect" }).click()
    await page.getByRole("button", { name: "Connect wallet" }).waitFor()
  })

  it("with popups blocked, the page goes to the provider and comes back with result_uri, which completes the login and leaves the address", async () => {
    await session.browser.context.addInitScript(() => {
      window.open = () => null
    })
    await page.goto(`${session.url}?from=redirect`)
    await page.getByRole("button", { name: "Connect wallet" }).click()
    await socialButton("google").click()
    await logInAtProvider(page, "e2e-redirect")
    await page.waitForURL((url) => url.href.startsWith(session.url), { timeout: 20_000 })
    const address = await connectedAddress(page)
    expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/)
    const here = new URL(page.url())
    expect(here.searchParams.has("result_uri")).toBe(false)
    expect(here.searchParams.get("from")).toBe("redirect")
    await accountButton(page, address).click()
    await dialog().getByText("e2e-redirect", { exact: true }).waitFor()
  })
})
