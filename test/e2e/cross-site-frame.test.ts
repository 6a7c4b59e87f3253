/**
 * The embedded wallet when the host page and the frame are on different sites: the demo on 127.0.0.1, the frame on
 * localhost (on loopback they are two sites), in Chromium. With third-party cookies and storage blocked the frame
 * keeps its session in a Partitioned (CHIPS) cookie of its own (Chromium's default here blocks too), or, where the
 * browser has granted it storage access under this host, in its unpartitioned cookies; with third-party cookies
 * allowed, in its localStorage. Each way: email login, a reload of the host page, still connected to the same address, and a
 * personal_sign approved and verified. The host page gets nothing that would let it use the session alone.
 */
import type { Page } from "playwright-core"
import { verifyMessage } from "viem"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { FRAME_STORAGE_KEYS } from "../../server/src/embedded/frame/frameLogic"
import { FRAME_COOKIE_PATH } from "../../server/src/embedded/frame/FrameStore"
import type { Started } from "../../server/src/lib/Started"
import { type Browser, type BrowserOptions, launchBrowser } from "./support/browser"
import { serveDemo, type ServedDemo, serveDemoOnStack } from "./support/demo"
import { accountButton, connectedAddress } from "./support/embeddedLogin"

let served: ServedDemo
// The demo again, on 127.0.0.1: another site than the frame's.
let crossSite: Started<{ readonly url: string }>
let frameUrl = ""

const SESSION_COOKIE = encodeURIComponent(FRAME_STORAGE_KEYS.token)

beforeAll(async () => {
  served = await serveDemoOnStack("cross-site", ["evm", "solana", "mail", "services", "embedded"])
  crossSite = await serveDemo(served.outDir, served.stack.info, {}, {}, "127.0.0.1")
  frameUrl = served.stack.info.config.embedded!.frameUrl
  expect(new URL(frameUrl).hostname).toBe("localhost")
  expect(new URL(crossSite.info.url).hostname).toBe("127.0.0.1")
}, 180_000)

afterAll(async () => {
  await crossSite?.stop()
  await served?.stop()
})

/** The newest code mailed to `to` after `after` (epoch ms), waited for (bounded). */
const codeFor = async (to: string, after: number): Promise<string> => {
  const mail = served.stack.info.mail!
  await expect.poll(() => mail.messages(to).filter((m) => m.receivedAt >= after && m.codes.length > 0).length, { timeout: 15_000 }).toBeGreaterThan(0)
  return mail.messages(to).find((m) => m.receivedAt >= after && m.codes.length > 0)!.codes[0]!
}

/** Logs in on the page's demo with `email` and its mailed code; the connected address. */
const emailLogin = async (page: Page, email: string): Promise<`0x${string}`> => {
  const dialog = page.getByRole("dialog")
  await page.getByRole("button", { name: "Connect wallet" }).click()
  const field = dialog.getByRole("textbox", { name: "Continue with email" })
  await field.fill(email)
  const sent = Date.now()
  await field.press("Enter")
  await dialog.getByText(/Enter the 6-digit code we sent to/).waitFor({ timeout: 20_000 })
  await dialog.getByRole("textbox", { name: /code/i }).fill(await codeFor(email, sent))
  await dialog.waitFor({ state: "hidden", timeout: 20_000 })
  return connectedAddress(page)
}

/** Signs `message` through the demo, approved in the modal; the signature verifies as `address`'s. */
const signsAs = async (page: Page, address: `0x${string}`, message: string): Promise<void> => {
  const dialog = page.getByRole("dialog")
  await page.getByRole("textbox", { name: "Message" }).fill(message)
  await page.getByRole("button", { name: "Sign message" }).click()
  await dialog.getByRole("heading", { name: "Sign this message" }).waitFor({ timeout: 20_000 })
  await dialog.getByText(message).waitFor()
  await dialog.getByRole("button", { name: "Approve" }).click()
  await expect.poll(() => page.getByTestId("signature").textContent(), { timeout: 20_000 }).toMatch(/^0x[0-9a-f]+$/)
  const signature = (await page.getByTestId("signature").textContent()) as `0x${string}`
  expect(await verifyMessage({ address, message, signature })).toBe(true)
  await dialog.waitFor({ state: "hidden" })
}

/** The wallet's frame in the page (waited for, bounded). */
const walletFrame = async (page: Page) => {
  await expect.poll(() => page.frames().some((f) => f.url().startsWith(`${frameUrl}/frame`)), { timeout: 20_000 }).toBe(true)
  return page.frames().find((f) => f.url().startsWith(`${frameUrl}/frame`))!
}

/** Whether the frame may use its origin's localStorage here: Chromium throws when it blocks third-party storage. */
const frameLocalStorage = async (page: Page): Promise<{ readonly allowed: boolean; readonly token: string | null }> =>
  (await walletFrame(page)).evaluate((key) => {
    try {
      return { allowed: true, token: window.localStorage.getItem(key) }
    } catch {
      return { allowed: false, token: null }
    }
  }, FRAME_STORAGE_KEYS.token)

