/**
 * `npx tsx scripts/screenshots.ts [folder] [--only=injected|embedded|connectView|farcaster|passkey|secure] [--accent=#ffe066]`: every view of the modal as a
 * visitor sees it — light and dark, desktop (1280 × 800) and phone (390 × 844) — on the production build of the demo
 * against the local stack. Five series, each on its own stack: `injected` (the injected EVM test wallet: connect,
 * account, names, sign-in), `embedded` (the email wallet: login, device link, email change, approvals of every kind)
 * `connectView` (the host's Terms box to tick, Terms linked, wallets folded beside email, the filled buttons hovered;
 * `--accent` gives the demo a host's accent there, to see the text on its filled buttons), `farcaster` (the social
 * buttons, the Farcaster QR code, the Farcaster user's account) and `passkey` (the passkey buttons, the wait
 * and the passkey window's page, a closed window, a refused ceremony) and `secure` (the embedded wallet's own views over
 * the modal: export, protect, recover; `--accent` gives the demo a host's accent there); `--only` runs one. For people to look at before calling a visible change done; nothing is compared.
 */
import { mkdirSync } from "node:fs"
import { join, resolve } from "node:path"
import { createSolanaRpc, address as solanaAddress, lamports } from "@solana/kit"
import type { Page } from "playwright-core"
import { createWalletClient, http, parseEther } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { foundry } from "viem/chains"
import type { MailInfo } from "../devstack/mail"
import { truncateAddress } from "../src/domain/format"
import { animationsSettled, launchBrowser } from "../test/e2e/support/browser"
import { withDemo } from "../test/e2e/support/demo"
import { accountButton, connectedAddress, emailLogin, waitForMail } from "../test/e2e/support/embeddedLogin"
import { installInjectedWallet } from "../test/e2e/support/injectedWallet"
import { pressPasskey } from "../test/e2e/support/virtualAuthenticator"

const args = process.argv.slice(2)
const folder = resolve(args.find((arg) => !arg.startsWith("--")) ?? "screenshots")
const only = args.find((arg) => arg.startsWith("--only="))?.slice("--only=".length)
// The host's accent for the connectView and secure series (the demo's `?accent=`), to see the modal's filled buttons
// and the frame's views take it.
const accent = args.find((arg) => arg.startsWith("--accent="))?.slice("--accent=".length)
/** The demo's address with `query` and the host's accent asked on the command line, if any. */
const withAccent = (url: string, query = ""): string => {
  if (accent === undefined) return `${url}${query}`
  return `${url}${query === "" ? "?" : `${query}&`}accent=${encodeURIComponent(accent)}`
}
const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const
const THEMES = ["light", "dark"] as const
const WALLET_NAME = "Wallet Runtime Test Wallet"

/** The page at rest, saved as `{name}.png`. */
const shoot = async (page: Page, name: string) => {
  await animationsSettled(page)
  await page.screenshot({ path: join(folder, `${name}.png`) })
  console.log(`saved ${name}.png`)
}

