/**
 * Login → first signature bench (issue 30): the demo's production build on the local stack, an email login, then the
 * demo's "Sign message" approved by the script as soon as ApproveTransaction shows; timed from typing the one-time
 * code to the signature shown. On a known device (it holds its share of the split key: the visitor logged out and in
 * again) and on a new one (a fresh Chromium profile: Recover opens after the login and the script types the password as
 * soon as it shows; its step, scrypt (N = 2^17, 128 MiB) of the password once per recovery (the accounts share one
 * salt) and the new split, is timed apart; before one stretch per salt it ran three times per account). The wallet server's clock is moved past its 30 s between mails instead of waited for. Figures, not
 * assertions.
 *
 * Run: npx tsx bench/newDeviceLogin.ts
 */
import { pathToFileURL } from "node:url"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import type { Page } from "playwright-core"
import { launchBrowser } from "../test/e2e/support/browser"
import { openDemo } from "../test/e2e/support/demo"
import { accountButton, connectedAddress, emailLogin, requestLoginCode, typeLoginCode } from "../test/e2e/support/embeddedLogin"
import { protectWallet, protectWithPassword, recoverWithPassword, secureView, secureViewEnded } from "../test/e2e/support/secureViews"

const KNOWN_RUNS = 3
const NEW_RUNS = 2
const PASSWORD = "bench password, long enough"

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

const ms = (value: number) => `${value.toFixed(0)} ms`

/** Asks for a signature, approves it as soon as the view shows, and waits until the page shows a new signature. */
const signNow = async (page: Page, message: string): Promise<void> => {
  const previous = (await page.getByTestId("signature").textContent()) ?? ""
  await page.getByRole("textbox", { name: "Message" }).fill(message)
  await page.getByRole("button", { name: "Sign message" }).click()
  await page.getByRole("dialog").getByRole("button", { name: "Approve" }).click({ timeout: 30_000 })
  await page.waitForFunction(
    (before) => {
      const shown = document.querySelector("[data-testid=signature]")?.textContent ?? ""
      return shown !== before && /^0x[0-9a-f]+$/.test(shown)
    },
    previous,
    { timeout: 30_000 }
  )
}

/** The bench's rows: login → first signature on a known device and on a new one (recovery included). */
export const newDeviceLoginRows = async () => {
  const clock = await Effect.runPromise(Effect.scoped(TestClock.make({ warningDelay: "1 day" })))
  const pastMailGap = () => Effect.runPromise(clock.adjust(31_000))
  const session = await openDemo({ name: "bench-new-device", parts: ["evm", "mail", "services", "embedded"], stack: { embeddedClock: clock } })
  try {
    const mail = session.stack.mail!
    const frameUrl = session.stack.config.embedded!.frameUrl
    const email = "bench-new-device@example.com"
    const page = session.browser.page
    await page.goto(session.url)
    await emailLogin(page, mail, email)
    const address = await connectedAddress(page)
    await protectWallet(page, frameUrl, address, protectWithPassword(PASSWORD))

    const known: Array<number> = []
    for (let run = 0; run < KNOWN_RUNS; run++) {
      await accountButton(page, address).click()
      await page.getByRole("dialog").getByRole("button", { name: "Disconnect" }).click()
      await page.getByRole("button", { name: "Connect wallet" }).waitFor({ timeout: 20_000 })
      await pastMailGap()
      const code = await requestLoginCode(page, mail, email)
      const started = performance.now()
      await typeLoginCode(page, code)
      await page.getByRole("dialog").waitFor({ state: "hidden", timeout: 30_000 })
      await signNow(page, `known device, run ${run}`)
      known.push(performance.now() - started)
    }

    const fresh: Array<number> = []
    const recovering: Array<number> = []
    for (let run = 0; run < NEW_RUNS; run++) {
      const device = await launchBrowser()
      try {
        await device.page.goto(session.url)
        await pastMailGap()
        const code = await requestLoginCode(device.page, mail, email)
        const started = performance.now()
        await typeLoginCode(device.page, code)
        const recover = await secureView(device.page, frameUrl, "Recover your wallet")
        const recoverStarted = performance.now()
        await recoverWithPassword(PASSWORD)(recover)
        await secureViewEnded(device.page)
        recovering.push(performance.now() - recoverStarted)
        await device.page.getByRole("dialog").waitFor({ state: "hidden", timeout: 30_000 })
        await signNow(device.page, `new device, run ${run}`)
        fresh.push(performance.now() - started)
      } finally {
        await device.close()
      }
    }
    return [
      { metric: `login → first signature, known device: code typed → signature shown (median of ${KNOWN_RUNS})`, measured: ms(median(known)), target: "—", peers: "" },
      {
        metric: `login → first signature, new device (recovery included): code typed → signature shown (median of ${NEW_RUNS})`,
        measured: ms(median(fresh)),
        target: "—",
        peers: ""
      },
      {
        metric: `  of which Recover: password sent → view ended (scrypt N=2^17 once, the new split) (median of ${NEW_RUNS})`,
        measured: ms(median(recovering)),
        target: "—",
        peers: ""
      }
    ]
  } finally {
    await session.stop()
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) console.table(await newDeviceLoginRows())
