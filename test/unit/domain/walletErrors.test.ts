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

  it.each([
    [undefined, "User rejected the request."],
    [-32603, "MetaMask Tx Signature: User denied transaction signature."],
    [-32000, "user cancelled"],
    [undefined, "Action canceled by user"],
    [4100, "The request was rejected by the user"],
    [1, "User declined"]
  ] as const)("a refusal is recognised by its words when the code is missing or wrong: %s %j", (code, message) => {
    expect(walletErrorOf(code, message)).toMatchObject({ _tag: "UserRejected", code: 4001 })
  })

  it.each([
    [-32603, "execution reverted: Ownable: caller is not the owner"],
    [-32000, "userop rejected by bundler"],
    [undefined, "Request rejected: insufficient funds for gas"]
  ] as const)("words that only look like a refusal are not one: %s %j", (code, message) => {
    expect(walletErrorOf(code, message)._tag).not.toBe("UserRejected")
  })

  it("an ethers-style ACTION_REJECTED code is a refusal", () => {
    expect(fromWalletError({ code: "ACTION_REJECTED", message: "user rejected action" })._tag).toBe("UserRejected")
    expect(fromWalletError({ code: "ACTION_REJECTED" })._tag).toBe("UserRejected")
  })

  it("reads a thrown error whatever its shape: Error with code, plain object, a code nested in data.originalError", () => {
    expect(fromWalletError(Object.assign(new Error("nope"), { code: 4001 }))._tag).toBe("UserRejected")
    expect(fromWalletError({ code: -32002, message: "pending" })._tag).toBe("RequestAlreadyPending")
    expect(fromWalletError({ message: "wrapped", data: { originalError: { code: 4001 } } })._tag).toBe("UserRejected")
    expect(fromWalletError("insufficient lamports 5, need 10")._tag).toBe("InsufficientFunds")
  })

  it("never throws, whatever it is given: a Proxy whose every read throws, getters that throw, a null prototype", () => {
    const trap = () => {
      throw new Error("hostile")
    }
    const proxy = new Proxy({}, { get: trap, has: trap, getPrototypeOf: trap, ownKeys: trap, getOwnPropertyDescriptor: trap })
    const getters = Object.defineProperties({}, { code: { get: trap }, message: { get: trap }, data: { get: trap } })
    const nested = { code: 4001, data: new Proxy({}, { get: trap }) }
    for (const hostile of [proxy, getters, Object.create(null), Symbol("x"), () => undefined, 12n]) {
      const error = fromWalletError(hostile)
      expect(error._tag).toBe("WalletError")
      expect(error.message).toBe("The wallet could not complete the request.")
    }
    expect(fromWalletError(nested)._tag).toBe("UserRejected")
    expect(fromWalletError(Object.defineProperty({ message: "User rejected the request." }, "code", { get: trap }))._tag).toBe("UserRejected")
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
