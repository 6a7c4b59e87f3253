/**
 * The embedded (email) wallet in the demo, on the local stack: the frame site and wallet server on their own origin,
 * codes read from the SMTP sink, keys held by the server. A visitor without any wallet logs in by email and a code,
 * signs (verified with viem) after approving, refuses, sends on anvil and on Solana after approving, meets a method
 * nobody may call, keeps the wallet across a reload, changes the email in two codes, and signs out. No key and no
 * session token ever reaches the host page: not its storage, not any message it receives.
 */
import { createSolanaRpc, address as solanaAddress, lamports } from "@solana/kit"
import type { Page } from "playwright-core"
import { createPublicClient, createWalletClient, http, parseEther, verifyMessage } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { foundry } from "viem/chains"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { FRAME_STORAGE_KEYS } from "../../server/src/embedded/frame/frameLogic"
import { listenHttp } from "../../server/src/lib/httpServer"
import { truncateAddress } from "../../src/domain/format"
import { newDeviceWords } from "../../src/domain/newDevice"
import { launchBrowser } from "./support/browser"
import { type OpenDemo, openDemo } from "./support/demo"

let session: OpenDemo
let page: Page
// The wallet server's clock: moved past its 30 s between mails and its wait for a device link, instead of waiting.
let clock: TestClock.TestClock
const moveServerClock = (ms: number) => Effect.runPromise(clock.adjust(ms))
const EMAIL = "ada@example.com"
const NEW_EMAIL = "ada.lovelace@example.com"
let evmAddress = ""

const dialog = () => page.getByRole("dialog")
const networkButton = () => page.getByRole("button", { name: /^Network: / })

/** The newest code mailed to `to` after `after` (epoch ms). */
const codeFor = async (to: string, after: number): Promise<string> => {
  const mail = session.stack.mail
  if (mail === undefined) throw new Error("the stack has no mail part")
  await expect.poll(() => mail.messages(to).filter((m) => m.receivedAt >= after && m.codes.length > 0).length, { timeout: 15_000 }).toBeGreaterThan(0)
  const message = mail.messages(to).find((m) => m.receivedAt >= after && m.codes.length > 0)
  return message!.codes[0]!
}

const typeCode = async (code: string) => {
  await dialog().getByRole("textbox", { name: /code/i }).fill(code)
}

/** Everything the host page can see: its own storage and every message posted to it. */
const hostView = async (): Promise<string> =>
  page.evaluate(() => {
    const stored = Object.keys(localStorage).map((key) => `${key}=${localStorage.getItem(key)}`)
    const session = Object.keys(sessionStorage).map((key) => `${key}=${sessionStorage.getItem(key)}`)
    const received = (window as unknown as { __received?: Array<unknown> }).__received ?? []
    return JSON.stringify({ stored, session, received })
  })

/** The frame storage's keys that hold device shares of split keys (issue 30), read in the frame's own context. */
const frameDeviceShares = async (): Promise<ReadonlyArray<string>> => {
  const frameUrl = session.stack.config.embedded?.frameUrl ?? ""
  const frame = page.frames().find((f) => f.url().startsWith(frameUrl))
  return frame === undefined ? [] : frame.evaluate(() => Object.keys(localStorage).filter((key) => key.startsWith("wr-frame/device-share/")).sort())
}

/** The frame's session token, read in the frame's own context. */
const frameToken = async (): Promise<string | null> => {
  const frameUrl = session.stack.config.embedded?.frameUrl ?? ""
  const frame = page.frames().find((f) => f.url().startsWith(frameUrl))
  if (frame === undefined) return null
  return frame.evaluate((key) => {
    try {
      return localStorage.getItem(key)
    } catch {
      return null
    }
  }, FRAME_STORAGE_KEYS.token)
}