const injected = () =>
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
    const shot = (name: string) => shoot(page, name)
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
        // Swap with a quote (ETH for WUSD on the local Uniswap v2), and Buy with the local on-ramp's quote.
        await dialog().getByRole("button", { name: "Swap", exact: true }).click()
        await dialog().getByLabel("You sell").fill("0.05")
        await dialog().locator('dl[aria-label="Quote"]').waitFor()
        await page.waitForLoadState("networkidle")
        await shot(at("swap"))
        await dialog().getByRole("button", { name: /^Token to receive: / }).click()
        await dialog().getByRole("searchbox", { name: "Search tokens" }).fill("usd")
        await shot(at("swap-token-picker"))
        await dialog().getByRole("button", { name: "Back" }).click()
        await dialog().getByRole("button", { name: "Buy", exact: true }).click()
        await dialog().getByLabel("Amount", { exact: true }).fill("50")
        await dialog().locator('dl[aria-label="Quote"]').waitFor()
        await page.waitForLoadState("networkidle")
        await shot(at("buy"))
        await dialog().getByRole("button", { name: "Back" }).click()
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

        // Sign-in required: the sign view offers no Close (the modal stays until signed in or disconnected).
        await page.goto(`${url}?signIn=required`)
        await dialog().getByRole("heading", { name: "Sign in to Wallet Runtime demo" }).waitFor()
        await shot(at("siwx-required"))
        // Sign-in with the wallet: the demo with sign-in on restores the wallet and asks the account to sign.
        await page.goto(`${url}?signIn=on`)
        await dialog().getByRole("heading", { name: "Sign in to Wallet Runtime demo" }).waitFor()
        await shot(at("siwx-sign"))
        approval = "reject"
        await dialog().getByRole("button", { name: "Sign", exact: true }).click()
        await dialog().getByRole("alert").waitFor()
        await shot(at("siwx-declined"))
        approval = "approve"
        let answer = () => {}
        signing = new Promise<void>((resolve) => (answer = resolve))
        await dialog().getByRole("button", { name: "Try again" }).click()
        await dialog().getByText("Authenticating...").waitFor()
        await shot(at("siwx-authenticating"))
        answer()
        signing = undefined
        await dialog().waitFor({ state: "detached" })
        await page.getByTestId("session").getByText("Signed in.", { exact: false }).waitFor()
        await shot(at("siwx-signed-in"))
      }
    }
  })

/** The newest code mailed to `to` since `after` (epoch ms), waiting up to 15 s for it. */
const codeFor = async (mail: MailInfo, to: string, after: number): Promise<string> => {
  for (let waited = 0; waited < 15_000; waited += 100) {
    const code = mail.messages(to).find((m) => m.receivedAt >= after && m.codes.length > 0)?.codes[0]
    if (code !== undefined) return code
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`no code mailed to ${to}`)
}

/** A wallet request the demo's "Send a wallet request" card can send: typed data as a dapp would ask for it. */
const typedData = (from: string) =>
  JSON.stringify([
    from,
    JSON.stringify({
      types: {
        EIP712Domain: [
          { name: "name", type: "string" },
          { name: "version", type: "string" },
          { name: "chainId", type: "uint256" }
        ],
        Order: [
          { name: "maker", type: "address" },
          { name: "taker", type: "address" },
          { name: "amount", type: "uint256" },
          { name: "expiry", type: "uint256" },
          { name: "note", type: "string" }
        ]
      },
      primaryType: "Order",
      domain: { name: "Wallet Runtime demo exchange", version: "1", chainId: 31337 },
      message: {
        maker: from,
        taker: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8",
        amount: "1500000000000000000",
        expiry: "1893456000",
        note: "First order of the day"
      }
    })
  ])

/**
 * The embedded (email) wallet, without any other wallet in the browser: the Connect view's email field, its error,
 * the code (countdown running) and a wrong one, the Account view with the email, the email change in two codes, an
 * approval of each kind (message, transaction, typed data, Solana transfer; each rejected after its shot), and a
 * second browser with the injected wallet (wallets first) where the known email meets a new device (the mailed link).
 */
