/**
 * The sign-in text of every family, both ways: the exact text of each family, every field at its rule's boundary,
 * identity with viem's EIP-4361 text, parse as the exact inverse of format (generated data and mutated texts), and
 * the times a message holds at.
 */
import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import fc from "fast-check"
import { createSiweMessage, parseSiweMessage } from "viem/siwe"
import type { CaipNetworkId } from "../../../src/domain/Caip"
import type { SiwxMessageData } from "../../../src/domain/Siwx"
import { formatSiwxMessage, parseSiwxMessage, siwxTimesHold } from "../../../src/domain/siwxMessage"

const successOf = <A>(result: Result.Result<A, string>): A => {
  if (Result.isFailure(result)) throw new Error(`expected a success, got the failure ${JSON.stringify(result.failure)}`)
  return result.success
}
const failureOf = <A>(result: Result.Result<A, string>): string => {
  if (Result.isSuccess(result)) throw new Error(`expected a failure, got ${JSON.stringify(result.success)}`)
  return result.failure
}

const EVM_LOWER = "0xd8da6bf26964af9d7eed9e03e53415d37aa96045"
const EVM_CHECKSUMMED = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045"
const SOLANA_ADDRESS = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"
const SOLANA_MAINNET = "5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"
const BITCOIN_ADDRESS = "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq"
const BITCOIN_MAINNET = "000000000019d6689c085ae165831e93"
const POLKADOT_ADDRESS = "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5"
const POLKADOT_MAINNET = "91b171bb158e2d3848fa23a9f1c25182"

const evm: SiwxMessageData = {
  domain: "example.com",
  uri: "https://example.com/login",
  version: "1",
  chainId: "eip155:1" as CaipNetworkId,
  accountAddress: EVM_CHECKSUMMED,
  nonce: "abcd1234",
  issuedAt: "2024-05-01T12:00:00.000Z"
}
const solana: SiwxMessageData = { ...evm, chainId: `solana:${SOLANA_MAINNET}` as CaipNetworkId, accountAddress: SOLANA_ADDRESS }
const bitcoin: SiwxMessageData = { ...evm, chainId: `bip122:${BITCOIN_MAINNET}` as CaipNetworkId, accountAddress: BITCOIN_ADDRESS }
const polkadot: SiwxMessageData = { ...evm, chainId: `polkadot:${POLKADOT_MAINNET}` as CaipNetworkId, accountAddress: POLKADOT_ADDRESS }
const everyField = {
  statement: "Sign in to Example, and agree to https://example.com/tos!",
  expirationTime: "2024-05-01T12:10:00.000Z",
  notBefore: "2024-05-01T11:59:00+02:00",
  requestId: "req-42",
  resources: ["https://example.com/my-web2-claim.json", "ipfs://bafybeiemxf5abjwjbikoz4mc3a3dla6ual3jsgpdr4cjr3oz3evfyavhwq/"]
}
const FIELDS_TAIL = [
  "URI: https://example.com/login",
  "Version: 1",
  "Chain ID: {ref}",
  "Nonce: abcd1234",
  "Issued At: 2024-05-01T12:00:00.000Z"
]
const EVERY_FIELD_TAIL = [
  "Expiration Time: 2024-05-01T12:10:00.000Z",
  "Not Before: 2024-05-01T11:59:00+02:00",
  "Request ID: req-42",
  "Resources:",
  "- https://example.com/my-web2-claim.json",
  "- ipfs://bafybeiemxf5abjwjbikoz4mc3a3dla6ual3jsgpdr4cjr3oz3evfyavhwq/"
]
const fields = (ref: string) => FIELDS_TAIL.map((line) => line.replace("{ref}", ref))

const TEXT = {
  evm: ["example.com wants you to sign in with your Ethereum account:", EVM_CHECKSUMMED, "", "", ...fields("1")].join("\n"),
  evmFull: [
    "example.com wants you to sign in with your Ethereum account:",
    EVM_CHECKSUMMED,
    "",
    everyField.statement,
    "",
    ...fields("1"),
    ...EVERY_FIELD_TAIL
  ].join("\n"),
  solana: ["example.com wants you to sign in with your Solana account:", SOLANA_ADDRESS, "", ...fields(SOLANA_MAINNET)].join("\n"),
  solanaFull: [
    "example.com wants you to sign in with your Solana account:",
    SOLANA_ADDRESS,
    "",
    everyField.statement,
    "",
    ...fields(SOLANA_MAINNET),
    ...EVERY_FIELD_TAIL
  ].join("\n"),
  bitcoin: ["example.com wants you to sign in with your Bitcoin account:", BITCOIN_ADDRESS, "", "", ...fields(BITCOIN_MAINNET)].join("\n"),
  polkadotFull: [
    "example.com wants you to sign in with your Polkadot account:",
    POLKADOT_ADDRESS,
    "",
    everyField.statement,
    "",
    ...fields(POLKADOT_MAINNET),
    ...EVERY_FIELD_TAIL
  ].join("\n")
}

