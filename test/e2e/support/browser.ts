/**
 * Debian Chromium driven by playwright-core, as FACTS.md prescribes: a fresh profile per launch, no background
 * networking, and host resolution limited to loopback (`localhost`, names under it, 127.0.0.1) — the page can reach
 * nothing else. Every request the page makes is recorded so tests can assert what left it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { type BrowserContext, chromium, type Page } from "playwright-core"

/** Where Debian installs Chromium. */
export const CHROMIUM = "/usr/bin/chromium"

/** A browser context with the requests of its pages. */
export interface Browser {
  readonly context: BrowserContext
  readonly page: Page
  /** Every request URL made by pages of this context, in order. */
  readonly requests: Array<string>
  readonly close: () => Promise<void>
}

/** True for a URL that stays on this machine. */
export const isLoopback = (url: string): boolean => {
  if (url.startsWith("data:") || url.startsWith("blob:") || url.startsWith("about:")) return true
  try {
    const host = new URL(url).hostname
    return host === "127.0.0.1" || host === "localhost" || host.endsWith(".localhost") || host === "[::1]"
  } catch {
    return false
  }
}

/** How a launched Chromium treats a cross-site frame's cookies and storage. */
export interface BrowserOptions {
  /**
   * The profile's third-party cookie setting (`profile.cookie_controls_mode` in its Preferences, as the settings page
   * writes it): `block` (1) also denies a cross-site frame its storage, leaving it only Partitioned (CHIPS) cookies;
   * `allow` (0) gives the frame its cookies and storage, the storage partitioned by the top-level site. Unset:
   * Chromium's default (Debian's Chromium 156 here blocks, as `block`).
   */
  readonly thirdPartyCookies?: "block" | "allow"
}

/** Launches Chromium with a fresh profile. */
export const launchBrowser = async (options: BrowserOptions = {}): Promise<Browser> => {
  const profile = mkdtempSync(join(tmpdir(), "wr-chromium-"))
  if (options.thirdPartyCookies !== undefined) {
    mkdirSync(join(profile, "Default"))
    const mode = options.thirdPartyCookies === "block" ? 1 : 0
    writeFileSync(join(profile, "Default", "Preferences"), JSON.stringify({ profile: { cookie_controls_mode: mode } }))
  }
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      // Names under localhost are loopback too (Chromium resolves them so): a frame under a domain of its own.
      "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1, EXCLUDE localhost, EXCLUDE *.localhost"
    ],
    viewport: { width: 1280, height: 800 }
  })
  const requests: Array<string> = []
  context.on("request", (request) => requests.push(request.url()))
  const page = context.pages()[0] ?? (await context.newPage())
  return {
    context,
    page,
    requests,
    close: async () => {
      await context.close()
      rmSync(profile, { recursive: true, force: true })
    }
  }
}

/**
 * Waits until the page's finite animations (the modal fading in, a sheet rising) have finished, so what is measured
 * or photographed is what the visitor sees at rest; endless ones (spinners, placeholders) are not waited for.
 */
export const animationsSettled = async (page: Page): Promise<void> => {
  await page.evaluate(() =>
    Promise.allSettled(
      document
        .getAnimations()
        .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
        .map((animation) => animation.finished)
    )
  )
}
