import { describe, expect, it } from "@effect/vitest"
import fc from "fast-check"
import { formatAmount, formatNumber, formatUnits, formatUsd, parseUnits, truncateAddress } from "../../../src/domain/format"

describe("amounts", () => {
  it("show at most 3 decimals, cut rather than rounded up", () => {
    expect(formatAmount("1.23456")).toBe("1.234")
    expect(formatAmount("1.9999")).toBe("1.999")
    expect(formatAmount("1.5")).toBe("1.5")
    expect(formatAmount("2.000")).toBe("2")
    expect(formatAmount(0.1 + 0.2)).toBe("0.3")
  })
  it("group thousands en-US and keep huge values exact", () => {
    expect(formatAmount("1234567.891")).toBe("1,234,567.891")
    expect(formatAmount(123456789012345678901234567890n)).toBe("123,456,789,012,345,678,901,234,567,890")
  })
  it("show tiny positive amounts as <0.001 and zero as 0", () => {
    expect(formatAmount("0.0004")).toBe("<0.001")
    expect(formatAmount("0.001")).toBe("0.001")
    expect(formatAmount("0")).toBe("0")
    expect(formatAmount("not a number")).toBe("0")
  })
  it("general numbers en-US with 2 decimals", () => {
    expect(formatNumber(1234.5)).toBe("1,234.50")
    expect(formatNumber("0.005")).toBe("0.01")
    expect(formatUsd(3)).toBe("$3.00")
    expect(formatNumber(Number.NaN)).toBe("0.00")
  })
  it("negative dollars put the sign before the symbol, and what rounds to zero has no sign", () => {
    expect(formatUsd(-10_000)).toBe("-$10,000.00")
    expect(formatUsd("-0.5")).toBe("-$0.50")
    expect(formatUsd(-0.001)).toBe("$0.00")
    expect(formatNumber(-0.004)).toBe("0.00")
  })
})

describe("units", () => {
  it("formats base units exactly", () => {
    expect(formatUnits(1_500_000_000_000_000_000n, 18)).toBe("1.5")
    expect(formatUnits(1n, 18)).toBe("0.000000000000000001")
    expect(formatUnits(100_000_000n, 8)).toBe("1")
    expect(formatUnits(-25n, 1)).toBe("-2.5")
  })
  it("parses decimals back, refusing too many places", () => {
    expect(parseUnits("1.5", 18)).toBe(1_500_000_000_000_000_000n)
    expect(parseUnits(".5", 1)).toBe(5n)
    expect(parseUnits("1.23", 1)).toBeUndefined()
    expect(parseUnits("abc", 6)).toBeUndefined()
    expect(parseUnits("", 6)).toBeUndefined()
  })
  it("round-trips any non-negative amount", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 40n }), fc.integer({ min: 0, max: 24 }), (value, decimals) => {
        expect(parseUnits(formatUnits(value, decimals), decimals)).toBe(value)
      })
    )
  })
})

describe("addresses", () => {
  it("keep 4 characters at the start and 6 at the end", () => {
    expect(truncateAddress("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266")).toBe("0xf3…b92266")
    expect(truncateAddress("short")).toBe("short")
  })
  it("cut with the lengths asked for, never returning a longer string whole", () => {
    const address = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
    expect(truncateAddress(address, 0, 0)).toBe("…")
    expect(truncateAddress(address, 6, 0)).toBe("0xf39F…")
    expect(truncateAddress(address, 0, 4)).toBe("…2266")
    expect(truncateAddress("12345678901")).toBe("1234…678901")
    expect(truncateAddress("1234567890")).toBe("1234567890")
    expect(truncateAddress(address, -3, Number.NaN)).toBe("…")
  })
  it("a truncated address keeps its first and last characters and is never longer than asked", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), fc.nat(20), fc.nat(20), (address, start, end) => {
        const shown = truncateAddress(address, start, end)
        if (address.length <= start + end) {
          expect(shown).toBe(address)
        } else {
          expect(shown).toBe(`${address.slice(0, start)}…${address.slice(address.length - end)}`)
          expect(shown.length).toBe(start + end + 1)
        }
      })
    )
  })
})
