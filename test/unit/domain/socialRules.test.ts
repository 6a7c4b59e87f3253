/**
 * The pure rules of social login: which providers the Connect view offers (the host's order, farcaster among them,
 * the mini-app's OS filter of spec 5), and which `result_uri` may complete a login (only the frame origin's callback)
 * and how the page's address is cleaned of it.
 */
import { describe, expect, it } from "vitest"
import { offeredSocials } from "../../../src/domain/validation"
import { isFrameCallback, withoutResultUri } from "../../../src/services/Embedded/socialUrls"

const ALL = ["google", "x", "discord", "farcaster", "github", "apple", "facebook"] as const

describe("offeredSocials", () => {
  it.each([
    [undefined, ["google", "x", "discord", "farcaster", "github", "apple", "facebook"]],
    ["ios", ["x", "discord", "farcaster", "github", "apple", "facebook"]],
    ["mac", ["google", "discord", "farcaster", "github", "apple", "facebook"]],
    ["android", ["google", "discord", "farcaster", "github", "apple"]],
    ["other", ["google", "x", "discord", "farcaster", "github", "apple", "facebook"]]
  ] as const)("in a mini-app on %s: %j", (miniApp, offered) => {
    expect(offeredSocials(ALL, miniApp)).toEqual(offered)
  })

  it("keeps the host's order, and offers nothing with socials off", () => {
    expect(offeredSocials(["facebook", "google"], undefined)).toEqual(["facebook", "google"])
    expect(offeredSocials(false, undefined)).toEqual([])
    expect(offeredSocials(["farcaster"], undefined)).toEqual(["farcaster"])
    expect(offeredSocials(["myspace", "github"], undefined)).toEqual(["github"])
  })
})

describe("result_uri", () => {
  const FRAME = "https://wallet.example.com"
  it.each([
    ["https://wallet.example.com/social/callback?code=c&state=s", true],
    ["https://wallet.example.com/social/callback?code=c", false],
    ["https://wallet.example.com/other?code=c&state=s", false],
    ["https://wallet.example.com.evil.test/social/callback?code=c&state=s", false],
    ["http://wallet.example.com/social/callback?code=c&state=s", false],
    ["https://wallet.example.com:8443/social/callback?code=c&state=s", false],
    ["javascript:alert(1)", false],
    ["not a url", false]
  ] as const)("%s completes a login: %s", (uri, ok) => {
    expect(isFrameCallback(uri, FRAME)).toBe(ok)
  })

  it("is removed from the page's address, the rest kept", () => {
    expect(withoutResultUri("https://app.test/shop?item=1&result_uri=https%3A%2F%2Fw%2Fsocial%2Fcallback#top")).toBe("https://app.test/shop?item=1#top")
    expect(withoutResultUri("https://app.test/?result_uri=x")).toBe("https://app.test/")
  })
})
