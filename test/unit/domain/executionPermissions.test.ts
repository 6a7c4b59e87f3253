import { describe, expect, it } from "@effect/vitest"
import {
  decodePermissionRequest,
  type GrantState,
  type PermissionTerms,
  permissionCoverage,
  permissionRequestsOf,
  permissionUseOf,
  revokedContextOf
} from "../../../src/domain/executionPermissions"
import { permissionTransactionOf } from "../../../src/domain/permissionContext"

const NOW = 1_800_000_000
const DAY = 86_400
const TOKEN = "0x5FbDB2315678afecb367f032d93F642f64180aa3"
const BOB = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
const SESSION = "0x90F79bf6EB2c4f870365E785982E1f101E93b906"

const periodic = (data: Record<string, unknown> = {}, top: Record<string, unknown> = {}) => ({
  chainId: "0x7a69",
  expiry: NOW + 7 * DAY,
  to: SESSION,
  permission: { type: "native-token-periodic", data: { periodAmount: "0x2386f26fc10000", periodDuration: DAY, ...data } },
  ...top
})

const refusal = (raw: unknown) => {
  const decoded = decodePermissionRequest(raw, [31337], NOW)
  return decoded.ok ? "accepted" : decoded.message
}

describe("decodePermissionRequest: what a site may ask for", () => {
  it("a native periodic grant: 0.01 ETH per day from now until its expiry, for the named session account", () => {
    expect(decodePermissionRequest(periodic({ justification: "  Coffee  " }), [31337], NOW)).toEqual({
      ok: true,
      value: {
        type: "native-token-periodic",
        chainId: 31337,
        token: undefined,
        allowance: { _tag: "Periodic", periodAmount: 10_000_000_000_000_000n, periodDuration: DAY },
        startTime: NOW,
        expiry: NOW + 7 * DAY,
        justification: "Coffee",
        grantee: SESSION.toLowerCase()
      }
    })
  })

  it("an ERC-20 stream with the revised text's expiry rule and the first text's signer", () => {
    const decoded = decodePermissionRequest(
      {
        chainId: 31337,
        rules: [{ type: "expiry", data: { timestamp: NOW + DAY } }],
        signer: { type: "account", data: { address: SESSION } },
        permission: { type: "erc20-token-stream", data: { tokenAddress: TOKEN, initialAmount: "100", amountPerSecond: "0x1", maxAmount: 1000, startTime: NOW - 10 } }
      },
      [31337],
      NOW
    )
    expect(decoded).toMatchObject({
      ok: true,
      value: {
        type: "erc20-token-stream",
        token: TOKEN.toLowerCase(),
        allowance: { _tag: "Stream", initialAmount: 100n, amountPerSecond: 1n, maxAmount: 1000n },
        startTime: NOW - 10,
        expiry: NOW + DAY
      }
    })
  })

  it.each([
    ["an unknown type", { ...periodic(), permission: { type: "native-token-recurring-allowance", data: {} } }, 'The permission type "native-token-recurring-allowance" is not supported: ask for one of native-token-periodic, native-token-stream, erc20-token-periodic, erc20-token-stream'],
    ["an expiry in the past", periodic({}, { expiry: NOW - 1 }), "The permission's expiry is in the past"],
    ["an expiry now", periodic({}, { expiry: NOW }), "The permission's expiry is in the past"],
    ["no expiry", periodic({}, { expiry: undefined }), "The permission has no expiry"],
    ["a zero amount", periodic({ periodAmount: "0x0" }), "The permission's periodAmount must be more than zero"],
    ["a negative amount", periodic({ periodAmount: -5 }), "The permission's periodAmount must be more than zero"],
    ["a negative amount as text", periodic({ periodAmount: "-5" }), "The permission's periodAmount must be a whole number (in the token's smallest unit)"],
    ["a non-numeric amount", periodic({ periodAmount: "lots" }), "The permission's periodAmount must be a whole number (in the token's smallest unit)"],
    ["a fractional amount", periodic({ periodAmount: 0.5 }), "The permission's periodAmount must be a whole number (in the token's smallest unit)"],
    ["a zero period", periodic({ periodDuration: 0 }), "The permission's periodDuration must be more than zero seconds"],
    ["an unknown chain", periodic({}, { chainId: "0x1" }), "The chain 1 is not one this wallet grants permissions on"],
    ["no chain", periodic({}, { chainId: undefined }), "The permission request names no chain (chainId)"],
    ["a start after the expiry", periodic({ startTime: NOW + 8 * DAY }), "The permission would start after it expires"],
    ["an ERC-20 type without a token", { ...periodic(), permission: { type: "erc20-token-periodic", data: { periodAmount: 1, periodDuration: DAY } } }, "The permission's tokenAddress must be a token contract's address (0x and 40 hex digits)"],
    ["a stream without a rate", { ...periodic(), permission: { type: "native-token-stream", data: { maxAmount: 5 } } }, "The permission's amountPerSecond must be a whole number (in the token's smallest unit)"],
    ["a stream's cap below its start", { ...periodic(), permission: { type: "native-token-stream", data: { amountPerSecond: 1, initialAmount: 10, maxAmount: 5 } } }, "The permission's maxAmount is below its initialAmount"],
    ["a grantee that is not an address", periodic({}, { to: "bob" }), "The permission's account (to) must be an address"],
    ["not an object", "native-token-periodic", "A permission request must be an object"],
    ["a type that is not text", { ...periodic(), permission: { type: 5, data: {} } }, "The permission request has no permission type"],
    ["no permission", periodic({}, { permission: undefined }), "The permission request has no permission type"],
    // What the Schema catches that the hand-written decoder let through or put in other words:
    ["data that is not an object", { ...periodic(), permission: { type: "native-token-periodic", data: 5 } }, "The permission's data must be an object"],
    ["a justification that is not text", periodic({ justification: { text: "Coffee" } }), "The permission's justification must be text"],
    ["a signer that is not an account", periodic({}, { to: undefined, signer: "bob" }), "The permission's account (to) must be an address"],
    ["a rule that is not an object", periodic({}, { expiry: undefined, rules: [5] }), "The permission's rules must each be an object with a type"],
    ["an expiry rule without a time", periodic({}, { expiry: undefined, rules: [{ type: "expiry", data: { timestamp: "soon" } }] }), "The permission's expiry must be a whole number of seconds"],
    ["an expiry that is not a time", periodic({}, { expiry: { at: NOW + DAY } }), "The permission's expiry must be a whole number of seconds"],
    ["a start time that is not a time", periodic({ startTime: "tomorrow" }), "The permission's startTime must be a whole number of seconds"],
    ["a negative initial amount", { ...periodic(), permission: { type: "native-token-stream", data: { amountPerSecond: 1, initialAmount: -1 } } }, "The permission's initialAmount must be a whole number (in the token's smallest unit)"],
    ["a stream's cap that is not a number", { ...periodic(), permission: { type: "erc20-token-stream", data: { tokenAddress: TOKEN, amountPerSecond: 1, maxAmount: "all" } } }, "The permission's maxAmount must be a whole number (in the token's smallest unit)"],
    ["an ERC-20 token that is not an address", { ...periodic(), permission: { type: "erc20-token-periodic", data: { tokenAddress: 42, periodAmount: 1, periodDuration: DAY } } }, "The permission's tokenAddress must be a token contract's address (0x and 40 hex digits)"],
    ["an amount too large for a number", periodic({ periodAmount: 2 ** 60 }), "The permission's periodAmount must be a whole number (in the token's smallest unit)"],
    ["a chain that is not a number", periodic({}, { chainId: "mainnet" }), "The permission request names no chain (chainId)"],
    // A bigint cannot cross JSON to the wallet server: refused here in words rather than failing on the way.
    ["an amount given as a bigint", periodic({ periodAmount: 10n }), "The permission's periodAmount must be a whole number (in the token's smallest unit)"]
  ])("refuses %s", (_name, raw, message) => {
    expect(refusal(raw)).toBe(message)
  })

  it("takes null for what may be left out, and leaves out fields it does not read", () => {
    const decoded = decodePermissionRequest(
      { ...periodic({ startTime: null, justification: null }), to: null, isAdjustmentAllowed: true, address: SESSION },
      [31337],
      NOW
    )
    expect(decoded).toMatchObject({ ok: true, value: { startTime: NOW, justification: undefined, grantee: undefined } })
  })

  it("the list of one call: MetaMask's [[…]], the alias's [request], and none or too many refused", () => {
    expect(permissionRequestsOf([[periodic(), periodic()]])).toEqual({ ok: true, value: [periodic(), periodic()] })
    expect(permissionRequestsOf([periodic()])).toEqual({ ok: true, value: [periodic()] })
    expect(permissionRequestsOf([[]])).toEqual({ ok: false, message: "The request asks for no permission" })
    expect(permissionRequestsOf([Array.from({ length: 11 }, () => periodic())])).toEqual({ ok: false, message: "Ask for at most 10 permissions at once" })
  })

  it("a revoke names the grant by its context", () => {
    const context = `0x${"ab".repeat(32)}`
    expect(revokedContextOf([{ permissionContext: context.toUpperCase().replace("0X", "0x") }])).toEqual({ ok: true, value: context })
    expect(revokedContextOf([{ context }])).toEqual({ ok: true, value: context })
    expect(revokedContextOf([{ permissionContext: "0x12" }])).toEqual({ ok: false, message: "Name the permission to revoke by its permissionContext" })
  })
})

