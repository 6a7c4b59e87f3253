/**
 * Drives a local identity provider's login page (`devstack/identity`) as a browser would, over plain `fetch` with a
 * cookie jar: follows the authorization URI to the login page, picks or types an account, and follows the redirects
 * until the provider sends the browser to the wallet server's callback. Answers that callback address.
 */
import { expect } from "vitest"

const MAX_HOPS = 10

/** Logs `account` in at the provider the authorization URI `uri` points at; answers the callback address it gives. */
export const loginAtProvider = async (uri: string, account: string, callbackPrefix: string): Promise<URL> => {
  const cookies = new Map<string, string>()
  const request = async (url: URL, init: RequestInit = {}) => {
    const response = await fetch(url, {
      ...init,
      redirect: "manual",
      headers: { ...(init.headers as Record<string, string> | undefined), cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join("; ") }
    })
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";")
      const at = pair.indexOf("=")
      cookies.set(pair.slice(0, at), pair.slice(at + 1))
    }
    return response
  }
  // Follows redirects until the callback (answered) or a page (its address and HTML).
  const follow = async (start: Response, from: URL): Promise<{ readonly url: URL; readonly callback: boolean; readonly html: string }> => {
    let response = start
    let url = from
    for (let hop = 0; hop < MAX_HOPS; hop++) {
      const location = response.headers.get("location")
      if (response.status < 300 || response.status >= 400 || location === null) return { url, callback: false, html: await response.text() }
      url = new URL(location, url)
      if (url.href.startsWith(callbackPrefix)) return { url, callback: true, html: "" }
      response = await request(url)
    }
    throw new Error("too many redirects")
  }
  const first = new URL(uri)
  const page = await follow(await request(first), first)
  expect(page.callback).toBe(false)
  expect(page.html).toContain("pick a test account")
  const action = /<form method="post" action="([^"]+\/login)">/.exec(page.html)?.[1]
  expect(action).toBeDefined()
  const target = new URL(action ?? "", page.url)
  const posted = await request(target, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ account }).toString()
  })
  const end = await follow(posted, target)
  expect(end.callback).toBe(true)
  return end.url
}