/** The browser's cookies of the frame's host, with their partition (`partitionKey`: the host's site, or none). */
const frameCookies = async (browser: Browser) => (await browser.context.cookies()).filter((c) => c.domain === new URL(frameUrl).hostname)

/** Opens a browser of `options`, runs `use`, and closes it. */
const withBrowser = async (options: BrowserOptions, use: (browser: Browser) => Promise<void>): Promise<void> => {
  const browser = await launchBrowser(options)
  try {
    await use(browser)
  } finally {
    await browser.close()
  }
}

describe("a cross-site host with third-party cookies and storage blocked (profile.cookie_controls_mode 1)", () => {
  it("the frame keeps its session in a Partitioned cookie: a reload is still connected to the same address, and it signs", async () => {
    await withBrowser({ thirdPartyCookies: "block" }, async (browser) => {
      const { page } = browser
      await page.goto(crossSite.info.url)
      const address = await emailLogin(page, "blocked@example.test")
      // The browser did block the frame's storage: reading localStorage throws there.
      expect(await frameLocalStorage(page)).toEqual({ allowed: false, token: null })
      const session = (await frameCookies(browser)).find((c) => c.name === SESSION_COOKIE)
      expect(session).toMatchObject({ path: FRAME_COOKIE_PATH, secure: true, sameSite: "None", httpOnly: false, partitionKey: "http://127.0.0.1" })

      await page.reload()
      expect(await connectedAddress(page)).toBe(address)
      await signsAs(page, address, "Signed after a reload, across sites")

      // Signing out removes the cookie (the removal names the same partition): a reload shows no wallet.
      await accountButton(page, address).click()
      await page.getByRole("dialog").getByRole("button", { name: "Disconnect" }).click()
      await page.getByRole("button", { name: "Connect wallet" }).waitFor()
      await expect.poll(async () => (await frameCookies(browser)).map((c) => c.name)).not.toContain(SESSION_COOKIE)
      await page.reload()
      await page.getByRole("button", { name: "Connect wallet" }).waitFor()
    })
  })

  it("the host page can neither read nor use the session: not in its storage, refused by the bridge and the API, unknown under another site", async () => {
    await withBrowser({ thirdPartyCookies: "block" }, async (browser) => {
      const { page, context } = browser
      await context.addInitScript(() => {
        const received: Array<unknown> = []
        ;(window as unknown as { __received: Array<unknown> }).__received = received
        window.addEventListener("message", (event) => received.push(event.data))
      })
      await page.goto(crossSite.info.url)
      const address = await emailLogin(page, "host@example.test")
      const token = decodeURIComponent((await frameCookies(browser)).find((c) => c.name === SESSION_COOKIE)?.value ?? "")
      expect(token).toMatch(/^[-_A-Za-z0-9]{40,}$/)

      // Nothing the host page keeps or was sent holds the token.
      const hostView = await page.evaluate(() =>
        JSON.stringify({
          local: Object.entries(localStorage),
          session: Object.entries(sessionStorage),
          cookies: document.cookie,
          received: (window as unknown as { __received: Array<unknown> }).__received
        })
      )
      expect(hostView).not.toContain(token)

      // The bridge has no message that would carry it: a request for it gets no answer at all, while the one sent
      // after it is answered (the frame handles messages in order, so the first was dropped by then).
      const ask = (messages: ReadonlyArray<unknown>) =>
        page.evaluate(
          ({ messages, frameUrl }) => {
            const iframe = [...document.querySelectorAll("iframe")].find((f) => f.src.startsWith(`${frameUrl}/frame`))
            for (const message of messages) iframe?.contentWindow?.postMessage(message, frameUrl)
          },
          { messages, frameUrl }
        )
      await ask([
        { id: "token-1", type: "@wr-app/GET_SESSION_TOKEN" },
        { id: "token-2", type: "@wr-app/GET_USER", payload: { chainId: 31337, token: "give" } },
        { id: "token-3", type: "@wr-app/IS_CONNECTED" }
      ])
      const replies = () =>
        page.evaluate(() =>
          (window as unknown as { __received: Array<{ readonly id?: string; readonly type?: string; readonly payload?: unknown }> }).__received.filter(
            (m) => typeof m?.id === "string" && m.id.startsWith("token-")
          )
        )
      await expect.poll(async () => (await replies()).map((m) => m.id), { timeout: 10_000 }).toContain("token-3")
      const answered = await replies()
      expect(answered.map((m) => `${m.id} ${m.type}`)).toEqual(["token-3 @wr-frame/IS_CONNECTED_SUCCESS"])
      expect(answered[0]?.payload).toEqual({ isConnected: true })

      // A page of the host's site (another origin: the stack's services on 127.0.0.1, without the demo's CSP) calling
      // the wallet server itself with the browser's cookies of this site: refused, and the session cookie is not even
      // sent to the API (it is scoped to the frame page).
      const sameSiteOther = await context.newPage()
      await sameSiteOther.goto(`${served.stack.info.config.services!.url}/healthz`)
      const userUrl = `${frameUrl}/api/user?projectId=${served.stack.info.config.services!.defaultProjectId}`
      const apiAnswer = sameSiteOther.waitForResponse((response) => response.url() === userUrl)
      // no-cors, so the browser completes the request (a CORS one fails before the test can see the answer); the page
      // itself gets an opaque answer either way.
      const seen = await sameSiteOther.evaluate((url) => fetch(url, { credentials: "include", mode: "no-cors" }).then((r) => r.type), userUrl)
      expect(seen).toBe("opaque")
      const response = await apiAnswer
      // Not logged in: no bearer, and no cookie stands in for one (the opaque answer's body is not kept to read).
      expect(response.status()).toBe(401)
      expect(await response.request().headerValue("cookie")).toBeNull()
      await sameSiteOther.close()

      // Under another top-level site the session is unknown: the frame embedded by the demo on the frame's own site
      // (an allowed page) says it is not connected, and the frame page opened on its own sees no session cookie.
      const other = await context.newPage()
      await other.goto(served.demo.info.url)
      const frameSrc = `${frameUrl}/frame?projectId=${served.stack.info.config.services!.defaultProjectId}&chainId=31337&version=1&enableLogger=false`
      const elsewhere = await other.evaluate(
        (src) =>
          new Promise<unknown>((resolve, reject) => {
            const bound = setTimeout(() => reject(new Error("the frame did not answer within 15 s")), 15_000)
            const iframe = document.createElement("iframe")
            iframe.src = src
            window.addEventListener("message", (event) => {
              const data = event.data as { readonly id?: string; readonly type?: string; readonly payload?: unknown }
              if (data?.type === "@wr-frame/READY") iframe.contentWindow?.postMessage({ id: "elsewhere", type: "@wr-app/IS_CONNECTED" }, new URL(src).origin)
              if (data?.id === "elsewhere") {
                clearTimeout(bound)
                resolve(data)
              }
            })
            document.body.appendChild(iframe)
          }),
        frameSrc
      )
      expect(elsewhere).toEqual({ id: "elsewhere", type: "@wr-frame/IS_CONNECTED_SUCCESS", payload: { isConnected: false } })
      await other.goto(frameSrc)
      expect(await other.evaluate(() => document.cookie)).not.toContain(token)
      await other.close()
      // And the visitor is still connected on the host that holds it.
      expect(await connectedAddress(page)).toBe(address)
    })
  })
})