describe("permissionUseOf: what a send made with a grant moves", () => {
  const amountWord = (amount: bigint) => amount.toString(16).padStart(64, "0")
  const transfer = (to: string, amount: bigint) => `0xa9059cbb${to.slice(2).toLowerCase().padStart(64, "0")}${amountWord(amount)}`

  it.each([
    ["a native transfer", { to: BOB, value: "0x64" }, { ok: true, value: { token: undefined, to: BOB.toLowerCase(), amount: 100n } }],
    ["an ERC-20 transfer", { to: TOKEN, data: transfer(BOB, 5n) }, { ok: true, value: { token: TOKEN.toLowerCase(), to: BOB.toLowerCase(), amount: 5n } }],
    ["no receiver", { value: "0x1" }, { ok: false, message: "A transaction made with a permission needs a to address" }],
    ["nothing moved", { to: BOB }, { ok: false, message: "The transaction moves nothing" }],
    ["another call", { to: TOKEN, data: "0x095ea7b3" }, { ok: false, message: "A permission covers plain transfers only: the native currency, or an ERC-20 transfer" }],
    ["an ERC-20 transfer with value", { to: TOKEN, value: "0x1", data: transfer(BOB, 5n) }, { ok: false, message: "A permission covers plain transfers only: the native currency, or an ERC-20 transfer" }]
  ])("%s", (_name, tx, expected) => {
    expect(permissionUseOf(tx)).toEqual(expected)
  })

  it("only an eth_sendTransaction that carries permissionsContext is a use", () => {
    const tx = { to: BOB, value: "0x1", permissionsContext: "0x01" }
    expect(permissionTransactionOf("eth_sendTransaction", [tx])).toBe(tx)
    expect(permissionTransactionOf("eth_sendTransaction", [{ to: BOB }])).toBeUndefined()
    expect(permissionTransactionOf("personal_sign", [tx])).toBeUndefined()
  })
})