const embedded = () =>
  withDemo(["evm", "solana", "mail", "services", "embedded"], async ({ stack, url, browser }) => {
    const { evm, solana } = stack.config
    const mail = stack.mail
    if (evm === null || solana === null || mail === undefined) throw new Error("no EVM, Solana or mail part")
    const chainA = evm.chains.find((c) => c.chainId === 31337)
    const funder = evm.accounts[0]
    if (chainA === undefined || funder === undefined) throw new Error("no Local Chain A or dev account 0")
    const fund = createWalletClient({ account: privateKeyToAccount(funder.privateKey as `0x${string}`), chain: foundry, transport: http(chainA.rpcUrl) })
    // The other device: a second Chromium, with the injected wallet, so its Connect view lists wallets first.
    const other = await launchBrowser()
    try {
      await installInjectedWallet(other.context, {
        privateKeys: [funder.privateKey as `0x${string}`],
        chains: [{ chainId: 31337, name: "Local Chain A", rpcUrl: chainA.rpcUrl }],
        chainId: 31337,
        approve: () => "approve"
      })
      const page = browser.page
      const dialog = (on: Page = page) => on.getByRole("dialog")
      const networkButton = () => page.getByRole("button", { name: /^Network: / })
      const codeField = () => dialog().getByRole("textbox", { name: /code/i })
      const open = async (on: Page, theme: string) => {
        await on.goto(url)
        await on.evaluate((mode) => {
          localStorage.clear()
          localStorage.setItem("demo:theme", mode)
        }, theme)
        await on.goto(url)
        await on.getByRole("button", { name: "Connect wallet" }).click()
      }
      const reject = async () => {
        await dialog().getByRole("button", { name: "Reject" }).click()
        await dialog().waitFor({ state: "detached" })
      }

      for (const theme of THEMES) {
        for (const [size, viewport] of Object.entries(SIZES)) {
          const at = (view: string) => `${view}-${theme}-${size}`
          const email = `ada.lovelace.${theme}.${size}@example.com`
          const newEmail = `countess.of.lovelace.${theme}.${size}@analytical-engine.example.com`
          await page.setViewportSize(viewport)
          await open(page, theme)
          const emailField = dialog().getByRole("textbox", { name: "Continue with email" })
          await emailField.waitFor()
          await shoot(page, at("connect-email"))
          await emailField.fill("ada@example..com")
          await emailField.press("Enter")
          await dialog().getByText("Enter a valid email address").waitFor()
          await shoot(page, at("connect-email-invalid"))

          let sent = Date.now()
          await emailField.fill(email)
          await emailField.press("Enter")
          await dialog().getByText(/Resend in \d+ s/).waitFor()
          await shoot(page, at("email-verify-otp"))
          const code = await codeFor(mail, email, sent)
          await codeField().fill(code === "000000" ? "111111" : "000000")
          await dialog().getByText(/The code is not right/).waitFor()
          // A wrong code shakes the modal: the shot is of the modal at rest.
          await page.locator("[data-shake]").waitFor({ state: "detached" })
          await shoot(page, at("email-verify-otp-wrong"))
          await codeField().fill(code)
          await dialog().waitFor({ state: "detached", timeout: 20_000 })
          const hint = page.getByText(/^From 0x[0-9a-fA-F]{40} on /)
          await hint.waitFor()
          const evmAddress = /0x[0-9a-fA-F]{40}/.exec((await hint.textContent()) ?? "")?.[0] ?? ""

          // Its short address names the account button (4…6 wide, 4…4 on a phone).
          const accountButton = page.getByRole("button", { name: new RegExp(`${evmAddress.slice(0, 4)}…`) })
          await accountButton.click()
          await dialog().getByRole("button", { name: "Update email" }).waitFor()
          await page.waitForLoadState("networkidle")
          await shoot(page, at("account-email"))
          await dialog().getByRole("button", { name: "Update email" }).click()
          const newField = dialog().getByRole("textbox", { name: "New email" })
          await newField.waitFor()
          await shoot(page, at("update-email"))
          sent = Date.now()
          await newField.fill(newEmail)
          await newField.press("Enter")
          await dialog().getByText(email).waitFor()
          await codeField().waitFor()
          await shoot(page, at("update-email-primary-otp"))
          await codeField().fill(await codeFor(mail, email, sent))
          await dialog().getByText(newEmail).waitFor()
          await shoot(page, at("update-email-secondary-otp"))
          await codeField().fill(await codeFor(mail, newEmail, sent))
          await dialog().getByRole("button", { name: "Update email" }).waitFor({ timeout: 20_000 })
          await page.keyboard.press("Escape")
          await dialog().waitFor({ state: "detached" })

          await page.getByRole("textbox", { name: "Message" }).fill("Sign in to the Wallet Runtime demo\n\nNonce: 8c1f0e6a9b2d4c7e8f1a3b5c7d9e0f2a4b6c8d0e1f3a5b7c9d1e3f5a7b9c1d3e5f")
          await page.getByRole("button", { name: "Sign message" }).click()
          await dialog().getByRole("heading", { name: "Sign this message" }).waitFor()
          await shoot(page, at("approve-message"))
          await reject()

          await fund.sendTransaction({ to: evmAddress as `0x${string}`, value: parseEther("1") })
          await page.getByRole("button", { name: "Send", exact: true }).click()
          await dialog().getByRole("heading", { name: "Approve this transaction" }).waitFor()
          await shoot(page, at("approve-transaction"))
          await reject()

          await page.getByRole("textbox", { name: "Method" }).fill("eth_signTypedData_v4")
          await page.getByRole("textbox", { name: "Params (JSON)" }).fill(typedData(evmAddress))
          await page.getByRole("button", { name: "Send request" }).click()
          await dialog().getByRole("heading", { name: "Sign this data" }).waitFor()
          await shoot(page, at("approve-typed-data"))
          await reject()

          await networkButton().click()
          await dialog().getByRole("button", { name: /Local Solana/ }).click()
          await dialog().waitFor({ state: "detached" })
          const solanaHint = page.getByText(/^From [1-9A-HJ-NP-Za-km-z]{32,44} on /)
          await solanaHint.waitFor({ timeout: 20_000 })
          const solAddress = /From ([1-9A-HJ-NP-Za-km-z]{32,44}) on/.exec((await solanaHint.textContent()) ?? "")?.[1] ?? ""
          await createSolanaRpc(solana.rpcUrl).requestAirdrop(solanaAddress(solAddress), lamports(2_000_000_000n)).send()
          await page.getByRole("textbox", { name: "To" }).fill(solana.funded[1]?.address ?? "")
          await page.getByRole("textbox", { name: /Amount/ }).fill("0.5")
          await page.getByRole("button", { name: "Send", exact: true }).click()
          await dialog().getByRole("heading", { name: "Approve this Solana transfer" }).waitFor()
          await shoot(page, at("approve-solana-transfer"))
          await reject()
          await networkButton().click()
          await dialog().getByRole("button", { name: /Local Chain A/ }).click()
          await dialog().waitFor({ state: "detached" })

          // A new device for the (changed) email: its login mails a link, not a code. The login's 30 s between mails
          // do not hold it back, as this email has had no login mail yet.
          await other.page.setViewportSize(viewport)
          await open(other.page, theme)
          const otherField = dialog(other.page).getByRole("textbox", { name: "Continue with email" })
          await dialog(other.page).getByRole("button", { name: new RegExp(WALLET_NAME) }).waitFor()
          await otherField.waitFor()
          await shoot(other.page, at("connect-email-with-wallet"))
          await otherField.fill(newEmail)
          await otherField.press("Enter")
          await dialog(other.page).getByText("Waiting for the link to be opened…").waitFor()
          await shoot(other.page, at("email-verify-device"))
          await other.page.keyboard.press("Escape")

          await accountButton.click()
          await dialog().getByRole("button", { name: "Disconnect" }).click()
          await page.getByRole("button", { name: "Connect wallet" }).waitFor()
        }
      }
    } finally {
      await other.close()
    }
  })

