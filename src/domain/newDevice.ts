/**
 * What a visitor reads on a device that holds no share of their embedded wallet's split key (issue 30, item 2): the
 * Account view and ApproveTransaction say it in the same words.
 */
import type { EmbeddedWalletUser } from "./Account"

/** The words for a device without the wallet's share, by what protects the wallet's recovery share. */
export const newDeviceWords = (recovery: EmbeddedWalletUser["recovery"]): string =>
  recovery === "device"
    ? "Your wallet can only be used on the device where you first logged in: open it there, choose Protect your wallet, then log in here again."
    : "This device has no key of your wallet yet: recover your wallet on this device with your password or passkey to sign here."