describe("permissionCoverage: whether a grant covers a use, at a time", () => {
  const terms = (allowance: PermissionTerms["allowance"], token?: `0x${string}`): PermissionTerms => ({
    type: token === undefined ? "native-token-periodic" : "erc20-token-periodic",
    chainId: 31337,
    token,
    allowance,
    startTime: NOW,
    expiry: NOW + 7 * DAY,
    justification: undefined,
    grantee: undefined
  })
  const daily = terms({ _tag: "Periodic", periodAmount: 100n, periodDuration: DAY })
  const grant = (t: PermissionTerms, spent = 0n, periodStart = NOW, revoked = false): GrantState => ({ terms: t, spent, periodStart, revoked })
  const native = (amount: bigint) => ({ token: undefined, amount })
  const stream = terms({ _tag: "Stream", initialAmount: 10n, amountPerSecond: 2n, maxAmount: 50n })

  it.each([
    ["within the period's allowance", grant(daily), native(60n), NOW + 10, { covered: true, spent: 60n, periodStart: NOW }],
    ["up to the allowance exactly", grant(daily, 40n), native(60n), NOW + 10, { covered: true, spent: 100n, periodStart: NOW }],
    ["beyond it in the same period", grant(daily, 60n), native(41n), NOW + DAY - 1, { covered: false, message: "This exceeds what the permission allows in this period" }],
    ["the next period starts again", grant(daily, 100n), native(100n), NOW + DAY, { covered: true, spent: 100n, periodStart: NOW + DAY }],
    ["three periods on", grant(daily, 100n), native(30n), NOW + 3 * DAY + 5, { covered: true, spent: 30n, periodStart: NOW + 3 * DAY }],
    ["more than a period allows at once", grant(daily), native(101n), NOW, { covered: false, message: "This exceeds what the permission allows in this period" }],
    ["revoked", grant(daily, 0n, NOW, true), native(1n), NOW, { covered: false, message: "This permission was revoked" }],
    ["expired", grant(daily), native(1n), NOW + 7 * DAY, { covered: false, message: "This permission has expired" }],
    ["before its start", grant(daily), native(1n), NOW - 1, { covered: false, message: "This permission has not started yet" }],
    ["another token", grant(daily), { token: TOKEN.toLowerCase() as `0x${string}`, amount: 1n }, NOW, { covered: false, message: "This permission covers the native currency only" }],
    ["the native currency on a token grant", grant(terms(daily.allowance, TOKEN.toLowerCase() as `0x${string}`)), native(1n), NOW, { covered: false, message: "This permission covers another token" }],
    ["a stream's initial amount at its start", grant(stream), native(10n), NOW, { covered: true, spent: 10n, periodStart: NOW }],
    ["a stream beyond what has accrued", grant(stream, 10n), native(5n), NOW + 2, { covered: false, message: "This exceeds what the permission has made available so far" }],
    ["a stream after it accrued", grant(stream, 10n), native(4n), NOW + 2, { covered: true, spent: 14n, periodStart: NOW }],
    ["a stream at its cap", grant(stream, 40n), native(10n), NOW + 3600, { covered: true, spent: 50n, periodStart: NOW }],
    ["a stream past its cap", grant(stream, 50n), native(1n), NOW + 3600, { covered: false, message: "This exceeds what the permission has made available so far" }]
  ])("%s", (_name, state, use, now, expected) => {
    expect(permissionCoverage(state, use, now)).toEqual(expected)
  })
})
