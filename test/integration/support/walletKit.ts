/**
 * A wallet-side WalletConnect client (walletkit) on our relay, as FACTS.md prescribes for tests: its own storage
 * prefix in memory (a dapp in the same process must not share it) and no request queue (else 1 s between requests).
 */
import { randomUUID } from "node:crypto"
import { WalletKit } from "@reown/walletkit"
import { Core } from "@walletconnect/core"
import type { ICore } from "@walletconnect/types"

/** Starts a walletkit wallet connected to the relay at `relayUrl`. */
export const initTestWalletKit = (relayUrl: string, name = "Wallet") => {
  const core = new Core({
    projectId: "devstack",
    relayUrl,
    logger: "silent",
    customStoragePrefix: `wallet-${randomUUID()}`,
    storageOptions: { database: ":memory:" }
  })
  // WalletConnect's own class and interface disagree under exactOptionalPropertyTypes only.
  return WalletKit.init({
    core: core as ICore,
    metadata: { name, description: `${name} under test`, url: "http://127.0.0.1", icons: [] },
    signConfig: { disableRequestQueue: true }
  })
}
