/**
 * A new device (issue 30, item 2) in Chromium on the local stack, each step after a reload checked against the chain:
 * profile A logs in by email, protects the wallet (the Account view's "Protect your wallet", in the frame's own view)
 * and signs; a fresh profile B (another persistent context on a fresh folder) logs in with the same email, and Recover
 * opens by itself. With a password: a wrong one gets the server's growing wait in words, the right one recovers the
 * same address; B signs (the signature checked against the address) and sends 0.01 ETH (its transaction counted on
 * anvil). B's recovery split the key again, which retires A's share: A is told in words that this device must recover,
 * recovers, and signs the request it held. With a passkey: Chromium's virtual authenticator cannot hand another
 * profile a passkey's PRF (CDP's credential has no field for it), so B's copy gets no recovery secret: B is told so,
 * stays connected without signing, and A is unharmed; A itself, without its device share, recovers with the passkey.
 * With sign-in required by the host (the demo's `?signIn=required`), a new device's Recover comes before the sign-in
 * message: cancelled, the sign view says why and Disconnect disconnects; recovered, the message is signed and the
 * services keep the session; after a reload that restores a session still without its share, Recover comes first again;
 * a key only the first device protects is said in words with Check again and Disconnect, and once the first device
 * protects it, Check again opens Recover and the message is signed.
 * A user whose keys the server sealed the old way (seeded in the stack's database under its
 * master key) logs in: the frame splits each key at the same address, the sealed rows are gone, and the wallet signs
 * and sends on anvil, then signs on Solana (verified against the migrated Solana address).
 */
import { randomBytes } from "node:crypto"
import { getBase58Encoder, getPublicKeyFromAddress, address as solanaAddress, verifySignature } from "@solana/kit"
import type { Frame, Page } from "playwright-core"
import { createPublicClient, createWalletClient, http, parseEther } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { foundry } from "viem/chains"
import { Effect } from "effect"
import { TestClock } from "effect/testing"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { newDeviceWords } from "../../src/domain/newDevice"
import { SECURE_FRAME_ATTRIBUTE } from "../../src/services/FrameBridge/revealFrame"
import { keysInDatabase, legacyUser } from "../integration/support/legacyKeys"
import { type Browser, launchBrowser } from "./support/browser"
import { type OpenDemo, openDemo } from "./support/demo"
import { accountButton, connectedAddress, expectAxeClean, requestLoginCode, typeLoginCode } from "./support/embeddedLogin"
import { protectWallet, protectWithPassword, recoverWithPassword, secureView, secureViewEnded } from "./support/secureViews"
import { askSignature, expectSignedBy, sign } from "./support/signing"
import { serviceSessions } from "./support/siwxSessions"
import { authenticatorOn } from "./support/virtualAuthenticator"

let session: OpenDemo
// The wallet server's clock: moved past its 30 s between mails and its wait after a wrong password, instead of waiting.
let clock: TestClock.TestClock
const moveServerClock = (ms: number) => Effect.runPromise(clock.adjust(ms))
const PASSWORD = "correct horse battery staple"
// The wallet server's master key, known here so a user of before split keys can be given keys sealed under it.
const MASTER_KEY = new Uint8Array(randomBytes(32))
const opened: Array<Browser> = []

// The host these tests play offers the EVM networks only (the demo's `families`); the stack runs Solana for the
// migration's test, whose host offers both.
const EVM_ONLY = "?families=eip155"

/** A fresh Chromium profile (its own folder): a device the wallet has never seen, on the demo with `query`. */
const newProfile = async (query = EVM_ONLY): Promise<Browser> => {
  const browser = await launchBrowser()
  opened.push(browser)
  await browser.page.goto(`${session.url}${query}`)
  return browser
}

/** Logs `email` in on `profile` (the device link first when the device is new), past the server's 30 s between mails. */
const logIn = async (profile: Browser, email: string): Promise<void> => {
  await moveServerClock(31_000)
  await typeLoginCode(profile.page, await requestLoginCode(profile.page, session.stack.mail!, email))
}

