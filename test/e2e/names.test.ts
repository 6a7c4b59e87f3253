/**
 * Account names on the local stack: Chromium against the built demo, the injected test wallet holding a dev account
 * without a name, the services' names endpoints over their database. The visitor opens the account, chooses a name,
 * meets a taken one (alice) and an invalid one with their messages, registers a free one (the wallet signs the name
 * message, the service checks the signature on the chain) and the account shows it at once; axe on both views.
 */
import AxeBuilder from "@axe-core/playwright"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type OpenDemo, openDemo } from "./support/demo"
import { installInjectedWallet } from "./support/injectedWallet"

let session: OpenDemo
let page: Page

const dialog = () => page.getByRole("dialog")
const nameField = () => dialog().getByLabel("Name", { exact: true })
/** The polite words under the name field. */
const nameWords = () => dialog().locator("p[role=status]")

const axeViolations = async () => {
  const result = await new AxeBuilder({ page }).include("[role=dialog]").analyze()
  return result.violations.map((v) => `${v.id}: ${v.help} — ${v.nodes.map((n) => n.target.join(" ")).join("; ")}`)
}

// A name no earlier run of this file can have taken, even on a kept database; long and without a hyphen, so that
// nothing but the views' own wrapping keeps it inside the dialog.
const label = `visitor${Date.now().toString(36)}withalongname`

beforeAll(async () => {
  session = await openDemo({ name: "names" })
  const evm = session.stack.config.evm
  if (evm === null) throw new Error("the demo stack has no EVM part")
  // Dev accounts 0 to 3 are alice, bob, carol and dave: the sixth has no name.
  const account = evm.accounts[5]
  if (account === undefined) throw new Error("the stack has fewer than six dev accounts")
  await installInjectedWallet(session.browser.context, {
    privateKeys: [account.privateKey as `0x${string}`],
    chains: evm.chains.map((chain) => ({ chainId: chain.chainId, name: `Local ${chain.chainId}`, rpcUrl: chain.rpcUrl })),
    chainId: 31337,
    approve: () => "approve"
  })
  page = session.browser.page
  await page.goto(session.url)
  await page.getByRole("button", { name: "Connect wallet" }).click()
  await dialog().getByRole("button", { name: /Wallet Runtime Test Wallet/ }).click()
  // Connected, the modal closes; the account button shows the truncated address (4…6), as the account has no name.
  const accountButton = page.getByRole("button", { name: new RegExp(`${account.address.slice(0, 4)}…${account.address.slice(-6)}`) })
  await accountButton.waitFor()
  await accountButton.click()
  await dialog().getByRole("button", { name: "Choose a name" }).waitFor()
}, 120_000)

afterAll(() => session?.stop())

describe("account names on the local stack", () => {
  it("a taken name and an invalid one each get their message; Register waits for a free name", async () => {
    await dialog().getByRole("button", { name: "Choose a name" }).click()
    await nameField().waitFor()
    expect(await dialog().getByText(".wallet.test", { exact: true }).count()).toBe(1)
    const register = dialog().getByRole("button", { name: "Register" })
    await nameField().pressSequentially("alice")
    await expect.poll(() => nameWords().textContent(), { timeout: 5_000 }).toBe("alice.wallet.test is taken")
    expect(await register.isDisabled()).toBe(true)
    // The service's free names like it, as buttons.
    await expect.poll(() => dialog().getByRole("list", { name: "Suggestions" }).getByRole("button").count()).toBeGreaterThan(0)
    expect(await axeViolations()).toEqual([])

    await nameField().fill("al_ice")
    await expect.poll(() => nameWords().textContent()).toBe("A name has only letters, digits and hyphens")
    await nameField().fill("abc")
    await expect.poll(() => nameWords().textContent()).toBe("A name has at least 4 characters")
    expect(await nameField().getAttribute("aria-invalid")).toBe("true")
    expect(await register.isDisabled()).toBe(true)
  })

  it("a free name: the wallet signs, the service registers it, and the account and its button show it at once", async () => {
    await nameField().fill(label)
    await expect.poll(() => nameWords().textContent(), { timeout: 5_000 }).toBe(`${label}.wallet.test is available`)
    // By keyboard: Enter in the field registers.
    await nameField().press("Enter")
    await expect.poll(() => dialog().getAttribute("data-view")).toBe("RegisterAccountNameSuccess")
    await dialog().getByRole("heading", { name: "Name registered" }).waitFor({ timeout: 15_000 })
    expect(await dialog().getByText(`${label}.wallet.test`).count()).toBe(1)
    expect(await axeViolations()).toEqual([])
    await dialog().getByRole("button", { name: "Done" }).click()
    await expect.poll(() => dialog().getAttribute("data-view")).toBe("Account")
    const heading = dialog().getByRole("heading", { name: `${label}.wallet.test` })
    await heading.waitFor({ timeout: 5_000 })
    // The long name wraps inside the dialog: nothing of it past the dialog's edge.
    expect(
      await heading.evaluate((element) => {
        const dialog = element.closest("[role=dialog]")!.getBoundingClientRect()
        const box = element.getBoundingClientRect()
        return { overflow: element.scrollWidth > element.clientWidth + 1, outside: box.left < dialog.left || box.right > dialog.right }
      })
    ).toEqual({ overflow: false, outside: false })
    expect(await dialog().getByRole("button", { name: "Choose a name" }).count()).toBe(0)
    await page.keyboard.press("Escape")
    await dialog().waitFor({ state: "detached" })
    await page.getByRole("button", { name: new RegExp(`${label}\\.wallet\\.test`) }).waitFor({ timeout: 5_000 })
  })

  it("the name is the service's: a fresh page shows it without any registering", async () => {
    await page.reload()
    await page.getByRole("button", { name: new RegExp(`${label}\\.wallet\\.test`) }).waitFor({ timeout: 20_000 })
    const services = session.stack.config.services?.url ?? ""
    const record = (await (await fetch(`${services}/v1/profile/account/${label}.wallet.test?projectId=${session.stack.config.services?.defaultProjectId ?? ""}`)).json()) as {
      name: string
      addresses: Record<string, { address: string }>
    }
    expect(record.name).toBe(`${label}.wallet.test`)
    // Registered with the coin type of the chain the wallet was on (0x80000000 | 31337), for the visitor's address.
    const address = session.stack.config.evm?.accounts[5]?.address ?? ""
    expect(record.addresses[String(0x80000000 + 31337)]?.address.toLowerCase()).toBe(address.toLowerCase())
  })
})
