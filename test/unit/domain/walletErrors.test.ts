import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { fromBase58, fromBase64, toBase58, toBase64 } from "../../../src/domain/encoding"
import { fromWalletError, walletErrorOf } from "../../../src/domain/walletErrors"

describe("the wallet's own words", () => {
  it.each([
    [4001, "User rejected the request.", "UserRejected", "User rejected the request."],
    [5000, "User rejected.", "UserRejected", "User rejected the request."],
    [-32000, "insufficient funds for gas * price + value", "InsufficientFunds", "insufficient funds for gas * price + value"],
    [-32003, "Insufficient funds for gas * price + value: have 0 want 1", "InsufficientFunds", "Insufficient funds for gas * price + value: have 0 want 1"],
    [-32002, "Request of type 'wallet_requestPermissions' already pending", "RequestAlreadyPending", "A request is already waiting in your wallet. Open your wallet to answer it."],
    [-32602, "Invalid parameters: 'to' is not an address", "InvalidWalletParams", "Invalid parameters: 'to' is not an address"],
    [4100, "", "WalletUnauthorized", "The wallet has not authorised this site or account."],
    [4200, "Method not supported", "WalletMethodUnsupported", "Method not supported"],
    [4900, "Disconnected", "WalletDisconnected", "Disconnected"],
    [4901, "Chain disconnected", "WalletDisconnected", "Chain disconnected"],
    [-32003, "transaction underpriced", "TransactionRejected", "transaction underpriced"],
    [-32603, "execution reverted", "WalletError", "execution reverted"],
    [undefined, "", "WalletError", "The wallet could not complete the request."]
  ] as const)("code %s, %j → %s", (code, message, tag, shown) => {
    const error = walletErrorOf(code, message)
    expect(error._tag).toBe(tag)
    expect(error.message).toBe(shown)
  })

  it("reads a thrown error whatever its shape: Error with code, plain object, a code nested in data.originalError", () => {
    expect(fromWalletError(Object.assign(new Error("nope"), { code: 4001 }))._tag).toBe("UserRejected")
    expect(fromWalletError({ code: -32002, message: "pending" })._tag).toBe("RequestAlreadyPending")
    expect(fromWalletError({ message: "wrapped", data: { originalError: { code: 4001 } } })._tag).toBe("UserRejected")
    expect(fromWalletError("insufficient lamports 5, need 10")._tag).toBe("InsufficientFunds")
  })
})

describe("byte encodings", () => {
  it("base58: known vectors, leading zeros, and an invalid character", () => {
    expect(toBase58(new TextEncoder().encode("Hello World!"))).toBe("2NEpo7TZRRrLZSi2U")
    expect(toBase58(new Uint8Array(32))).toBe("11111111111111111111111111111111")
    expect(fromBase58("1112")).toEqual(new Uint8Array([0, 0, 0, 1]))
    expect(fromBase58("0OIl")).toBeUndefined()
  })

  it("base58 and base64 round-trip any bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 96 }), (bytes) => {
        expect(fromBase58(toBase58(bytes))).toEqual(bytes)
        expect(fromBase64(toBase64(bytes))).toEqual(bytes)
      })
    )
  })
})
