import { describe, expect, it } from "@effect/vitest"
import { Result, Schema } from "effect"
import fc from "fast-check"
import {
  CaipAddress,
  caipAddressOn,
  CaipNetworkId,
  caipNetworkIdOfAddress,
  CHAIN_NAMESPACES,
  formatCaipAddress,
  formatCaipNetworkId,
  isCaipAddress,
  isCaipNetworkId,
  parseCaipAddress,
  parseCaipNetworkId,
  plainAddressOf,
  toCaipNetworkId
} from "../../../src/domain/Caip"
import { InvalidCaip10Address, InvalidCaip2NetworkId, InvalidCaipAddress } from "../../../src/domain/errors"

// Each namespace's references, as CAIP-3, -4, -13 and -30 define them (an EVM chain id kept to safe integers).
const REFERENCE_RULES: Record<string, (reference: string) => boolean> = {
  eip155: (reference) => /^[1-9][0-9]*$/.test(reference) && Number.isSafeInteger(Number(reference)),
  solana: (reference) => /^[1-9A-HJ-NP-Za-km-z]{32}$/.test(reference),
  bip122: (reference) => /^[0-9a-f]{32}$/.test(reference),
  polkadot: (reference) => /^[0-9a-f]{32}$/.test(reference)
}
const referenceOf: Record<string, fc.Arbitrary<string>> = {
  eip155: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }).map(String),
  solana: fc.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{32}$/),
  bip122: fc.stringMatching(/^[0-9a-f]{32}$/),
  polkadot: fc.stringMatching(/^[0-9a-f]{32}$/)
}
const namespaceAndReference = fc
  .constantFrom(...CHAIN_NAMESPACES)
  .chain((ns) => referenceOf[ns]!.map((ref) => [ns, ref] as const))
const address = fc.stringMatching(/^[-.%a-zA-Z0-9]{1,128}$/)

const failureOf = <A, E>(result: Result.Result<A, E>): E => {
  if (Result.isSuccess(result)) throw new Error(`expected a failure, got ${JSON.stringify(result.success)}`)
  return result.failure
}

describe("CAIP-2 network ids", () => {
  it("format then parse gives back the parts", () => {
    fc.assert(
      fc.property(namespaceAndReference, ([ns, ref]) => {
        const id = Result.getOrThrow(formatCaipNetworkId({ namespace: ns, reference: ref }))
        expect(id).toBe(`${ns}:${ref}`)
        expect(Result.getOrThrow(parseCaipNetworkId(id))).toEqual({ namespace: ns, reference: ref })
      })
    )
  })

  it("numeric chain ids format like their decimal text", () => {
    expect(Result.getOrThrow(formatCaipNetworkId({ namespace: "eip155", reference: 31337 }))).toBe("eip155:31337")
  })

  it("any string parses or fails with InvalidCaip2NetworkId naming it, never throws", () => {
    fc.assert(
      fc.property(fc.string(), (input) => {
        const result = parseCaipNetworkId(input)
        if (Result.isFailure(result)) {
          expect(result.failure).toBeInstanceOf(InvalidCaip2NetworkId)
          expect(result.failure.message).toBe(`Invalid CAIP-2 network id: ${input}`)
        } else {
          expect(`${result.success.namespace}:${result.success.reference}`).toBe(input)
        }
      })
    )
  })

  it.each([
    ["eip155", "one part"],
    ["eip155:1:0xab", "three parts"],
    ["eip155:", "empty reference"],
    [":1", "empty namespace"],
    ["cosmos:cosmoshub-4", "unknown namespace"],
    ["EIP155:1", "namespace in upper case"],
    ["eip155:has space", "reference outside the CAIP-2 charset"],
    [`solana:${"a".repeat(33)}`, "reference longer than 32"],
    ["eip155:0", "chain id 0"],
    ["eip155:-1", "negative chain id"],
    ["eip155:01", "chain id with a leading zero"],
    ["eip155:abc", "chain id that is not a number"],
    ["eip155:1152921504606846976", "chain id 2^60, beyond a safe integer"],
    ["solana:devnet", "solana reference that is not a genesis hash"],
    ["bip122:000000000019D6689C085AE165831E93", "bip122 reference in upper case"],
    ["polkadot:91b171bb158e2d38", "polkadot reference shorter than 32"]
  ])("refuses %s (%s) with the exact text", (input) => {
    const error = failureOf(parseCaipNetworkId(input))
    expect(error._tag).toBe("InvalidCaip2NetworkId")
    expect(error.message).toBe(`Invalid CAIP-2 network id: ${input}`)
  })

  it("accepts the four families' real ids", () => {
    for (const id of [
      "eip155:1",
      "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
      "bip122:000000000019d6689c085ae165831e93",
      "polkadot:91b171bb158e2d3848fa23a9f1c25182"
    ]) {
      expect(isCaipNetworkId(id)).toBe(true)
      expect(Result.isSuccess(toCaipNetworkId(id))).toBe(true)
    }
  })

  it("the Schema decodes a valid id and refuses a bad one with the same text", () => {
    expect(Schema.decodeUnknownSync(CaipNetworkId)("eip155:10")).toBe("eip155:10")
    const result = Schema.decodeUnknownResult(CaipNetworkId)("eip155")
    expect(failureOf(result).message).toBe("Invalid CAIP-2 network id: eip155")
    expect(Result.isFailure(Schema.decodeUnknownResult(CaipNetworkId)(1))).toBe(true)
  })
})

