/**
 * Swap in Chromium against the built demo on the local stack, whose chains run Uniswap v2 (`devstack/evm/uniswap.ts`).
 * From the account view the visitor swaps ETH for WUSD, then WUSD for WUSDT after approving the router; refuses an
 * approval; and sends a swap that the pool moves past its 1 % slippage before it is mined, which reverts with the
 * router's reason. Each test starts from a reload (the session restored), reads the balances from anvil before and
 * after, and the swap shows in Activity as one row with the two tokens' pictures (WUSD for ETH too, whose ETH the router
 * pays inside the transaction). The page's own Swap button opens the closed modal on Swap. The view passes axe and fits
 * 390 px; the token picker's rows keep each token's name and balance on one line, in the row's middle.
 */
import AxeBuilder from "@axe-core/playwright"
import type { Page } from "playwright-core"
import { type Address, createPublicClient, createWalletClient, type Hex, http, parseAbi, parseEther } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { devChain } from "../../devstack/evm/chains"
import type { DevstackInfo } from "../../devstack/main"
import type { Started } from "../../server/src/lib/Started"
import { type Browser, launchBrowser } from "./support/browser"
import { painted } from "./support/colours"
import { type ServedDemo, serveDemoOnStack } from "./support/demo"
import { installInjectedWallet } from "./support/injectedWallet"

const ALICE: Address = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
const ERC = parseAbi(["function balanceOf(address) view returns (uint256)", "function allowance(address, address) view returns (uint256)"])
const ROUTER_ABI = parseAbi(["function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[])"])

let stack: Started<DevstackInfo>
let served: ServedDemo | undefined
let browser: Browser
let page: Page
/** What the wallet does with the next eth_sendTransaction: approve it, refuse it, or first move the pool, then approve. */
let nextSend: "approve" | "reject" | "movePoolFirst" = "approve"

const chain = () => {
  const found = stack.info.config.evm?.chains.find((c) => c.chainId === 31337)
  if (found === undefined) throw new Error("no chain 31337")
  return found
}
const client = () => createPublicClient({ transport: http(chain().rpcUrl) })
const token = (symbol: string) => chain().tokens.find((t) => t.symbol === symbol)?.address as Address
const balanceOf = (symbol: string) => client().readContract({ address: token(symbol), abi: ERC, functionName: "balanceOf", args: [ALICE] })

/** Another dev account sells 30 ETH for WUSD straight through the router: the ETH/WUSD price falls by about half. */
const movePool = async () => {
  const key = stack.info.config.evm?.accounts[7]?.privateKey as Hex
  const account = privateKeyToAccount(key)
  const wallet = createWalletClient({ account, chain: devChain(31337, chain().rpcUrl), transport: http(chain().rpcUrl) })
  const { router, weth } = chain().uniswap
  const hash = await wallet.writeContract({
    address: router as Address,
    abi: ROUTER_ABI,
    functionName: "swapExactETHForTokens",
    args: [0n, [weth as Address, token("WUSD")], account.address, 2n ** 40n],
    value: parseEther("30")
  })
  const receipt = await client().waitForTransactionReceipt({ hash, pollingInterval: 20 })
  expect(receipt.status).toBe("success")
}

