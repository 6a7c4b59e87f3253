/**
 * WalletConnect's polkadot namespace, which the product defines (AppKit has none): a host configuring Polkadot
 * networks proposes them with `polkadot_signMessage` and `polkadot_signTransaction` (the methods the domain names and
 * the adapter answers), and the visitor's network first.
 */
import { describe, expect, it } from "vitest"
import { localChainA, polkadot, westend } from "../../../../src/domain/networks"
import { POLKADOT_METHODS } from "../../../../src/domain/Requests"
import { POLKADOT_SESSION_METHODS, proposalNamespaces, SESSION_EVENTS, WALLET_CONNECT_NAMESPACES } from "../../../../src/services/walletconnect/namespaces"

describe("the polkadot namespace of a WalletConnect proposal", () => {
  it("asks for the configured Polkadot networks with the two Polkadot methods, beside the other families", () => {
    expect(POLKADOT_SESSION_METHODS).toEqual([...POLKADOT_METHODS])
    expect(WALLET_CONNECT_NAMESPACES).toContain("polkadot")
    const namespaces = proposalNamespaces({ networks: [localChainA, polkadot, westend] }, westend)
    expect(Object.keys(namespaces)).toEqual(["eip155", "polkadot"])
    expect(namespaces["polkadot"]).toEqual({
      chains: [westend.caipNetworkId, polkadot.caipNetworkId],
      methods: ["polkadot_signMessage", "polkadot_signTransaction"],
      events: [...SESSION_EVENTS],
      rpcMap: { [polkadot.id]: polkadot.rpcUrls.default.http[0], [westend.id]: westend.rpcUrls.default.http[0] },
      defaultChain: westend.id
    })
  })
})
