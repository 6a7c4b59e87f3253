import { describe, expect, it } from "vitest"
import type { CaipNetworkId } from "../../../src/domain/Caip"
import type { TokenBalance, Transaction } from "../../../src/domain/Portfolio"
import { activityByDay, activityRow, explorerTransactionUrl, tokensByValue, totalUsdValue } from "../../../src/domain/portfolioView"

const token = (name: string, value: number | undefined): TokenBalance => ({
  name,
  symbol: name.slice(0, 3).toUpperCase(),
  chainId: "eip155:31337" as CaipNetworkId,
  ...(value !== undefined ? { value } : {}),
  price: 1,
  quantity: { decimals: "18", numeric: "1" },
  iconUrl: ""
})

const tx = (id: string, minedAt: string, extra: Partial<Transaction["metadata"]> = {}, transfers: Transaction["transfers"] = []): Transaction => ({
  id,
  metadata: { minedAt, chain: "eip155:31337", operationType: "send", status: "confirmed", sentFrom: "0xa", sentTo: "0xb", ...extra },
  transfers
})

describe("the Tokens tab", () => {
  it("lists the highest USD value first, equal values by name, a token without a value last", () => {
    const sorted = tokensByValue([token("Wrapped USD", 10), token("Ether", 2500.5), token("Zeta", undefined), token("Alpha", 10)])
    expect(sorted.map((t) => t.name)).toEqual(["Ether", "Alpha", "Wrapped USD", "Zeta"])
  })

  it("totals the USD values, counting a token without one as 0", () => {
    expect(totalUsdValue([token("A", 1.25), token("B", undefined), token("C", 1000)])).toBe(1001.25)
    expect(totalUsdValue([])).toBe(0)
  })
})

describe("the Activity tab", () => {
  const now = new Date("2026-11-24T10:00:00Z")

  it("groups by the visitor's day: Today, Yesterday, a date this year, a date with its year before", () => {
    const days = activityByDay(
      [
        tx("p", "", { status: "pending" }),
        tx("a", "2026-11-24T09:00:00Z"),
        tx("b", "2026-11-24T00:30:00Z"),
        tx("c", "2026-11-23T23:59:00Z"),
        tx("d", "2026-03-03T12:00:00Z"),
        tx("e", "2025-03-03T12:00:00Z")
      ],
      now,
      "UTC"
    )
    expect(days.map((d) => [d.label, d.transactions.map((t) => t.id).join("")])).toEqual([
      ["Today", "pab"],
      ["Yesterday", "c"],
      ["March 3", "d"],
      ["March 3, 2025", "e"]
    ])
  })

  it("the day follows the visitor's time zone", () => {
    // 00:30 UTC on the 24th is still the 23rd in New York.
    const days = activityByDay([tx("b", "2026-11-24T00:30:00Z")], now, "America/New_York")
    expect(days.map((d) => d.label)).toEqual(["Yesterday"])
  })

  it("a row says what happened with the spec's sign, and shows two images as a pair unless both are NFTs", () => {
    const wusd = { fungible_info: { symbol: "WUSD", icon: { url: "http://img/wusd" } }, quantity: { numeric: "1234.56789" } }
    const eth = { fungible_info: { symbol: "ETH", icon: { url: "http://img/eth" } }, quantity: { numeric: "0.5" } }
    const nft = (name: string) => ({ nft_info: { name, content: { preview: { url: `http://img/${name}` } }, flags: { is_spam: false } }, quantity: { numeric: "1" } })
    const hash = `0x${"ab".repeat(32)}`
    expect(activityRow(tx(hash, "2026-11-24T09:00:00Z", { operationType: "receive" }, [wusd]))).toEqual({
      title: "Received",
      sign: "+",
      amount: "1,234.567 WUSD",
      images: ["http://img/wusd"],
      imageNames: ["WUSD"],
      pair: false,
      status: "confirmed",
      hash
    })
    expect(activityRow(tx("x", "", { operationType: "burn" }, [nft("WRC #3")]))).toMatchObject({ title: "Burned", sign: "-", amount: "WRC #3" })
    expect(activityRow(tx("x", "", { operationType: "trade" }, [eth, wusd]))).toMatchObject({
      title: "Swapped",
      sign: "",
      amount: "0.5 ETH → 1,234.567 WUSD",
      images: ["http://img/eth", "http://img/wusd"],
      imageNames: ["ETH", "WUSD"],
      pair: true
    })
    expect(activityRow(tx("x", "", { operationType: "trade" }, [nft("A"), nft("B")]))).toMatchObject({ pair: false, images: ["http://img/A"], imageNames: ["A"] })
    // A picture missing (the visitor's own pending send) is drawn from the token's symbol, not from its amount.
    const sent = { fungible_info: { symbol: "ETH" }, quantity: { numeric: "0.01" } }
    expect(activityRow(tx("x", "", { operationType: "send" }, [sent]))).toMatchObject({ images: [undefined], imageNames: ["ETH"] })
  })

  it("links a transaction to the network's explorer when there is one", () => {
    expect(explorerTransactionUrl("https://etherscan.io/", "0xabc")).toBe("https://etherscan.io/tx/0xabc")
    expect(explorerTransactionUrl(undefined, "0xabc")).toBeUndefined()
    expect(explorerTransactionUrl("https://etherscan.io", undefined)).toBeUndefined()
  })
})