const frameUrl = () => session.stack.config.embedded!.frameUrl

/** A fresh profile logs `email` in; the modal closes on the wallet's address. */
const firstLogin = async (email: string): Promise<{ readonly profile: Browser; readonly address: `0x${string}` }> => {
  const profile = await newProfile()
  await logIn(profile, email)
  await profile.page.getByRole("dialog").waitFor({ state: "hidden", timeout: 20_000 })
  return { profile, address: await connectedAddress(profile.page) }
}

/** The wallet's frame in `page`. */
const walletFrame = (page: Page): Frame => {
  const frame = page.frames().find((f) => f.url().startsWith(`${frameUrl()}/frame?`))
  if (frame === undefined) throw new Error("the embedded wallet's frame is not in the page")
  return frame
}

/** Sends the demo's 0.01 ETH from `address` (funded first): confirmed in the page, and one more transaction on anvil. */
const sendOnAnvil = async (page: Page, address: string) => {
  const evm = session.stack.config.evm!
  const chain = evm.chains.find((c) => c.chainId === 31337)!
  const rpc = createPublicClient({ chain: foundry, transport: http(chain.rpcUrl) })
  const funder = createWalletClient({ account: privateKeyToAccount(evm.accounts[0]!.privateKey as `0x${string}`), chain: foundry, transport: http(chain.rpcUrl) })
  await rpc.waitForTransactionReceipt({ hash: await funder.sendTransaction({ to: address as `0x${string}`, value: parseEther("1") }), timeout: 20_000 })
  const nonce = await rpc.getTransactionCount({ address: address as `0x${string}` })
  await page.getByRole("button", { name: "Send", exact: true }).click()
  const dialog = page.getByRole("dialog")
  await dialog.getByRole("heading", { name: "Approve this transaction" }).waitFor({ timeout: 20_000 })
  await dialog.getByText("0.01 ETH").waitFor()
  await dialog.getByRole("button", { name: "Approve" }).click()
  await expect.poll(() => page.getByTestId("transaction").textContent(), { timeout: 30_000 }).toContain("confirmed in block")
  expect(await rpc.getTransactionCount({ address: address as `0x${string}` })).toBe(nonce + 1)
}

/** A reload: the wallet comes back on `address`. */
const reload = async (page: Page, address: string) => {
  await page.reload()
  expect(await connectedAddress(page)).toBe(address)
}

/** Recover's view ends and the modal closes on the same address; after a reload the wallet signs and sends. */
const recoveredThenSignsAndSends = async (page: Page, address: string, message: string) => {
  await secureViewEnded(page)
  await page.getByRole("dialog").waitFor({ state: "hidden", timeout: 10_000 })
  expect(await connectedAddress(page)).toBe(address)
  await reload(page, address)
  await sign(page, address, message)
  await sendOnAnvil(page, address)
}

/**
 * A after B's recovery: its share is retired, so a signing request says in words that this device must recover and
 * offers it instead of Approve; recovered with `how`, the request it held is signed.
 */
const firstDeviceRecovers = async (page: Page, address: string, how: (frame: Frame) => Promise<void>) => {
  await reload(page, address)
  const message = "A again, after B recovered"
  const dialog = await askSignature(page, message)
  await dialog.getByText(newDeviceWords("password")).waitFor({ timeout: 20_000 })
  expect(await dialog.getByRole("button", { name: "Approve" }).count()).toBe(0)
  await dialog.getByRole("button", { name: "Recover wallet" }).click()
  await how(await secureView(page, frameUrl(), "Recover your wallet"))
  await secureViewEnded(page)
  await dialog.getByRole("button", { name: "Approve" }).click()
  await expectSignedBy(page, address, message)
}

beforeAll(async () => {
  clock = await Effect.runPromise(Effect.scoped(TestClock.make({ warningDelay: "1 day" })))
  session = await openDemo({
    name: "new-device",
    parts: ["evm", "solana", "mail", "services", "embedded"],
    stack: { embeddedClock: clock, embeddedMasterKey: MASTER_KEY }
  })
}, 240_000)

