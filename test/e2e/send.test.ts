/**
 * Send and Receive in Chromium against the built demo on the local stack (anvil with WUSD, WUSDT and the WRC
 * collectibles; the local Solana with WSUSD). From the account view the visitor sends ETH, WUSD, WUSDT (whose
 * `transfer` returns nothing), an NFT from its detail, SOL and an SPL token, and sees each confirmed, the chain agree,
 * the balance and the activity follow; every rule of spec 5 is said for a bad input, a transfer that would revert
 * says its decoded reason, a refusal in the wallet is said with Try again; Receive's QR code, read from the pixels
 * the browser drew, is the address; the new views pass axe, work by keyboard and fit a 390 px phone.
 */
import AxeBuilder from "@axe-core/playwright"
import { address as solanaAddress, createSolanaRpc, generateKeyPairSigner } from "@solana/kit"
import { inflateSync } from "node:zlib"
import type { Locator, Page } from "playwright-core"
import { createPublicClient, createWalletClient, http, parseAbi } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { foundry } from "viem/chains"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { DevstackInfo } from "../../devstack/main"
import type { Started } from "../../server/src/lib/Started"
import type { SolanaTestWallet } from "../../devstack/wallet/solana/testWallet"
import { formatAmount, formatUnits, truncateAddress } from "../../src/domain/format"
import { decodeQr } from "../unit/ui/components/qrDecoder"
import { type Browser, launchBrowser } from "./support/browser"
import { type ServedDemo, serveDemoOnStack } from "./support/demo"
import { installInjectedSolanaWallet } from "./support/injectedSolanaWallet"
import { installInjectedWallet } from "./support/injectedWallet"

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
const BOB = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
const ERC = parseAbi([
  "function balanceOf(address) view returns (uint256)",
  "function ownerOf(uint256) view returns (address)"
])

let stack: Started<DevstackInfo>
let demo: Started<{ readonly url: string }>
let served: ServedDemo | undefined

beforeAll(async () => {
  served = await serveDemoOnStack("send")
  stack = served.stack
  demo = served.demo
}, 120_000)

afterAll(() => served?.stop())