describe("formatSiwxMessage: each family's text", () => {
  it("eip155 is EIP-4361: three line breaks between address and URI without a statement", () => {
    expect(successOf(formatSiwxMessage(evm))).toBe(TEXT.evm)
  })

  it("eip155 with every optional field: statement between blank lines, then the optional fields in EIP-4361's order", () => {
    expect(successOf(formatSiwxMessage({ ...evm, ...everyField }))).toBe(TEXT.evmFull)
  })

  it("solana is the Sign-In With Solana text: one blank line before the fields without a statement", () => {
    expect(successOf(formatSiwxMessage(solana))).toBe(TEXT.solana)
    expect(successOf(formatSiwxMessage({ ...solana, ...everyField }))).toBe(TEXT.solanaFull)
  })

  it("bip122 and polkadot are CAIP-122's generic text, the chain id being the CAIP-2 reference", () => {
    expect(successOf(formatSiwxMessage(bitcoin))).toBe(TEXT.bitcoin)
    expect(successOf(formatSiwxMessage({ ...polkadot, ...everyField }))).toBe(TEXT.polkadotFull)
  })

  it("an empty resources list is written as a bare 'Resources:' line", () => {
    expect(successOf(formatSiwxMessage({ ...evm, resources: [] }))).toBe(`${TEXT.evm}\nResources:`)
  })
})

