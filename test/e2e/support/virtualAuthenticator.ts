/**
 * Chromium's virtual WebAuthn authenticator over CDP, for the passkey window of the embedded wallet: a platform
 * authenticator (CTAP2, internal transport, resident keys, user verification, PRF, presence simulated unless asked not to) attached to
 * one window (each window is a tab of its own), and the passkey buttons' click with the window's page held back until
 * the authenticator is there.
 */
import type { BrowserContext, CDPSession, Locator, Page, Route } from "playwright-core"

/** A credential as the virtual authenticator gives it over CDP. */
export interface VirtualCredential {
  readonly credentialId: string
  readonly isResidentCredential: boolean
  readonly rpId?: string
  readonly privateKey: string
  readonly userHandle?: string
  readonly signCount: number
}

/** What the authenticator holds and how it answers. */
export interface AuthenticatorOptions {
  /** Passkeys it holds already (the same device's, from an earlier window). */
  readonly credentials?: ReadonlyArray<VirtualCredential>
  /** False: user verification fails (the browser answers NotAllowedError, as when the visitor dismisses the prompt). */
  readonly userVerified?: boolean
  /** False: no presence is simulated, so a ceremony waits for a touch that never comes (its page stays on its prompt). */
  readonly presence?: boolean
  /** Told of each use of a passkey, with its counter raised (the next window's authenticator must start from it). */
  readonly onUsed?: (credential: VirtualCredential) => void
}

/**
 * A virtual platform authenticator on the window `popup`; `made`: the passkey it makes, as it makes it; `credentials`:
 * those it holds.
 */
export const authenticatorOn = async (context: BrowserContext, popup: Page, opts: AuthenticatorOptions = {}) => {
  const cdp: CDPSession = await context.newCDPSession(popup)
  // Kept as it is made: the window (and this session) is closed once the wallet is connected.
  const made = new Promise<VirtualCredential>((resolve) =>
    cdp.on("WebAuthn.credentialAdded", (event: { readonly credential: VirtualCredential }) => resolve(event.credential))
  )
  cdp.on("WebAuthn.credentialAsserted", (event: { readonly credential: VirtualCredential }) => opts.onUsed?.(event.credential))
  await cdp.send("WebAuthn.enable", { enableUI: false })
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      ctap2Version: "ctap2_1",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: opts.userVerified ?? true,
      automaticPresenceSimulation: opts.presence ?? true,
      hasPrf: true
    }
  })
  for (const credential of opts.credentials ?? []) await cdp.send("WebAuthn.addCredential", { authenticatorId, credential })
  return {
    made,
    /** The passkeys it holds now (to give another profile the same one, as a synced passkey would be). */
    credentials: async (): Promise<ReadonlyArray<VirtualCredential>> =>
      ((await cdp.send("WebAuthn.getCredentials", { authenticatorId })) as { readonly credentials: ReadonlyArray<VirtualCredential> }).credentials
  }
}

/** The passkey window's page, as the context's requests name it. */
export const PASSKEY_PAGE_ROUTE = "**/frame/passkey?*"

/**
 * Presses `button` (one of the passkey buttons) and gives the passkey window it opened, with an authenticator on it:
 * the window's passkey page is let load only once the authenticator is there (the window opens blank in the click and
 * is sent to the page a few milliseconds later, faster than CDP attaches one).
 */
export const pressPasskey = async (
  page: Page,
  button: Locator,
  opts: AuthenticatorOptions = {},
  press: (button: Locator) => Promise<void> = (target) => target.click()
) => {
  const context = page.context()
  let attached = () => {}
  const ready = new Promise<void>((resolve) => (attached = resolve))
  const hold = async (route: Route) => {
    await ready
    await route.continue()
  }
  await context.route(PASSKEY_PAGE_ROUTE, hold)
  try {
    const popupOpened = page.waitForEvent("popup", { timeout: 10_000 })
    await press(button)
    const popup = await popupOpened
    return { popup, ...(await authenticatorOn(context, popup, opts).finally(attached)) }
  } finally {
    attached()
    await context.unroute(PASSKEY_PAGE_ROUTE, hold)
  }
}
