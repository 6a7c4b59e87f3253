/**
 * What a visitor reads on a device that holds no share of their embedded wallet's split key (issue 30, item 2): the
 * Account view, ApproveTransaction and the sign view say it in the same words, each ending with what it offers.
 */
import type { EmbeddedWalletUser } from "./Account"

/**
 * What the visitor does on this device once the first device protected the wallet: choose Check again where the view
 * offers it (the sign view: nothing tells this device, so the visitor says when to look again), otherwise log in here
 * again (a login reads the wallet anew and offers Recover).
 */
export type AfterProtecting = "checkAgain" | "logInAgain"

const THEN: { readonly [A in AfterProtecting]: string } = {
  checkAgain: "come back here and choose Check again",
  logInAgain: "log in here again"
}

/**
 * The words for a device without the wallet's share, by what protects the wallet's recovery share; `after`: what the
 * view showing them offers once the first device protected it (only a key the first device alone protects needs it).
 */
export const newDeviceWords = (recovery: EmbeddedWalletUser["recovery"], after: AfterProtecting = "logInAgain"): string =>
  recovery === "device"
    ? `Your wallet can only be used on the device where you first logged in: open it there, choose Protect your wallet, then ${THEN[after]}.`
    : "This device has no key of your wallet yet: recover your wallet on this device with your password or passkey to sign here."
