/**
 * The recovery passkey under the wallet server's configured relying party (issue 30, item 3), and a device with
 * storage of its own recovering with it (item 2), in Chromium on the local stack. The frame is served as
 * `wallet.wr.localhost` and the wallet server is configured with `passkeyRpId: wr.localhost`, a domain the frame's
 * host name is under, as a host serving the frame from its own domain would set it.
 *
 * One tab, one virtual authenticator (CDP's WebAuthn is per tab, and a copy of a credential into another profile's
 * authenticator loses its PRF: measured, see the README's security section). The demo is served on two sites,
 * `localhost` (A) and `127.0.0.1` (B); the frame is cross-site under both, so Chromium keeps its storage and cookies
 * apart per top-level site: under B the frame holds nothing of A's, which is what a new device is to it. A logs in by
 * email and protects the wallet with a passkey made in the frame: the authenticator's credential is the configured
 * relying party's. B logs in with the same email, Recover opens by itself, the passkey recovers the same address, and
 * B signs (checked against the address).
 */
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Started } from "../../server/src/lib/Started"
import { type OpenDemo, openDemo, serveDemo } from "./support/demo"
import { connectedAddress, requestLoginCode, typeLoginCode } from "./support/embeddedLogin"
import { protectWallet, secureView, secureViewEnded } from "./support/secureViews"
import { sign } from "./support/signing"
import { authenticatorOn, type VirtualCredential } from "./support/virtualAuthenticator"

const FRAME_HOST = "wallet.wr.localhost"
const RP_ID = "wr.localhost"

let session: OpenDemo
// The same build served on the other site (127.0.0.1): B.
let siteB: Started<{ readonly url: string }>
// The wallet server's clock: moved past its 30 s between mails instead of waiting.
let clock: TestClock.TestClock

const frameUrl = () => session.stack.config.embedded!.frameUrl

/** Logs `email` in on `page` (the device link first when the device is new), past the server's 30 s between mails. */
const logIn = async (page: Page, email: string): Promise<void> => {
  await Effect.runPromise(clock.adjust(31_000))
  await typeLoginCode(page, await requestLoginCode(page, session.stack.mail!, email))
}

beforeAll(async () => {
  clock = await Effect.runPromise(Effect.scoped(TestClock.make({ warningDelay: "1 day" })))
  session = await openDemo({
    name: "recovery-passkey",
    parts: ["evm", "mail", "services", "embedded"],
    stack: { embeddedClock: clock, embeddedHost: FRAME_HOST, embeddedPasskeyRpId: RP_ID }
  })
  siteB = await serveDemo(session.outDir, session.stack, {}, {}, "127.0.0.1")
}, 240_000)

afterAll(async () => {
  await siteB?.stop()
  await session?.stop()
})

describe("the recovery passkey under the configured relying party", () => {
  it("A protects with a passkey of the configured RP ID (not the frame's host name); B, whose frame storage is its own, recovers with it to the same address and signs", async () => {
    expect(new URL(frameUrl()).hostname).toBe(FRAME_HOST)
    const page = session.browser.page
    const used: Array<VirtualCredential> = []
    // A virtual authenticator on the top page's session serves the cross-site frame too.
    const authenticator = await authenticatorOn(session.browser.context, page, { onUsed: (credential) => used.push(credential) })
    const email = "rp-passkey@example.com"

    await page.goto(session.url)
    expect(new URL(page.url()).hostname).toBe("localhost")
    await logIn(page, email)
    await page.getByRole("dialog").waitFor({ state: "hidden", timeout: 20_000 })
    const address = await connectedAddress(page)
    await protectWallet(page, frameUrl(), address, (frame) => frame.getByRole("button", { name: "Use a passkey instead" }).click())
    const made = await authenticator.credentials()
    expect(made).toHaveLength(1)
    expect(made[0]).toMatchObject({ isResidentCredential: true, rpId: RP_ID })
    await sign(page, address, "A, protected by a passkey of wr.localhost")

    // B: the other site in the same tab (the same authenticator). The frame's storage there is its own: the login
    // finds no share of the key, so Recover opens by itself.
    await page.goto(siteB.info.url)
    expect(new URL(page.url()).hostname).toBe("127.0.0.1")
    await logIn(page, email)
    const recover = await secureView(page, frameUrl(), "Recover your wallet")
    const assertedBefore = used.length
    await recover.getByRole("button", { name: "Use your passkey" }).click()
    await secureViewEnded(page)
    await page.getByRole("dialog").waitFor({ state: "hidden", timeout: 20_000 })
    expect(await connectedAddress(page)).toBe(address)
    // The recovery asserted A's passkey, the configured relying party's, and made none.
    expect(used.slice(assertedBefore).map((credential) => [credential.credentialId, credential.rpId])).toEqual([[made[0]!.credentialId, RP_ID]])
    expect(await authenticator.credentials()).toHaveLength(1)
    await sign(page, address, "B, recovered with the passkey of wr.localhost")
  }, 300_000)
})