const connectView = () =>
  withDemo(["evm", "mail", "services", "embedded"], async ({ stack, url, browser }) => {
    const evm = stack.config.evm
    if (evm === null) throw new Error("no EVM part")
    await installInjectedWallet(browser.context, {
      privateKeys: [evm.accounts[0]!.privateKey as `0x${string}`],
      chains: [{ chainId: 31337, name: "Local Chain A", rpcUrl: evm.chains.find((c) => c.chainId === 31337)?.rpcUrl ?? "" }],
      chainId: 31337,
      approve: () => "approve"
    })
    const page = browser.page
    const dialog = () => page.getByRole("dialog")
    const open = async (query: string, theme: string) => {
      await page.goto(withAccent(url, query))
      await page.evaluate((mode) => {
        localStorage.clear()
        localStorage.setItem("demo:theme", mode)
      }, theme)
      await page.goto(withAccent(url, query))
      await page.getByRole("button", { name: "Connect wallet" }).click()
      await dialog().getByRole("textbox", { name: "Continue with email" }).waitFor()
    }
    for (const theme of THEMES) {
      for (const [size, viewport] of Object.entries(SIZES)) {
        const at = (view: string) => `${view}-${theme}-${size}`
        await page.setViewportSize(viewport)
        await open("?terms=agree&wallets=folded", theme)
        await shoot(page, at("connect-terms-to-agree"))
        await dialog().getByRole("checkbox", { name: /I agree/ }).check()
        await dialog().getByRole("button", { name: "Continue with a wallet" }).click()
        await dialog().getByRole("button", { name: new RegExp(WALLET_NAME) }).waitFor()
        await page.waitForLoadState("networkidle")
        await shoot(page, at("connect-agreed-unfolded"))
        await open("?terms=notice", theme)
        await page.waitForLoadState("networkidle")
        await shoot(page, at("connect-terms-notice"))
        // The accent's fills hovered: the modal's Continue, then the page's Connect wallet with the page's own buttons.
        await dialog().getByRole("textbox", { name: "Continue with email" }).fill("visitor@example.com")
        await dialog().getByRole("button", { name: "Continue", exact: true }).hover()
        await shoot(page, at("connect-continue-hovered"))
        await page.keyboard.press("Escape")
        await dialog().waitFor({ state: "hidden" })
        await page.getByRole("button", { name: "Connect wallet" }).hover()
        await shoot(page, at("page-connect-hovered"))
        // The page's own Swap and Buy, disabled until a wallet is connected.
        await page.getByRole("region", { name: "Swap and buy" }).evaluate((card) => card.scrollIntoView({ block: "center" }))
        await shoot(page, at("page-swap-buy-disconnected"))
      }
    }
  })

