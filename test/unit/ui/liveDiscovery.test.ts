// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from "vitest"
import { localChainA } from "../../../src/domain/Network"
import { makeWalletRuntime, type WalletRuntime } from "../../../src/runtime"
import { connectorsAtom } from "../../../src/ui/atoms/connection"

const announce = (rdns: string, name: string) => {
  const provider = { request: async () => null }
  const info = { uuid: `${rdns}-uuid`, name, icon: "data:image/svg+xml,<svg/>", rdns }
  const send = () => window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail: { info, provider } }))
  window.addEventListener("eip6963:requestProvider", send)
  return () => window.removeEventListener("eip6963:requestProvider", send)
}

const eventually = async (check: () => void) => {
  for (let i = 0; i < 100; i++) {
    try {
      return check()
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 5))
    }
  }
  check()
}

let runtime: WalletRuntime | undefined
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
    // WalletConnect is listed first (spec 9's connector order), then the wallets the page announces.
    await eventually(() => expect(runtime?.registry.get(connectorsAtom).map((c) => c.id)).toEqual(["walletConnect", "io.metamask"]))

    window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail: { info: { rdns: "" }, provider: {} } }))
    cleanups.push(announce("io.rabby", "Rabby"))
    window.dispatchEvent(new Event("eip6963:requestProvider"))
    await eventually(() =>
      expect(runtime?.registry.get(connectorsAtom).map((c) => `${c.type}:${c.id}`).sort()).toEqual([
        "ANNOUNCED:io.metamask",
        "ANNOUNCED:io.rabby",
        "WALLET_CONNECT:walletConnect"
      ])
    )
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
      await new Promise((resolve) => setTimeout(resolve, 50))
      expect(seen).toEqual([])
    } finally {
      globalThis.fetch = realFetch
    }
  })
})
