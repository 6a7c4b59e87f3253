// @vitest-environment happy-dom
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import { localChainA, solanaDevnet } from "../../../src/domain/networks"
import type { BaseServices } from "../../../src/layers/Base"
import { makeWalletRuntime, type WalletRuntime } from "../../../src/runtime"
import { connectorsAtom } from "../../../src/ui/atoms/connection"

const announce = (rdns: string, name: string) => {
  const provider = { request: async () => null }
  const info = { uuid: `${rdns}-uuid`, name, icon: "data:image/svg+xml,<svg/>", rdns }
  const send = () => window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail: { info, provider } }))
  window.addEventListener("eip6963:requestProvider", send)
  return () => window.removeEventListener("eip6963:requestProvider", send)
}

/**
 * Registers a Solana wallet through the Wallet Standard, as a browser extension does: now (for an app already
 * listening) and again when an app that loads later announces itself with `wallet-standard:app-ready`.
 */
const registerStandardWallet = (name: string) => {
  const wallet = {
    version: "1.0.0",
    name,
    icon: "data:image/svg+xml,<svg/>",
    chains: [solanaDevnet.caipNetworkId],
    accounts: [],
    features: {
      "standard:connect": { version: "1.0.0", connect: async () => ({ accounts: [] }) },
      "solana:signMessage": { version: "1.0.0", signMessage: async () => [] }
    }
  }
  const unregisters: Array<() => void> = []
  const callback = (api: { register: (w: typeof wallet) => () => void }) => {
    unregisters.push(api.register(wallet))
  }
  const onAppReady = (event: Event) => callback((event as CustomEvent).detail)
  window.addEventListener("wallet-standard:app-ready", onAppReady)
  window.dispatchEvent(new CustomEvent("wallet-standard:register-wallet", { detail: callback }))
  return () => {
    window.removeEventListener("wallet-standard:app-ready", onAppReady)
    for (const unregister of unregisters.splice(0)) unregister()
  }
}

/** Waits until the state the check reads has come (atoms follow the services a scheduler turn or more later). */
const eventually = (check: () => void) => vi.waitFor(check, { timeout: 5_000, interval: 5 })

// The Wallet Standard discovery is imported on first use; the first import of a module compiles it here, which can
// take longer than a test's budget on a cold machine, so it is compiled once before the tests.
beforeAll(() => import("../../../src/services/connectors/walletStandard"), 60_000)

let runtime: WalletRuntime<BaseServices> | undefined
const cleanups: Array<() => void> = []
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) cleanup()
  await runtime?.dispose()
})

describe("the live runtime of a page", () => {
  it("lists the EVM wallets the page announces, including late ones, and ignores malformed announcements", async () => {
    cleanups.push(announce("io.metamask", "MetaMask"))
    runtime = makeWalletRuntime({ projectId: "p", networks: [localChainA] })
    const unmount = runtime.registry.mount(connectorsAtom)
    cleanups.push(unmount)
    // WalletConnect is listed first (spec 9's connector order), then the embedded wallet's AUTH connector (email login
    // is on by default), then the wallets the page announces.
    await eventually(() =>
      expect(runtime?.registry.get(connectorsAtom).map((c) => c.id)).toEqual(["walletConnect", "embedded", "io.metamask"])
    )

    window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail: { info: { rdns: "" }, provider: {} } }))
    cleanups.push(announce("io.rabby", "Rabby"))
    window.dispatchEvent(new Event("eip6963:requestProvider"))
    await eventually(() =>
      expect(runtime?.registry.get(connectorsAtom).map((c) => `${c.type}:${c.id}`).sort()).toEqual([
        "ANNOUNCED:io.metamask",
        "ANNOUNCED:io.rabby",
        "AUTH:embedded",
        "WALLET_CONNECT:walletConnect"
      ])
    )
  })

  it("a wallet announced through EIP-6963 and registered through the Wallet Standard is one multi-chain row", async () => {
    cleanups.push(announce("app.phantom", "Phantom"))
    runtime = makeWalletRuntime({ projectId: "p", networks: [localChainA, solanaDevnet] })
    cleanups.push(runtime.registry.mount(connectorsAtom))
    const rows = () => runtime?.registry.get(connectorsAtom).map((c) => `${c.type}:${c.id}:${c.namespaces.join("+")}`)
    // The embedded wallet's one connector serves both families through one login; it is never merged with a wallet.
    await eventually(() =>
      expect(rows()).toEqual(["WALLET_CONNECT:walletConnect:eip155+solana", "AUTH:embedded:eip155+solana", "ANNOUNCED:app.phantom:eip155"])
    )

    cleanups.push(registerStandardWallet("Phantom"))
    await eventually(() =>
      expect(rows()).toEqual([
        "WALLET_CONNECT:walletConnect:eip155+solana",
        "AUTH:embedded:eip155+solana",
        "MULTI_CHAIN:app.phantom:eip155+solana"
      ])
    )
    // Another wallet of one family only keeps its own row.
    cleanups.push(registerStandardWallet("Solflare"))
    await eventually(() => expect(rows()).toContain("ANNOUNCED:wallet-standard:solflare:solana"))
    expect(rows()?.filter((row) => row.includes("phantom"))).toHaveLength(1)
  })

  it("sends nothing over the network just by starting", async () => {
    const seen: Array<string> = []
    const realFetch = globalThis.fetch
    globalThis.fetch = (async (input: RequestInfo | URL) => {
      seen.push(String(input))
      return new Response("{}")
    }) as typeof fetch
    try {
      runtime = makeWalletRuntime({ projectId: "p", networks: [localChainA] })
      const unmount = runtime.registry.mount(connectorsAtom)
      cleanups.push(unmount)
      // Started: the services are built and the page's wallets listed; the email login is offered, and its frame is
      // not loaded (nothing before the visitor chooses email).
      await eventually(() => expect(runtime?.registry.get(connectorsAtom).map((c) => c.id)).toEqual(["walletConnect", "embedded"]))
      expect(seen).toEqual([])
      expect(document.querySelectorAll("iframe")).toHaveLength(0)
    } finally {
      globalThis.fetch = realFetch
    }
  })
})