/**
 * Farcaster (Sign In With Farcaster) on the embedded wallet: the Connect view with the social buttons, the
 * ConnectingFarcaster view's QR code, and the Account view of the Farcaster user once the stack's test client signed
 * the link with a test user's custody key.
 */
const farcaster = () =>
  withDemo(["evm", "mail", "services", "embedded"], async ({ url, browser }) => {
    const page = browser.page
    const dialog = () => page.getByRole("dialog")
    const { FARCASTER_TEST_USERS, postToRelay, readChannelLink, signChannel } = await import("../devstack/farcaster/index")
    const user = FARCASTER_TEST_USERS[0]
    if (user === undefined) throw new Error("no Farcaster test user")
    for (const theme of THEMES) {
      for (const [size, viewport] of Object.entries(SIZES)) {
        const at = (view: string) => `${view}-${theme}-${size}`
        await page.setViewportSize(viewport)
        await page.goto(url)
        await page.evaluate((mode) => {
          localStorage.clear()
          localStorage.setItem("demo:theme", mode)
        }, theme)
        await page.goto(url)
        await page.getByRole("button", { name: "Connect wallet" }).click()
        await dialog().getByRole("button", { name: "Continue with Farcaster" }).waitFor()
        await page.waitForLoadState("networkidle")
        await shoot(page, at("connect-socials"))
        await dialog().getByRole("button", { name: "Continue with Farcaster" }).click()
        const link = dialog().getByRole("link", { name: "Open Farcaster" })
        await link.waitFor({ timeout: 60_000 })
        await shoot(page, at("farcaster-qr"))
        const request = readChannelLink((await link.getAttribute("href")) ?? "")
        if (request === undefined) throw new Error("the view's link is not a channel link")
        const frameUrl = new URL(page.frames().find((frame) => frame.url().includes("/frame"))?.url() ?? url).origin
        await postToRelay(frameUrl, { channelToken: request.channelToken, ...(await signChannel(request, user.fid, user.custodyKey)), fid: user.fid, username: user.username })
        await dialog().waitFor({ state: "hidden", timeout: 40_000 })
        const hint = page.getByText(/^From 0x[0-9a-fA-F]{40} on /)
        await hint.waitFor({ timeout: 20_000 })
        // The phone's header shows the account button without its address: the Account view is shot on the desktop.
        if (size === "desktop") {
          const address = /0x[0-9a-fA-F]{40}/.exec((await hint.textContent()) ?? "")?.[0] ?? ""
          await page.getByRole("button", { name: new RegExp(truncateAddress(address).replace(/[.]/g, "\\.")) }).click()
          await dialog().getByText(user.username, { exact: true }).waitFor()
          await shoot(page, at("account-farcaster"))
          await dialog().getByRole("button", { name: "Disconnect" }).click()
          await page.getByRole("button", { name: "Connect wallet" }).waitFor()
        } else {
          await page.evaluate(() => localStorage.clear())
        }
      }
    }
  })