const axeViolations = async (page: Page) => {
  const result = await new AxeBuilder({ page }).include("[role=dialog]").analyze()
  return result.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join("; ")}`)
}

/** The RGBA pixels of a PNG as Chromium writes screenshots (8-bit RGB or RGBA, not interlaced). */
const pixelsOf = (png: Buffer) => {
  let offset = 8
  let width = 0
  let height = 0
  let channels = 4
  const data: Array<Buffer> = []
  while (offset < png.length) {
    const length = png.readUInt32BE(offset)
    const type = png.toString("ascii", offset + 4, offset + 8)
    const body = png.subarray(offset + 8, offset + 8 + length)
    if (type === "IHDR") {
      width = body.readUInt32BE(0)
      height = body.readUInt32BE(4)
      channels = body[9] === 6 ? 4 : 3
      if (body[8] !== 8 || body[12] !== 0) throw new Error("only 8-bit, non-interlaced screenshots are read here")
    }
    if (type === "IDAT") data.push(body)
    offset += 12 + length
  }
  const raw = inflateSync(Buffer.concat(data))
  const stride = width * channels
  const out = new Uint8Array(height * stride)
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)]
    for (let x = 0; x < stride; x++) {
      const value = raw[y * (stride + 1) + 1 + x]!
      const left = x >= channels ? out[y * stride + x - channels]! : 0
      const up = y > 0 ? out[(y - 1) * stride + x]! : 0
      const upLeft = x >= channels && y > 0 ? out[(y - 1) * stride + x - channels]! : 0
      const paeth = () => {
        const p = left + up - upLeft
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - upLeft)]
        return pa <= pb && pa <= pc ? left : pb <= pc ? up : upLeft
      }
      const predicted = filter === 1 ? left : filter === 2 ? up : filter === 3 ? (left + up) >> 1 : filter === 4 ? paeth() : 0
      out[y * stride + x] = (value + predicted) & 0xff
    }
  }
  return { width, height, dark: (x: number, y: number) => {
    const at = (Math.min(height - 1, Math.floor(y)) * width + Math.min(width - 1, Math.floor(x))) * channels
    return 0.299 * out[at]! + 0.587 * out[at + 1]! + 0.114 * out[at + 2]! < 128
  } }
}

/** What a scanner reads from the QR code the page shows: its screenshot, sampled at each module's centre. */
const scanQr = async (qr: Locator): Promise<string> => {
  const [min, , box] = ((await qr.getAttribute("viewBox")) ?? "").split(" ").map(Number)
  const quiet = -min!
  const image = pixelsOf(await qr.screenshot())
  const cell = image.width / box!
  const size = box! - 2 * quiet
  const modules = Array.from({ length: size }, (_, y) =>
    Array.from({ length: size }, (_, x) => image.dark((x + quiet + 0.5) * cell, (y + quiet + 0.5) * cell))
  )
  return decodeQr(modules).text
}

describe("Send and Receive on EVM", () => {
  let browser: Browser
  let page: Page
  let refuseNextSend = false
  const chain = () => stack.info.config.evm?.chains.find((c) => c.chainId === 31337)
  const client = () => createPublicClient({ transport: http(chain()?.rpcUrl ?? "") })
  const token = (symbol: string) => chain()?.tokens.find((t) => t.symbol === symbol)?.address as `0x${string}`
  const tokenBalance = (symbol: string, owner: string) =>
    client().readContract({ address: token(symbol), abi: ERC, functionName: "balanceOf", args: [owner as `0x${string}`] })

  const dialog = () => page.getByRole("dialog")
  const view = () => dialog().getAttribute("data-view")
  const accountButton = () => page.getByRole("button", { name: /alice\.wallet\.test/ })
  const features = () => dialog().getByRole("group", { name: "Wallet features" })
  const field = (label: string) => dialog().getByLabel(label, { exact: true })
  const continueButton = () => dialog().getByRole("button", { name: "Continue" })
  const fieldWords = async (label: string) => {
    const id = await field(label).getAttribute("aria-describedby")
    return dialog().locator(`[id="${id}"]`).textContent()
  }
  const chooseToken = async (symbol: string) => {
    const value = await field("Token").locator("option", { hasText: new RegExp(`^${symbol} — `) }).getAttribute("value")
    await field("Token").selectOption(value ?? "")
  }
  const confirmed = () => dialog().getByRole("heading", { name: "Transaction confirmed" })
  // The account view's balance (the page's own header is inert behind the modal).
  const shownBalance = () => dialog().getByText(/^[\d,.]+ ETH$/).first().textContent()
  const anvilBalance = async () => formatAmount(formatUnits(await client().getBalance({ address: ALICE }), 18))

  /** From the account view: Send, the form filled, reviewed and confirmed, and the result confirmed; back on the account. */
  const send = async (fill: () => Promise<void>) => {
    await features().getByRole("button", { name: "Send" }).click()
    await field("To").waitFor()
    await fill()
    await continueButton().click()
    await expect.poll(view).toBe("SendReview")
    await dialog().getByRole("button", { name: "Confirm" }).click()
    await confirmed().waitFor({ timeout: 20_000 })
    await dialog().getByRole("button", { name: "Done" }).click()
    await expect.poll(view).toBe("Account")
  }

  beforeAll(async () => {
    const evm = stack.info.config.evm
    if (evm === null) throw new Error("the demo stack has no EVM part")
    browser = await launchBrowser()
    await installInjectedWallet(browser.context, {
      privateKeys: evm.accounts.slice(0, 1).map((account) => account.privateKey as `0x${string}`),
      chains: evm.chains.map((c) => ({ chainId: c.chainId, name: `Local ${c.chainId}`, rpcUrl: c.rpcUrl })),
      chainId: 31337,
      approve: (method) => {
        if (method !== "eth_sendTransaction" || !refuseNextSend) return "approve"
        refuseNextSend = false
        return "reject"
      }
    })
    page = browser.page
    await page.goto(demo.info.url)
    await page.getByRole("button", { name: "Connect wallet" }).click()
    await dialog().getByRole("button", { name: /Wallet Runtime Test Wallet/ }).click()
    await accountButton().waitFor()
    await accountButton().click()
  }, 60_000)
  afterAll(async () => browser?.close())

  it("the account view has Buy, Swap, Receive then Send (the spec's order), and passes axe", async () => {
    await features().waitFor()
    // Swap once the services said they swap on this network (their host's config).
    await expect.poll(() => features().getByRole("button").allTextContents()).toEqual(["Buy", "Swap", "Receive", "Send"])
    expect(await axeViolations(page)).toEqual([])
    // The explorer link, a control of its own under the balance, is a target of 24 px or more (WCAG 2.5.8).
    const explorer = await dialog().getByRole("link", { name: /^View on / }).boundingBox()
    expect(explorer?.height ?? 0).toBeGreaterThanOrEqual(24)
    // Copy address's focus ring (2 px, 2 px off the button) keeps clear of the name beside it, by 2 px or more.
    const [name, copy] = await Promise.all([
      dialog().getByRole("heading", { name: "alice.wallet.test" }).boundingBox(),
      dialog().getByRole("button", { name: "Copy address" }).boundingBox()
    ])
    expect((copy?.x ?? 0) - 4 - ((name?.x ?? 0) + (name?.width ?? 0))).toBeGreaterThanOrEqual(2)
  })

  it("Receive: the QR code the browser drew reads as the address, shown in full with the networks it receives on", async () => {
    await features().getByRole("button", { name: "Receive" }).click()
    const qr = dialog().getByRole("img", { name: "QR code of your address" })
    await qr.waitFor()
    expect(await scanQr(qr)).toBe(ALICE)
    expect(await dialog().getByTestId("receive-address").textContent()).toBe(ALICE)
    expect(await dialog().getByRole("listitem").allTextContents()).toEqual(["Local Chain A", "Local Chain B"])
    expect(await axeViolations(page)).toEqual([])
    await dialog().getByRole("button", { name: "Back" }).click()
    await expect.poll(view).toBe("Account")
  })

  it("every rule of spec 5 is said for a bad input, and a transfer that would revert says its reason before the wallet is asked", async () => {
    await features().getByRole("button", { name: "Send" }).click()
    await field("To").waitFor()
    expect(await axeViolations(page)).toEqual([])
    await continueButton().click()
    await expect.poll(() => fieldWords("Amount")).toBe("Enter an amount")
    expect(await fieldWords("To")).toBe("Enter the receiver's address or name")
    expect(await field("Amount").getAttribute("aria-invalid")).toBe("true")
    expect(await axeViolations(page)).toEqual([])

    await field("To").fill("0x1234")
    await expect.poll(() => fieldWords("To")).toBe("An EVM address is 40 hexadecimal characters, optionally after 0x")
    await field("To").fill("9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM")
    await expect.poll(() => fieldWords("To")).toBe("An EVM address is 40 hexadecimal characters, optionally after 0x")
    await field("To").fill(BOB.replace("C8", "c8"))
    await expect.poll(() => fieldWords("To")).toBe("The address checksum is wrong: check for a typo")

    await chooseToken("WUSD")
    await field("Amount").fill("1.1234567")
    await expect.poll(() => fieldWords("Amount")).toBe("WUSD has at most 6 decimals")
    await field("Amount").fill("20000")
    await expect.poll(() => fieldWords("Amount")).toBe("Not enough WUSD: you have 10,000")

    await field("Amount").fill("1")
    await field("To").fill("0x0000000000000000000000000000000000000000")
    await continueButton().click()
    await expect.poll(() => dialog().getByRole("alert").textContent()).toContain("This transfer would fail: transfer to the zero address")
    expect(await view()).toBe("Send")
    await dialog().getByRole("button", { name: "Back" }).click()
    await expect.poll(view).toBe("Account")
  })

  it("sends ETH: a refusal first, said in the visitor's words with Try again; then confirmed, the account's balance follows the chain", async () => {
    await expect.poll(shownBalance).toBe(`${await anvilBalance()} ETH`)
    const before = await client().getBalance({ address: BOB })
    refuseNextSend = true
    await features().getByRole("button", { name: "Send" }).click()
    await field("Amount").fill("0.5")
    await field("To").fill(BOB)
    await continueButton().click()
    await expect.poll(view).toBe("SendReview")
    expect(await dialog().getByRole("definition").allTextContents()).toEqual(
      expect.arrayContaining(["0.5 ETH$1,500.00", BOB, "Local Chain A"])
    )
    expect(await axeViolations(page)).toEqual([])
    await dialog().getByRole("button", { name: "Confirm" }).click()
    await dialog().getByRole("heading", { name: "Request declined" }).waitFor()
    expect(await dialog().getByRole("alert").textContent()).toContain("User rejected the request.")
    expect(await axeViolations(page)).toEqual([])
    await dialog().getByRole("button", { name: "Try again" }).click()
    await confirmed().waitFor({ timeout: 20_000 })
    expect(await axeViolations(page)).toEqual([])
    expect(await client().getBalance({ address: BOB })).toBe(before + 5n * 10n ** 17n)
    await dialog().getByRole("button", { name: "Done" }).click()
    await expect.poll(view).toBe("Account")
    await expect.poll(shownBalance).toBe(`${await anvilBalance()} ETH`)
  })

  it("sends WUSD to BOB; the chain agrees", async () => {
    const before = await tokenBalance("WUSD", BOB)
    await send(async () => {
      await chooseToken("WUSD")
      await field("Amount").fill("25")
      await field("To").fill(BOB)
    })
    expect(await tokenBalance("WUSD", BOB)).toBe(before + 25_000_000n)
    expect(await tokenBalance("WUSD", ALICE)).toBe(9_975_000_000n)
  })

  it("sends ETH to a name: bob.wallet.test is looked up through the names endpoints, shown with BOB's address, and BOB receives it", async () => {
    const before = await client().getBalance({ address: BOB })
    await send(async () => {
      await field("Amount").fill("0.25")
      await field("To").fill("bob.wallet.test")
      await expect.poll(async () => (await fieldWords("To"))?.toLowerCase(), { timeout: 5_000 }).toBe(`bob.wallet.test: ${BOB.toLowerCase()}`)
    })
    expect(await client().getBalance({ address: BOB })).toBe(before + 250_000_000_000_000_000n)
  })

  it("sends WUSDT (transfer returns nothing) by keyboard alone after choosing it; confirmed all the same", async () => {
    const before = await tokenBalance("WUSDT", BOB)
    await features().getByRole("button", { name: "Send" }).focus()
    await page.keyboard.press("Enter")
    await field("Token").waitFor()
    await chooseToken("WUSDT")
    await field("Token").focus()
    await page.keyboard.press("Tab")
    await expect.poll(() => field("Amount").evaluate((element) => element === document.activeElement)).toBe(true)
    await page.keyboard.type("10")
    await page.keyboard.press("Tab") // Max
    await page.keyboard.press("Tab")
    await page.keyboard.type(BOB)
    await page.keyboard.press("Enter")
    await expect.poll(view).toBe("SendReview")
    // The review's first control has focus: Edit, then Confirm.
    await expect.poll(() => dialog().getByRole("button", { name: "Edit" }).evaluate((element) => element === document.activeElement)).toBe(true)
    await page.keyboard.press("Tab")
    await page.keyboard.press("Enter")
    await confirmed().waitFor({ timeout: 20_000 })
    // The result's headline has the focus: words, not a control, so no ring around them.
    await expect
      .poll(() => dialog().evaluate(() => [document.activeElement?.tagName, document.activeElement === null ? "" : getComputedStyle(document.activeElement).outlineStyle]))
      .toEqual(["H3", "none"])
    // The result's explorer link is a target of 24 px or more, as the account's.
    expect((await dialog().getByRole("link", { name: /^View on / }).boundingBox())?.height ?? 0).toBeGreaterThanOrEqual(24)
    expect(await tokenBalance("WUSDT", BOB)).toBe(before + 10_000_000n)
    await dialog().getByRole("button", { name: "Done" }).click()
    await expect.poll(view).toBe("Account")
  })

  it("sends an NFT from its detail in the NFTs tab; the chain's owner is BOB and the grid no longer has it", async () => {
    await dialog().getByRole("tab", { name: "NFTs" }).click()
    const grid = dialog().getByRole("tabpanel").getByRole("list", { name: "NFTs" })
    await grid.waitFor()
    const count = await grid.getByRole("button").count()
    // Opened by keyboard: the detail's heading takes the focus, without a ring around its words.
    await grid.getByRole("button").first().focus()
    await page.keyboard.press("Enter")
    const heading = dialog().getByRole("tabpanel").getByRole("heading")
    await expect.poll(() => heading.evaluate((element) => [element === document.activeElement, getComputedStyle(element).outlineStyle])).toEqual([true, "none"])
    const tokenId = BigInt((await dialog().getByRole("tabpanel").locator("dd").nth(1).textContent()) ?? "0")
    await dialog().getByRole("tabpanel").getByRole("button", { name: "Send" }).click()
    await field("To").fill(BOB)
    expect(await field("Amount").count()).toBe(0)
    await continueButton().click()
    await expect.poll(view).toBe("SendReview")
    await dialog().getByRole("button", { name: "Confirm" }).click()
    await confirmed().waitFor({ timeout: 20_000 })
    const collectible = chain()?.collectible.address as `0x${string}`
    expect(await client().readContract({ address: collectible, abi: ERC, functionName: "ownerOf", args: [tokenId] })).toBe(BOB)
    await dialog().getByRole("button", { name: "Done" }).click()
    await dialog().getByRole("tab", { name: "NFTs" }).click()
    await expect.poll(() => grid.getByRole("button").count()).toBe(count - 1)
  })

  it("the activity lists the sends of this visit", async () => {
    await dialog().getByRole("tab", { name: "Activity" }).click()
    const today = dialog().getByRole("tabpanel").getByRole("region", { name: "Today" })
    await today.waitFor()
    await expect.poll(async () => (await today.getByRole("listitem").allTextContents()).filter((row) => row.startsWith("Sent")).length).toBeGreaterThanOrEqual(4)
    const rows = (await today.getByRole("listitem").allTextContents()).join("\n")
    expect(rows).toMatch(/10 WUSDT/)
    expect(rows).toMatch(/25 WUSD/)
    expect(rows).toMatch(/0\.5 ETH/)
  })
})

describe("Send on Solana, on a 390 px phone", () => {
  let browser: Browser
  let page: Page
  let wallet: SolanaTestWallet
  const rpc = () => createSolanaRpc(stack.info.config.solana?.rpcUrl ?? "")
  const wsusd = () => stack.info.config.solana?.tokens[0]?.address ?? ""
  const dialog = () => page.getByRole("dialog")
  const view = () => dialog().getAttribute("data-view")
  const field = (label: string) => dialog().getByLabel(label, { exact: true })
  const features = () => dialog().getByRole("group", { name: "Wallet features" })
  const confirmed = () => dialog().getByRole("heading", { name: "Transaction confirmed" })
  /**
   * What does not fit a 390 px phone: the dialog past the screen's edges, or anything in it scrolling sideways (a text
   * field's own text scrolls inside it by design: a Solana address is longer than the field).
   */
  const misfits = () =>
    dialog().evaluate((element) => {
      const box = element.getBoundingClientRect()
      const outside = box.left < 0 || box.right > window.innerWidth ? ["the dialog"] : []
      const wide = [element, ...element.querySelectorAll("*")]
        .filter((child) => child.tagName !== "INPUT" && child.scrollWidth > child.clientWidth + 1 && getComputedStyle(child).overflowX !== "hidden")
        .map((child) => `${child.tagName.toLowerCase()}.${child.className} ${child.scrollWidth}>${child.clientWidth}`)
      return [...outside, ...wide]
    })

  beforeAll(async () => {
    browser = await launchBrowser()
    wallet = await installInjectedSolanaWallet(browser.context, { rpcUrl: stack.info.config.solana?.rpcUrl ?? "" })
    page = browser.page
    await page.goto(demo.info.url)
    await page.getByRole("button", { name: "Connect wallet" }).click()
    await dialog().getByRole("button", { name: /Solana Test Wallet/ }).click()
    const account = page.getByRole("button", { name: new RegExp(truncateAddress(wallet.address()).replace(/[.]/g, "\\.")) })
    await account.waitFor()
    if ((await dialog().count()) > 0) await page.keyboard.press("Escape")
    await account.click()
    // The phone's width from here on: the modal is laid out again as a phone shows it.
    await page.setViewportSize({ width: 390, height: 844 })
    await features().waitFor()
  }, 60_000)
  afterAll(async () => browser?.close())

  it("without an amount: 'Please enter a valid amount and receiver address'; the form fits the phone and passes axe", async () => {
    await features().getByRole("button", { name: "Send" }).click()
    await field("To").fill((await generateKeyPairSigner()).address)
    await dialog().getByRole("button", { name: "Continue" }).click()
    await expect.poll(() => dialog().getByRole("alert").textContent()).toBe("Please enter a valid amount and receiver address")
    expect(await misfits()).toEqual([])
    expect(await axeViolations(page)).toEqual([])
    await dialog().getByRole("button", { name: "Back" }).click()
    await expect.poll(view).toBe("Account")
  })

  it("sends SOL: confirmed, the receiver has it", async () => {
    const receiver = (await generateKeyPairSigner()).address
    await features().getByRole("button", { name: "Send" }).click()
    await field("Amount").fill("0.5")
    await field("To").fill(receiver)
    await dialog().getByRole("button", { name: "Continue" }).click()
    await expect.poll(view).toBe("SendReview")
    expect(await misfits()).toEqual([])
    await dialog().getByRole("button", { name: "Confirm" }).click()
    await confirmed().waitFor({ timeout: 20_000 })
    expect(Number((await rpc().getBalance(solanaAddress(receiver)).send()).value)).toBe(500_000_000)
    expect(await misfits()).toEqual([])
    await dialog().getByRole("button", { name: "Done" }).click()
    await expect.poll(view).toBe("Account")
    // The account's balance follows the chain (0.5 SOL and the fee less).
    const chainBalance = async () => `${formatAmount(formatUnits((await rpc().getBalance(solanaAddress(wallet.address())).send()).value, 9))} SOL`
    await expect.poll(async () => dialog().getByText(/^[\d,.]+ SOL$/).first().textContent()).toBe(await chainBalance())
  })

  it("sends WSUSD to an address with no token account yet: confirmed, the receiver holds it", async () => {
    const receiver = (await generateKeyPairSigner()).address
    await features().getByRole("button", { name: "Send" }).click()
    const value = await field("Token").locator("option", { hasText: /^WSUSD — / }).getAttribute("value")
    await field("Token").selectOption(value ?? "")
    await field("Amount").fill("25")
    await field("To").fill(receiver)
    await dialog().getByRole("button", { name: "Continue" }).click()
    await expect.poll(view).toBe("SendReview")
    await dialog().getByRole("button", { name: "Confirm" }).click()
    await confirmed().waitFor({ timeout: 20_000 })
    const accounts = await rpc()
      .getTokenAccountsByOwner(solanaAddress(receiver), { mint: solanaAddress(wsusd()) }, { encoding: "jsonParsed" })
      .send()
    expect(accounts.value[0]?.account.data.parsed.info.tokenAmount.uiAmountString).toBe("25")
  })
})

describe("the gas check on a send", () => {
  it("an account with WUSD but no ETH is told it cannot pay the network fee, and the wallet is not asked", async () => {
    const evm = stack.info.config.evm!
    const chain = evm.chains.find((c) => c.chainId === 31337)!
    const wusd = chain.tokens.find((t) => t.symbol === "WUSD")!.address as `0x${string}`
    const key = generatePrivateKey()
    const empty = privateKeyToAccount(key).address
    // ALICE gives it 5 WUSD and nothing else: not a wei of ETH for the fee.
    const alice = createWalletClient({ account: privateKeyToAccount(evm.accounts[0]!.privateKey as `0x${string}`), chain: foundry, transport: http(chain.rpcUrl) })
    const client = createPublicClient({ chain: foundry, transport: http(chain.rpcUrl) })
    await client.waitForTransactionReceipt({
      hash: await alice.writeContract({ address: wusd, abi: parseAbi(["function transfer(address,uint256) returns (bool)"]), functionName: "transfer", args: [empty, 5_000_000n] })
    })
    const browser = await launchBrowser()
    try {
      const wallet = await installInjectedWallet(browser.context, {
        privateKeys: [key],
        chains: [{ chainId: 31337, name: "Local Chain A", rpcUrl: chain.rpcUrl }],
        chainId: 31337
      })
      const page = browser.page
      const dialog = () => page.getByRole("dialog")
      const field = (label: string) => dialog().getByLabel(label, { exact: true })
      await page.goto(demo.info.url)
      await page.getByRole("button", { name: "Connect wallet" }).click()
      await dialog().getByRole("button", { name: /Wallet Runtime Test Wallet/ }).click()
      const account = page.getByRole("button", { name: new RegExp(truncateAddress(empty).replace(/[.]/g, "\\.")) })
      await account.waitFor()
      if ((await dialog().count()) > 0) await page.keyboard.press("Escape")
      await account.click()
      await dialog().getByRole("group", { name: "Wallet features" }).getByRole("button", { name: "Send" }).click()
      await field("To").waitFor()
      const value = await field("Token").locator("option", { hasText: /^WUSD — / }).getAttribute("value")
      await field("Token").selectOption(value ?? "")
      await field("Amount").fill("1")
      await field("To").fill(BOB)
      await dialog().getByRole("button", { name: "Continue" }).click()
      await expect.poll(() => dialog().getByRole("alert").textContent(), { timeout: 15_000 }).toContain("Not enough ETH to pay the network fee")
      expect(await dialog().getAttribute("data-view")).toBe("Send")
      expect(wallet.requests).not.toContain("eth_sendTransaction")
      expect(await client.readContract({ address: wusd, abi: ERC, functionName: "balanceOf", args: [empty] })).toBe(5_000_000n)
    } finally {
      await browser.close()
    }
  })
})
