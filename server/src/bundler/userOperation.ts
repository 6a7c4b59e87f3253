/**
 * User operations as they cross the bundler's door: the JSON-RPC form of ERC-4337 v0.7/v0.8 (unpacked, quantities
 * as hex), decoded with a Schema into viem's `UserOperation<"0.8">`, and back. Anything else is refused before any
 * chain is asked.
 *
 * @example
 * const op = decodeUserOperation(params[0]) // throws BundlerRpcError -32602 on garbage
 */
import { Schema, SchemaIssue } from "effect"
import { type Address, getAddress, type Hex, hexToBigInt, numberToHex, size, slice } from "viem"
import type { PackedUserOperation, UserOperation } from "viem/account-abstraction"
import { BundlerRpcError, RpcErrorCode } from "./errors"

const Address = Schema.String.check(Schema.isPattern(/^0x[0-9a-fA-F]{40}$/, { expected: "an address: 0x and 40 hex digits" }))
// Even-length hex of at most 64 KiB: no operation field is longer.
const Bytes = Schema.String.check(Schema.isPattern(/^0x([0-9a-fA-F]{2}){0,65536}$/, { expected: "bytes: 0x and an even number of hex digits" }))
// A quantity of at most 256 bits (nonce); gas and fees fit in 128 bits as the EntryPoint packs them.
const Quantity = (bits: 128 | 256) =>
  Schema.String.check(
    Schema.isPattern(new RegExp(`^0x(0|[1-9a-fA-F][0-9a-fA-F]{0,${bits / 4 - 1}})$`), {
      expected: `a quantity: 0x and at most ${bits / 4} hex digits, no leading zero`
    })
  )

/** A user operation in JSON-RPC (ERC-7769, EntryPoint v0.7 and v0.8). */
export const RpcUserOperation = Schema.Struct({
  sender: Address,
  nonce: Quantity(256),
  factory: Schema.optionalKey(Schema.NullOr(Address)),
  factoryData: Schema.optionalKey(Schema.NullOr(Bytes)),
  callData: Bytes,
  callGasLimit: Quantity(128),
  verificationGasLimit: Quantity(128),
  preVerificationGas: Quantity(128),
  maxFeePerGas: Quantity(128),
  maxPriorityFeePerGas: Quantity(128),
  paymaster: Schema.optionalKey(Schema.NullOr(Address)),
  paymasterVerificationGasLimit: Schema.optionalKey(Schema.NullOr(Quantity(128))),
  paymasterPostOpGasLimit: Schema.optionalKey(Schema.NullOr(Quantity(128))),
  paymasterData: Schema.optionalKey(Schema.NullOr(Bytes)),
  signature: Bytes
})
/** A user operation in JSON-RPC. */
export type RpcUserOperation = typeof RpcUserOperation.Type

/** For estimates and paymaster stubs: the gas fields may be missing (they are what is asked for), and the signature. */
export const PartialRpcUserOperation = Schema.Struct({
  ...RpcUserOperation.fields,
  callGasLimit: Schema.optionalKey(Quantity(128)),
  verificationGasLimit: Schema.optionalKey(Quantity(128)),
  preVerificationGas: Schema.optionalKey(Quantity(128)),
  maxFeePerGas: Schema.optionalKey(Quantity(128)),
  maxPriorityFeePerGas: Schema.optionalKey(Quantity(128)),
  signature: Schema.optionalKey(Bytes)
})

const formatIssue = SchemaIssue.makeFormatterStandardSchemaV1()

const decodeWith =
  <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S, what: string) =>
  (input: unknown): S["Type"] => {
    const result = Schema.decodeUnknownExit(schema)(input)
    if (result._tag === "Success") return result.value
    const issues = result.cause.reasons.flatMap((reason) =>
      reason._tag === "Fail" && Schema.isSchemaError(reason.error) ? formatIssue(reason.error.issue).issues : []
    )
    const first = issues[0]
    const where = first?.path === undefined || first.path.length === 0 ? "" : ` at ${first.path.map(String).join(".")}`
    throw new BundlerRpcError(RpcErrorCode.InvalidParams, `Invalid ${what}${where}: ${first?.message ?? "not a user operation"}`)
  }

const big = (hex: string | null | undefined): bigint => (hex === undefined || hex === null ? 0n : hexToBigInt(hex as Hex))

