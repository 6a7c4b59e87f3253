import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import fc from "fast-check"
import { getAddress } from "viem"
import { validateAccountName } from "../../../src/domain/accountName"
import {
  coinTypeForChainId,
  filterSocialsForMiniApp,
  hasInsufficientGas,
  isSignedMessage,
  isSocialProvider,
  isSolanaAddress,
  isSolanaSignAllTransactionsRequest,
  isSolanaSignMessageRequest,
  isSolanaSignTransactionRequest,
  isTransactionHash,
  isValidSendCall,
  isEvmAddress,
  isPreferredAccountType,
  isThemeMode,
  toChecksumAddress,
  validateEmail,
  validateEvmAddress,
  validateOtp,
  validateSendForm,
  validateSolanaAddress
} from "../../../src/domain/validation"

const hex = (n: number) => fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: n, maxLength: n })
const base58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
const SOL_ADDRESS = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"

describe("account names", () => {
  it("needs at least 4 characters", () => {
    expect(Result.isFailure(validateAccountName("abc"))).toBe(true)
    expect(validateAccountName("abcd")).toEqual(Result.succeed("abcd"))
  })
  it("accepts letters, digits and hyphens and normalises case", () => {
    expect(validateAccountName("My-Name-42")).toEqual(Result.succeed("my-name-42"))
  })
  it("rejects other characters with words that say why", () => {
    const failed = validateAccountName("ab_cd")
    expect(Result.isFailure(failed)).toBe(true)
    if (Result.isFailure(failed)) expect(failed.failure).toMatch(/letters, digits and hyphens/)
    expect(Result.isFailure(validateAccountName("name.eth"))).toBe(true)
    expect(Result.isFailure(validateAccountName("ab cd"))).toBe(true)
  })
  it("trims surrounding spaces before counting", () => {
    expect(Result.isFailure(validateAccountName("  abc  "))).toBe(true)
  })
})

describe("EVM addresses", () => {
  it("accepts 40 hex with or without 0x and returns the checksummed form", () => {
    const lower = "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266"
    expect(validateEvmAddress(lower)).toEqual(Result.succeed("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"))
    expect(validateEvmAddress(lower.slice(2))).toEqual(Result.succeed("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"))
  })
  it("rejects 39 or 41 hex characters and non-hex", () => {
    expect(isEvmAddress("0x" + "a".repeat(39))).toBe(false)
    expect(isEvmAddress("0x" + "a".repeat(41))).toBe(false)
    expect(isEvmAddress("0x" + "g".repeat(40))).toBe(false)
    expect(isEvmAddress("")).toBe(false)
  })
  it("rejects a mixed-case address with a wrong checksum", () => {
    expect(isEvmAddress("0xF39fd6e51aad88F6F4ce6aB8827279cffFb92266")).toBe(false)
    expect(isEvmAddress("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266")).toBe(true)
  })
  it("checksums exactly as EIP-55 (viem as the oracle)", () => {
    fc.assert(
      fc.property(hex(40), (body) => {
        expect(toChecksumAddress(body)).toBe(getAddress(`0x${body}`))
        expect(isEvmAddress(body.toUpperCase())).toBe(true)
      }),
      { numRuns: 200 }
    )
  })
})

describe("Solana addresses", () => {
  it("accepts 32 to 44 base58 characters", () => {
    expect(isSolanaAddress(SOL_ADDRESS)).toBe(true)
    expect(isSolanaAddress("1".repeat(32))).toBe(true)
    expect(isSolanaAddress("1".repeat(44))).toBe(true)
  })
  it("rejects 31 or 45 characters and the characters base58 leaves out", () => {
    expect(isSolanaAddress("1".repeat(31))).toBe(false)
    expect(isSolanaAddress("1".repeat(45))).toBe(false)
    for (const bad of ["0", "O", "I", "l"]) expect(isSolanaAddress(bad + "1".repeat(40))).toBe(false)
  })
  it("never throws on arbitrary input and agrees with the alphabet rule", () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...base58), minLength: 0, maxLength: 50 }), (s) => {
        expect(Result.isSuccess(validateSolanaAddress(s))).toBe(s.length >= 32 && s.length <= 44)
      })
    )
    fc.assert(fc.property(fc.string(), (s) => typeof isSolanaAddress(s) === "boolean"))
  })
})

