/**
 * Chain-agnostic identifiers: CAIP-2 network ids (`namespace:reference`) and CAIP-10 account addresses
 * (`namespace:reference:address`), restricted to the chain families the product supports. Both are branded
 * strings, so a plain string cannot be passed where a checked id is required.
 */
import { Result, Schema } from "effect"
import { InvalidCaip10Address, InvalidCaip2NetworkId, InvalidCaipAddress } from "./errors"

/** The chain families the product supports, as CAIP namespaces. */
export const CHAIN_NAMESPACES = ["eip155", "solana", "bip122", "polkadot"] as const

/** A supported chain namespace: eip155 (EVM), solana, bip122 (Bitcoin) or polkadot. */
export const ChainNamespace = Schema.Literals(CHAIN_NAMESPACES)
/** A supported chain namespace. */
export type ChainNamespace = typeof ChainNamespace.Type

/** True for one of the supported chain namespaces. */
export const isChainNamespace = (value: unknown): value is ChainNamespace =>
  typeof value === "string" && (CHAIN_NAMESPACES as ReadonlyArray<string>).includes(value)

// Character sets of the CAIP-2 reference and the CAIP-10 account address, as the CAIP standards define them.
const REFERENCE = /^[-_a-zA-Z0-9]{1,32}$/
const ACCOUNT_ADDRESS = /^[-.%a-zA-Z0-9]{1,128}$/

/** True when `reference` is a valid CAIP-2 reference: 1 to 32 of letters, digits, `-` and `_`. */
export const isCaipReference = (reference: string): boolean => REFERENCE.test(reference)

// Each namespace narrows the reference (CAIP-3, -4, -13, -30): an EVM chain id in decimal without leading zeros,
// the first 32 characters of a genesis hash otherwise (lower-case hex for Bitcoin and Polkadot, base58 for Solana).
const NAMESPACE_REFERENCE: { readonly [N in ChainNamespace]: RegExp } = {
  eip155: /^[1-9][0-9]{0,15}$/,
  solana: /^[1-9A-HJ-NP-Za-km-z]{32}$/,
  bip122: /^[0-9a-f]{32}$/,
  polkadot: /^[0-9a-f]{32}$/
}

/**
 * True when `reference` names a chain of `namespace` by that namespace's rules: eip155 a chain id from 1 to
 * 2^53 − 1 in decimal (larger ones cannot be held exactly by a JavaScript number); solana 32 base58 characters;
 * bip122 and polkadot 32 lower-case hex characters.
 */
export const isNamespaceReference = (namespace: ChainNamespace, reference: string): boolean =>
  NAMESPACE_REFERENCE[namespace].test(reference) && (namespace !== "eip155" || Number.isSafeInteger(Number(reference)))

/** True when `address` is a valid CAIP-10 account address: 1 to 128 of letters, digits, `-`, `.` and `%`. */
export const isCaipAccountAddress = (address: string): boolean => ACCOUNT_ADDRESS.test(address)

/** The parts of a CAIP-2 network id. */
export interface CaipNetworkIdParts {
  readonly namespace: ChainNamespace
  readonly reference: string
}

/** The parts of a CAIP-10 account address. */
export interface CaipAddressParts {
  readonly namespace: ChainNamespace
  readonly reference: string
  readonly address: string
}

const splitNetworkId = (value: string): CaipNetworkIdParts | undefined => {
  const parts = value.split(":")
  if (parts.length !== 2) return undefined
  const [namespace, reference] = parts as [string, string]
  return isChainNamespace(namespace) && isNamespaceReference(namespace, reference) ? { namespace, reference } : undefined
}

const splitAddress = (value: string): CaipAddressParts | undefined => {
  const parts = value.split(":")
  if (parts.length !== 3) return undefined
  const [namespace, reference, address] = parts as [string, string, string]
  return isChainNamespace(namespace) && isNamespaceReference(namespace, reference) && isCaipAccountAddress(address)
    ? { namespace, reference, address }
    : undefined
}

