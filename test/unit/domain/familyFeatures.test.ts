import { describe, expect, it } from "vitest"
import { CHAIN_NAMESPACES } from "../../../src/domain/Caip"
import { FAMILY_FEATURES, familySupports } from "../../../src/domain/familyFeatures"
import { unavailableFeaturesText } from "../../../src/domain/familyFeaturesText"
import { supportsBalance, supportsNames } from "../../../src/domain/rules"

describe("what each chain family offers", () => {
  it("balances, tokens, NFTs and activity for eip155 and solana only (spec 9); names for eip155 only", () => {
    const offered = (feature: (typeof FAMILY_FEATURES)[number]) => CHAIN_NAMESPACES.filter((namespace) => familySupports(namespace, feature))
    expect(offered("balance")).toEqual(["eip155", "solana"])
    expect(offered("tokens")).toEqual(["eip155", "solana"])
    expect(offered("nfts")).toEqual(["eip155", "solana"])
    expect(offered("activity")).toEqual(["eip155", "solana"])
    expect(offered("names")).toEqual(["eip155"])
    expect(offered("send")).toEqual(["eip155", "solana", "bip122"])
    expect(offered("signMessage")).toEqual(["eip155", "solana", "bip122", "polkadot"])
  })

  it("the older rules ask the same table", () => {
    for (const namespace of CHAIN_NAMESPACES) {
      expect(supportsBalance(namespace)).toBe(familySupports(namespace, "balance"))
      expect(supportsNames(namespace)).toBe(familySupports(namespace, "names"))
    }
  })

  it("says in words what a family lacks, and nothing for a family that lacks nothing", () => {
    expect(unavailableFeaturesText("bip122")).toBe("Balances, tokens, NFTs, activity and names are not available for Bitcoin accounts.")
    expect(unavailableFeaturesText("solana")).toBe("Names are not available for Solana accounts.")
    expect(unavailableFeaturesText("polkadot")).toBe(
      "Balances, tokens, NFTs, activity, names and sending are not available for Polkadot accounts."
    )
    expect(unavailableFeaturesText("eip155")).toBeUndefined()
  })
})