afterAll(async () => {
  for (const browser of opened) await browser.close()
  await session?.stop()
})

describe("a new device recovers the wallet", () => {
  it("with a password: Recover opens after B's login, a wrong password waits in the server's words, the right one gives the same address; B signs and sends; A must recover again", async () => {
    const email = "nd-password@example.com"
    const { profile: a, address } = await firstLogin(email)
    await protectWallet(a.page, frameUrl(), address, protectWithPassword(PASSWORD))
    await reload(a.page, address)
    await sign(a.page, address, "A, protected by a password")

    const b = await newProfile()
    await logIn(b, email)
    const recover = await secureView(b.page, frameUrl(), "Recover your wallet")
    await recover.getByLabel("Password").fill("not the password at all")
    await recover.getByRole("button", { name: "Recover wallet" }).click()
    await recover.getByText("The password or passkey is not the right one: you may try again after 5 seconds").waitFor({ timeout: 60_000 })
    // The server's wait, on its clock.
    await moveServerClock(6_000)
    await recoverWithPassword(PASSWORD)(recover)
    await recoveredThenSignsAndSends(b.page, address, "B, recovered with the password")

    await firstDeviceRecovers(a.page, address, recoverWithPassword(PASSWORD))
  }, 300_000)

  it("with a passkey: Chromium cannot copy a passkey's PRF to another profile, so B is told in words and stays connected without signing, A unharmed; a device without its share recovers with the passkey itself", async () => {
    const email = "nd-passkey@example.com"
    const a = await newProfile()
    // A virtual authenticator on the top page serves the cross-site frame too.
    const authA = await authenticatorOn(a.context, a.page)
    await logIn(a, email)
    await a.page.getByRole("dialog").waitFor({ state: "hidden", timeout: 20_000 })
    const address = await connectedAddress(a.page)
    await protectWallet(a.page, frameUrl(), address, (frame) => frame.getByRole("button", { name: "Use a passkey instead" }).click())
    await reload(a.page, address)
    await sign(a.page, address, "A, protected by a passkey")

    // B's authenticator gets A's passkey (WebAuthn.getCredentials → addCredential). Measured: CDP's credential carries
    // its private key but not the PRF's secret, so the copy answers the assertion without a PRF result.
    const b = await newProfile()
    const passkeys = await authA.credentials()
    expect(passkeys).toHaveLength(1)
    await authenticatorOn(b.context, b.page, { credentials: passkeys })
    await logIn(b, email)
    const recover = await secureView(b.page, frameUrl(), "Recover your wallet")
    await recover.getByRole("button", { name: "Use your passkey" }).click()
    await recover.getByText("This passkey cannot protect a wallet (its authenticator has no PRF): use a password instead.").waitFor({ timeout: 30_000 })
    await recover.getByRole("button", { name: "Cancel" }).click()
    await secureViewEnded(b.page)
    // Cancelled: connected on the same address, the Account view says why it cannot sign here and offers Recover.
    const dialogB = b.page.getByRole("dialog")
    await dialogB.getByText(newDeviceWords("passkey")).waitFor({ timeout: 10_000 })
    await dialogB.getByRole("button", { name: "Recover your wallet on this device" }).waitFor()
    await expectAxeClean(b.page, ["light", "dark"])
    await b.page.keyboard.press("Escape")
    await reload(b.page, address)
    const asked = await askSignature(b.page, "B without a share")
    await asked.getByText(newDeviceWords("passkey")).waitFor({ timeout: 20_000 })
    expect(await asked.getByRole("button", { name: "Approve" }).count()).toBe(0)
    await expectAxeClean(b.page, ["light", "dark"])
    await asked.getByRole("button", { name: "Reject" }).click()
    await expect.poll(() => b.page.getByTestId("signature").textContent(), { timeout: 10_000 }).toBe("Error: User rejected the request.")

    // Nothing changed for A: it still signs.
    await reload(a.page, address)
    await sign(a.page, address, "A, after B's failed recovery")

    // A without its device share (what a new device is to the frame), with the passkey in its own authenticator: the
    // login opens Recover, the passkey recovers the same address, and the wallet signs and sends.
    await accountButton(a.page, address).click()
    await a.page.getByRole("dialog").getByRole("button", { name: "Disconnect" }).click()
    await a.page.getByRole("button", { name: "Connect wallet" }).waitFor({ timeout: 20_000 })
    const dropped = await walletFrame(a.page).evaluate(() => {
      const shares = Object.keys(localStorage).filter((key) => key.startsWith("wr-frame/device-share/"))
      for (const key of shares) localStorage.removeItem(key)
      return shares.length
    })
    expect(dropped).toBeGreaterThan(0)
    await logIn(a, email)
    const again = await secureView(a.page, frameUrl(), "Recover your wallet")
    await again.getByRole("button", { name: "Use your passkey" }).click()
    await recoveredThenSignsAndSends(a.page, address, "A, recovered with its passkey")
  }, 300_000)
})