// Another local page: it embeds the wallet's frame (the URL in its query) and asks it for the visitor's wallet.
const OTHER_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Other</title></head><body><script>
window.received = [];
const frameUrl = new URLSearchParams(location.search).get("frame");
window.addEventListener("message", (event) => window.received.push(event.data));
const iframe = document.createElement("iframe");
iframe.src = frameUrl;
window.frameLoaded = new Promise((resolve) => iframe.addEventListener("load", () => resolve(true), { once: true }));
document.body.appendChild(iframe);
window.ask = (message) => iframe.contentWindow.postMessage(message, new URL(frameUrl).origin);
</script></body></html>`

beforeAll(async () => {
  clock = await Effect.runPromise(Effect.scoped(TestClock.make({ warningDelay: "1 day" })))
  session = await openDemo({ name: "embedded", parts: ["evm", "solana", "mail", "services", "embedded"], stack: { embeddedClock: clock } })
  page = session.browser.page
  // Every message the host page receives, as it received it, for the "no secrets" check.
  await session.browser.context.addInitScript(() => {
    const received: Array<unknown> = []
    ;(window as unknown as { __received: Array<unknown> }).__received = received
    window.addEventListener("message", (event) => received.push({ origin: event.origin, data: event.data }))
  })
}, 180_000)

afterAll(() => session?.stop())

describe("the embedded wallet in the demo", () => {
  it("refuses a malformed email before asking anything, then logs in by email and the mailed code", async () => {
    await page.goto(session.url)
    await page.getByRole("button", { name: "Connect wallet" }).click()
    const email = dialog().getByRole("textbox", { name: "Continue with email" })
    await email.fill("user@example..com")
    await email.press("Enter")
    await dialog().getByText("Enter a valid email address").waitFor()
    expect(page.frames().some((f) => f.url().includes("/frame"))).toBe(false)

    const sent = Date.now()
    await email.fill(EMAIL)
    await email.press("Enter")
    await dialog().getByText(/Enter the 6-digit code we sent to/).waitFor()
    await typeCode(await codeFor(EMAIL, sent))
    await dialog().waitFor({ state: "hidden", timeout: 20_000 })
    const hint = page.getByText(/^From 0x[0-9a-fA-F]{40} on /)
    await hint.waitFor()
    evmAddress = /0x[0-9a-fA-F]{40}/.exec((await hint.textContent()) ?? "")?.[0] ?? ""
    expect(evmAddress).toMatch(/^0x[0-9a-fA-F]{40}$/)
  })

  it("signs a message only after the visitor approves what it says; the signature is the account's", async () => {
    const message = "Hello from the embedded wallet"
    await page.getByRole("textbox", { name: "Message" }).fill(message)
    await page.getByRole("button", { name: "Sign message" }).click()
    await dialog().getByRole("heading", { name: "Sign this message" }).waitFor()
    await dialog().getByText(message).waitFor()
    await dialog().getByRole("button", { name: "Approve" }).click()
    await expect.poll(() => page.getByTestId("signature").textContent(), { timeout: 20_000 }).toMatch(/^0x[0-9a-f]+$/)
    const signature = (await page.getByTestId("signature").textContent()) as `0x${string}`
    expect(await verifyMessage({ address: evmAddress as `0x${string}`, message, signature })).toBe(true)
    await dialog().waitFor({ state: "hidden" })
    // Signed in the frame: the login made the keys there (a device share of each here), and the wallet server, asked
    // the same with the frame's session, signs nothing.
    expect((await frameDeviceShares()).map((key) => key.split("/").at(-1))).toEqual(["eip155", "solana"])
    const asked = await fetch(`${session.stack.config.embedded!.frameUrl}/api/rpc`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${await frameToken()}`, "x-project-id": session.stack.config.services!.defaultProjectId },
      body: JSON.stringify({ chainId: "eip155:31337", method: "personal_sign", params: ["0x68", evmAddress] })
    })
    expect(await asked.json()).toEqual({ code: "method_not_allowed", error: "This wallet signs in its frame, never on the wallet server" })
  })

  it("a refusal reaches the dapp as the visitor's refusal, and nothing is signed", async () => {
    await page.getByRole("button", { name: "Sign message" }).click()
    await dialog().getByRole("button", { name: "Reject" }).click()
    await expect.poll(() => page.getByTestId("signature").textContent()).toBe("Error: User rejected the request.")
    await dialog().waitFor({ state: "hidden" })
  })

  it("sends 0.01 ETH on anvil after the visitor approved the receiver and the value", async () => {
    const evm = session.stack.config.evm!
    const chain = evm.chains.find((c) => c.chainId === 31337)!
    const funder = createWalletClient({ account: privateKeyToAccount(evm.accounts[0]!.privateKey as `0x${string}`), chain: foundry, transport: http(chain.rpcUrl) })
    await funder.sendTransaction({ to: evmAddress as `0x${string}`, value: parseEther("1") })
    await page.getByRole("button", { name: "Send", exact: true }).click()
    await dialog().getByRole("heading", { name: "Approve this transaction" }).waitFor()
    await dialog().getByText("0.01 ETH").waitFor()
    await dialog().getByText("0x70997970C51812dc3A010C7d01b50e0d17dc79C8").waitFor()
    await dialog().getByRole("button", { name: "Approve" }).click()
    await expect.poll(() => page.getByTestId("transaction").textContent(), { timeout: 30_000 }).toContain("confirmed in block")
  })

  it("closing the modal while a transaction waits for approval rejects that request: nothing is sent (spec 4)", async () => {
    const evm = session.stack.config.evm!
    const rpc = createPublicClient({ chain: foundry, transport: http(evm.chains.find((c) => c.chainId === 31337)!.rpcUrl) })
    const nonce = await rpc.getTransactionCount({ address: evmAddress as `0x${string}` })
    await page.getByRole("button", { name: "Send", exact: true }).click()
    await dialog().getByRole("heading", { name: "Approve this transaction" }).waitFor()
    await page.keyboard.press("Escape")
    await dialog().waitFor({ state: "hidden" })
    await expect.poll(() => page.getByTestId("transaction").textContent(), { timeout: 10_000 }).toContain("Error: User rejected the request.")
    expect(await rpc.getTransactionCount({ address: evmAddress as `0x${string}` })).toBe(nonce)
  })

  it("a method nobody may call opens the modal, says it is not allowed and is refused", async () => {
    await page.getByRole("textbox", { name: "Method" }).fill("eth_sign")
    await page.getByRole("textbox", { name: "Params (JSON)" }).fill(`["${evmAddress}", "0xdeadbeef"]`)
    await page.getByRole("button", { name: "Send request" }).click()
    await expect.poll(() => page.getByTestId("request").textContent(), { timeout: 10_000 }).toBe("Error: Requested RPC call is not allowed")
    await page.getByText("Requested RPC call is not allowed").first().waitFor()
    await page.keyboard.press("Escape")
    // A safe method goes to the frame at once, with no approval.
    await page.getByRole("textbox", { name: "Method" }).fill("eth_chainId")
    await page.getByRole("textbox", { name: "Params (JSON)" }).fill("[]")
    await page.getByRole("button", { name: "Send request" }).click()
    await expect.poll(() => page.getByTestId("request").textContent()).toBe('"0x7a69"')
  })

  it("sends SOL on the local Solana network after approving the transfer", async () => {
    await networkButton().click()
    await dialog().getByRole("button", { name: /Local Solana/ }).click()
    await expect.poll(() => networkButton().getAttribute("aria-label")).toContain("Local Solana")
    const hint = page.getByText(/^From [1-9A-HJ-NP-Za-km-z]{32,44} on /)
    await hint.waitFor({ timeout: 20_000 })
    const solAddress = /From ([1-9A-HJ-NP-Za-km-z]{32,44}) on/.exec((await hint.textContent()) ?? "")?.[1] ?? ""
    const rpc = createSolanaRpc(session.stack.config.solana!.rpcUrl)
    await rpc.requestAirdrop(solanaAddress(solAddress), lamports(2_000_000_000n)).send()
    const receiver = session.stack.config.solana!.funded[1]!.address
    await page.getByRole("textbox", { name: "To", exact: true }).fill(receiver)
    await page.getByRole("textbox", { name: /Amount/ }).fill("0.5")
    await page.getByRole("button", { name: "Send", exact: true }).click()
    await dialog().getByRole("heading", { name: "Approve this Solana transfer" }).waitFor()
    await dialog().getByText("0.5 SOL").waitFor()
    await dialog().getByText(receiver).waitFor()
    await dialog().getByRole("button", { name: "Approve" }).click()
    await expect.poll(() => page.getByTestId("transaction").textContent(), { timeout: 30_000 }).toContain("confirmed in slot")
    await networkButton().click()
    await dialog().getByRole("button", { name: /Local Chain A/ }).click()
    await expect.poll(() => networkButton().getAttribute("aria-label")).toContain("Local Chain A")
  })

  it("switching to another EVM network reconnects the embedded wallet there (spec 4), same account", async () => {
    await networkButton().click()
    await dialog().getByRole("button", { name: /Local Chain B/ }).click()
    await expect.poll(() => networkButton().getAttribute("aria-label")).toContain("Local Chain B")
    await page.getByText(`From ${evmAddress} on Local Chain B`).waitFor({ timeout: 20_000 })
    await page.getByRole("textbox", { name: "Method" }).fill("eth_chainId")
    await page.getByRole("textbox", { name: "Params (JSON)" }).fill("[]")
    await page.getByRole("button", { name: "Send request" }).click()
    await expect.poll(() => page.getByTestId("request").textContent()).toBe('"0x7a6a"')
    await networkButton().click()
    await dialog().getByRole("button", { name: /Local Chain A/ }).click()
    await expect.poll(() => networkButton().getAttribute("aria-label")).toContain("Local Chain A")
  })

  it("a reload restores the embedded wallet through the frame, without a new login", async () => {
    await page.reload()
    await page.getByText(`From ${evmAddress} on`).waitFor({ timeout: 20_000 })
  })

  it("a page on another local port cannot use the frame or the project, while the visitor is logged in", async () => {
    const other = await listenHttp()
    other.handle((_req, res) => {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" })
      res.end(OTHER_PAGE)
    })
    const services = session.stack.config.services!
    const frame = `${session.stack.config.embedded!.frameUrl}/frame?projectId=${services.defaultProjectId}&chainId=31337&version=1&enableLogger=true`
    const stranger = await session.browser.context.newPage()
    try {
      // On 127.0.0.1 (where every other page of the stack is) and on localhost (the demo's and the frame's host name).
      for (const origin of [other.url, `http://localhost:${other.port}`]) {
        await stranger.goto(`${origin}/?frame=${encodeURIComponent(frame)}`)
        await stranger.evaluate(() => (window as unknown as { frameLoaded: Promise<boolean> }).frameLoaded)
        for (const type of ["IS_CONNECTED", "GET_USER"]) {
          await stranger.evaluate((t) => (window as unknown as { ask: (m: unknown) => void }).ask({ id: t, type: `@wr-app/${t}` }), type)
        }
        // The project's services refuse the page too (asked with its Origin), in the words the modal maps to 'Invalid
        // App Configuration'; the demo's origin is answered.
        const ask = (from: string) =>
          fetch(`${services.url}/getAnalyticsConfig?projectId=${services.defaultProjectId}`, { headers: { origin: from } })
        const refused = await ask(origin)
        expect(`${refused.status} ${await refused.text()}`).toMatch(/^403 .*Unauthorized: origin not allowed/)
        expect((await ask(new URL(session.url).origin)).status).toBe(200)
        // The demo itself still gets answers from the frame: a request it sends now is answered (another each round).
        const [method, answer] = origin === other.url ? ["eth_accounts", evmAddress.toLowerCase()] : ["eth_chainId", '"0x7a69"']
        await page.getByRole("textbox", { name: "Method" }).fill(method)
        await page.getByRole("textbox", { name: "Params (JSON)" }).fill("[]")
        await page.getByRole("button", { name: "Send request" }).click()
        await expect.poll(async () => (await page.getByTestId("request").textContent())?.toLowerCase()).toContain(answer)
        // The browser did not let the page embed the wallet (frame-ancestors): no wallet document in it.
        expect(stranger.frames().filter((f) => f.url().startsWith(session.stack.config.embedded!.frameUrl))).toEqual([])
        // By then an answer to the other page would have come: it got nothing, not even READY.
        expect(await stranger.evaluate(() => (window as unknown as { received: Array<unknown> }).received)).toEqual([])
      }
    } finally {
      await stranger.close()
      await other.stop()
    }
  })

  it("changes the email with a code to the current address, then one to the new", async () => {
    await page.getByRole("button", { name: new RegExp(truncateAddress(evmAddress).replace(/[.]/g, "\\.")) }).click()
    await dialog().getByText(EMAIL).waitFor()
    await dialog().getByRole("button", { name: "Update email" }).click()
    const sent = Date.now()
    const field = dialog().getByRole("textbox", { name: /email/i })
    await field.fill(NEW_EMAIL)
    await field.press("Enter")
    await typeCode(await codeFor(EMAIL, sent))
    await typeCode(await codeFor(NEW_EMAIL, sent))
    // The snackbar says so, its tick whole beside the long words (a long message squeezed it to a few pixels).
    const said = dialog().getByRole("status").filter({ hasText: `Your email is now ${NEW_EMAIL}` })
    await said.waitFor({ timeout: 20_000 })
    expect(await said.locator("svg").evaluate((tick) => [tick.getBoundingClientRect().width, tick.getBoundingClientRect().height])).toEqual([16, 16])
    await dialog().getByText(NEW_EMAIL).first().waitFor({ timeout: 20_000 })
  })

  it("no key and no session token ever reached the host page", async () => {
    const token = await frameToken()
    const seen = await hostView()
    if (token !== null) expect(seen).not.toContain(token)
    // Any 32-byte hex the page saw is not the key of the account.
    for (const candidate of seen.match(/(?:0x)?[0-9a-fA-F]{64}/g) ?? []) {
      const hex = (candidate.startsWith("0x") ? candidate : `0x${candidate}`) as `0x${string}`
      expect(privateKeyToAccount(hex).address.toLowerCase()).not.toBe(evmAddress.toLowerCase())
    }
  })

  it("signing out ends the session in the frame: a reload shows no wallet", async () => {
    await dialog().getByRole("button", { name: "Disconnect" }).click()
    await page.getByRole("button", { name: "Connect wallet" }).waitFor()
    await page.reload()
    await page.getByRole("button", { name: "Connect wallet" }).waitFor()
    // The login is gone from the frame too: another login needs another code.
    await page.getByRole("button", { name: "Connect wallet" }).click()
    const email = dialog().getByRole("textbox", { name: "Continue with email" })
    await email.fill(NEW_EMAIL)
    let sent = Date.now()
    await email.press("Enter")
    // The new address got its last code moments ago: the 30 s between codes may still run, and says so.
    const limited = dialog().getByText(/Please try again after (\d+) seconds/)
    const otp = dialog().getByText(/Enter the 6-digit code we sent to/)
    await Promise.race([limited.waitFor(), otp.waitFor()])
    if (await limited.isVisible()) {
      const seconds = Number(/after (\d+) seconds/.exec((await limited.textContent()) ?? "")?.[1] ?? "30")
      await moveServerClock((seconds + 1) * 1_000)
      sent = Date.now()
      await email.press("Enter")
      await otp.waitFor()
    }
    await typeCode(await codeFor(NEW_EMAIL, sent))
    await dialog().waitFor({ state: "hidden", timeout: 20_000 })
    await page.getByText(`From ${evmAddress} on`).waitFor()
  })
  it("a new browser for that email: the device link is mailed; the view waits, says when the wait ended, waits again, and the link lets the visitor in", async () => {
    // The address got a code moments ago: the server's clock moves past the 30 s between mails.
    await moveServerClock(31_000)
    const other = await launchBrowser()
    try {
      const visitor = other.page
      const modal = () => visitor.getByRole("dialog")
      await visitor.goto(session.url)
      await visitor.getByRole("button", { name: "Connect wallet" }).click()
      const email = modal().getByRole("textbox", { name: "Continue with email" })
      await email.fill(NEW_EMAIL)
      const sent = Date.now()
      await email.press("Enter")
      await modal().getByRole("heading", { name: "Verify this device" }).waitFor({ timeout: 20_000 })
      await modal().getByText("Waiting for the link to be opened…").waitFor()
      // The view's words take the focus (Enter pressed again cancels nothing): words, not a control, so no ring.
      const words = modal().getByText(/^We sent a link to/)
      await expect.poll(() => words.evaluate((element) => [element === document.activeElement, getComputedStyle(element).outlineStyle])).toEqual([true, "none"])
      await expect.poll(() => session.stack.mail!.messages(NEW_EMAIL).filter((m) => m.receivedAt >= sent && m.subject.startsWith("Verify your device")).length, { timeout: 15_000 }).toBe(1)
      const mail = session.stack.mail!.messages(NEW_EMAIL).find((m) => m.receivedAt >= sent && m.subject.startsWith("Verify your device"))!
      const link = /https?:\/\/\S+\/api\/device\/verify\S*/.exec(mail.text)?.[0] ?? ""
      expect(link.startsWith(`${session.stack.config.embedded!.frameUrl}/api/device/verify?`)).toBe(true)
      // The server waits at most 25 s for the link at a time: its clock moves past that, the frame counts the wait the
      // server reports, and the view says the wait ended (no 25 s of real time waited).
      const ended = modal().getByText("The link was not opened in time. Open it, then wait again.")
      await expect
        .poll(async () => {
          await moveServerClock(26_000)
          return ended.isVisible()
        }, { timeout: 20_000, interval: 1_000 })
        .toBe(true)
      await modal().getByRole("button", { name: "Wait again" }).click()
      await modal().getByText("Waiting for the link to be opened…").waitFor()
      // The visitor opens the mailed link (here in another tab): the waiting view goes on to the code.
      const opened = Date.now()
      const tab = await other.context.newPage()
      await tab.goto(link)
      await tab.getByText("Your device is verified").waitFor()
      await modal().getByText(/Enter the 6-digit code we sent to/).waitFor({ timeout: 20_000 })
      await modal().getByRole("textbox", { name: /code/i }).fill(await codeFor(NEW_EMAIL, opened))
      // In, with the same address; but this browser holds no share of the wallet's key, which only the first browser's
      // kept secret protects so far: the Account view says so in words (issue 30, item 2) instead of closing.
      await modal().getByText(newDeviceWords("device")).waitFor({ timeout: 20_000 })
      await visitor.getByText(`From ${evmAddress} on`).waitFor()
    } finally {
      await other.close()
    }
  })
})
