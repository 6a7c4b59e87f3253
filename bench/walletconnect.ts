/**
 * WalletConnect figures, on the production build of the demo in Debian Chromium against the local stack (relay and
 * the test wallet page in a second page of the same browser):
 * - click WalletConnect → QR code visible, cold (the row clicked without the pointer passing over it first, as a
 *   keyboard or a script does) and after the visitor pointed at the row (its code fetched on that intent);
 * - the wallet approves → the address shown in the demo, timed in the pages (the wallet page's click and the demo's
 *   DOM), not by polling from here;
 * - a personal_sign round trip (the wallet page's Approve is clicked as soon as the request shows);
 * - the JS the click fetched until the QR code showed, and WalletConnect's JS in all (its views with the QR code,
 *   which the Connect view fetches once the page is idle, and its session code);
 * - that nothing of WalletConnect's session code came before the visitor's intent, that no relay connection was
 *   opened before the click, and the requests that went beyond this machine (none: no stand-in answers for any
 *   outside host, WalletConnect's Verify included).
 * Each timing is the median of ROUNDS runs (3 by default), each on a fresh page load.
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

// Text only WalletConnect's session chunk carries (the relay's JSON-RPC method names).
const isSessionChunk = (body: string) => body.includes("irn_subscribe") || body.includes("wc_sessionPropose")
// The views the Connect view fetches ahead once the page is idle: WalletConnect's QR code view and its parts.
const isViewChunk = (url: string) => /\/(WalletConnectBasic|PairingPanel|QrCode)-[^/]*\.js$/.test(url)

// Runs in the page, as text: tsx would otherwise wrap its named functions in a helper the page lacks. Clicks the
// WalletConnect row with a bare click event (no pointer passing over it) and resolves with the ms until the QR code
// is in the DOM.
const CLICK_TO_QR = `new Promise((resolve, reject) => {
  const button = [...document.querySelectorAll("[role=dialog] button")].find((b) => (b.textContent || "").includes("WalletConnect"))
  if (!button) return reject(new Error("no WalletConnect row"))
  const start = performance.now()
  const check = () => {
    if (document.querySelector("[role=dialog] svg[data-qr-value]") === null) return false
    resolve(performance.now() - start)
    return true
  }
  button.dispatchEvent(new MouseEvent("click", { bubbles: true, cancelable: true }))
  if (check()) return
  const observer = new MutationObserver(() => { if (check()) observer.disconnect() })
  observer.observe(document, { subtree: true, childList: true, attributes: true })
})`

// Runs in the demo's page: notes (performance.timeOrigin-based, ms since the epoch) when a button first shows the
// connected account.
const WATCH_ACCOUNT = `(() => {
  window.__accountShownAt = undefined
  const shown = () => [...document.querySelectorAll("button")].some((b) => /0xf3…b92266|alice\\.wallet\\.test/.test(b.textContent || ""))
  const observer = new MutationObserver(() => {
    if (window.__accountShownAt === undefined && shown()) {
      window.__accountShownAt = performance.timeOrigin + performance.now()
      observer.disconnect()
    }
  })
  observer.observe(document, { subtree: true, childList: true, characterData: true })
})()`

// Runs in the wallet page: clicks the proposal's Approve and gives when (ms since the epoch).
const APPROVE_NOW = `(() => {
  const card = [...document.querySelectorAll("article")].find((a) => /asks to connect/.test(document.getElementById(a.getAttribute("aria-labelledby") || "")?.textContent || ""))
  const button = card && [...card.querySelectorAll("button")].find((b) => b.textContent === "Approve")
  if (!button) throw new Error("no proposal to approve")
  const at = performance.timeOrigin + performance.now()
  button.click()
  return at
})()`

// Runs in the wallet page: approves the next "Sign a message" request the moment it shows.
const APPROVE_NEXT_SIGN = `(() => {
  const approve = () => {
    const card = [...document.querySelectorAll("article")].find((a) => /Sign a message/.test(document.getElementById(a.getAttribute("aria-labelledby") || "")?.textContent || ""))
    const button = card && [...card.querySelectorAll("button")].find((b) => b.textContent === "Approve")
    if (!button) return false
    button.click()
    return true
  }
  if (approve()) return
  const observer = new MutationObserver(() => { if (approve()) observer.disconnect() })
  observer.observe(document, { subtree: true, childList: true })
})()`

// Runs in the demo's page: clicks "Sign message" and resolves with the ms until the signature shows.
const SIGN_ROUND_TRIP = `new Promise((resolve, reject) => {
  const button = [...document.querySelectorAll("button")].find((b) => b.textContent === "Sign message")
  if (!button) return reject(new Error("no Sign message button"))
  const signed = () => /0x[0-9a-f]{130}/.test(document.querySelector("[data-testid=signature]")?.textContent || "")
  const start = performance.now()
  const observer = new MutationObserver(() => {
    if (!signed()) return
    observer.disconnect()
    resolve(performance.now() - start)
  })
  observer.observe(document, { subtree: true, childList: true, characterData: true })
  button.click()
})`

const step = (text: string) => {
  if (process.env["BENCH_DEBUG"] !== undefined) console.error(`bench: ${text}`)
}

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`
const ms = (value: number) => `${value.toFixed(1)} ms`
const median = (values: ReadonlyArray<number>) => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2
}
const spread = (values: ReadonlyArray<number>) => `${ms(median(values))} (${values.map((v) => v.toFixed(0)).join(", ")})`

interface Script {
  readonly url: string
  readonly gz: number
  readonly session: boolean
  readonly phase: "before intent" | "after intent" | "at click" | "after QR"
}

/** The WalletConnect rows of `npm run bench`. */
export const walletConnectRows = async (rounds = Number(process.env["ROUNDS"] ?? 3)): Promise<ReadonlyArray<BenchRow>> => {
  const session = await openDemo({ name: "bench-wc", parts: ["evm", "relay", "services"] })
  const { browser } = session
  try {
    const page = browser.page
    const walletPage = await browser.context.newPage()
    const walletUrl = session.stack.config.services?.testWalletUrl ?? ""
    await walletPage.goto(walletUrl)
    await walletPage.getByRole("status").filter({ hasText: "Ready" }).waitFor()
    await page.bringToFront()

    let phase: Script["phase"] = "before intent"
    let scripts: Array<Script> = []
    const sockets: Array<{ readonly url: string; readonly phase: Script["phase"] }> = []
    // The phase a script was asked in (a response is reported after it; a request is reported in page order).
    const askedIn = new Map<string, Script["phase"]>()
    page.on("request", (request) => {
      if (request.resourceType() === "script") askedIn.set(request.url(), phase)
    })
    const reading = new Set<Promise<void>>()
    const onResponse = (response: Response) => {
      if (response.request().resourceType() !== "script") return
      const at = askedIn.get(response.url()) ?? phase
      const into = scripts
      // A response of a page navigated away from (the next round's reload) has no body left: not counted.
      const read = response.body().then(
        (body) => void into.push({ url: response.url(), gz: gzipSync(body).length, session: isSessionChunk(body.toString("utf8")), phase: at }),
        () => undefined
      )
      reading.add(read)
      void read.finally(() => reading.delete(read))
    }
    /** Waits until the click's pairing has its relay connection (the QR code shows first) and every script is read. */
    const settled = async () => {
      for (let i = 0; i < 100 && sockets.length === 0; i++) await page.waitForTimeout(50)
      await page.waitForLoadState("networkidle")
      await Promise.all([...reading])
    }
    page.on("response", onResponse)
    page.on("websocket", (socket) => sockets.push({ url: socket.url(), phase }))

    /** A fresh load of the demo, with no session kept, up to the Connect view with WalletConnect's views fetched. */
    const connectView = async (): Promise<void> => {
      phase = "before intent"
      scripts = []
      sockets.length = 0
      // The stored session of the round before is dropped on a page of the demo's origin that is not the demo (its
      // server's 404), so nothing restores it.
      await page.goto(new URL("/bench-blank", session.url).toString())
      await page.evaluate(() => localStorage.clear())
      await page.goto(session.url)
      await page.getByRole("button", { name: "Connect wallet" }).click()
      await page.getByRole("dialog").getByRole("button", { name: /WalletConnect/ }).waitFor()
      // The Connect view fetches the views the next click may open once the page is idle (WalletConnect's among
      // them): waited for, up to 5 s, so the figures do not depend on a race with that idle moment.
      for (let i = 0; i < 100 && scripts.filter((s) => isViewChunk(s.url)).length < 3; i++) await page.waitForTimeout(50)
      await page.waitForLoadState("networkidle")
      await Promise.all([...reading])
    }

    const coldQr: Array<number> = []
    const intentQr: Array<number> = []
    const pairing: Array<number> = []
    const signing: Array<number> = []
    let atClickCold = 0
    let viewChunks = 0
    let sessionChunks = 0
    let sessionBeforeIntent = false
    let socketsBeforeClick = 0

    for (let round = 0; round < rounds; round++) {
      // Cold: the row clicked without the pointer over it first.
      await connectView()
      viewChunks = scripts.filter((s) => isViewChunk(s.url)).reduce((sum, s) => sum + s.gz, 0)
      sessionBeforeIntent ||= scripts.some((s) => s.session)
      socketsBeforeClick += sockets.length
      phase = "at click"
      step("cold click")
      coldQr.push(await page.evaluate((script) => (0, eval)(script) as Promise<number>, CLICK_TO_QR))
      phase = "after QR"
      await settled()
      atClickCold = scripts.filter((s) => s.phase === "at click").reduce((sum, s) => sum + s.gz, 0)
      sessionChunks = scripts.filter((s) => s.phase === "at click" && !isViewChunk(s.url)).reduce((sum, s) => sum + s.gz, 0)

      // With intent: the pointer passes over the row (its code is fetched then), and the row is clicked.
      await connectView()
      phase = "after intent"
      step("hover")
      await page.getByRole("dialog").getByRole("button", { name: /WalletConnect/ }).hover()
      await page.waitForLoadState("networkidle")
      socketsBeforeClick += sockets.length
      phase = "at click"
      step("intent click")
      intentQr.push(await page.evaluate((script) => (0, eval)(script) as Promise<number>, CLICK_TO_QR))
      phase = "after QR"
      await settled()
      const uri = (await page.locator("[role=dialog] svg[data-qr-value]").getAttribute("data-qr-value")) ?? ""

      // The wallet approves → the demo shows the account, timed in the two pages.
      step("wallet pairs")
      await walletPage.goto(`${walletUrl}wc?uri=${encodeURIComponent(uri)}`)
      await walletPage.getByRole("article", { name: /asks to connect/ }).getByRole("button", { name: "Approve" }).waitFor()
      await page.evaluate((script) => (0, eval)(script), WATCH_ACCOUNT)
      step("approve")
      const approvedAt = await walletPage.evaluate((script) => (0, eval)(script) as number, APPROVE_NOW)
      await page.getByRole("button", { name: /0xf3…b92266|alice\.wallet\.test/ }).first().waitFor()
      const shownAt = await page.evaluate(() => (window as unknown as { __accountShownAt?: number }).__accountShownAt)
      if (shownAt === undefined) throw new Error("the account was shown without the watcher seeing it")
      pairing.push(shownAt - approvedAt)

      // personal_sign: the demo asks, the wallet page approves the moment the request shows, the signature shows in
      // the demo; timed in the demo's page.
      step("sign")
      await page.getByRole("textbox", { name: "Message" }).fill(`bench ${round}`)
      await walletPage.evaluate((script) => (0, eval)(script), APPROVE_NEXT_SIGN)
      signing.push(await page.evaluate((script) => (0, eval)(script) as Promise<number>, SIGN_ROUND_TRIP))
    }
    page.off("response", onResponse)

    const outside = browser.requests.filter((url) => !isLoopback(url))
    return [
      { metric: "WalletConnect: click → QR code visible (cold: no pointer over the row first)", measured: spread(coldQr), target: "≤ 100 ms", peers: "" },
      { metric: "WalletConnect: click → QR code visible (after the pointer passed over the row)", measured: spread(intentQr), target: "≤ 100 ms", peers: "" },
      { metric: "WalletConnect: wallet approves (pairing) → address shown (timed in the pages)", measured: spread(pairing), target: "≤ 150 ms", peers: "" },
      { metric: "WalletConnect: personal_sign round trip (wallet approves at once)", measured: spread(signing), target: "—", peers: "" },
      { metric: "WalletConnect: JS fetched at its click until the QR code shows (cold, gzip)", measured: kib(atClickCold), target: "≤ 20 KiB", peers: "universal-provider 128–136 KiB" },
      { metric: "WalletConnect: its session code (sign client, crypto), gzip", measured: kib(sessionChunks), target: "loaded on intent or choice only", peers: "" },
      { metric: "WalletConnect: JS in all (session code + its views and QR code, fetched at idle on Connect), gzip", measured: kib(sessionChunks + viewChunks), target: "—", peers: "" },
      { metric: "WalletConnect session code fetched before the visitor pointed at or chose it", measured: sessionBeforeIntent ? "yes" : "no", target: "no", peers: "" },
      { metric: "WalletConnect: relay connections opened before the click", measured: String(socketsBeforeClick), target: "0", peers: "" },
      { metric: "WalletConnect: requests beyond this machine (load → pair → sign)", measured: String(outside.length), target: "0", peers: "" }
    ]
  } finally {
    await session.stop().catch((error: unknown) => console.error(`stopping the bench's demo: ${String(error)}`))
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.table(await walletConnectRows())
}