/** The sessions the services keep for `address` on chain 31337 (sign-in with the wallet, the demo's `?signIn=`). */
const sessionsOf = (address: string) => serviceSessions(session.stack, session.url, `eip155:31337:${address}`)

const SIGN_IN_HEADING = "Sign in to Wallet Runtime demo"

/** A (a fresh profile) logs `email` in and protects the wallet with the password; its address. */
const protectedOnA = async (email: string): Promise<string> => {
  const { profile: a, address } = await firstLogin(email)
  await protectWallet(a.page, frameUrl(), address, protectWithPassword(PASSWORD))
  return address
}

/** A new profile on the demo requiring sign-in logs `email` in: Recover comes first, with no sign-in message asked yet. */
const newDeviceSignIn = async (email: string): Promise<{ readonly profile: Browser; readonly recover: Frame }> => {
  const profile = await newProfile(`${EVM_ONLY}&signIn=required`)
  await logIn(profile, email)
  return { profile, recover: await recoverBeforeSignIn(profile.page) }
}

/** Recover shown in `page` before any sign-in message (the sign view's heading not there); its frame. */
const recoverBeforeSignIn = async (page: Page): Promise<Frame> => {
  const recover = await secureView(page, frameUrl(), "Recover your wallet")
  expect(await page.getByRole("dialog").getByRole("heading", { name: SIGN_IN_HEADING }).count()).toBe(0)
  return recover
}

/** Recover cancelled: the sign view says why in words, before anything is signed. */
const cancelRecoverBeforeSignIn = async (page: Page, recover: Frame): Promise<void> => {
  await recover.getByRole("button", { name: "Cancel" }).click()
  await secureViewEnded(page)
  const dialog = page.getByRole("dialog")
  await dialog.getByRole("heading", { name: SIGN_IN_HEADING }).waitFor({ timeout: 20_000 })
  await dialog.getByText(newDeviceWords("password")).waitFor({ timeout: 10_000 })
}

/** Recovered with the password: then the sign view, the message signed (approved), the services keep the session. */
const recoverThenSignIn = async (page: Page, recover: Frame, address: string): Promise<void> => {
  const dialog = page.getByRole("dialog")
  await recoverWithPassword(PASSWORD)(recover)
  await secureViewEnded(page)
  await dialog.getByRole("heading", { name: SIGN_IN_HEADING }).waitFor({ timeout: 20_000 })
  expect(await dialog.getByText(newDeviceWords("password")).count()).toBe(0)
  await dialog.getByRole("button", { name: "Sign", exact: true }).click()
  await approveSignIn(page, address)
}