/**
 * Passkey login on the embedded wallet: the Connect view with the passkey buttons, the wait while the passkey window
 * is open and that window's own page (its authenticator never touched, so it stays on its prompt's words), the words
 * once the window is closed, and those of a refused ceremony (user verification fails).
 */
const passkey = () =>
  withDemo(["evm", "mail", "services", "embedded"], async ({ url, browser }) => {
    const page = browser.page
    const dialog = () => page.getByRole("dialog")
    const create = () => dialog().getByRole("button", { name: "Create a passkey" })
    for (const theme of THEMES) {
      for (const [size, viewport] of Object.entries(SIZES)) {
        const at = (view: string) => `${view}-${theme}-${size}`
        await page.setViewportSize(viewport)
        await page.goto(url)
        await page.evaluate((mode) => {
          localStorage.clear()
          localStorage.setItem("demo:theme", mode)
        }, theme)
        await page.goto(url)
        await page.getByRole("button", { name: "Connect wallet" }).click()
        await dialog().getByRole("button", { name: "Continue with a passkey" }).waitFor()
        await page.waitForLoadState("networkidle")
        await shoot(page, at("connect-passkey"))
        const { popup } = await pressPasskey(page, create(), { presence: false })
        await popup.setViewportSize(viewport)
        await popup.getByText("Follow your browser to create a passkey for your wallet.").waitFor({ timeout: 30_000 })
        await shoot(popup, at("passkey-page"))
        await shoot(page, at("passkey-waiting"))
        // Closed during the prompt: the page's request is aborted (said as cancelled) or the window is seen closed.
        await popup.close()
        await dialog().getByRole("alert").waitFor({ timeout: 10_000 })
        await shoot(page, at("passkey-closed"))
        await pressPasskey(page, create(), { userVerified: false })
        await dialog().getByText("The passkey request was cancelled.", { exact: false }).waitFor({ timeout: 30_000 })
        await shoot(page, at("passkey-cancelled"))
      }
    }
  })

/**
 * The embedded wallet's own views, shown by its frame over the modal: Export private key from the Account view of an
 * email wallet, with its confirmation step (the mailed code, a wrong one); Protect your wallet and Recover your wallet
 * as the frame draws them. Until the frame makes keys at
 * login (branch framesign) no account offers those two, so the script asks the frame for them as the modal's bridge
 * does (the page is the frame's parent at its allowed origin) and places the frame over the modal as the SecureFrame
 * view does.
 */
