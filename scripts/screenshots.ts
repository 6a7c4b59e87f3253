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
    // Prompts are approved unless a shot wants a refusal; a name's signature waits while its "signing" shot is taken.
    let approval: "approve" | "reject" = "approve"
    let signing: Promise<void> | undefined
    // Account 0 is alice; the accounts after the seed names (dev accounts 4 to 7) have none, one per shot series,
    // as each registers a name.
    const nameless = evm.accounts.slice(4, 4 + THEMES.length * Object.keys(SIZES).length)
    const wallet = await installInjectedWallet(browser.context, {
      privateKeys: [evm.accounts[0], ...nameless].flatMap((account) => (account === undefined ? [] : [account.privateKey as `0x${string}`])),
      chains: [{ chainId: 31337, name: "Local Chain A", rpcUrl: evm.chains.find((c) => c.chainId === 31337)?.rpcUrl ?? "" }],
      chainId: 31337,
      approve: async (method) => {
        if (method === "personal_sign" && signing !== undefined) await signing
        return approval
      }
    })
    let series = 0
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

        approval = "reject"
        await page.getByRole("button", { name: "Connect wallet" }).click()
        await dialog().getByRole("button", { name: new RegExp(WALLET_NAME) }).click()
        await dialog().getByText("Connection declined").waitFor()
        await shot(at("connection-declined"))
        approval = "approve"
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

        // Account names, for an account without one.
        series += 1
        const named = nameless[series - 1]
        if (named === undefined) throw new Error("not enough dev accounts for the names shots")
        wallet.selectAccount(series)
        // Its short address (4…6 wide, 4…4 on a phone) names the account button while it has no name.
        const accountButton = page.getByRole("button", { name: new RegExp(`${named.address.slice(0, 4)}…`) })
        await accountButton.click()
        await dialog().getByRole("button", { name: "Choose a name" }).waitFor()
        await page.waitForLoadState("networkidle")
        await shot(at("account-nameless"))
        await dialog().getByRole("button", { name: "Choose a name" }).click()
        const nameField = dialog().getByLabel("Name", { exact: true })
        const words = dialog().locator("p[role=status]")
        await nameField.waitFor()
        await shot(at("register-name"))
        await nameField.fill("alice")
        await dialog().getByRole("list", { name: "Suggestions" }).waitFor()
        await words.getByText("alice.wallet.test is taken").waitFor()
        await shot(at("register-name-taken"))
        await nameField.fill("al_ice")
        await words.getByText("A name has only letters, digits and hyphens").waitFor()
        await shot(at("register-name-invalid"))
        const label = `visitor${series}-${Date.now().toString(36)}`
        await nameField.fill(label)
        await words.getByText(`${label}.wallet.test is available`).waitFor()
        await shot(at("register-name-available"))
        let sign = () => {}
        signing = new Promise<void>((resolve) => (sign = resolve))
        await dialog().getByRole("button", { name: "Register" }).click()
        await dialog().getByRole("heading", { name: "Confirm in your wallet" }).waitFor()
        await shot(at("register-name-signing"))
        sign()
        signing = undefined
        await dialog().getByRole("heading", { name: "Name registered" }).waitFor()
        await shot(at("register-name-success"))
        await dialog().getByRole("button", { name: "Done" }).click()
        await dialog().getByRole("heading", { name: `${label}.wallet.test` }).waitFor()
        await page.waitForLoadState("networkidle")
        await shot(at("account-named"))
        await close()
        wallet.selectAccount(0)

        // Sign-in with the wallet: the demo with sign-in on restores the wallet and asks the account to sign.
        await page.goto(`${url}?signIn=on`)
        await dialog().getByRole("heading", { name: "Sign in to Wallet Runtime demo" }).waitFor()
        await shot(at("siwx-sign"))
        approval = "reject"
        await dialog().getByRole("button", { name: "Sign", exact: true }).click()
        await dialog().getByRole("alert").waitFor()
        await shot(at("siwx-declined"))
        approval = "approve"
        await dialog().getByRole("button", { name: "Try again" }).click()
        await dialog().waitFor({ state: "detached" })
        await page.getByTestId("session").getByText("Signed in.", { exact: false }).waitFor()
        await shot(at("siwx-signed-in"))
      }
    }
  })

mkdirSync(folder, { recursive: true })
await main()