/** The sign-in message asked of the embedded wallet: approved, it is signed and the services keep the session. */
const approveSignIn = async (page: Page, address: string): Promise<void> => {
  const dialog = page.getByRole("dialog")
  await dialog.getByRole("heading", { name: "Sign this message" }).waitFor({ timeout: 20_000 })
  await dialog.getByRole("button", { name: "Approve" }).click()
  await dialog.waitFor({ state: "detached", timeout: 30_000 }).catch(async (error: unknown) => {
    throw new Error(`${String(error)}\n${await dialog.innerText()}`)
  })
  await expect.poll(() => page.getByTestId("session").textContent(), { timeout: 10_000 }).toContain("Signed in.")
  expect(await connectedAddress(page)).toBe(address)
  expect(await sessionsOf(address)).toHaveLength(1)
}

describe("sign-in required on a new device", () => {
  it("Recover comes before the sign-in message: cancelled, the sign view says why in words and Disconnect disconnects; recovered, the message is signed, the services keep the session, on A's address", async () => {
    const email = "nd-siwx@example.com"
    const address = await protectedOnA(email)

    // C cancels Recover: no signature can be made here, and the sign view says so before anything is signed.
    const c = await newDeviceSignIn(email)
    await cancelRecoverBeforeSignIn(c.profile.page, c.recover)
    await expectAxeClean(c.profile.page, ["light", "dark"])
    const dialogC = c.profile.page.getByRole("dialog")
    await dialogC.getByRole("button", { name: "Disconnect" }).click()
    await dialogC.waitFor({ state: "detached", timeout: 10_000 })
    await c.profile.page.getByRole("button", { name: "Connect wallet" }).waitFor({ timeout: 10_000 })
    expect(await sessionsOf(address)).toEqual([])

    // B recovers with the password: then the sign view, the message signed (approved), the session kept.
    const b = await newDeviceSignIn(email)
    await recoverThenSignIn(b.profile.page, b.recover, address)
  }, 300_000)

  it("a key only A's kept secret protects (never protected): B is told to protect it on A first, offered no Try again, only Check again and Disconnect; once A protects it, Check again opens Recover and B signs in", async () => {
    const email = "nd-siwx-device@example.com"
    const { profile: a, address } = await firstLogin(email)

    const b = await newProfile(`${EVM_ONLY}&signIn=required`)
    await logIn(b, email)
    const dialog = b.page.getByRole("dialog")
    await dialog.getByRole("heading", { name: SIGN_IN_HEADING }).waitFor({ timeout: 20_000 })
    await dialog.getByText(newDeviceWords("device", "checkAgain")).waitFor({ timeout: 10_000 })
    for (const name of ["Sign", "Try again", "Cancel"]) expect(await dialog.getByRole("button", { name, exact: true }).count()).toBe(0)
    await dialog.getByRole("button", { name: "Disconnect" }).waitFor()
    expect(await b.page.locator(`iframe[${SECURE_FRAME_ATTRIBUTE}]`).count()).toBe(0)
    await expectAxeClean(b.page, ["light", "dark"])
    // A protects the wallet with the password: nothing tells B, whose Check again finds Recover; recovered, B signs in.
    await protectWallet(a.page, frameUrl(), address, protectWithPassword(PASSWORD))
    await dialog.getByRole("button", { name: "Check again" }).click()
    // Recovered, the sign-in goes on from that Check again: the message is asked of the wallet at once.
    await recoverWithPassword(PASSWORD)(await secureView(b.page, frameUrl(), "Recover your wallet"))
    await secureViewEnded(b.page)
    await approveSignIn(b.page, address)
  }, 300_000)

  it("after a reload: B cancels Recover and reloads, the restored session's Recover comes first again, before the sign-in message; recovered, the message is signed and the services keep the session", async () => {
    const email = "nd-siwx-reload@example.com"
    const address = await protectedOnA(email)
    const b = await newDeviceSignIn(email)
    await cancelRecoverBeforeSignIn(b.profile.page, b.recover)
    // The reload restores B's embedded session, still without its share.
    await b.profile.page.reload()
    await recoverThenSignIn(b.profile.page, await recoverBeforeSignIn(b.profile.page), address)
  }, 300_000)
})

