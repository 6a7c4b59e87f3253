/**
 * Sign-in with the embedded wallet's smart account in the demo (`?signIn=on`: the local services give the nonce and
 * verify the signature on anvil), before and after the account is deployed: after an email login the sign view asks,
 * the signature is approved in ApproveTransaction, and the services keep a session for the (undeployed) smart account
 * (its ERC-6492 signature); a sponsored send deploys it; after signing out, signing in again works by ERC-1271.
 */
import type { Page } from "playwright-core"
import { type Address, createPublicClient, createWalletClient, http, parseEther } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { foundry } from "viem/chains"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type OpenDemo, openDemo } from "./support/demo"
import { connectedAddress, emailLogin } from "./support/embeddedLogin"
import { serviceSessions } from "./support/siwxSessions"

let session: OpenDemo
let page: Page
let smart: Address

const dialog = () => page.getByRole("dialog")
const chainA = () => session.stack.config.evm!.chains.find((chain) => chain.chainId === 31337)!
const reader = () => createPublicClient({ chain: foundry, transport: http(chainA().rpcUrl) })
const sessionText = () => page.getByTestId("session").textContent()

/** The services' sessions of the smart account on chain 31337. */
const sessionsOf = () => serviceSessions(session.stack, session.url, `eip155:31337:${smart}`)

/** Signs the sign-in message: Sign in the sign view, then Approve in ApproveTransaction; the modal closes signed in. */
const signIn = async () => {
  await dialog().getByRole("heading", { name: "Sign in to Wallet Runtime demo" }).waitFor({ timeout: 20_000 })
  await dialog().getByRole("button", { name: "Sign", exact: true }).click()
  await dialog().getByRole("heading", { name: "Sign this message" }).waitFor({ timeout: 20_000 })
  await dialog().getByRole("button", { name: "Approve" }).click()
  await dialog().waitFor({ state: "detached", timeout: 30_000 }).catch(async (error: unknown) => {
    throw new Error(`${String(error)}\n${await dialog().innerText()}`)
  })
  await expect.poll(sessionText, { timeout: 10_000 }).toContain("Signed in.")
}

beforeAll(async () => {
  session = await openDemo({ name: "smart-account-siwx", parts: ["evm", "bundler", "solana", "mail", "services", "embedded"] })
  page = session.browser.page
}, 180_000)

afterAll(() => session?.stop())

describe("sign-in with the embedded wallet's smart account", () => {
  it("before deployment: the services verify its ERC-6492 signature and keep the session", async () => {
    await page.goto(`${session.url}?signIn=on`)
    await emailLogin(page, session.stack.mail!, "smart-siwx@example.com", true)
    await signIn()
    smart = await connectedAddress(page)
    expect(await reader().getCode({ address: smart })).toBeUndefined()
    expect(await sessionsOf()).toHaveLength(1)
  })

  it("after deployment (by a sponsored send): signing in again works by ERC-1271", async () => {
    const evm = session.stack.config.evm!
    const funder = createWalletClient({ account: privateKeyToAccount(evm.accounts[0]!.privateKey as `0x${string}`), chain: foundry, transport: http(chainA().rpcUrl) })
    await reader().waitForTransactionReceipt({ hash: await funder.sendTransaction({ to: smart, value: parseEther("1") }), timeout: 20_000 })
    await page.getByRole("button", { name: "Send", exact: true }).click()
    await dialog().getByRole("heading", { name: "Approve this transaction" }).waitFor({ timeout: 20_000 })
    await dialog().getByRole("button", { name: "Approve" }).click()
    await expect.poll(() => page.getByTestId("transaction").textContent(), { timeout: 60_000 }).toContain("confirmed in block")
    expect(await reader().getCode({ address: smart })).toMatch(/^0x[0-9a-f]{2,}/)

    await page.getByRole("button", { name: "Sign out" }).click()
    await expect.poll(sessionText, { timeout: 10_000 }).toContain("Not signed in")
    await expect.poll(sessionsOf, { timeout: 10_000 }).toEqual([])
    await page.getByRole("button", { name: "Sign in", exact: true }).click()
    await signIn()
    expect(await sessionsOf()).toHaveLength(1)
  })
})
