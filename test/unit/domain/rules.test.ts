import { describe, expect, it } from "@effect/vitest"
import { accountTypeToSwitchTo } from "../../../src/domain/accountTypes"
import {
  backClosesModal,
  balanceDisplay,
  connectorGroupOrder,
  defaultAccountType,
  openingView,
  orderConnectMethods,
  orderConnectors,
  orderWalletFeatures,
  showsTransferImagesAsPair,
  showsUnsupportedChain,
  supportsBalance,
  supportsNames,
  transactionSign
} from "../../../src/domain/rules"

describe("which view opens", () => {
  const base = { adapterCount: 1, address: undefined, requestedView: undefined, isMobile: false } as const
  it("no adapters and no address: AllWallets on mobile, else the basic remote-protocol view", () => {
    expect(openingView({ ...base, adapterCount: 0, isMobile: true })).toBe("AllWallets")
    expect(openingView({ ...base, adapterCount: 0 })).toBe("WalletConnectBasic")
    expect(openingView({ ...base, adapterCount: 0, requestedView: "Networks" })).toBe("WalletConnectBasic")
  })
  it("a requested view wins over the connected state", () => {
    expect(openingView({ ...base, address: "0xabc", requestedView: "Networks" })).toBe("Networks")
    expect(openingView({ ...base, adapterCount: 0, address: "0xabc", requestedView: "Networks" })).toBe("Networks")
  })
  it("connected: Account; otherwise Connect", () => {
    expect(openingView({ ...base, address: "0xabc" })).toBe("Account")
    expect(openingView(base)).toBe("Connect")
  })
})

describe("going back", () => {
  it("closes the modal with a single history entry or when UnsupportedChain is in history", () => {
    expect(backClosesModal(["Connect"])).toBe(true)
    expect(backClosesModal([])).toBe(true)
    expect(backClosesModal(["Connect", "AllWallets"])).toBe(false)
    expect(backClosesModal(["UnsupportedChain", "Networks"])).toBe(true)
  })
})

describe("unsupported chain view", () => {
  const base = { inRequestedNetworks: false, allowUnsupportedChain: false, enableNetworkSwitch: true, basicMode: false }
  it("shows for a chain outside the requested networks", () => {
    expect(showsUnsupportedChain(base)).toBe(true)
    expect(showsUnsupportedChain({ ...base, inRequestedNetworks: true })).toBe(false)
  })
  it("does not show when allowed, when switching is disabled, or in basic mode", () => {
    expect(showsUnsupportedChain({ ...base, allowUnsupportedChain: true })).toBe(false)
    expect(showsUnsupportedChain({ ...base, enableNetworkSwitch: false })).toBe(false)
    expect(showsUnsupportedChain({ ...base, basicMode: true })).toBe(false)
  })
})

describe("transaction display", () => {
  it("plus for receive, deposit, borrow, claim; minus for withdraw, repay, burn; none otherwise", () => {
    for (const op of ["receive", "deposit", "borrow", "claim"]) expect(transactionSign(op)).toBe("+")
    for (const op of ["withdraw", "repay", "burn"]) expect(transactionSign(op)).toBe("-")
    for (const op of ["send", "trade", "mint", "approve", "execute"]) expect(transactionSign(op)).toBe("")
  })
  it("two transfer images are a pair unless both are NFTs", () => {
    const nft = { nft_info: { name: "Punk" } }
    const fungible = { fungible_info: { symbol: "ETH" } }
    expect(showsTransferImagesAsPair([fungible, fungible])).toBe(true)
    expect(showsTransferImagesAsPair([nft, fungible])).toBe(true)
    expect(showsTransferImagesAsPair([nft, nft])).toBe(false)
    expect(showsTransferImagesAsPair([fungible])).toBe(false)
    expect(showsTransferImagesAsPair([fungible, fungible, fungible])).toBe(false)
  })
})

