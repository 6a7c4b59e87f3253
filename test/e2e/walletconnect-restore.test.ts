/**
 * A WalletConnect session serving Polkadot and Bitcoin survives a reload of the demo in Chromium: the demo pairs over
 * the devstack relay with our WalletConnect wallet in Node (test/integration/support/walletKit.ts: //Alice on
 * Westend, the Bitcoin test wallet's payment address on the regtest node, an EVM dev account); after each reload the
 * session is restored without the wallet being asked anything, Westend and Bitcoin Regtest show the same accounts, and
 * a message signed after the reload verifies (sr25519 over `<Bytes>…</Bytes>` on Westend, BIP-322 on regtest).
 * (The family in front after a reload is the first one the demo configures, EVM, whichever was in front before: the
 * Connection service's rule, not WalletConnect's.) Nothing goes beyond this machine.
 */
import { stringToU8a, u8aWrapBytes } from "@polkadot/util"
import { signatureVerify } from "@polkadot/util-crypto"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { REGTEST } from "../../devstack/bitcoin/keys"
import { verifyBip322 } from "../../server/src/bitcoin/bip322"
import { truncateAddress } from "../../src/domain/format"
import { westend } from "../../src/domain/networks"
import { type DevWalletKit, startDevWalletKit } from "../integration/support/walletKit"
import { isLoopback, launchBrowser } from "./support/browser"
import { type OpenDemo, openDemo } from "./support/demo"

/** //Alice (sr25519) in Westend's format (the generic SS58 prefix, 42). */
const ALICE_WESTEND = "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY"

let session: OpenDemo | undefined
let wallet: DevWalletKit | undefined
let page: Page

const dialog = () => page.getByRole("dialog")
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
const accountButton = (address: string) => page.getByRole("button", { name: new RegExp(escaped(truncateAddress(address))) })
const networkButton = () => page.getByRole("button", { name: /^Network: / })

/** Puts `name` in front from the Networks view. */
const switchTo = async (name: RegExp) => {
  await networkButton().click()
  await dialog().getByRole("button", { name }).click()
  await expect.poll(() => networkButton().getAttribute("aria-label")).toMatch(name)
  if ((await dialog().count()) > 0) await page.keyboard.press("Escape")
}

/**
 * Reloads the demo and waits for the session to be restored: the EVM account (the first family the demo configures,
 * which the runtime puts in front after a reload) shows again, with no prompt.
 */
const reloadRestored = async () => {
  await page.reload()
  await page.getByRole("button", { name: /alice\.wallet\.test|0xf3…2266/ }).waitFor({ timeout: 20_000 })
}

/** Signs `message` from the demo's card; gives what the demo shows. */
const signed = async (message: string, shape: RegExp) => {
  await page.getByRole("textbox", { name: "Message" }).fill(message)
  await page.getByRole("button", { name: "Sign message" }).click()
  const output = page.getByTestId("signature").filter({ hasText: shape })
  await output.waitFor()
  return (await output.textContent()) ?? ""
}

beforeAll(async () => {
  session = await openDemo({ name: "wc-restore", parts: ["evm", "bitcoin", "relay", "services"] })
  const { config, evm } = session.stack
  const chain = evm!.chains[0]!
  wallet = await startDevWalletKit({
    relayUrl: config.relay!.url,
    evm: { privateKeys: [evm!.accounts[0]!.privateKey], chains: [{ chainId: chain.chainId, name: "Local A", rpcUrl: chain.rpcUrl }], chainId: chain.chainId },
    polkadot: { chains: [westend.caipNetworkId] },
    bitcoin: { apiUrl: config.bitcoin!.url, caipNetworkId: config.bitcoin!.caipNetworkId }
  })
  page = session.browser.page
})

afterAll(async () => {
  await wallet?.close()
  await session?.stop()
})

