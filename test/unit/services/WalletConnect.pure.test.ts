import { Context, Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { encode } from "uqr"
import { localChainA, localChainB, solanaDevnet, withDefaultRpcUrls } from "../../../src/domain/networks"
import { decodeOptionsSync } from "../../../src/domain/Options"
import { Config } from "../../../src/services/Config"
import { routeForChoice } from "../../../src/services/ConnectFlow"
import { WALLET_CONNECT_ICON, WalletConnect } from "../../../src/services/walletconnect/WalletConnect"
import { walletLink } from "../../../src/services/walletconnect/links"
import { EIP155_METHODS, proposalNamespaces, SOLANA_METHODS } from "../../../src/services/walletconnect/namespaces"
import { dotsPath } from "../../../src/ui/components/QrCode/QrCode"
import { choiceOf, type WalletEntry } from "../../../src/ui/views/walletEntries"

describe("WalletConnect session proposal", () => {
  const a = withDefaultRpcUrls(localChainA, { http: ["http://127.0.0.1:7001"] })
  const b = withDefaultRpcUrls(localChainB, { http: ["http://127.0.0.1:7002"] })

  it("asks eip155 for the host's chains with their methods, events and the host's own RPCs", () => {
    const options = decodeOptionsSync({ networks: [a, b] })
    expect(proposalNamespaces(options)).toEqual({
      eip155: {
        chains: ["eip155:31337", "eip155:31338"],
        methods: EIP155_METHODS,
        events: ["accountsChanged", "chainChanged"],
        rpcMap: { "31337": "http://127.0.0.1:7001", "31338": "http://127.0.0.1:7002" }
      }
    })
  })

  it("starts on the visitor's network, prefers the host's custom RPC, and asks solana when configured", () => {
    const options = decodeOptionsSync({
      networks: [a, b, solanaDevnet],
      customRpcUrls: { "eip155:31338": [{ url: "http://127.0.0.1:7999" }] }
    })
    const namespaces = proposalNamespaces(options, b)
    expect(namespaces["eip155"]?.chains).toEqual(["eip155:31338", "eip155:31337"])
    expect(namespaces["eip155"]?.defaultChain).toBe("31338")
    expect(namespaces["eip155"]?.rpcMap["31338"]).toBe("http://127.0.0.1:7999")
    expect(namespaces["solana"]?.chains).toEqual([solanaDevnet.caipNetworkId])
    expect(namespaces["solana"]?.methods).toEqual(SOLANA_METHODS)
  })
})

describe("wallet links carrying a pairing URI", () => {
  const uri = "wc:abc@2?relay-protocol=irn&symKey=01"
  it.each([
    ["https://wallet.example/app", `https://wallet.example/app/wc?uri=${encodeURIComponent(uri)}`],
    ["http://127.0.0.1:5/test-wallet/", `http://127.0.0.1:5/test-wallet/wc?uri=${encodeURIComponent(uri)}`],
    ["rainbow://", `rainbow://wc?uri=${encodeURIComponent(uri)}`],
    ["metamask:", `metamask://wc?uri=${encodeURIComponent(uri)}`]
  ])("%s", (link, expected) => {
    expect(walletLink(link, uri)).toBe(expected)
  })
})

describe("the QR code path", () => {
  it("draws a dot for exactly each dark module uqr encodes, the three finder patterns left to their own shapes", () => {
    const code = encode("wc:abc@2?relay-protocol=irn&symKey=01", { ecc: "M", border: 0 })
    const far = code.size - 7
    const inFinder = (x: number, y: number) => (x < 7 && y < 7) || (x >= far && y < 7) || (x < 7 && y >= far)
    const drawn = code.data.map((row) => row.map(() => false))
    for (const [, x, y] of dotsPath(code.data).matchAll(/M(\d+)\.5 (\d+)\.08a/g)) drawn[Number(y)]![Number(x)] = true
    expect(drawn).toEqual(code.data.map((row, y) => row.map((dark, x) => dark && !inFinder(x, y))))
  })
})

describe("where a wallet row leads", () => {
  const entry = (over: Partial<WalletEntry>): WalletEntry => ({
    key: "k",
    name: "W",
    imageUrl: undefined,
    connector: undefined,
    wallet: undefined,
    installed: false,
    ...over
  })
  const leadsTo = (over: Partial<WalletEntry>) => routeForChoice(choiceOf(entry(over)))
  const wallet = { id: "w", name: "W", image_id: "i", chains: [] }
  const walletConnect = { id: "walletConnect", type: "WALLET_CONNECT", chain: "eip155", chains: [], namespaces: ["eip155"] } as const
  const installed = { id: "w", type: "ANNOUNCED", chain: "eip155", chains: [], namespaces: ["eip155"] } as const

  it("WalletConnect's row opens the QR code; on a phone, the wallets to open by their links (nothing to scan)", () => {
    expect(leadsTo({ connector: walletConnect })).toEqual({ view: "WalletConnectBasic" })
    expect(routeForChoice(choiceOf(entry({ connector: walletConnect })), true)).toEqual({ view: "AllWallets" })
  })

  it("a catalogue wallet with a phone, desktop or web app opens its WalletConnect view, with the wallet", () => {
    const phone = { ...wallet, mobile_link: "w://" }
    const web = { ...wallet, webapp_link: "https://w.example" }
    expect(leadsTo({ wallet: phone })).toEqual({ view: "ConnectingWalletConnect", wallet: phone })
    expect(leadsTo({ wallet: web })).toEqual({ view: "ConnectingWalletConnect", wallet: web })
    // Empty links are no links.
    expect(leadsTo({ wallet: { ...wallet, mobile_link: "", desktop_link: null } })).toEqual({
      view: "ConnectingExternal",
      wallet: { ...wallet, mobile_link: "", desktop_link: null }
    })
  })

  it("an installed wallet connects through its connector, even when the catalogue has links for it", () => {
    const linked = { ...wallet, mobile_link: "w://" }
    expect(leadsTo({ wallet: linked, connector: installed })).toEqual({ view: "ConnectingExternal", connectorId: "w", wallet: linked })
    expect(leadsTo({ connector: installed })).toEqual({ view: "ConnectingExternal", connectorId: "w", wallet: undefined })
  })

  it("a catalogue wallet without links or connector opens the connecting view, which says it is not installed", () => {
    expect(leadsTo({ wallet })).toEqual({ view: "ConnectingExternal", wallet })
  })
})

describe("WalletConnect's row", () => {
  it("carries WalletConnect's mark drawn here (a data: URL: nothing is fetched for it), not a letter", async () => {
    const options = decodeOptionsSync({ projectId: "test", networks: [localChainA] })
    const service = await Effect.runPromise(
      Effect.scoped(Layer.build(WalletConnect.layer.pipe(Layer.provide(Config.layer(options))))).pipe(
        Effect.map((context) => Context.get(context, WalletConnect))
      )
    )
    const imageUrl = service.connector?.info.imageUrl ?? ""
    expect(imageUrl).toBe(WALLET_CONNECT_ICON)
    expect(imageUrl.startsWith("data:image/svg+xml,")).toBe(true)
    expect(decodeURIComponent(imageUrl)).toContain('fill="#3396FF"')
  })
})