describe("formatSiwxMessage: each field at its rule's boundary", () => {
  const refuses = (data: SiwxMessageData, words: RegExp) => expect(failureOf(formatSiwxMessage(data))).toMatch(words)
  const accepts = (data: SiwxMessageData) => expect(Result.isSuccess(formatSiwxMessage(data))).toBe(true)

  it("writes an EVM address EIP-55 checksummed, from lower or upper case; refuses a wrong checksum or a bad length", () => {
    expect(successOf(formatSiwxMessage({ ...evm, accountAddress: EVM_LOWER }))).toBe(TEXT.evm)
    expect(successOf(formatSiwxMessage({ ...evm, accountAddress: `0x${EVM_LOWER.slice(2).toUpperCase()}` }))).toBe(TEXT.evm)
    refuses({ ...evm, accountAddress: EVM_CHECKSUMMED.replace("dA6", "da6") }, /address.*checksum/)
    refuses({ ...evm, accountAddress: EVM_LOWER.slice(2) }, /address.*0x and 40 hexadecimal/)
    refuses({ ...evm, accountAddress: EVM_LOWER.slice(0, -1) }, /address/)
    refuses({ ...evm, accountAddress: `${EVM_LOWER}0` }, /address/)
  })

  it("a Solana address is 32 to 44 base58 characters", () => {
    const base58 = "123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz"
    accepts({ ...solana, accountAddress: base58.slice(0, 32) })
    accepts({ ...solana, accountAddress: base58.slice(0, 44) })
    refuses({ ...solana, accountAddress: base58.slice(0, 31) }, /Solana address \(32 to 44 base58/)
    refuses({ ...solana, accountAddress: base58.slice(0, 45) }, /Solana address/)
    refuses({ ...solana, accountAddress: `0${base58.slice(0, 40)}` }, /Solana address/)
  })

  it("Bitcoin and Polkadot addresses have their shapes", () => {
    accepts({ ...bitcoin, accountAddress: "1A1zP1eP5QGefi2DMPTfTL5SLmv7DivfNa" })
    accepts({ ...bitcoin, accountAddress: "3J98t1WpEZ73CNmQviecrnyiWrnqRhWNLy" })
    refuses({ ...bitcoin, accountAddress: "bc1Qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq" }, /Bitcoin address/)
    refuses({ ...bitcoin, accountAddress: SOLANA_ADDRESS }, /Bitcoin address/)
    refuses({ ...polkadot, accountAddress: POLKADOT_ADDRESS.slice(0, 45) }, /Polkadot address/)
  })

  it("the nonce is at least 8 letters or digits", () => {
    accepts({ ...evm, nonce: "abcd1234" })
    accepts({ ...evm, nonce: "A".repeat(200) })
    refuses({ ...evm, nonce: "abcd123" }, /nonce "abcd123" is not at least 8 letters or digits/)
    refuses({ ...evm, nonce: "abcd-1234" }, /nonce/)
    refuses({ ...evm, nonce: "abcd 1234" }, /nonce/)
  })

  it("the statement is one non-empty line of the characters EIP-4361 allows", () => {
    accepts({ ...evm, statement: "A-Za-z0-9 -._~:/?#[]@!$&'()*+,;=" })
    refuses({ ...evm, statement: "line one\nline two" }, /statement must be one line/)
    refuses({ ...evm, statement: "line one\r" }, /statement must be one line/)
    refuses({ ...evm, statement: "" }, /statement is empty/)
    refuses({ ...evm, statement: "Welcome " }, /statement must not end with a space/)
    refuses({ ...evm, statement: "100% safe" }, /statement .* character/)
    refuses({ ...evm, statement: "Bienvenue à bord" }, /statement .* character/)
    refuses({ ...solana, statement: "tab\there" }, /statement .* character/)
  })

  it("the domain is an RFC 3986 authority with a host", () => {
    for (const domain of ["localhost", "localhost:3000", "127.0.0.1:8080", "[::1]:3000", "[2001:db8::7]", "sub.example.co.uk", "user@example.com"]) {
      accepts({ ...evm, domain })
    }
    for (const domain of ["", "https://example.com", "exa mple.com", "example.com/path", "example.com:80a", "[::1", "[1:2:3]", ":8080", "a@b@c"]) {
      refuses({ ...evm, domain }, /domain .* not an RFC 3986 authority/)
    }
  })

  it("the URI and each resource are RFC 3986 URIs", () => {
    for (const uri of ["https://example.com", "http://[::1]:8080/a?b=c#d", "urn:isbn:0451450523", "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK", "file:///etc/hosts", "mailto:a@example.com"]) {
      accepts({ ...evm, uri })
      accepts({ ...evm, resources: [uri] })
    }
    for (const uri of ["example.com", "//example.com", "https://exa mple.com", "https://example.com/%zz", "1https://x", "https://example.com/\u00e9", "https://[::1/x"]) {
      refuses({ ...evm, uri }, /URI .* not an RFC 3986 URI/)
      refuses({ ...evm, resources: ["https://example.com", uri] }, /resource .* not an RFC 3986 URI/)
    }
  })

  it("the version is 1", () => {
    refuses({ ...evm, version: "2" }, /version must be 1/)
    refuses({ ...evm, version: "1.0" }, /version must be 1/)
  })

  it("the times are RFC 3339 date-times: real calendar dates, an offset, T and Z in either case", () => {
    for (const issuedAt of ["2024-02-29T00:00:00Z", "2000-02-29T00:00:00Z", "2024-05-01t12:00:00z", "2024-05-01T23:59:60.123456+05:30", "0001-01-01T00:00:00-00:00"]) {
      accepts({ ...evm, issuedAt })
    }
    for (const issuedAt of ["2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z", "2024-04-31T00:00:00Z", "2024-05-01T24:00:00Z", "2024-05-01 12:00:00Z", "2024-05-01T12:00:00", "2024-05-01T12:00Z", "2024-05-01T12:00:00.Z", "2024-05-01T12:00:00+0200", "1714564800"]) {
      refuses({ ...evm, issuedAt }, /issued-at time .* not an RFC 3339 date-time/)
    }
    refuses({ ...evm, expirationTime: "tomorrow" }, /expiration time/)
    refuses({ ...evm, notBefore: "2024-13-01T00:00:00Z" }, /not-before time/)
  })

  it("the request id is one or more RFC 3986 path characters", () => {
    accepts({ ...evm, requestId: "a:b@c!$&'()*+,;=%20" })
    refuses({ ...evm, requestId: "" }, /request id is empty/)
    refuses({ ...evm, requestId: "a b" }, /request id/)
    refuses({ ...evm, requestId: "a/b" }, /request id/)
  })

  it("the chain id is a CAIP-2 id of a supported family, with that family's reference", () => {
    refuses({ ...evm, chainId: "cosmos:cosmoshub-4" as CaipNetworkId }, /chain id "cosmos:cosmoshub-4" is not a CAIP-2 id of a supported family/)
    refuses({ ...evm, chainId: "eip155:01" as CaipNetworkId }, /chain id/)
    refuses({ ...evm, chainId: "eip155:0x1" as CaipNetworkId }, /chain id/)
    refuses({ ...solana, chainId: `solana:${SOLANA_MAINNET.slice(1)}` as CaipNetworkId }, /chain id/)
    refuses({ ...evm, chainId: "eip155" as CaipNetworkId }, /chain id/)
    accepts({ ...evm, chainId: "eip155:9007199254740991" as CaipNetworkId })
  })
})

describe("parseSiwxMessage", () => {
  it("reads back each family's text, the exact inverse of format", () => {
    expect(successOf(parseSiwxMessage(TEXT.evm))).toEqual(evm)
    expect(successOf(parseSiwxMessage(TEXT.evmFull))).toEqual({ ...evm, ...everyField })
    expect(successOf(parseSiwxMessage(TEXT.solana))).toEqual(solana)
    expect(successOf(parseSiwxMessage(TEXT.solanaFull))).toEqual({ ...solana, ...everyField })
    expect(successOf(parseSiwxMessage(TEXT.bitcoin))).toEqual(bitcoin)
    expect(successOf(parseSiwxMessage(TEXT.polkadotFull))).toEqual({ ...polkadot, ...everyField })
    expect(successOf(parseSiwxMessage(`${TEXT.evm}\nResources:`))).toEqual({ ...evm, resources: [] })
  })

  it("reads a Solana statement that looks like a field as the statement", () => {
    const data = { ...solana, statement: "URI: https://elsewhere.example" }
    const text = successOf(formatSiwxMessage(data))
    expect(successOf(parseSiwxMessage(text))).toEqual(data)
  })

  const replaceLine = (text: string, index: number, line: string) =>
    text.split("\n").map((current, i) => (i === index ? line : current)).join("\n")
  const withoutLine = (text: string, index: number) => text.split("\n").filter((_, i) => i !== index).join("\n")
  const swapLines = (text: string, a: number, b: number) => {
    const lines = text.split("\n")
    ;[lines[a], lines[b]] = [lines[b] ?? "", lines[a] ?? ""]
    return lines.join("\n")
  }
  const refuses = (text: string, words: RegExp) => expect(failureOf(parseSiwxMessage(text))).toMatch(words)

  it("refuses line ends and whitespace format never writes", () => {
    refuses(TEXT.evm.replaceAll("\n", "\r\n"), /carriage return/)
    refuses(`${TEXT.evm}\n`, /ends with a line break/)
    refuses(replaceLine(TEXT.evm, 5, "Version: 1 "), /Line 6 ends with whitespace/)
    refuses(replaceLine(TEXT.evm, 5, "Version: 1\t"), /Line 6 ends with whitespace/)
    refuses(` ${TEXT.evm}`, /domain/)
    refuses("", /Line 1 must be/)
  })

  it("refuses a missing, repeated, misplaced or unknown field, naming it", () => {
    refuses(withoutLine(TEXT.evm, 7), /Line 8: expected 'Nonce: …', found the 'Issued At:' line \('Nonce:' missing or out of order\)/)
    refuses(withoutLine(TEXT.evm, 8), /ends before its 'Issued At:' line/)
    refuses(swapLines(TEXT.evm, 5, 6), /Line 6: expected 'Version: …', found the 'Chain ID:' line/)
    refuses(`${TEXT.evm}\nExpiration Time: 2024-05-01T12:10:00.000Z\nExpiration Time: 2024-05-01T12:10:00.000Z`, /'Expiration Time:' is repeated, out of order/)
    refuses(`${TEXT.evm}\nRequest ID: a\nNot Before: 2024-05-01T12:10:00.000Z`, /Line 11: 'Not Before:' is repeated, out of order/)
    refuses(`${TEXT.evm}\nResources:\n- https://a.example\nRequest ID: a`, /Line 12: 'Request ID:'/)
    refuses(`${TEXT.evm}\nResources:\n- https://a.example\nhttps://b.example`, /expected a resource \('- ' and a URI\)/)
    refuses(`${TEXT.evm}\nChain: 1`, /Line 10: unexpected "Chain: 1"/)
    refuses(`${TEXT.evm}\n`.repeat(2), /Line 10/)
    refuses(replaceLine(TEXT.evm, 6, "Chain ID:1"), /expected 'Chain ID: …'/)
  })

  it("refuses a header it does not know: another family, a scheme, a missing domain", () => {
    refuses(replaceLine(TEXT.evm, 0, "example.com wants you to sign in with your Cosmos account:"), /Unknown chain family "Cosmos"/)
    refuses(replaceLine(TEXT.evm, 0, "https://example.com wants you to sign in with your Ethereum account:"), /has a scheme/)
    refuses(replaceLine(TEXT.evm, 0, " wants you to sign in with your Ethereum account:"), /domain "" is not an RFC 3986 authority/)
    refuses(replaceLine(TEXT.evm, 0, "example.com wants you to sign in with your Ethereum account"), /Line 1 must be/)
  })

  it("refuses blank lines laid out another way than the family's", () => {
    refuses(withoutLine(TEXT.evm, 3), /Line 4 must be empty: without a statement, two empty lines/)
    refuses(replaceLine(TEXT.evmFull, 4, "second line"), /Line 5 must be empty/)
    refuses(TEXT.evm.replace("\n\n\n", "\n\n\n\n"), /Line 5: expected 'URI: …', found an empty line/)
    refuses(TEXT.evm.replace("\n\n\n", "\n\nx\n\n\n"), /Line 6: expected 'URI: …', found an empty line/)
    refuses(TEXT.solana.replace("\n\n", "\n\n\n"), /Line 4: expected 'URI: …', found an empty line/)
    refuses(TEXT.solana.replace("\n\n", "\n\n\n\n"), /Line 4 is an empty statement/)
    refuses(TEXT.solanaFull.replace("\n\nURI", "\nURI"), /Line 5 must be empty|expected 'URI: …'/)
    refuses(replaceLine(TEXT.evm, 2, "x"), /Line 3 must be empty, not "x"/)
    refuses(TEXT.evm.split("\n").slice(0, 4).join("\n"), /ends before its 'URI:' line/)
  })

  it("refuses an EVM address that is not EIP-55 checksummed, as format would never write it", () => {
    refuses(TEXT.evm.replace(EVM_CHECKSUMMED, EVM_LOWER), /not written EIP-55 checksummed: expected 0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045/)
    refuses(TEXT.evm.replace(EVM_CHECKSUMMED, EVM_CHECKSUMMED.replace("dA6", "da6")), /wrong EIP-55 checksum/)
  })

  it("refuses bad values with the same words as format", () => {
    refuses(TEXT.evm.replace("Nonce: abcd1234", "Nonce: abcd123"), /nonce "abcd123" is not at least 8 letters or digits/)
    refuses(TEXT.evm.replace("Chain ID: 1", "Chain ID: 01"), /Chain ID "01" is not a eip155 chain reference/)
    refuses(TEXT.evm.replace("Chain ID: 1", "Chain ID: 0x1"), /Chain ID "0x1"/)
    refuses(TEXT.solana.replace(`Chain ID: ${SOLANA_MAINNET}`, "Chain ID: mainnet"), /Chain ID "mainnet" is not a solana chain reference/)
    refuses(TEXT.evm.replace("Version: 1", "Version: 2"), /version must be 1/)
    refuses(TEXT.evm.replace("Issued At: 2024-05-01T12:00:00.000Z", "Issued At: yesterday"), /issued-at time "yesterday"/)
    refuses(TEXT.evm.replace("URI: https://example.com/login", "URI: not a uri"), /URI "not a uri"/)
    refuses(TEXT.evmFull.replace(everyField.statement, "100% sure"), /statement/)
    refuses(TEXT.solana.replace(SOLANA_ADDRESS, SOLANA_ADDRESS.slice(0, 31)), /Solana address/)
    refuses(TEXT.evmFull.replace("- ipfs://", "- ipfs ://"), /resource "ipfs :\/\//)
  })
})

describe("identity with viem's EIP-4361 text", () => {
  const viemText = (data: SiwxMessageData) =>
    createSiweMessage({
      domain: data.domain,
      address: data.accountAddress as `0x${string}`,
      uri: data.uri,
      version: "1",
      chainId: Number(data.chainId.split(":")[1]),
      nonce: data.nonce,
      issuedAt: new Date(data.issuedAt),
      ...(data.statement === undefined ? {} : { statement: data.statement }),
      ...(data.expirationTime === undefined ? {} : { expirationTime: new Date(data.expirationTime) }),
      ...(data.notBefore === undefined ? {} : { notBefore: new Date(data.notBefore) }),
      ...(data.requestId === undefined ? {} : { requestId: data.requestId }),
      ...(data.resources === undefined ? {} : { resources: [...data.resources] })
    })

  const inputs: ReadonlyArray<SiwxMessageData> = [
    evm,
    { ...evm, accountAddress: EVM_LOWER },
    { ...evm, statement: "I accept the ServiceOrg Terms of Service: https://service.org/tos" },
    { ...evm, ...everyField, notBefore: "2024-05-01T09:59:00.000Z", chainId: "eip155:8453" as CaipNetworkId },
    { ...evm, domain: "localhost:3000", uri: "http://localhost:3000", resources: [], chainId: "eip155:31337" as CaipNetworkId },
    { ...evm, domain: "127.0.0.1:8545", requestId: "x", chainId: "eip155:9007199254740991" as CaipNetworkId }
  ]

  it.each(inputs.map((data, i) => [i, data] as const))("input %i gives viem's text", (_, data) => {
    expect(successOf(formatSiwxMessage(data))).toBe(viemText(data))
  })

  it("viem reads our text to the same fields", () => {
    const parsed = parseSiweMessage(TEXT.evmFull)
    expect(parsed).toMatchObject({
      domain: "example.com",
      address: EVM_CHECKSUMMED,
      statement: everyField.statement,
      uri: evm.uri,
      version: "1",
      chainId: 1,
      nonce: evm.nonce,
      requestId: everyField.requestId,
      resources: everyField.resources
    })
  })
})

describe("siwxTimesHold", () => {
  const at = (iso: string) => new Date(iso)
  const noon = "2024-05-01T12:00:00.000Z"

  it("issuedAt may not be after now, unless within the skew", () => {
    expect(siwxTimesHold({ ...evm, issuedAt: noon }, at(noon))).toBe(true)
    expect(siwxTimesHold({ ...evm, issuedAt: "2024-05-01T12:00:00.001Z" }, at(noon))).toBe(false)
    expect(siwxTimesHold({ ...evm, issuedAt: "2024-05-01T12:00:01.000Z" }, at(noon), 1000)).toBe(true)
    expect(siwxTimesHold({ ...evm, issuedAt: "2024-05-01T12:00:01.001Z" }, at(noon), 1000)).toBe(false)
    expect(siwxTimesHold({ ...evm, issuedAt: "2024-05-01T14:00:00+02:00" }, at(noon))).toBe(true)
    expect(siwxTimesHold({ ...evm, issuedAt: "2024-05-01T12:00:00-00:01" }, at(noon))).toBe(false)
  })

  it("notBefore must have passed and expirationTime must not have", () => {
    expect(siwxTimesHold({ ...evm, issuedAt: "2024-05-01T11:00:00Z", notBefore: noon }, at(noon))).toBe(true)
    expect(siwxTimesHold({ ...evm, issuedAt: "2024-05-01T11:00:00Z", notBefore: "2024-05-01T12:00:00.001Z" }, at(noon))).toBe(false)
    expect(siwxTimesHold({ ...evm, issuedAt: "2024-05-01T11:00:00Z", notBefore: "2024-05-01T12:00:00.001Z" }, at(noon), 60_000)).toBe(false)
    expect(siwxTimesHold({ ...evm, issuedAt: "2024-05-01T11:00:00Z", expirationTime: "2024-05-01T12:00:00.001Z" }, at(noon))).toBe(true)
    expect(siwxTimesHold({ ...evm, issuedAt: "2024-05-01T11:00:00Z", expirationTime: noon }, at(noon))).toBe(false)
    expect(siwxTimesHold({ ...evm, issuedAt: "2024-05-01T11:00:00Z", expirationTime: "2024-05-01T13:59:59+02:00" }, at(noon))).toBe(false)
  })

  it("a time that is not RFC 3339 never holds", () => {
    expect(siwxTimesHold({ ...evm, issuedAt: "2024-05-01 11:00:00Z" }, at(noon))).toBe(false)
    expect(siwxTimesHold({ ...evm, issuedAt: "2024-05-01T11:00:00Z", expirationTime: "never" }, at(noon))).toBe(false)
    expect(siwxTimesHold({ ...evm, issuedAt: "2024-05-01T11:00:00Z", notBefore: "2024-02-30T00:00:00Z" }, at(noon))).toBe(false)
  })

  it("reads fractions beyond milliseconds and years before 100", () => {
    expect(siwxTimesHold({ ...evm, issuedAt: "2024-05-01T12:00:00.0009Z" }, at(noon))).toBe(true)
    expect(siwxTimesHold({ ...evm, issuedAt: "2024-05-01T12:00:00.0019Z" }, at(noon))).toBe(false)
    expect(siwxTimesHold({ ...evm, issuedAt: "0050-01-01T00:00:00Z", expirationTime: "0099-01-01T00:00:00Z" }, at(noon))).toBe(false)
    expect(siwxTimesHold({ ...evm, issuedAt: "0050-01-01T00:00:00Z", expirationTime: "0099-01-01T00:00:00Z" }, at("0060-01-01T00:00:00Z"))).toBe(true)
  })
})

// ---------------------------------------------------------------------------------------------------------------
// Properties. Arbitraries made from patterns are built once: costly to build, cheap to draw from.

const RUNS = 300
const BASE58 = "1-9A-HJ-NP-Za-km-z"

const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,8}[a-z0-9])?$/)
const hostname = fc.tuple(fc.array(label, { minLength: 1, maxLength: 3 }), fc.stringMatching(/^[a-z]{2,6}$/)).map(([labels, tld]) => [...labels, tld].join("."))
const port = fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined }).map((p) => (p === undefined ? "" : `:${p}`))
const domain = fc.oneof(
  fc.tuple(hostname, port).map(([host, p]) => `${host}${p}`),
  fc.constantFrom("localhost", "localhost:3000", "127.0.0.1:8080", "[::1]:5173", "user@example.com", "[v1.x]")
)
const pathSegment = fc.stringMatching(/^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9A-F]{2}){0,8}$/)
const uri = fc.oneof(
  fc.tuple(fc.constantFrom("https", "http", "wss"), domain, fc.array(pathSegment, { maxLength: 3 }), fc.option(pathSegment, { nil: undefined }), fc.option(pathSegment, { nil: undefined }))
    .map(([scheme, host, path, query, fragment]) =>
      `${scheme}://${host}${path.map((s) => `/${s}`).join("")}${query === undefined ? "" : `?${query}`}${fragment === undefined ? "" : `#${fragment}`}`),
  fc.stringMatching(/^(?:urn:[a-z]{1,8}:[a-z0-9]{1,12}|did:key:z[1-9A-HJ-NP-Za-km-z]{8,40}|ipfs:\/\/[a-z2-7]{10,59})$/)
)
const pad = (n: number, width = 2) => String(n).padStart(width, "0")
const dateTime = fc
  .record({
    date: fc.date({ min: new Date("0001-01-01T00:00:00Z"), max: new Date("9999-12-31T23:59:59Z"), noInvalidDate: true }),
    fraction: fc.option(fc.stringMatching(/^[0-9]{1,9}$/), { nil: undefined }),
    offset: fc.option(fc.tuple(fc.constantFrom("+", "-"), fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 })), { nil: undefined }),
    lower: fc.boolean()
  })
  .map(({ date, fraction, offset, lower }) => {
    const base = `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}T${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`
    const text = `${base}${fraction === undefined ? "" : `.${fraction}`}${offset === undefined ? "Z" : `${offset[0]}${pad(offset[1])}:${pad(offset[2])}`}`
    return lower ? text.replace("T", "t").replace("Z", "z") : text
  })