describe("hashes and signatures", () => {
  it("a transaction hash is 0x and exactly 64 hex", () => {
    expect(isTransactionHash("0x" + "a".repeat(64))).toBe(true)
    expect(isTransactionHash("0x" + "a".repeat(63))).toBe(false)
    expect(isTransactionHash("0x" + "a".repeat(65))).toBe(false)
    expect(isTransactionHash("a".repeat(66))).toBe(false)
  })
  it("a signed message is 0x and at least 62 hex", () => {
    expect(isSignedMessage("0x" + "b".repeat(62))).toBe(true)
    expect(isSignedMessage("0x" + "b".repeat(130))).toBe(true)
    expect(isSignedMessage("0x" + "b".repeat(61))).toBe(false)
    expect(isSignedMessage("0x" + "z".repeat(62))).toBe(false)
  })
})

describe("name coin type", () => {
  it("is 0x80000000 | chainId for chain ids below 2147483648", () => {
    expect(coinTypeForChainId(1)).toEqual(Result.succeed(2147483649))
    expect(coinTypeForChainId(10)).toEqual(Result.succeed(0x8000000a))
    expect(coinTypeForChainId(2147483647)).toEqual(Result.succeed(4294967295))
  })
  it("fails with 'Invalid chainId' at 2147483648 and for non-integers", () => {
    for (const bad of [2147483648, -1, 1.5, Number.NaN]) {
      const result = coinTypeForChainId(bad)
      expect(Result.isFailure(result)).toBe(true)
      if (Result.isFailure(result)) expect(result.failure.message).toBe("Invalid chainId")
    }
  })
})

describe("send form", () => {
  const ok = { token: "ETH", amount: "0.5", receiverAddress: "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266" }
  it("accepts a token, a positive amount and a receiver of the chain family", () => {
    expect(Result.isSuccess(validateSendForm(ok, "eip155"))).toBe(true)
    expect(Result.isSuccess(validateSendForm({ ...ok, receiverAddress: SOL_ADDRESS }, "solana"))).toBe(true)
  })
  it("fails with the spec's words when anything is missing or wrong", () => {
    const cases = [
      { ...ok, token: undefined },
      { ...ok, amount: "" },
      { ...ok, amount: "0" },
      { ...ok, amount: "-1" },
      { ...ok, amount: "1e5" },
      { ...ok, receiverAddress: undefined },
      { ...ok, receiverAddress: "0x123" }
    ]
    for (const form of cases) {
      const result = validateSendForm(form, "eip155")
      expect(Result.isFailure(result)).toBe(true)
      if (Result.isFailure(result)) expect(result.failure.message).toBe("Please enter a valid amount and receiver address")
    }
    expect(Result.isFailure(validateSendForm({ ...ok, receiverAddress: ok.receiverAddress }, "solana"))).toBe(true)
  })
})