describe("a user whose keys the wallet server sealed the old way", () => {
  it("logs in by email: the frame splits each key at the same address, the sealed rows are gone, this device holds its shares, and it signs and sends", async () => {
    const email = "nd-legacy@example.com"
    const database = session.stack.database!
    const legacy = await legacyUser(database, MASTER_KEY, email)
    expect((await keysInDatabase(database, legacy.userId)).sealed).toEqual(["eip155", "solana"])
    const profile = await newProfile("?families=eip155,solana")
    await logIn(profile, email)
    await profile.page.getByRole("dialog").waitFor({ state: "hidden", timeout: 20_000 })
    const address = await connectedAddress(profile.page)
    expect(address.toLowerCase()).toBe(legacy.evmAddress.toLowerCase())
    expect(await keysInDatabase(database, legacy.userId)).toEqual({
      sealed: [],
      split: [
        { family: "eip155", address: legacy.evmAddress },
        { family: "solana", address: legacy.solanaAddress }
      ]
    })
    const shares = await walletFrame(profile.page).evaluate((prefix) => Object.keys(localStorage).filter((key) => key.startsWith(prefix)).sort(), `wr-frame/device-share/${legacy.userId}/`)
    expect(shares).toEqual([`wr-frame/device-share/${legacy.userId}/eip155`, `wr-frame/device-share/${legacy.userId}/solana`])
    await reload(profile.page, address)
    await sign(profile.page, address, "A user of before, split in the frame")
    await sendOnAnvil(profile.page, address)

    // The Solana key too: on the local Solana network the wallet is at the migrated address, and its signature
    // verifies against it.
    const page = profile.page
    await page.getByRole("button", { name: /^Network: / }).click()
    await page.getByRole("dialog").getByRole("button", { name: /Local Solana/ }).click()
    await expect.poll(() => page.getByRole("button", { name: /^Network: / }).getAttribute("aria-label"), { timeout: 20_000 }).toContain("Local Solana")
    await page.getByText(`From ${legacy.solanaAddress} on`, { exact: false }).waitFor({ timeout: 20_000 })
    const message = "A user of before, on Solana"
    const dialog = await askSignature(page, message)
    await dialog.getByRole("button", { name: "Approve" }).click()
    await expect.poll(() => page.getByTestId("signature").textContent(), { timeout: 30_000 }).toMatch(/^[1-9A-HJ-NP-Za-km-z]{80,90}$/)
    const signature = getBase58Encoder().encode((await page.getByTestId("signature").textContent()) ?? "")
    const key = await getPublicKeyFromAddress(solanaAddress(legacy.solanaAddress))
    expect(await verifySignature(key, signature as never, new TextEncoder().encode(message))).toBe(true)
  }, 300_000)
})

// The demo without `families`: a host offering EVM and Solana, where the embedded login connects both families.
it("sign-in required on a host offering EVM and Solana: B cancels Recover, and Disconnect in the sign view disconnects both families and leaves for Connect, no session kept", async () => {
  const email = "nd-siwx-both@example.com"
  const a = await newProfile("?signIn=off")
  await logIn(a, email)
  await a.page.getByRole("dialog").waitFor({ state: "hidden", timeout: 20_000 })
  const address = await connectedAddress(a.page)
  await protectWallet(a.page, frameUrl(), address, protectWithPassword(PASSWORD))

  const b = await newProfile("?signIn=required")
  await logIn(b, email)
  await cancelRecoverBeforeSignIn(b.page, await recoverBeforeSignIn(b.page))
  const dialog = b.page.getByRole("dialog")
  await dialog.getByRole("button", { name: "Disconnect" }).click()
  await dialog.waitFor({ state: "detached", timeout: 10_000 })
  await b.page.getByRole("button", { name: "Connect wallet" }).waitFor({ timeout: 10_000 })
  // Neither family comes back after a reload: the login is gone with both.
  await b.page.reload()
  await b.page.getByRole("button", { name: "Connect wallet" }).waitFor({ timeout: 20_000 })
  expect(await b.page.getByRole("dialog").count()).toBe(0)
  expect(await sessionsOf(address)).toEqual([])
}, 300_000)
