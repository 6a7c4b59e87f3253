import { describe, expect, it } from "vitest"
import { startSolana } from "../../devstack/solana/index"
import { localSolana } from "../../src/domain/networks"

describe("the devstack's networks are the ones the product knows", () => {
  it("the local Solana network id is the devstack ledger's genesis id", async () => {
    const solana = await startSolana()
    try {
      expect(solana.info.caipNetworkId).toBe(localSolana.caipNetworkId)
    } finally {
      await solana.stop()
    }
  })
})