describe("CAIP-10 addresses", () => {
  it("format then parse gives back the parts", () => {
    fc.assert(
      fc.property(namespaceAndReference, address, ([ns, ref], addr) => {
        const caip = Result.getOrThrow(formatCaipAddress({ namespace: ns, reference: ref, address: addr }))
        expect(caip).toBe(`${ns}:${ref}:${addr}`)
        expect(Result.getOrThrow(parseCaipAddress(caip))).toEqual({ namespace: ns, reference: ref, address: addr })
        expect(caipNetworkIdOfAddress(caip)).toBe(`${ns}:${ref}`)
        expect(Result.getOrThrow(plainAddressOf(caip))).toBe(addr)
      })
    )
  })

  it("any string parses or fails with InvalidCaip10Address naming it, never throws", () => {
    fc.assert(
      fc.property(fc.string(), (input) => {
        const result = parseCaipAddress(input)
        if (Result.isFailure(result)) {
          expect(result.failure).toBeInstanceOf(InvalidCaip10Address)
          expect(result.failure.message).toBe(`Invalid CAIP-10 address: ${input}`)
        } else {
          const { namespace: ns, reference: ref, address: addr } = result.success
          expect(`${ns}:${ref}:${addr}`).toBe(input)
        }
      })
    )
  })

  it("strings of colon-joined generated parts are accepted exactly when there are three valid parts", () => {
    const part = fc.oneof(address, fc.constant(""), fc.constantFrom(...CHAIN_NAMESPACES), namespaceAndReference.map(([, ref]) => ref))
    fc.assert(
      fc.property(fc.array(part, { maxLength: 5 }), (parts) => {
        const input = parts.join(":")
        const expected =
          parts.length === 3 &&
          (CHAIN_NAMESPACES as ReadonlyArray<string>).includes(parts[0]!) &&
          REFERENCE_RULES[parts[0]!]!(parts[1]!) &&
          parts[2]!.length > 0
        expect(isCaipAddress(input)).toBe(expected)
      })
    )
  })

  it.each([
    ["eip155:1", "two parts"],
    ["eip155:1:0xab:extra", "four parts"],
    ["eip155:1:", "empty address"],
    ["eip155::0xab", "empty reference"],
    [":1:0xab", "empty namespace"],
    ["cosmos:cosmoshub-4:cosmos1abc", "unknown namespace"],
    ["", "empty string"]
  ])("refuses %s (%s) with the exact text", (input) => {
    const error = failureOf(parseCaipAddress(input))
    expect(error._tag).toBe("InvalidCaip10Address")
    expect(error.message).toBe(`Invalid CAIP-10 address: ${input}`)
  })

  it("the Schema decodes a valid address and refuses a bad one with the same text", () => {
    const valid = "eip155:1:0x52908400098527886E0F7030069857D2E4169EE7"
    expect(Schema.decodeUnknownSync(CaipAddress)(valid)).toBe(valid)
    expect(failureOf(Schema.decodeUnknownResult(CaipAddress)("eip155:1")).message).toBe(
      "Invalid CAIP-10 address: eip155:1"
    )
  })

  it("an address on a network joins both", () => {
    const network = Result.getOrThrow(toCaipNetworkId("solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1"))
    expect(Result.getOrThrow(caipAddressOn(network, "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin"))).toBe(
      "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1:9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin"
    )
  })

  it("a missing or malformed CAIP address has no plain address: 'Invalid CAIP Address'", () => {
    for (const input of [undefined, "eip155:1"]) {
      const error = failureOf(plainAddressOf(input))
      expect(error).toBeInstanceOf(InvalidCaipAddress)
      expect(error.message).toBe("Invalid CAIP Address")
    }
  })
})
