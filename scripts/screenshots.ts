/**
 * `npx tsx scripts/screenshots.ts [folder]`: every view of the modal as a visitor sees it — light and dark, desktop
 * (1280 × 800) and phone (390 × 844) — on the production build of the demo against the local stack, with the injected
 * EVM test wallet. For people to look at before calling a visible change done; nothing is compared.
 */
import { mkdirSync } from "node:fs"
import { join, resolve } from "node:path"
import { animationsSettled } from "../test/e2e/support/browser"
import { withDemo } from "../test/e2e/support/demo"
import { installInjectedWallet } from "../test/e2e/support/injectedWallet"

const folder = resolve(process.argv[2] ?? "screenshots")
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const
const THEMES = ["light", "dark"] as const
const WALLET_NAME = "Wallet Runtime Test Wallet"


const main = () =>
  withDemo(["evm", "solana", "relay", "services"], async ({ stack, url, browser }) => {
    const evm = stack.config.evm
    if (evm === null) throw new Error("no EVM part")
    const wallet = await installInjectedWallet(browser.context, {
      privateKeys: evm.accounts.slice(0, 1).map((account) => account.privateKey as `0x${string}`),
      chains: [{ chainId: 31337, name: "Local Chain A", rpcUrl: evm.chains.find((c) => c.chainId === 31337)?.rpcUrl ?? "" }],
      chainId: 31337
    })
    const page = browser.page
    const dialog = () => page.getByRole("dialog")
    const shot = async (name: string) => {
      await animationsSettled(page)
      await page.screenshot({ path: join(folder, `${name}.png`) })
      console.log(`saved ${name}.png`)
    }
    const close = async () => {
      if ((await dialog().count()) > 0) await page.keyboard.press("Escape")
    }

    for (const theme of THEMES) {
      for (const [size, viewport] of Object.entries(SIZES)) {
        const at = (view: string) => `${view}-${theme}-${size}`
        wallet.revoke()
        await page.setViewportSize(viewport)
        await page.goto(url)
        await page.evaluate((mode) => {
          localStorage.clear()
          localStorage.setItem("demo:theme", mode)
        }, theme)
        await page.goto(url)
        await page.getByRole("button", { name: "Connect wallet" }).waitFor()
        await shot(at("page"))

        await page.getByRole("button", { name: "Connect wallet" }).click()
        await dialog().getByRole("button", { name: new RegExp(WALLET_NAME) }).waitFor()
        await shot(at("connect"))
        await dialog().getByRole("button", { name: "What is a wallet?" }).click()
        await dialog().getByRole("button", { name: "Get a wallet" }).waitFor()
        await shot(at("what-is-a-wallet"))
        await dialog().getByRole("button", { name: "Get a wallet" }).click()
        await dialog().getByRole("searchbox").waitFor()
        await page.waitForLoadState("networkidle")
        await shot(at("all-wallets"))
        await close()

        await page.getByRole("button", { name: "Connect wallet" }).click()
        await dialog().getByRole("button", { name: /^WalletConnect/ }).click()
        // A narrow desktop browser is still a desktop (the platform is read from the user agent): the QR code shows.
        await dialog().getByRole("img", { name: /QR code/ }).waitFor()
        await shot(at("walletconnect-qr"))
        await close()

        wallet.setApproval("reject")
        await page.getByRole("button", { name: "Connect wallet" }).click()
        await dialog().getByRole("button", { name: new RegExp(WALLET_NAME) }).click()
        await dialog().getByText("Connection declined").waitFor()
        await shot(at("connection-declined"))
        wallet.setApproval("approve")
        await dialog().getByRole("button", { name: "Try again" }).click()
        await page.getByRole("button", { name: /Network: / }).waitFor()
        await page.waitForLoadState("networkidle")
        await shot(at("page-connected"))

        await page.getByRole("button", { name: /alice\.wallet\.test|0xf3…/ }).first().click()
        await dialog().getByRole("button", { name: "Disconnect" }).waitFor()
        await page.waitForLoadState("networkidle")
        await shot(at("account"))
        for (const name of ["NFTs", "Activity"]) {
          await dialog().getByRole("tab", { name }).click()
          await page.waitForLoadState("networkidle")
          await shot(at(`account-${name.toLowerCase()}`))
        }
        await dialog().getByRole("tab", { name: "NFTs" }).click()
        await dialog().getByRole("tabpanel").getByRole("button").first().click()
        await dialog().getByText("Token ID").waitFor()
        await page.waitForLoadState("networkidle")
        await shot(at("account-nft-detail"))
        for (const feature of ["Receive", "Send"]) {
          await dialog().getByRole("tab", { name: "Tokens" }).click()
          await dialog().getByRole("button", { name: feature, exact: true }).click()
          await dialog().getByRole("heading", { name: feature }).waitFor()
          await page.waitForLoadState("networkidle")
          await shot(at(feature.toLowerCase()))
          await dialog().getByRole("button", { name: "Back" }).click()
        }
        await close()

        await page.getByRole("button", { name: /Network: / }).click()
        await dialog().getByRole("button", { name: /Local Chain B/ }).waitFor()
        await shot(at("networks"))
        await close()

        wallet.moveToChain(10)
        await dialog().getByRole("heading", { name: "Switch network" }).waitFor()
        await page.waitForLoadState("networkidle")
        await shot(at("unsupported-chain"))
        wallet.moveToChain(31337)
        await close()
      }
    }
  })

mkdirSync(folder, { recursive: true })
await main()
