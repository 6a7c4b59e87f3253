/**
 * The Connect view as a host sets it up (the demo's "The Connect view" card, or `?terms=…&wallets=…`), in Chromium on
 * the local stack with the embedded wallet and an injected wallet: a box to tick before connecting
 * (`features.legalCheckbox`), the Terms linked under the wallets, and the wallets folded beside email
 * (`features.collapseWallets`), all by keyboard; All wallets' search field shows the modal's focus ring.
 */
import AxeBuilder from "@axe-core/playwright"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestWallet } from "../../devstack/wallet/testWallet"
import { truncateAddress } from "../../src/domain/format"
import { contrast, painted } from "./support/colours"
import { type OpenDemo, openDemo } from "./support/demo"
import { installInjectedWallet } from "./support/injectedWallet"

let session: OpenDemo | undefined
let page: Page
let wallet: TestWallet

const dialog = () => page.getByRole("dialog")
const openConnect = async (query: string) => {
  await page.goto(`${session!.url}${query}`)
  await page.evaluate(() => localStorage.clear())
  await page.goto(`${session!.url}${query}`)
  await page.getByRole("button", { name: "Connect wallet" }).click()
  await dialog().getByRole("textbox", { name: "Continue with email" }).waitFor()
}

beforeAll(async () => {
  session = await openDemo({ name: "connect-view", parts: ["evm", "solana", "mail", "services", "embedded"] })
  const evm = session.stack.config.evm
  if (evm === null) throw new Error("the demo stack has no EVM part")
  const chainA = evm.chains.find((chain) => chain.chainId === 31337)
  wallet = await installInjectedWallet(session.browser.context, {
    privateKeys: [evm.accounts[0]!.privateKey as `0x${string}`],
    chains: [{ chainId: 31337, name: "Local Chain A", rpcUrl: chainA?.rpcUrl ?? "" }],
    chainId: 31337
  })
  page = session.browser.page
})

afterAll(() => session?.stop())

describe("the Connect view as the host sets it up", () => {
  it("a box to tick first, wallets folded: nothing can be used before agreeing; then, by keyboard, the wallet connects", async () => {
    await openConnect("?terms=agree&wallets=folded")
    const agree = dialog().getByRole("checkbox", { name: /^I agree to this site's Terms and Privacy Policy/ })
    const unfold = dialog().getByRole("button", { name: "Continue with a wallet" })
    expect(await agree.isChecked()).toBe(false)
    expect(await unfold.isDisabled()).toBe(true)
    expect(await dialog().getByRole("textbox", { name: "Continue with email" }).isDisabled()).toBe(true)
    expect(await dialog().getByRole("button", { name: /Wallet Runtime Test Wallet/ }).count()).toBe(0)
    // The links are the host's own pages, and they open.
    const terms = dialog().getByRole("link", { name: "Terms" })
    const href = await terms.getAttribute("href")
    expect(href).toBe(new URL("terms.html", session!.url).href)
    expect((await page.request.get(href!)).status()).toBe(200)
    const axe = await new AxeBuilder({ page }).include("[role=dialog]").analyze()
    expect(axe.violations.map((violation) => violation.id)).toEqual([])

    await agree.focus()
    await page.keyboard.press("Space")
    await expect.poll(() => agree.isChecked()).toBe(true)
    await expect.poll(() => unfold.isDisabled()).toBe(false)
    await unfold.focus()
    await page.keyboard.press("Enter")
    // The first wallet takes the focus (WalletConnect's row, first by spec point 9); the arrow keys go down the list.
    const list = dialog().getByRole("list", { name: "Wallets" })
    const focused = (locator: ReturnType<Page["locator"]>) => locator.evaluate((element) => element === document.activeElement)
    await expect.poll(() => focused(list.getByRole("button").first())).toBe(true)
    expect(await list.getByRole("button").first().textContent()).toMatch(/^WalletConnect/)
    await page.keyboard.press("ArrowDown")
    await expect.poll(() => focused(list.getByRole("button", { name: /Wallet Runtime Test Wallet/ }))).toBe(true)
    await page.keyboard.press("Enter")
    await expect.poll(() => dialog().count()).toBe(0)
    // The devstack's identity service names dev account 0; the button shows the name, else the short address.
    await page.getByRole("button", { name: new RegExp(`alice\\.wallet\\.test|${truncateAddress(wallet.address()).replace("…", ".")}`) }).first().waitFor()
  })

  it("the Terms linked under the wallets: no box, every way to connect open", async () => {
    wallet.revoke()
    await openConnect("?terms=notice")
    const footnote = dialog().getByText(/^By connecting a wallet, you agree to this site's/)
    expect(await footnote.textContent()).toBe("By connecting a wallet, you agree to this site's Terms and Privacy Policy.")
    expect(await dialog().getByRole("checkbox").count()).toBe(0)
    expect(await dialog().getByRole("button", { name: /Wallet Runtime Test Wallet/ }).isDisabled()).toBe(false)
    expect(await dialog().getByRole("textbox", { name: "Continue with email" }).isDisabled()).toBe(false)
  })

  it("All wallets: the search field, focused, has the 2 px ring of the modal's other fields, 3:1 or more on the dialog, in light and dark", async () => {
    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme })
      await openConnect("")
      await dialog().getByRole("button", { name: "All wallets" }).click()
      const search = dialog().getByRole("searchbox", { name: "Search wallets" })
      await search.focus()
      const { ring, behind } = await search.evaluate((input) => {
        let fill = "rgb(255, 255, 255)"
        for (let box = input.closest("label")?.parentElement ?? null; box !== null; box = box.parentElement) {
          const colour = getComputedStyle(box).backgroundColor
          if (colour !== "rgba(0, 0, 0, 0)") {
            fill = colour
            break
          }
        }
        return { ring: getComputedStyle(input.closest("label")!).boxShadow, behind: fill }
      })
      // Its field (the label around the input, with the magnifier) is ringed; the ring is its colour, then offsets.
      expect(ring, theme).toMatch(/ 0px 0px 0px 2px$/)
      const [colour, dialogFill] = await painted(page, [ring.replace(/ 0px 0px 0px 2px$/, ""), behind])
      expect(contrast(colour!, dialogFill!), theme).toBeGreaterThanOrEqual(3)
    }
    await page.emulateMedia({ colorScheme: "light" })
  })
})