const secure = () =>
  withDemo(["evm", "mail", "services", "embedded"], async ({ url, browser, stack }) => {
    const page = browser.page
    const dialog = () => page.getByRole("dialog")
    const mail = stack.mail
    if (mail === undefined) throw new Error("no mail part")
    const frameUrl = stack.config.embedded?.frameUrl ?? ""
    const walletFrame = () => page.frames().find((f) => f.url().startsWith(`${frameUrl}/frame?`))
    await page.goto(withAccent(url))
    await emailLogin(page, mail, "screens@example.com")
    const address = await connectedAddress(page)
    for (const theme of THEMES) {
      for (const [size, viewport] of Object.entries(SIZES)) {
        const at = (view: string) => `${view}-${theme}-${size}`
        await page.emulateMedia({ colorScheme: theme })
        // The header's account button is named by the address at desktop width: opened there, then the page narrowed.
        await page.setViewportSize(SIZES.desktop)
        await accountButton(page, address).click()
        await page.setViewportSize(viewport)
        await dialog().getByRole("button", { name: "Export private key" }).waitFor()
        await shoot(page, at("account-embedded"))
        await dialog().getByRole("button", { name: "Export private key" }).click()
        await walletFrame()?.getByRole("heading", { name: "Export private key" }).waitFor({ timeout: 15_000 })
        await shoot(page, at("secure-export"))
        // Its confirmation step: the code mailed for it (asked again within the mail's cool-down, the same code and
        // the wait left), then a wrong code's tries left (or, that code used for an earlier shot, the server's words).
        // The earlier shot's key used its code: while its cool-down holds, the view says so, and the code is asked anew.
        const show = walletFrame()?.getByRole("button", { name: /^Show EVM (and Solana )?private keys?$/ })
        const both = ((await show?.textContent()) ?? "").includes("Solana")
        await show?.click()
        const frame = walletFrame()
        if (frame === undefined) throw new Error("the wallet's frame is not in the page")
        const usedCode = frame.getByText("a moment ago was used already", { exact: false })
        const codeField = frame.getByRole("textbox", { name: "Code from your email" })
        await usedCode.or(codeField).waitFor({ timeout: 15_000 })
        if (await usedCode.isVisible()) {
          await shoot(page, at("secure-export-code-used"))
          await walletFrame()?.getByRole("button", { name: "Send a new code", exact: true }).waitFor({ timeout: 35_000 })
          await walletFrame()?.getByRole("button", { name: "Send a new code", exact: true }).click()
        }
        await codeField.waitFor({ timeout: 15_000 })
        await shoot(page, at("secure-export-code"))
        await walletFrame()?.getByRole("textbox", { name: "Code from your email" }).fill("000000")
        await walletFrame()?.getByRole("button", { name: "Confirm" }).click()
        await walletFrame()?.locator("#wr-secure-error:not(:empty)").waitFor({ timeout: 10_000 })
        await shoot(page, at("secure-export-code-wrong"))
        // Then the key, with a code of its own: a new one asked once the mail's cool-down is over.
        await walletFrame()?.getByRole("button", { name: "Send a new code", exact: true }).waitFor({ timeout: 35_000 })
        const resent = Date.now()
        await walletFrame()?.getByRole("button", { name: "Send a new code", exact: true }).click()
        const code = (await waitForMail(mail, "screens@example.com", resent, (m) => m.text.includes("private key"))).codes[0] ?? ""
        await walletFrame()?.getByRole("textbox", { name: "Code from your email" }).fill(code)
        await walletFrame()?.getByRole("button", { name: "Confirm" }).click()
        await walletFrame()?.getByRole("textbox", { name: "Your EVM private key" }).waitFor({ timeout: 15_000 })
        // Both keys when both were asked: the Solana one comes after the EVM one.
        if (both) await walletFrame()?.getByRole("textbox", { name: "Your Solana private key" }).waitFor({ timeout: 15_000 })
        await shoot(page, at("secure-export-key"))
        // Escape in the frame ends its view: the Account view again, the frame hidden.
        await page.keyboard.press("Escape")
        await dialog().getByRole("button", { name: "Export private key" }).waitFor()
        // Protect as a visitor opens it, from the Account view: the frame over the modal's room.
        await dialog().getByRole("button", { name: "Protect your wallet" }).click()
        await walletFrame()?.getByRole("heading", { name: "Protect your wallet" }).waitFor({ timeout: 15_000 })
        await shoot(page, at("secure-protect"))
        await walletFrame()?.getByLabel("New password").fill("short")
        await walletFrame()?.getByRole("button", { name: "Protect wallet" }).click()
        await walletFrame()?.getByText("Use at least 10 characters.").waitFor()
        await shoot(page, at("secure-protect-too-short"))
        await walletFrame()?.getByLabel("New password").fill("a long enough password")
        await walletFrame()?.getByLabel("Confirm the password").fill("another long password")
        await walletFrame()?.getByRole("button", { name: "Protect wallet" }).click()
        await walletFrame()?.getByText("The two passwords are not the same.").waitFor()
        await shoot(page, at("secure-protect-mismatch"))
        await walletFrame()?.getByRole("button", { name: "Cancel" }).click()
        await dialog().getByRole("button", { name: "Export private key" }).waitFor()
        // Recover opens by itself only on a device without the wallet's share: asked of the frame here.
        await page.evaluate(
          ({ theme, frameUrl }) => {
            const iframe = [...document.querySelectorAll("iframe")].find((f) => f.src.startsWith(frameUrl))
            iframe?.contentWindow?.postMessage({ id: "shot-recover", type: "@wr-app/OPEN_SECURE_VIEW", payload: { kind: "recover", themeMode: theme } }, new URL(frameUrl).origin)
            // Over the modal's body, below its header, inside the body's padding, as the SecureFrame view's room is.
            const header = document.querySelector("[role=dialog] h2")?.getBoundingClientRect()
            const box = document.querySelector("[role=dialog]")?.getBoundingClientRect()
            if (iframe === undefined || box === undefined || header === undefined) return
            iframe.removeAttribute("inert")
            const top = header.bottom + 16
            for (const [name, value] of Object.entries({ top: `${top}px`, left: `${box.left + 16}px`, width: `${box.width - 32}px`, height: "416px", visibility: "visible" })) {
              iframe.style.setProperty(name, value)
            }
          },
          { theme, frameUrl }
        )
        await walletFrame()?.getByRole("heading", { name: "Recover your wallet" }).waitFor({ timeout: 15_000 })
        await shoot(page, at("secure-recover"))
        // The frame drops the view and is hidden again, as the modal's bridge and SecureFrame view would leave it.
        await page.evaluate((frameUrl) => {
          const iframe = [...document.querySelectorAll("iframe")].find((f) => f.src.startsWith(frameUrl))
          iframe?.contentWindow?.postMessage({ id: "shot-close", type: "@wr-app/CLOSE_SECURE_VIEW" }, new URL(frameUrl).origin)
          iframe?.style.setProperty("visibility", "hidden")
          iframe?.style.setProperty("width", "0")
          iframe?.style.setProperty("height", "0")
        }, frameUrl)
        await dialog().focus()
        await page.keyboard.press("Escape")
        await dialog().waitFor({ state: "hidden" })
      }
    }
  })

const SERIES = { injected, embedded, connectView, farcaster, passkey, secure } as const

if (only !== undefined && !(only in SERIES)) throw new Error(`--only is one of ${Object.keys(SERIES).join(", ")}`)
mkdirSync(folder, { recursive: true })
for (const [name, series] of Object.entries(SERIES)) if (only === undefined || only === name) await series()