/** A CAIP-2 network id of a supported namespace, e.g. `eip155:1`; decoding fails with 'Invalid CAIP-2 network id: {value}'. */
export const CaipNetworkId = Schema.String.pipe(
  Schema.check(
    Schema.makeFilter((value: string) => (splitNetworkId(value) ? undefined : new InvalidCaip2NetworkId({ value }).message), {
      expected: "a CAIP-2 network id (namespace:reference)"
    })
  ),
  Schema.brand("CaipNetworkId")
)
/** A checked CAIP-2 network id. */
export type CaipNetworkId = typeof CaipNetworkId.Type

/** A CAIP-10 account address of a supported namespace, e.g. `eip155:1:0xab…`; decoding fails with 'Invalid CAIP-10 address: {value}'. */
export const CaipAddress = Schema.String.pipe(
  Schema.check(
    Schema.makeFilter((value: string) => (splitAddress(value) ? undefined : new InvalidCaip10Address({ value }).message), {
      expected: "a CAIP-10 address (namespace:reference:address)"
    })
  ),
  Schema.brand("CaipAddress")
)
/** A checked CAIP-10 account address. */
export type CaipAddress = typeof CaipAddress.Type

/** True for a CAIP-2 network id of a supported namespace. */
export const isCaipNetworkId = (value: string): value is CaipNetworkId => splitNetworkId(value) !== undefined

/** True for a CAIP-10 address of a supported namespace. */
export const isCaipAddress = (value: string): value is CaipAddress => splitAddress(value) !== undefined

/** Splits a CAIP-2 network id into namespace and reference. */
export const parseCaipNetworkId = (value: string): Result.Result<CaipNetworkIdParts, InvalidCaip2NetworkId> => {
  const parts = splitNetworkId(value)
  return parts ? Result.succeed(parts) : Result.fail(new InvalidCaip2NetworkId({ value }))
}

/** Checks a string as a CAIP-2 network id and brands it. */
export const toCaipNetworkId = (value: string): Result.Result<CaipNetworkId, InvalidCaip2NetworkId> =>
  splitNetworkId(value) ? Result.succeed(value as CaipNetworkId) : Result.fail(new InvalidCaip2NetworkId({ value }))

/** Joins namespace and reference into a CAIP-2 network id, checking both. */
export const formatCaipNetworkId = (parts: {
  readonly namespace: string
  readonly reference: string | number
}): Result.Result<CaipNetworkId, InvalidCaip2NetworkId> => toCaipNetworkId(`${parts.namespace}:${parts.reference}`)

/** Splits a CAIP-10 address into namespace, reference and account address. */
export const parseCaipAddress = (value: string): Result.Result<CaipAddressParts, InvalidCaip10Address> => {
  const parts = splitAddress(value)
  return parts ? Result.succeed(parts) : Result.fail(new InvalidCaip10Address({ value }))
}

/** Checks a string as a CAIP-10 address and brands it. */
export const toCaipAddress = (value: string): Result.Result<CaipAddress, InvalidCaip10Address> =>
  splitAddress(value) ? Result.succeed(value as CaipAddress) : Result.fail(new InvalidCaip10Address({ value }))

/** Joins namespace, reference and account address into a CAIP-10 address, checking all three. */
export const formatCaipAddress = (parts: {
  readonly namespace: string
  readonly reference: string | number
  readonly address: string
}): Result.Result<CaipAddress, InvalidCaip10Address> =>
  toCaipAddress(`${parts.namespace}:${parts.reference}:${parts.address}`)

/** The CAIP-10 address of `address` on the network `caipNetworkId`. */
export const caipAddressOn = (
  caipNetworkId: CaipNetworkId,
  address: string
): Result.Result<CaipAddress, InvalidCaip10Address> => toCaipAddress(`${caipNetworkId}:${address}`)

/** The network id part of a CAIP-10 address. */
export const caipNetworkIdOfAddress = (caipAddress: CaipAddress): CaipNetworkId => {
  const [namespace, reference] = caipAddress.split(":")
  return `${namespace}:${reference}` as CaipNetworkId
}

/**
 * The plain account address inside a CAIP-10 address that may be missing (an account state before connection);
 * fails with 'Invalid CAIP Address' when there is none or it is malformed.
 */
export const plainAddressOf = (caipAddress: string | undefined): Result.Result<string, InvalidCaipAddress> => {
  const parts = caipAddress === undefined ? undefined : splitAddress(caipAddress)
  return parts ? Result.succeed(parts.address) : Result.fail(new InvalidCaipAddress())
}