describe("a WalletConnect session serving Polkadot and Bitcoin, across a reload", () => {
  it("pairs with the wallet by the QR code's URI: EVM, Polkadot and Bitcoin in one session", async () => {
    await page.goto(session!.url)
    await page.getByRole("button", { name: "Connect wallet" }).click()
    await dialog().getByRole("button", { name: /WalletConnect/ }).click()
    const qr = dialog().getByRole("img", { name: "QR code to connect with WalletConnect" })
    await qr.waitFor()
    await wallet!.pair((await qr.getAttribute("data-qr-value")) ?? "")
    await expect.poll(() => dialog().count(), { timeout: 20_000 }).toBe(0)
    expect(Object.keys(wallet!.proposals[0]?.optionalNamespaces ?? {}).sort()).toEqual(["bip122", "eip155", "polkadot"])
    const granted = Object.values(wallet!.kit.getActiveSessions())[0]!.namespaces
    expect(Object.keys(granted).sort()).toEqual(["bip122", "eip155", "polkadot"])
  })

  it("after a reload (Westend in front before it), //Alice is there on Westend without asking the wallet; a message signed after it verifies", async () => {
    await switchTo(/Westend/)
    await accountButton(ALICE_WESTEND).waitFor()
    const proposals = wallet!.proposals.length
    const requests = wallet!.requests.length
    await reloadRestored()
    await switchTo(/Westend/)
    await accountButton(ALICE_WESTEND).waitFor()
    expect(wallet!.proposals.length).toBe(proposals)
    expect(wallet!.requests.length).toBe(requests)
    const signature = await signed("Polkadot after a reload", /^0x[0-9a-f]{128}$/)
    expect(signatureVerify(u8aWrapBytes(stringToU8a("Polkadot after a reload")), signature, ALICE_WESTEND)).toMatchObject({ isValid: true, crypto: "sr25519" })
    expect(wallet!.requests.at(-1)).toEqual({ method: "polkadot_signMessage", chainId: westend.caipNetworkId })
  })

  it("after a reload (Bitcoin Regtest in front before it), the payment address is there without asking the wallet; a BIP-322 signature after it verifies", async () => {
    const payment = wallet!.bitcoin!.key.paymentAddress
    await switchTo(/Bitcoin Regtest/)
    await accountButton(payment).waitFor()
    const proposals = wallet!.proposals.length
    const requests = wallet!.requests.length
    await reloadRestored()
    await switchTo(/Bitcoin Regtest/)
    await accountButton(payment).waitFor()
    expect(wallet!.proposals.length).toBe(proposals)
    expect(wallet!.requests.length).toBe(requests)
    const signature = await signed("Bitcoin after a reload", /^[A-Za-z0-9+/]{80,}={0,2}$/)
    expect(verifyBip322(payment, REGTEST, "Bitcoin after a reload", signature)).toBe(true)
    expect(verifyBip322(payment, REGTEST, "Bitcoin after a reload.", signature)).toBe(false)
    expect(wallet!.requests.at(-1)).toEqual({ method: "signMessage", chainId: session!.stack.config.bitcoin!.caipNetworkId })
    expect(session!.browser.requests.filter((url) => !isLoopback(url))).toEqual([])
  })
})

describe("a Bitcoin-only host over WalletConnect", () => {
  it("the QR code proposes bip122 alone; the wallet's payment address connects and a BIP-322 signature verifies", async () => {
    const other = await launchBrowser()
    try {
      const visitor = other.page
      const modal = () => visitor.getByRole("dialog")
      const proposals = wallet!.proposals.length
      await visitor.goto(`${session!.url}?families=bip122`)
      await visitor.getByRole("button", { name: "Connect wallet" }).click()
      await modal().getByRole("button", { name: /WalletConnect/ }).click()
      const qr = modal().getByRole("img", { name: "QR code to connect with WalletConnect" })
      await qr.waitFor()
      const uri = (await qr.getAttribute("data-qr-value")) ?? ""
      expect(uri).toMatch(/^wc:[0-9a-f]+@2\?/)
      await wallet!.pair(uri)
      await expect.poll(() => modal().count(), { timeout: 20_000 }).toBe(0)
      expect(Object.keys(wallet!.proposals[proposals]?.optionalNamespaces ?? {})).toEqual(["bip122"])
      const payment = wallet!.bitcoin!.key.paymentAddress
      await visitor.getByRole("button", { name: new RegExp(escaped(truncateAddress(payment))) }).waitFor({ timeout: 20_000 })
      await visitor.getByRole("textbox", { name: "Message" }).fill("Bitcoin by QR code")
      await visitor.getByRole("button", { name: "Sign message" }).click()
      const output = visitor.getByTestId("signature").filter({ hasText: /^[A-Za-z0-9+/]{80,}={0,2}$/ })
      await output.waitFor({ timeout: 20_000 })
      expect(verifyBip322(payment, REGTEST, "Bitcoin by QR code", (await output.textContent()) ?? "")).toBe(true)
      expect(wallet!.requests.at(-1)).toEqual({ method: "signMessage", chainId: session!.stack.config.bitcoin!.caipNetworkId })
    } finally {
      await other.close()
    }
  })
})