describe("email and one-time code", () => {
  it("accepts a plain email, trimmed", () => {
    expect(validateEmail("  visitor@example.com ")).toEqual(Result.succeed("visitor@example.com"))
  })
  it("rejects malformed emails", () => {
    for (const bad of ["", "visitor", "visitor@", "@example.com", "a b@example.com", "visitor@example", "x@y.c"]) {
      expect(Result.isFailure(validateEmail(bad))).toBe(true)
    }
  })
  it.each([
    ".user@example.com",
    "user.@example.com",
    "us..er@example.com",
    "user@.example.com",
    "user@example..com",
    "user@example.com.",
    "user@-example.com",
    "user@example-.com",
    "user@exa_mple.com",
    `${"a".repeat(65)}@example.com`
  ])("refuses %s", (bad) => {
    expect(validateEmail(bad)).toEqual(Result.fail("Enter a valid email address"))
  })
  it.each(["first.last+tag@sub.example.co.uk", "o'brien@example.ie", "jürgen@müller.de", "user@xn--mller-kva.de"])("accepts %s", (good) => {
    expect(validateEmail(good)).toEqual(Result.succeed(good))
  })
  it("a one-time code is a string of letters or digits", () => {
    expect(validateOtp("123 456")).toEqual(Result.succeed("123456"))
    expect(Result.isFailure(validateOtp(123456))).toBe(true)
    expect(Result.isFailure(validateOtp(""))).toBe(true)
    expect(Result.isFailure(validateOtp("12-34"))).toBe(true)
  })
})

describe("enumerations", () => {
  it("social providers, theme modes and account types", () => {
    for (const p of ["google", "github", "apple", "facebook", "x", "discord"]) expect(isSocialProvider(p)).toBe(true)
    expect(isSocialProvider("myspace")).toBe(false)
    expect(isThemeMode("dark")).toBe(true)
    expect(isThemeMode("blue")).toBe(false)
    expect(isPreferredAccountType("smartAccount")).toBe(true)
    expect(isPreferredAccountType("payment")).toBe(false)
  })
  it("filters socials inside a messenger mini-app per platform", () => {
    const all = ["google", "x", "discord", "github", "apple", "facebook"] as const
    expect(filterSocialsForMiniApp(all, "ios")).toEqual(["x", "discord", "github", "apple", "facebook"])
    expect(filterSocialsForMiniApp(all, "mac")).toEqual(["google", "discord", "github", "apple", "facebook"])
    expect(filterSocialsForMiniApp(all, "android")).toEqual(["google", "discord", "github", "apple"])
    expect(filterSocialsForMiniApp(all, "other")).toEqual(all)
  })
})

describe("request shapes", () => {
  it("send-calls 'to' and 'data' start with 0x", () => {
    expect(isValidSendCall({ to: "0xabc", data: "0x" })).toBe(true)
    expect(isValidSendCall({ to: "0xabc" })).toBe(true)
    expect(isValidSendCall({ to: "abc" })).toBe(false)
    expect(isValidSendCall({ to: "0xabc", data: "1234" })).toBe(false)
  })
  it("Solana sign requests need their fields", () => {
    expect(isSolanaSignMessageRequest({ message: "hi", pubkey: SOL_ADDRESS })).toBe(true)
    expect(isSolanaSignMessageRequest({ message: "hi" })).toBe(false)
    expect(isSolanaSignMessageRequest({ pubkey: SOL_ADDRESS })).toBe(false)
    expect(isSolanaSignTransactionRequest({ transaction: "AQID" })).toBe(true)
    expect(isSolanaSignTransactionRequest({})).toBe(false)
    expect(isSolanaSignAllTransactionsRequest({ transactions: ["AQID", "BAUG"] })).toBe(true)
    expect(isSolanaSignAllTransactionsRequest({ transactions: "AQID" })).toBe(false)
    expect(isSolanaSignAllTransactionsRequest(null)).toBe(false)
  })
})

describe("gas check", () => {
  it("is insufficient at a zero balance or below the gas price in USD", () => {
    expect(hasInsufficientGas({ nativeBalanceUsd: 0, gasPriceUsd: 0, accountType: "eoa" })).toBe(true)
    expect(hasInsufficientGas({ nativeBalanceUsd: 0.99, gasPriceUsd: 1, accountType: "eoa" })).toBe(true)
    expect(hasInsufficientGas({ nativeBalanceUsd: 1, gasPriceUsd: 1, accountType: "eoa" })).toBe(false)
  })
  it("is never insufficient for a smart account", () => {
    expect(hasInsufficientGas({ nativeBalanceUsd: 0, gasPriceUsd: 5, accountType: "smartAccount" })).toBe(false)
  })
})