const statement = fc.stringMatching(/^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;= ]{0,60}[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=]$/)
const requestId = fc.stringMatching(/^(?:[A-Za-z0-9\-._~!$&'()*+,;=:@]|%[0-9a-f]{2}){1,20}$/)

const evmAddress = fc.tuple(fc.stringMatching(/^[0-9a-f]{40}$/), fc.constantFrom("lower", "upper")).map(([hex, form]) => `0x${form === "upper" ? hex.toUpperCase() : hex}`)
const FAMILY: Record<string, { reference: fc.Arbitrary<string>; address: fc.Arbitrary<string> }> = {
  eip155: { reference: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }).map(String), address: evmAddress },
  solana: { reference: fc.stringMatching(new RegExp(`^[${BASE58}]{32}$`)), address: fc.stringMatching(new RegExp(`^[${BASE58}]{32,44}$`)) },
  bip122: {
    reference: fc.stringMatching(/^[0-9a-f]{32}$/),
    address: fc.oneof(fc.stringMatching(new RegExp(`^[13][${BASE58}]{25,34}$`)), fc.stringMatching(/^(?:bc|tb)1[02-9ac-hj-np-z]{39,59}$/))
  },
  polkadot: { reference: fc.stringMatching(/^[0-9a-f]{32}$/), address: fc.stringMatching(new RegExp(`^[${BASE58}]{47,48}$`)) }
}
const chainAndAddress = fc
  .constantFrom("eip155", "solana", "bip122", "polkadot")
  .chain((namespace) => fc.tuple(FAMILY[namespace]!.reference, FAMILY[namespace]!.address).map(([reference, address]) => ({ chainId: `${namespace}:${reference}` as CaipNetworkId, accountAddress: address })))

const optional = <A>(arbitrary: fc.Arbitrary<A>) => fc.option(arbitrary, { nil: undefined })
const messageData: fc.Arbitrary<SiwxMessageData> = fc
  .record({
    where: chainAndAddress,
    domain,
    uri,
    nonce: fc.stringMatching(/^[A-Za-z0-9]{8,32}$/),
    issuedAt: dateTime,
    expirationTime: optional(dateTime),
    notBefore: optional(dateTime),
    statement: optional(statement),
    requestId: optional(requestId),
    resources: optional(fc.array(uri, { maxLength: 3 }))
  })
  .map(({ where, expirationTime, notBefore, statement, requestId, resources, ...rest }) => ({
    ...rest,
    ...where,
    version: "1",
    ...(expirationTime === undefined ? {} : { expirationTime }),
    ...(notBefore === undefined ? {} : { notBefore }),
    ...(statement === undefined ? {} : { statement }),
    ...(requestId === undefined ? {} : { requestId }),
    ...(resources === undefined ? {} : { resources })
  }))

// The text's data, with the EVM address as the text shows it.
const asWritten = (data: SiwxMessageData, text: string): SiwxMessageData => ({ ...data, accountAddress: text.split("\n")[1] ?? "" })

// One edit of a text: a character dropped, added or replaced, or two lines swapped.
const edited = fc.tuple(messageData, fc.nat(), fc.constantFrom("drop", "add", "replace", "swap"), fc.constantFrom(..."\n\r :-/.0aZ \u00e9\t\u0000#%"), fc.nat())
  .map(([data, where, edit, char, other]) => {
    const text = successOf(formatSiwxMessage(data))
    const i = where % (text.length + 1)
    if (edit === "swap") {
      const lines = text.split("\n")
      const a = where % lines.length
      const b = other % lines.length
      ;[lines[a], lines[b]] = [lines[b] ?? "", lines[a] ?? ""]
      return lines.join("\n")
    }
    return text.slice(0, i) + (edit === "drop" ? "" : char) + text.slice(edit === "add" ? i : i + 1)
  })

describe("properties", () => {
  it("format then parse gives the data back, and formatting that data gives the same text", () => {
    fc.assert(
      fc.property(messageData, (data) => {
        const text = successOf(formatSiwxMessage(data))
        const parsed = successOf(parseSiwxMessage(text))
        expect(parsed).toEqual(asWritten(data, text))
        expect(successOf(formatSiwxMessage(parsed))).toBe(text)
      }),
      { numRuns: RUNS }
    )
  })

  it("an edited text is refused with words, or is the exact text of the data it parses to", () => {
    fc.assert(
      fc.property(edited, (text) => {
        const parsed = parseSiwxMessage(text)
        if (Result.isSuccess(parsed)) expect(successOf(formatSiwxMessage(parsed.success))).toBe(text)
        else expect(parsed.failure.length).toBeGreaterThan(10)
      }),
      { numRuns: RUNS * 3 }
    )
  })

  it("parse never throws on arbitrary text, and whatever it accepts formats back to that text", () => {
    const arbitraryText = fc.oneof(
      fc.string({ unit: "binary", maxLength: 400 }),
      fc.array(fc.constantFrom("example.com wants you to sign in with your Ethereum account:", EVM_CHECKSUMMED, "", "URI: https://a.example", "Version: 1", "Chain ID: 1", "Nonce: abcd1234", "Issued At: 2024-05-01T12:00:00Z", "Resources:", "- https://a.example", "x"), { maxLength: 14 }).map((lines) => lines.join("\n"))
    )
    fc.assert(
      fc.property(arbitraryText, (text) => {
        const parsed = parseSiwxMessage(text)
        if (Result.isSuccess(parsed)) expect(successOf(formatSiwxMessage(parsed.success))).toBe(text)
      }),
      { numRuns: RUNS * 3 }
    )
  })

  it("an eip155 message with viem's date form is viem's text, and viem reads its address and nonce back", () => {
    const evmData = fc.tuple(messageData, evmAddress, fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), hostname, fc.date({ min: new Date("1970-01-01T00:00:00Z"), max: new Date("9999-12-31T23:59:59Z"), noInvalidDate: true }))
      .map(([data, accountAddress, chainId, host, date]): SiwxMessageData => ({
        ...data,
        domain: host,
        accountAddress,
        chainId: `eip155:${chainId}` as CaipNetworkId,
        issuedAt: date.toISOString(),
        ...(data.expirationTime === undefined ? {} : { expirationTime: new Date(date.getTime() + 60_000).toISOString() }),
        ...(data.notBefore === undefined ? {} : { notBefore: new Date(date.getTime() - 60_000).toISOString() })
      }))
      .filter((data) => !data.expirationTime?.startsWith("+") && !data.notBefore?.startsWith("-"))
    fc.assert(
      fc.property(evmData, (data) => {
        const ours = successOf(formatSiwxMessage(data))
        const theirs = createSiweMessage({
          domain: data.domain,
          address: data.accountAddress as `0x${string}`,
          uri: data.uri,
          version: "1",
          chainId: Number(data.chainId.slice("eip155:".length)),
          nonce: data.nonce,
          issuedAt: new Date(data.issuedAt),
          ...(data.statement === undefined ? {} : { statement: data.statement }),
          ...(data.expirationTime === undefined ? {} : { expirationTime: new Date(data.expirationTime) }),
          ...(data.notBefore === undefined ? {} : { notBefore: new Date(data.notBefore) }),
          ...(data.requestId === undefined ? {} : { requestId: data.requestId }),
          ...(data.resources === undefined ? {} : { resources: [...data.resources] })
        })
        expect(ours).toBe(theirs)
        expect(parseSiweMessage(ours)).toMatchObject({ nonce: data.nonce, uri: data.uri })
      }),
      { numRuns: RUNS }
    )
  })
})
