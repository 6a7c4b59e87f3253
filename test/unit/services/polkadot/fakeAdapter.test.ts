import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { westend } from "../../../../src/domain/networks"
import { makeFakeChainAdapter } from "../../../../src/services/fakes/FakeWallet"

describe("the fake adapter of a family whose chain the product does not read", () => {
  it.effect("refuses sending, fees, confirmations and balances with FeatureUnavailable, as the real polkadot adapter does", () =>
    Effect.gen(function* () {
      const adapter = makeFakeChainAdapter("polkadot")
      const session = { provider: { namespace: "polkadot", provider: {} } as never, address: "5Grw", network: westend, walletName: "Fake" }
      const refusals = [
        adapter.send(session, { to: "5Fhe", value: 1n } as never),
        adapter.estimateFee("5Grw", westend, { to: "5Fhe", value: 1n } as never),
        adapter.waitForTransaction("0x00", westend),
        adapter.balances("5Grw", westend)
      ]
      for (const refused of refusals) {
        const error = yield* Effect.flip(refused as Effect.Effect<unknown, { readonly _tag: string; readonly message: string }>)
        expect(error._tag).toBe("FeatureUnavailable")
        expect(error.message).toMatch(/not available for Polkadot accounts/)
      }
      // An EVM fake still sends and reads.
      expect((yield* makeFakeChainAdapter("eip155").balances("0x0", westend)).length).toBe(1)
    })
  )
})