const dialog = () => page.getByRole("dialog")
const view = () => dialog().getAttribute("data-view")
const accountButton = () => page.getByRole("button", { name: /alice\.wallet\.test/ })
const features = () => dialog().getByRole("group", { name: "Wallet features" })
const submit = () => dialog().locator("form[aria-label=Swap] button[type=submit]")
const axeViolations = async () => {
  const result = await new AxeBuilder({ page }).include("[role=dialog]").analyze()
  return result.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join("; ")}`)
}

/** A fresh page (the session restored from storage), the modal on the Swap view. */
const openSwapAfterReload = async () => {
  await page.reload()
  await accountButton().click({ timeout: 20_000 })
  await features().getByRole("button", { name: "Swap" }).click()
  await expect.poll(view).toBe("Swap")
  await dialog().getByRole("button", { name: /^Token to sell: / }).waitFor()
}

const pick = async (side: "sell" | "receive", symbol: string) => {
  await dialog().getByRole("button", { name: new RegExp(`^Token to ${side}: `) }).click()
  const picker = dialog().getByRole("group", { name: `Token to ${side}` })
  await picker.getByRole("searchbox", { name: "Search tokens" }).fill(symbol.toLowerCase())
  await picker.getByRole("button", { name: new RegExp(`^${symbol} `) }).click()
  await expect.poll(() => dialog().getByRole("button", { name: new RegExp(`^Token to ${side}: `) }).textContent()).toBe(symbol)
}

/** Types the amount and waits for its quote; returns the minimum received the view shows, as a number. */
const quote = async (amount: string) => {
  await dialog().getByLabel("You sell").fill(amount)
  const minimum = dialog().getByRole("definition").nth(3)
  await minimum.waitFor({ timeout: 10_000 })
  const text = (await minimum.textContent()) ?? ""
  return Number(text.replace(/[^\d.]/g, ""))
}

/** The Activity tab's newest row, after closing and reopening on the account. */
const newestActivity = async () => {
  await page.reload()
  await accountButton().click({ timeout: 20_000 })
  await dialog().getByRole("tab", { name: "Activity" }).click()
  const row = dialog().getByRole("region", { name: "Today" }).getByRole("listitem").first()
  await row.waitFor({ timeout: 20_000 })
  return row
}

/**
 * Waits until the services recorded `events` from the demo (its project takes analytics). An event is sent half a
 * second after what it records (Analytics' ANALYTICS_SEND_DELAY_MS): a test whose event is its last act waits for it
 * here, or the next test's reload would leave it unsent.
 */
const recorded = async (events: ReadonlyArray<string>) => {
  const services = stack.info.config.services
  const names = async () => {
    const answer = (await (await fetch(`${services?.url}/__events?projectId=${services?.defaultProjectId}`)).json()) as {
      events: ReadonlyArray<{ event: { props: { event: string } } }>
    }
    return answer.events.map((event) => event.event.props.event)
  }
  await expect.poll(names, { timeout: 10_000 }).toEqual(expect.arrayContaining([...events]))
}

beforeAll(async () => {
  served = await serveDemoOnStack("swap")
  stack = served.stack
  const evm = stack.info.config.evm
  if (evm === null) throw new Error("the demo stack has no EVM part")
  browser = await launchBrowser()
  await installInjectedWallet(browser.context, {
    privateKeys: evm.accounts.slice(0, 1).map((account) => account.privateKey as Hex),
    chains: evm.chains.map((c) => ({ chainId: c.chainId, name: `Local ${c.chainId}`, rpcUrl: c.rpcUrl })),
    chainId: 31337,
    approve: async (method) => {
      if (method !== "eth_sendTransaction") return "approve"
      const decision = nextSend
      nextSend = "approve"
      if (decision === "movePoolFirst") await movePool()
      return decision === "reject" ? "reject" : "approve"
    }
  })
  page = browser.page
  await page.goto(served.demo.info.url)
  await page.getByRole("button", { name: "Connect wallet" }).click()
  await dialog().getByRole("button", { name: /Wallet Runtime Test Wallet/ }).click()
  await accountButton().waitFor({ timeout: 20_000 })
}, 180_000)

afterAll(async () => {
  await browser?.close()
  await served?.stop()
})

describe("Swap on the local Uniswap v2", () => {
  it("swaps ETH for WUSD: the quote's minimum is met on the chain, and Activity shows one Swapped row with both pictures", async () => {
    await openSwapAfterReload()
    expect(await features().count()).toBe(0)
    expect(await axeViolations()).toEqual([])
    await pick("receive", "WUSD")
    const [ethBefore, wusdBefore] = await Promise.all([client().getBalance({ address: ALICE }), balanceOf("WUSD")])
    const minimum = await quote("0.1")
    // 0.1 ETH at about 3000 WUSD less 1 %.
    expect(minimum).toBeGreaterThan(280)
    expect(minimum).toBeLessThan(300)
    expect(await dialog().getByText(/^1 ETH = [\d,.]+ WUSD$/).count()).toBe(1)
    expect(await axeViolations()).toEqual([])
    expect(await submit().textContent()).toBe("Swap")
    await submit().click()
    await dialog().getByRole("heading", { name: "Swap confirmed" }).waitFor({ timeout: 30_000 })
    expect(await dialog().getByRole("link", { name: /View on/ }).getAttribute("href")).toMatch(/\/tx\/0x[0-9a-f]{64}$/)
    const [ethAfter, wusdAfter] = await Promise.all([client().getBalance({ address: ALICE }), balanceOf("WUSD")])
    expect(ethBefore - ethAfter).toBeGreaterThanOrEqual(parseEther("0.1"))
    expect(Number(wusdAfter - wusdBefore) / 1e6).toBeGreaterThanOrEqual(minimum)

    const row = await newestActivity()
    await expect.poll(() => row.textContent()).toMatch(/^Swapped.*0\.1 ETH → [\d,.]+ WUSD/)
    expect(await row.locator("img").count()).toBe(2)
  })

  it("swaps WUSD for WUSDT: Approve first (the router's allowance on the chain follows), then Swap", async () => {
    await openSwapAfterReload()
    await pick("sell", "WUSD")
    await pick("receive", "WUSDT")
    const before = await Promise.all([balanceOf("WUSD"), balanceOf("WUSDT")])
    await quote("25")
    await expect.poll(() => submit().textContent()).toBe("Approve WUSD")
    await submit().click()
    await expect.poll(() => submit().textContent(), { timeout: 30_000 }).toBe("Swap")
    expect(
      await client().readContract({ address: token("WUSD"), abi: ERC, functionName: "allowance", args: [ALICE, chain().uniswap.router as Address] })
    ).toBeGreaterThan(25_000_000n)
    const minimum = await quote("25")
    await submit().click()
    await dialog().getByRole("heading", { name: "Swap confirmed" }).waitFor({ timeout: 30_000 })
    const after = await Promise.all([balanceOf("WUSD"), balanceOf("WUSDT")])
    expect(before[0] - after[0]).toBe(25_000_000n)
    expect(Number(after[1] - before[1]) / 1e6).toBeGreaterThanOrEqual(minimum)
    const row = await newestActivity()
    await expect.poll(() => row.textContent()).toMatch(/^Swapped.*25 WUSD → [\d,.]+ WUSDT/)
    expect(await row.locator("img").count()).toBe(2)
  })

  it("the page's own Swap button (useSwap().open()) opens the closed modal on Swap; WUSD for ETH shows one Swapped row, not Sent", async () => {
    await page.reload()
    await accountButton().waitFor({ timeout: 20_000 })
    expect(await dialog().count()).toBe(0)
    await page.getByRole("button", { name: "Swap from the page" }).click()
    await expect.poll(view, { timeout: 20_000 }).toBe("Swap")
    await pick("sell", "WUSD")
    await pick("receive", "ETH")
    const [ethBefore, wusdBefore] = await Promise.all([client().getBalance({ address: ALICE }), balanceOf("WUSD")])
    // WUSD's allowance was given in the test before.
    const minimum = await quote("30")
    expect(await submit().textContent()).toBe("Swap")
    await submit().click()
    await dialog().getByRole("heading", { name: "Swap confirmed" }).waitFor({ timeout: 30_000 })
    const [ethAfter, wusdAfter] = await Promise.all([client().getBalance({ address: ALICE }), balanceOf("WUSD")])
    expect(wusdBefore - wusdAfter).toBe(30_000_000n)
    // The ETH came back inside the transaction (the router, after WETH's withdraw): more than the minimum less gas.
    expect(Number(ethAfter - ethBefore) / 1e18).toBeGreaterThan(minimum - 0.001)
    const row = await newestActivity()
    await expect.poll(() => row.textContent()).toMatch(/^Swapped.*30 WUSD → [\d,.]+ ETH/)
    expect(await row.locator("img").count()).toBe(2)
  })

  it("a refused approval is said in the visitor's words, and nothing moves on the chain", async () => {
    await openSwapAfterReload()
    await pick("sell", "WUSDT")
    await pick("receive", "WUSD")
    const before = await Promise.all([balanceOf("WUSD"), balanceOf("WUSDT")])
    await quote("5")
    await expect.poll(() => submit().textContent()).toBe("Approve WUSDT")
    nextSend = "reject"
    await submit().click()
    const alert = dialog().getByRole("alert")
    await expect.poll(() => alert.textContent(), { timeout: 20_000 }).toBe(
      "Approval declinedYou declined in your wallet to let the swap use your WUSDT. Approve it to swap."
    )
    expect(await axeViolations()).toEqual([])
    expect(await Promise.all([balanceOf("WUSD"), balanceOf("WUSDT")])).toEqual(before)
    expect(
      await client().readContract({ address: token("WUSDT"), abi: ERC, functionName: "allowance", args: [ALICE, chain().uniswap.router as Address] })
    ).toBe(0n)
    await recorded(["SWAP_APPROVAL_ERROR"])
  })

  it("a swap the pool moves past its 1 % slippage before it is mined reverts, and the visitor reads the router's reason", async () => {
    await openSwapAfterReload()
    await pick("receive", "WUSD")
    const wusdBefore = await balanceOf("WUSD")
    await quote("0.2")
    nextSend = "movePoolFirst"
    await submit().click()
    const alert = dialog().getByRole("alert")
    await expect.poll(() => alert.textContent(), { timeout: 30_000 }).toContain("UniswapV2Router: INSUFFICIENT_OUTPUT_AMOUNT")
    expect(await alert.textContent()).toMatch(/^Transaction failed/)
    expect(await dialog().getByRole("link", { name: /View on/ }).getAttribute("href")).toMatch(/\/tx\/0x[0-9a-f]{64}$/)
    expect(await balanceOf("WUSD")).toBe(wusdBefore)
    const row = await newestActivity()
    await expect.poll(() => row.textContent()).toMatch(/Failed/)
    await recorded(["SWAP_ERROR"])
  })

  it("the token picker in the 360 px dialog: each token's name and balance on one line, centred in its row", async () => {
    await openSwapAfterReload()
    await dialog().getByRole("button", { name: /^Token to receive: / }).click()
    const picker = dialog().getByRole("group", { name: "Token to receive" })
    await picker.getByRole("searchbox", { name: "Search tokens" }).fill("usd")
    const options = picker.getByRole("button")
    await expect.poll(() => options.count()).toBe(2)
    const rows = await options.evaluateAll((buttons) =>
      buttons.map((button) => {
        const lines = (element: Element | null) => {
          if (element === null) return 0
          const range = document.createRange()
          range.selectNodeContents(element)
          return new Set([...range.getClientRects()].filter((rect) => rect.width > 0).map((rect) => Math.round(rect.bottom))).size
        }
        const middle = (element: Element | null) => {
          const box = element?.getBoundingClientRect()
          return box === undefined ? Number.NaN : box.top + box.height / 2
        }
        const row = middle(button)
        return {
          text: button.textContent,
          nameLines: lines(button.firstElementChild),
          balanceLines: lines(button.lastElementChild),
          // How far each side's words sit from the row's middle, in pixels.
          nameOff: Math.round(Math.abs(middle(button.firstElementChild) - row)),
          balanceOff: Math.round(Math.abs(middle(button.lastElementChild) - row))
        }
      })
    )
    for (const row of rows) {
      expect({ nameLines: row.nameLines, balanceLines: row.balanceLines }, row.text ?? "").toEqual({ nameLines: 1, balanceLines: 1 })
      expect(Math.max(row.nameOff, row.balanceOff), row.text ?? "").toBeLessThanOrEqual(1)
    }
  })

  it("Max looks like a button on the sell side's panel, in light and dark: its fill is not the panel's", async () => {
    await openSwapAfterReload()
    for (const theme of ["light", "dark"] as const) {
      await page.emulateMedia({ colorScheme: theme })
      const max = dialog().getByRole("button", { name: "Max", exact: true })
      // The theme's change is a transition of the button's fill: read once it is over.
      await max.evaluate((element) => Promise.allSettled(element.getAnimations().map((animation) => animation.finished)))
      // The panel: the sell side's box around the token button and Max.
      const [fill, panel] = await painted(
        page,
        await max.evaluate((element) => [getComputedStyle(element).backgroundColor, getComputedStyle(element.parentElement!.parentElement!).backgroundColor])
      )
      expect(fill, theme).not.toEqual(panel)
    }
    await page.emulateMedia({ colorScheme: "light" })
  })

  it("fits a 390 px phone: nothing past the screen's edges or scrolling sideways, with a quote shown", async () => {
    await openSwapAfterReload()
    // The phone's width from here on: the modal is laid out again as a phone shows it.
    await page.setViewportSize({ width: 390, height: 844 })
    await quote("0.01")
    const misfits = await dialog().evaluate((element) => {
      const box = element.getBoundingClientRect()
      const outside = box.left < 0 || box.right > window.innerWidth ? ["the dialog"] : []
      const wide = [element, ...element.querySelectorAll("*")]
        .filter((child) => child.tagName !== "INPUT" && child.scrollWidth > child.clientWidth + 1 && getComputedStyle(child).overflowX !== "hidden")
        .map((child) => `${child.tagName.toLowerCase()}.${child.className} ${child.scrollWidth}>${child.clientWidth}`)
      return [...outside, ...wide]
    })
    expect(misfits).toEqual([])
    expect(await axeViolations()).toEqual([])
  })

  it("the demo's project allows analytics: the swaps above were recorded (opened, started, succeeded, failed, the approval refused)", async () => {
    await recorded(["OPEN_SWAP", "INITIATE_SWAP", "SWAP_SUCCESS", "SWAP_ERROR", "SWAP_APPROVAL_ERROR"])
  })
})
