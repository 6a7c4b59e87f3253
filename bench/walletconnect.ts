/**
 * WalletConnect figures, on the production build of the demo in Debian Chromium against the local stack (relay and
 * the test wallet page in a second page of the same browser): click WalletConnect → QR code visible, wallet approves
 * → address shown, a personal_sign round trip (the wallet page's Approve is clicked as soon as the request shows),
 * the WalletConnect chunk's weight, whether that chunk loaded before the visitor chose WalletConnect, and the requests
 * that went beyond this machine (none: no stand-in answers for any outside host, WalletConnect's Verify included).
 * Needs the runtime to wire WalletConnect in (src/layers/Live.ts).
 *
 * Run alone: npx tsx bench/walletconnect.ts; `walletConnectRows()` gives the rows to bench/run.ts.
 */
import { pathToFileURL } from "node:url"
import { gzipSync } from "node:zlib"
import type { Response } from "playwright-core"
import { isLoopback } from "../test/e2e/support/browser"
import { openDemo } from "../test/e2e/support/demo"

/** One row of the bench table. */
export interface BenchRow {
  readonly metric: string
  readonly measured: string
  readonly target: string
  readonly peers: string
}

// Text only our sign client's chunk carries (the relay's JSON-RPC method names).
const isWalletConnectChunk = (body: string) => body.includes("irn_subscribe") || body.includes("wc_sessionPropose")

// Runs in the page, as text: tsx would otherwise wrap its named functions in a helper the page lacks.
const CLICK_TO_QR = `new Promise((resolve, reject) => {
  const button = [...document.querySelectorAll("[role=dialog] button")].find((b) => (b.textContent || "").includes("WalletConnect"))
  if (!button) return reject(new Error("no WalletConnect row"))
  const start = performance.now()
  const check = () => {
    if (document.querySelector("[role=dialog] svg[data-qr-value]") === null) return false
    resolve(performance.now() - start)
    return true
  }
  button.click()
  if (check()) return
  const observer = new MutationObserver(() => { if (check()) observer.disconnect() })
  observer.observe(document, { subtree: true, childList: true, attributes: true })
})`

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`
const ms = (value: number) => `${value.toFixed(1)} ms`

/** The WalletConnect rows of `npm run bench`. */
export const walletConnectRows = async (): Promise<ReadonlyArray<BenchRow>> => {
  const session = await openDemo({ name: "bench-wc", parts: ["evm", "relay", "services"] })
  const { browser } = session
  try {
    const page = browser.page
    const walletPage = await browser.context.newPage()
    const walletUrl = session.stack.config.services?.testWalletUrl ?? ""
    await walletPage.goto(walletUrl)
    await walletPage.getByRole("status").filter({ hasText: "Ready" }).waitFor()

    const scripts: Array<{ readonly wc: boolean; readonly gz: number; readonly before: boolean; readonly atClick: boolean; readonly url: string }> = []
    let chosen = false
    let qrShown = false
    const onResponse = async (response: Response) => {
      if (response.request().resourceType() !== "script") return
      const body = await response.body()
      scripts.push({ wc: isWalletConnectChunk(body.toString("utf8")), gz: gzipSync(body).length, before: !chosen, atClick: chosen && !qrShown, url: response.url() })
    }
    page.on("response", onResponse)
    await page.goto(session.url)
    await page.getByRole("button", { name: "Connect wallet" }).click()
    const row = page.getByRole("dialog").getByRole("button", { name: /WalletConnect/ })
    await row.waitFor()
    await page.waitForLoadState("networkidle")

    // Click WalletConnect → QR code on screen (loads the chunk, starts the client, asks the relay for a pairing).
    chosen = true
    const qrMs = await page.evaluate((script) => (0, eval)(script) as Promise<number>, CLICK_TO_QR)
    qrShown = true
    const uri = (await page.locator("[role=dialog] svg[data-qr-value]").getAttribute("data-qr-value")) ?? ""

    // The wallet approves → the modal closes and the host's button shows the account.
    await walletPage.goto(`${walletUrl}wc?uri=${encodeURIComponent(uri)}`)
    const approveSession = walletPage.getByRole("article", { name: /asks to connect/ }).getByRole("button", { name: "Approve" })
    await approveSession.waitFor()
    const pairStart = Date.now()
    await approveSession.click()
    await page.getByRole("button", { name: /0xf3…b92266|alice\.wallet\.test/ }).first().waitFor()
    const pairMs = Date.now() - pairStart
    page.off("response", onResponse)

    // personal_sign: the demo asks, the wallet page approves at once, the signature shows in the demo.
    await page.getByRole("textbox", { name: "Message" }).fill("bench")
    // The wallet page was the tab in front: Chromium throttles a background tab's frames, and a click waits on them.
    await page.bringToFront()
    const signStart = Date.now()
    await page.getByRole("button", { name: "Sign message" }).click()
    await walletPage.getByRole("article", { name: /Sign a message/ }).getByRole("button", { name: "Approve" }).click()
    await page.getByTestId("signature").filter({ hasText: /0x[0-9a-f]{130}/ }).waitFor()
    const signMs = Date.now() - signStart

    const outside = browser.requests.filter((url) => !isLoopback(url))
    const chunk = scripts.filter((s) => s.wc).reduce((sum, s) => sum + s.gz, 0)
    // Everything the click on WalletConnect fetched until its QR code showed: the chunk set a host serves for it (the
    // EVM adapter fetched later, once the wallet approved, comes with any EVM wallet and is not counted).
    const atClick = scripts.filter((s) => s.atClick).reduce((sum, s) => sum + s.gz, 0)
    const early = scripts.some((s) => s.wc && s.before)
    return [
      { metric: "WalletConnect: click → QR code visible (first time)", measured: ms(qrMs), target: "≤ 100 ms", peers: "" },
      { metric: "WalletConnect: wallet approves (pairing) → address shown", measured: ms(pairMs), target: "≤ 150 ms", peers: "" },
      { metric: "WalletConnect: personal_sign round trip (wallet approves at once)", measured: ms(signMs), target: "—", peers: "" },
      { metric: "WalletConnect: JS fetched at its click (chunk set, gzip)", measured: kib(atClick), target: "≤ 20 KiB", peers: "universal-provider 128–136 KiB" },
      { metric: "WalletConnect sign client chunk (gzip)", measured: kib(chunk), target: "loaded on choice only", peers: "" },
      { metric: "WalletConnect chunk loaded before the visitor chose it", measured: early ? "yes" : "no", target: "no", peers: "" },
      { metric: "WalletConnect: requests beyond this machine (load → pair → sign)", measured: String(outside.length), target: "0", peers: "" }
    ]
  } finally {
    await session.stop()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.table(await walletConnectRows())
}
