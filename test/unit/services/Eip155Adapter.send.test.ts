import { describe, expect, it } from "@effect/vitest"
import { Effect } from "effect"
import { encodeFunctionData, parseAbi } from "viem"
import { localChainA } from "../../../src/domain/networks"
import type { AccountSession, ReadRpc } from "../../../src/services/ChainAdapter"
import { makeEip155Adapter } from "../../../src/services/eip155/Eip155Adapter"

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
const BOB = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
const WUSD = "0x5FbDB2315678afecb367f032d93F642f64180aa3"
const WRC = "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512"

// What viem, written apart from ours, encodes for the two transfers.
const abi = parseAbi(["function transfer(address to, uint256 value)", "function safeTransferFrom(address from, address to, uint256 tokenId)"])
const erc20Transfer = encodeFunctionData({ abi, functionName: "transfer", args: [BOB, 2_500_000n] })
const nftTransfer = encodeFunctionData({ abi, functionName: "safeTransferFrom", args: [ALICE, BOB, 7n] })

/** A node answering gas estimates and the gas price, recording the calls it got. */
const node = (estimate: "ok" | "revert") => {
  const calls: Array<{ readonly method: string; readonly params: ReadonlyArray<unknown> }> = []
  const reads: ReadRpc = (_network, method, params) => {
    calls.push({ method, params })
    if (method === "eth_gasPrice") return Effect.succeed("0x3b9aca00") // 1 gwei
    if (method === "eth_estimateGas") {
      return estimate === "ok" ? Effect.succeed("0xc350") : Effect.fail({ message: "execution reverted: transfer to the zero address" })
    }
    return Effect.fail({ message: `unexpected ${method}` })
  }
  return { reads, calls }
}

/** A wallet recording the transactions it is asked to send. */
const walletSession = () => {
  const sent: Array<unknown> = []
  const session: AccountSession = {
    provider: {
      namespace: "eip155",
      provider: {
        request: async (args: { readonly method: string; readonly params?: unknown }) => {
          if (args.method !== "eth_sendTransaction") throw new Error(`unexpected ${args.method}`)
          sent.push((args.params as ReadonlyArray<unknown>)[0])
          return `0x${"ab".repeat(32)}`
        }
      }
    } as AccountSession["provider"],
    address: ALICE,
    network: localChainA,
    walletName: "Test"
  }
  return { session, sent }
}

describe("eip155 transfers", () => {
  it.effect("the fee of an NFT transfer is its gas × the gas price, estimated for safeTransferFrom(from, to, id) on the contract", () =>
    Effect.gen(function* () {
      const { reads, calls } = node("ok")
      const adapter = makeEip155Adapter({ reads })
      const fee = yield* adapter.estimateFee(ALICE, localChainA, { to: BOB, nft: { contract: WRC, tokenId: 7n } })
      expect(fee).toBe(50_000n * 1_000_000_000n)
      const estimate = calls.find((call) => call.method === "eth_estimateGas")?.params[0]
      expect(estimate).toEqual({ from: ALICE, to: WRC, data: nftTransfer })
    })
  )

  it.effect("an NFT is sent by the wallet as safeTransferFrom to the contract, with no value; an ERC-20 as transfer to the token", () =>
    Effect.gen(function* () {
      const { reads } = node("ok")
      const adapter = makeEip155Adapter({ reads })
      const { session, sent } = walletSession()
      yield* adapter.send(session, { to: BOB, nft: { contract: WRC, tokenId: 7n } })
      yield* adapter.send(session, { to: BOB, value: 2_500_000n, token: WUSD })
      expect(sent).toEqual([
        { from: ALICE, to: WRC, data: nftTransfer },
        { from: ALICE, to: WUSD, data: erc20Transfer }
      ])
    })
  )

  it.effect("an NFT with a value, or to something that is not an address, is refused before the wallet is asked", () =>
    Effect.gen(function* () {
      const { reads } = node("ok")
      const adapter = makeEip155Adapter({ reads })
      const { session, sent } = walletSession()
      const withValue = yield* Effect.flip(adapter.send(session, { to: BOB, value: 1n, nft: { contract: WRC, tokenId: 7n } }))
      const badContract = yield* Effect.flip(adapter.estimateFee(ALICE, localChainA, { to: BOB, nft: { contract: "0x1234", tokenId: 7n } }))
      expect([withValue._tag, badContract._tag]).toEqual(["SendFormInvalid", "SendFormInvalid"])
      expect(sent).toEqual([])
    })
  )

  it.effect("a transfer the node says would revert fails the estimate with the node's reason", () =>
    Effect.gen(function* () {
      const { reads } = node("revert")
      const adapter = makeEip155Adapter({ reads })
      const error = yield* Effect.flip(adapter.estimateFee(ALICE, localChainA, { to: BOB, value: 1n, token: WUSD }))
      expect(error._tag).toBe("GasEstimationFailed")
      expect(error._tag === "GasEstimationFailed" && error.reason).toBe("execution reverted: transfer to the zero address")
    })
  )
})