describe("a cross-site host where the browser granted the frame storage access (the Storage Access API)", () => {
  it("the frame asks no click of the visitor, keeps its session in its own unpartitioned cookies, and a reload stays connected", async () => {
    await withBrowser({ thirdPartyCookies: "block" }, async (browser) => {
      const { page, context } = browser
      // What a visitor's earlier "Allow" leaves in the browser: the frame's origin may have its storage under this
      // host. (Chromium 156 keys it by the top-level origin, then the frame's: Playwright's grantPermissions does not.)
      const cdp = await context.newCDPSession(page)
      await cdp.send("Browser.setPermission", {
        permission: { name: "storage-access" },
        setting: "granted",
        origin: new URL(crossSite.info.url).origin,
        embeddedOrigin: new URL(frameUrl).origin
      })
      await page.goto(crossSite.info.url)
      const address = await emailLogin(page, "granted@example.test")
      const session = (await frameCookies(browser)).find((c) => c.name === SESSION_COOKIE)
      expect(session).toBeDefined()
      expect(session?.partitionKey).toBeUndefined()
      await page.reload()
      expect(await connectedAddress(page)).toBe(address)
      await signsAs(page, address, "Signed with storage access")
    })
  })
})

describe("a cross-site host in Chromium's default profile here (no cookie setting written)", () => {
  it("the default blocks the frame's storage too: the Partitioned cookie keeps the session across a reload", async () => {
    await withBrowser({}, async (browser) => {
      const { page } = browser
      await page.goto(crossSite.info.url)
      const address = await emailLogin(page, "default@example.test")
      expect((await frameLocalStorage(page)).allowed).toBe(false)
      expect((await frameCookies(browser)).find((c) => c.name === SESSION_COOKIE)?.partitionKey).toBe("http://127.0.0.1")
      await page.reload()
      expect(await connectedAddress(page)).toBe(address)
    })
  })
})

describe("a cross-site host with third-party cookies allowed (profile.cookie_controls_mode 0)", () => {
  it("the frame keeps its session in its localStorage, no cookie written; a reload stays connected and signs", async () => {
    await withBrowser({ thirdPartyCookies: "allow" }, async (browser) => {
      const { page } = browser
      await page.goto(crossSite.info.url)
      const address = await emailLogin(page, "allowed@example.test")
      const inFrame = await frameLocalStorage(page)
      expect(inFrame.allowed).toBe(true)
      expect(inFrame.token).toMatch(/^[-_A-Za-z0-9]{40,}$/)
      expect((await frameCookies(browser)).map((c) => c.name)).not.toContain(SESSION_COOKIE)
      await page.reload()
      expect(await connectedAddress(page)).toBe(address)
      await signsAs(page, address, "Signed with third-party storage allowed")
    })
  })
})