const toViem = (op: Partial<RpcUserOperation> & { readonly sender: string; readonly nonce: string; readonly callData: string }): UserOperation<"0.8"> => ({
  sender: getAddress(op.sender),
  nonce: big(op.nonce),
  callData: op.callData as Hex,
  callGasLimit: big(op.callGasLimit),
  verificationGasLimit: big(op.verificationGasLimit),
  preVerificationGas: big(op.preVerificationGas),
  maxFeePerGas: big(op.maxFeePerGas),
  maxPriorityFeePerGas: big(op.maxPriorityFeePerGas),
  signature: (op.signature ?? "0x") as Hex,
  ...(op.factory === undefined || op.factory === null
    ? {}
    : { factory: getAddress(op.factory), factoryData: (op.factoryData ?? "0x") as Hex }),
  ...(op.paymaster === undefined || op.paymaster === null
    ? {}
    : {
        paymaster: getAddress(op.paymaster),
        paymasterVerificationGasLimit: big(op.paymasterVerificationGasLimit),
        paymasterPostOpGasLimit: big(op.paymasterPostOpGasLimit),
        paymasterData: (op.paymasterData ?? "0x") as Hex
      })
})

/** Decodes a whole user operation (for sending); garbage is a -32602 naming the field. */
export const decodeUserOperation = (input: unknown): UserOperation<"0.8"> => toViem(decodeWith(RpcUserOperation, "user operation")(input))

/** Decodes a user operation that may lack its gas fields and signature (for estimates and paymaster stubs). */
export const decodePartialUserOperation = (input: unknown): UserOperation<"0.8"> =>
  toViem(decodeWith(PartialRpcUserOperation, "user operation")(input))

/** Decodes an address parameter (the EntryPoint, a sender). */
export const decodeAddress = (input: unknown, what: string): Address => getAddress(decodeWith(Address, what)(input))

/** Decodes a 32-byte hash parameter (a user operation's hash). */
export const decodeHash = (input: unknown): Hex =>
  decodeWith(Schema.String.check(Schema.isPattern(/^0x[0-9a-fA-F]{64}$/, { expected: "a 32-byte hash: 0x and 64 hex digits" })), "hash")(
    input
  ).toLowerCase() as Hex

const q = (value: bigint): Hex => numberToHex(value)

/** A user operation in JSON-RPC, from viem's form. */
export const toRpcUserOperation = (op: UserOperation<"0.8">): RpcUserOperation => ({
  sender: op.sender,
  nonce: q(op.nonce),
  ...(op.factory === undefined ? {} : { factory: op.factory, factoryData: op.factoryData ?? "0x" }),
  callData: op.callData,
  callGasLimit: q(op.callGasLimit),
  verificationGasLimit: q(op.verificationGasLimit),
  preVerificationGas: q(op.preVerificationGas),
  maxFeePerGas: q(op.maxFeePerGas),
  maxPriorityFeePerGas: q(op.maxPriorityFeePerGas),
  ...(op.paymaster === undefined
    ? {}
    : {
        paymaster: op.paymaster,
        paymasterVerificationGasLimit: q(op.paymasterVerificationGasLimit ?? 0n),
        paymasterPostOpGasLimit: q(op.paymasterPostOpGasLimit ?? 0n),
        paymasterData: op.paymasterData ?? "0x"
      }),
  signature: op.signature
})

/** viem's form of a packed operation as `handleOps` took it (to answer `eth_getUserOperationByHash` from the chain). */
export const unpackUserOperation = (packed: PackedUserOperation): UserOperation<"0.8"> => {
  const initCode = packed.initCode
  const pad = packed.paymasterAndData
  return {
    sender: getAddress(packed.sender),
    nonce: packed.nonce,
    callData: packed.callData,
    verificationGasLimit: hexToBigInt(slice(packed.accountGasLimits, 0, 16)),
    callGasLimit: hexToBigInt(slice(packed.accountGasLimits, 16, 32)),
    preVerificationGas: packed.preVerificationGas,
    maxPriorityFeePerGas: hexToBigInt(slice(packed.gasFees, 0, 16)),
    maxFeePerGas: hexToBigInt(slice(packed.gasFees, 16, 32)),
    signature: packed.signature,
    ...(size(initCode) < 20 ? {} : { factory: getAddress(slice(initCode, 0, 20)), factoryData: size(initCode) === 20 ? "0x" : slice(initCode, 20) }),
    ...(size(pad) < 52
      ? {}
      : {
          paymaster: getAddress(slice(pad, 0, 20)),
          paymasterVerificationGasLimit: hexToBigInt(slice(pad, 20, 36)),
          paymasterPostOpGasLimit: hexToBigInt(slice(pad, 36, 52)),
          paymasterData: size(pad) === 52 ? "0x" : slice(pad, 52)
        })
  }
}
