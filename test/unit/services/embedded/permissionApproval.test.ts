import { describe, expect, it } from "@effect/vitest"
import type { PermissionTerms } from "../../../../src/domain/executionPermissions"
import { periodWords, permissionWords, untilWords } from "../../../../src/services/Embedded/permissionApproval"

const EXPIRY = 1_800_000_000
const terms = (allowance: PermissionTerms["allowance"]): PermissionTerms => ({
  type: allowance._tag === "Periodic" ? "erc20-token-periodic" : "erc20-token-stream",
  chainId: 31337,
  token: "0x5fbdb2315678afecb367f032d93f642f64180aa3",
  allowance,
  startTime: EXPIRY - 1000,
  expiry: EXPIRY,
  justification: undefined,
  grantee: undefined
})
const USDC = { symbol: "USDC", decimals: 6 }

describe("a permission in the visitor's words", () => {
  it.each([
    [60, "per minute"],
    [3600, "per hour"],
    [86_400, "per day"],
    [604_800, "per week"],
    [172_800, "every 2 days"],
    [1_209_600, "every 2 weeks"],
    [7200, "every 2 hours"],
    [90, "every 90 seconds"],
    [300, "every 5 minutes"]
  ])("a period of %i s: %s", (seconds, words) => {
    expect(periodWords(seconds)).toBe(words)
  })

  it("the expiry in the visitor's locale", () => {
    expect(untilWords(EXPIRY, "en-GB")).toBe(new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short" }).format(new Date(EXPIRY * 1000)))
    expect(untilWords(EXPIRY, "de-DE")).not.toBe(untilWords(EXPIRY, "en-US"))
  })

  it("a periodic grant: up to an amount per period, until its expiry", () => {
    const words = permissionWords(terms({ _tag: "Periodic", periodAmount: 5_000_000n, periodDuration: 604_800 }), USDC, "en-US")
    expect(words).toEqual({
      token: "USDC",
      amount: "Up to 5 USDC per week",
      until: untilWords(EXPIRY, "en-US"),
      sentence: `This site may spend up to 5 USDC per week from your account, without asking again, until ${untilWords(EXPIRY, "en-US")}.`,
      reason: undefined
    })
  })

  it("a stream: what it may spend at once, then per second, and its cap", () => {
    const words = permissionWords(terms({ _tag: "Stream", initialAmount: 1_000_000n, amountPerSecond: 10n, maxAmount: 50_000_000n }), USDC, "en-US")
    expect(words.amount).toBe("1 USDC at once, then 0.00001 USDC more each second, at most 50 USDC in all")
    const uncapped = permissionWords(terms({ _tag: "Stream", initialAmount: 0n, amountPerSecond: 10n, maxAmount: undefined }), USDC, "en-US")
    expect(uncapped.sentence).toBe(`This site may spend 0.00001 USDC more each second from your account, without asking again, until ${untilWords(EXPIRY, "en-US")}.`)
    expect(uncapped.amount).toBe("0.00001 USDC more each second")
  })
})