describe("ordering", () => {
  it("connectors follow walletConnect, recent, injected, featured, custom, external, recommended, each wallet once", () => {
    const ordered = orderConnectors(
      {
        recommended: [{ id: "r1" }],
        featured: [{ id: "f1" }, { id: "metamask" }],
        injected: [{ id: "MetaMask" }],
        walletConnect: [{ id: "wc" }],
        recent: [{ id: "rabby" }],
        custom: [{ id: "c1" }],
        external: [{ id: "e1" }, { id: "rabby" }]
      },
      (c) => c.id
    )
    expect(ordered.map((e) => `${e.group}:${e.item.id}`)).toEqual([
      "walletConnect:wc",
      "recent:rabby",
      "injected:MetaMask",
      "featured:f1",
      "custom:c1",
      "external:e1",
      "recommended:r1"
    ])
  })
  it("the host's connector type order comes first, the types it leaves out follow in spec 9's order", () => {
    expect(connectorGroupOrder()).toEqual(["walletConnect", "recent", "injected", "featured", "custom", "external", "recommended"])
    const order = connectorGroupOrder(["recommended", "injected"])
    expect(order).toEqual(["recommended", "injected", "walletConnect", "recent", "featured", "custom", "external"])
    const ordered = orderConnectors({ walletConnect: [{ id: "wc" }], injected: [{ id: "mm" }], recommended: [{ id: "r1" }, { id: "mm" }] }, (c) => c.id, order)
    expect(ordered.map((e) => `${e.group}:${e.item.id}`)).toEqual(["recommended:r1", "recommended:mm", "walletConnect:wc"])
  })
  it("connect methods: email, social, wallet; wallet first when injected wallets exist", () => {
    expect(orderConnectMethods({ hasInjectedWallets: false, email: true, socials: true })).toEqual(["email", "social", "wallet"])
    expect(orderConnectMethods({ hasInjectedWallets: true, email: true, socials: true })).toEqual(["wallet", "email", "social"])
    expect(orderConnectMethods({ hasInjectedWallets: false, email: false, socials: true })).toEqual(["social", "wallet"])
  })
  it("connect methods in the host's order when it gives one, disabled ones still dropped", () => {
    expect(orderConnectMethods({ hasInjectedWallets: true, email: true, socials: true, hostOrder: ["social", "email"] })).toEqual(["social", "email", "wallet"])
    expect(orderConnectMethods({ hasInjectedWallets: false, email: false, socials: true, hostOrder: ["wallet", "email", "social"] })).toEqual(["wallet", "social"])
  })
  it("wallet features: onramp, swaps, receive, send (or the host's order), keeping those that are on", () => {
    expect(orderWalletFeatures({ send: true, receive: true, swaps: true, onramp: true })).toEqual(["onramp", "swaps", "receive", "send"])
    expect(orderWalletFeatures({ send: true, onramp: false, swaps: true })).toEqual(["swaps", "send"])
    expect(orderWalletFeatures({ send: true, receive: true, swaps: true }, ["send", "receive"])).toEqual(["send", "receive", "swaps"])
  })
})

describe("account types and chain-family support", () => {
  it("default account type per family, unless the host sets one", () => {
    expect(defaultAccountType("eip155")).toBe("smartAccount")
    expect(defaultAccountType("bip122")).toBe("payment")
    expect(defaultAccountType("solana")).toBe("eoa")
    expect(defaultAccountType("polkadot")).toBe("eoa")
    expect(defaultAccountType("eip155", { eip155: "eoa" })).toBe("eoa")
  })
  it("the one switch on connect (spec 4): to the chain's default when the user's type differs, never to a type the network lacks", () => {
    const cases: ReadonlyArray<readonly [Parameters<typeof accountTypeToSwitchTo>[0], "eoa" | "smartAccount" | undefined]> = [
      // EVM's default is smartAccount: an eoa user is switched where smart accounts run, and nowhere else.
      [{ namespace: "eip155", preferred: "eoa", smartAccountEnabled: true }, "smartAccount"],
      [{ namespace: "eip155", preferred: "eoa", smartAccountEnabled: false }, undefined],
      [{ namespace: "eip155", preferred: undefined, smartAccountEnabled: true }, "smartAccount"],
      [{ namespace: "eip155", preferred: "smartAccount", smartAccountEnabled: true }, undefined],
      // The host's default is read for every family.
      [{ namespace: "eip155", preferred: "smartAccount", smartAccountEnabled: true, hostDefaults: { eip155: "eoa" } }, "eoa"],
      [{ namespace: "eip155", preferred: "eoa", smartAccountEnabled: true, hostDefaults: { eip155: "eoa" } }, undefined],
      [{ namespace: "eip155", preferred: "eoa", smartAccountEnabled: true, hostDefaults: { eip155: "payment" } }, undefined],
      [{ namespace: "solana", preferred: "eoa", smartAccountEnabled: true }, undefined],
      [{ namespace: "solana", preferred: "eoa", smartAccountEnabled: true, hostDefaults: { solana: "smartAccount" } }, undefined],
      [{ namespace: "polkadot", preferred: "smartAccount", smartAccountEnabled: false }, "eoa"]
    ]
    for (const [input, expected] of cases) expect(accountTypeToSwitchTo(input), JSON.stringify(input)).toBe(expected)
  })
  it("balances on eip155 and solana, names on eip155 only", () => {
    expect([supportsBalance("eip155"), supportsBalance("solana"), supportsBalance("bip122"), supportsBalance("polkadot")]).toEqual([true, true, false, false])
    expect([supportsNames("eip155"), supportsNames("solana")]).toEqual([true, false])
  })
  it("shows '0.00' on testnets and chains without balance support", () => {
    expect(balanceDisplay({ chainNamespace: "eip155" }, "1.234")).toBe("1.234")
    expect(balanceDisplay({ chainNamespace: "eip155", testnet: true }, "1.234")).toBe("0.00")
    expect(balanceDisplay({ chainNamespace: "bip122" }, "1.234")).toBe("0.00")
  })
})
