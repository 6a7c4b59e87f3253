/**
 * The sign-in text (CAIP-122) of every chain family, both ways: EIP-4361 for eip155, the Sign-In With Solana text
 * for solana, CAIP-122's generic text for bip122 and polkadot. `formatSiwxMessage` and `parseSiwxMessage` are exact
 * inverses: a text is accepted only if formatting its data gives that very text back, byte for byte, so what the
 * wallet signed and what the server reads cannot disagree.
 */
import { Result } from "effect"
import { type ChainNamespace, parseCaipNetworkId, toCaipNetworkId } from "./Caip"
import type { SiwxMessageData } from "./Siwx"
import { toChecksumAddress } from "./validation"

// ---------------------------------------------------------------------------------------------------------------
// RFC 3986 pieces (authority, URI, pchar) and RFC 3339 date-times, as the ABNF of EIP-4361 imports them.

const UNRESERVED = "A-Za-z0-9\\-._~"
const SUB_DELIMS = "!$&'()*+,;="
const PCT_ENCODED = "%[0-9A-Fa-f]{2}"
const PCHAR = `(?:[${UNRESERVED}${SUB_DELIMS}:@]|${PCT_ENCODED})`

const USERINFO = new RegExp(`^(?:[${UNRESERVED}${SUB_DELIMS}:]|${PCT_ENCODED})*$`)
const REG_NAME = new RegExp(`^(?:[${UNRESERVED}${SUB_DELIMS}]|${PCT_ENCODED})*$`)
const IPV_FUTURE = new RegExp(`^v[0-9A-Fa-f]+\\.[${UNRESERVED}${SUB_DELIMS}:]+$`)
const H16 = /^[0-9A-Fa-f]{1,4}$/
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/
const PORT = /^\d*$/
const SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*$/
const QUERY_OR_FRAGMENT = new RegExp(`^(?:${PCHAR}|[/?])*$`)
const PATH_ABEMPTY = new RegExp(`^(?:/${PCHAR}*)*$`)
// path-absolute, path-rootless or path-empty: what may follow "scheme:" when no "//" authority does.
const PATH_NO_AUTHORITY = new RegExp(`^/?(?:${PCHAR}+(?:/${PCHAR}*)*)?$`)
const REQUEST_ID = new RegExp(`^${PCHAR}+$`)

const isIPv6 = (value: string): boolean => {
  // A trailing dotted IPv4 stands for the last two 16-bit groups.
  const lastColon = value.lastIndexOf(":")
  const tail = value.slice(lastColon + 1)
  const text = tail.includes(".") ? (IPV4.test(tail) ? `${value.slice(0, lastColon + 1)}0:0` : undefined) : value
  if (text === undefined) return false
  const halves = text.split("::")
  if (halves.length > 2) return false
  const groups = (half: string) => (half === "" ? [] : half.split(":"))
  const all = halves.flatMap(groups)
  if (!all.every((group) => H16.test(group))) return false
  return halves.length === 2 ? all.length <= 7 : all.length === 8
}

const isHost = (host: string): boolean =>
  host.startsWith("[") && host.endsWith("]")
    ? isIPv6(host.slice(1, -1)) || IPV_FUTURE.test(host.slice(1, -1))
    : REG_NAME.test(host)

// authority = [ userinfo "@" ] host [ ":" port ]; the host is returned so a caller can ask for a non-empty one.
const splitAuthority = (authority: string): { readonly host: string } | undefined => {
  const at = authority.lastIndexOf("@")
  if (at >= 0 && !USERINFO.test(authority.slice(0, at))) return undefined
  const hostPort = authority.slice(at + 1)
  const closing = hostPort.startsWith("[") ? hostPort.indexOf("]") : -1
  const portColon = hostPort.indexOf(":", closing + 1)
  const host = portColon >= 0 ? hostPort.slice(0, portColon) : hostPort
  if (portColon >= 0 && !PORT.test(hostPort.slice(portColon + 1))) return undefined
  return isHost(host) ? { host } : undefined
}

/** True for an RFC 3986 URI: scheme ":" hier-part [ "?" query ] [ "#" fragment ]. */
const isUri = (value: string): boolean => {
  const colon = value.indexOf(":")
  if (colon < 1 || !SCHEME.test(value.slice(0, colon))) return false
  const rest = value.slice(colon + 1)
  const hash = rest.indexOf("#")
  const beforeFragment = hash >= 0 ? rest.slice(0, hash) : rest
  if (hash >= 0 && !QUERY_OR_FRAGMENT.test(rest.slice(hash + 1))) return false
  const question = beforeFragment.indexOf("?")
  const hierPart = question >= 0 ? beforeFragment.slice(0, question) : beforeFragment
  if (question >= 0 && !QUERY_OR_FRAGMENT.test(beforeFragment.slice(question + 1))) return false
  if (!hierPart.startsWith("//")) return PATH_NO_AUTHORITY.test(hierPart)
  const slash = hierPart.indexOf("/", 2)
  const authority = slash >= 0 ? hierPart.slice(2, slash) : hierPart.slice(2)
  return splitAuthority(authority) !== undefined && PATH_ABEMPTY.test(slash >= 0 ? hierPart.slice(slash) : "")
}

// RFC 3339 date-time; "T" and "Z" may be lower case (RFC 3339 §5.6).
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))$/

const daysInMonth = (year: number, month: number): number =>
  month === 2 ? (year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(month) ? 30 : 31

/** The instant of an RFC 3339 date-time in epoch milliseconds, or undefined when it is not one. */
const instantOf = (value: string): number | undefined => {
  const match = DATE_TIME.exec(value)
  if (!match) return undefined
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number]
  const offsetHours = Number(match[9] ?? 0)
  const offsetMinutes = Number(match[10] ?? 0)
  const valid =
    month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month) && hour <= 23 && minute <= 59 &&
    second <= 60 && offsetHours <= 23 && offsetMinutes <= 59
  if (!valid) return undefined
  const millis = Number(`0.${match[7] ?? "0"}`) * 1000
  // Date.UTC maps years 0–99 to 1900–1999; setUTCFullYear does not.
  const date = new Date(Date.UTC(2000, month - 1, day, hour, minute, second, Math.floor(millis)))
  date.setUTCFullYear(year)
  const sign = match[8] === "-" ? -1 : 1
  return date.getTime() - sign * (offsetHours * 60 + offsetMinutes) * 60_000
}

// ---------------------------------------------------------------------------------------------------------------
// The families

type Layout = "eip4361" | "siws"

interface Family {
  /** The chain's name in the first line: "… sign in with your {accountName} account:". */
  readonly accountName: string
  /**
   * eip4361: a blank line after the address, then `statement LF` when there is one, then a blank line (so three
   * line breaks between address and URI without a statement). siws (`createSignInMessageText` of the Solana wallet
   * standard): the statement block only when there is one, then one blank line before the fields.
   */
  readonly layout: Layout
  /** The address as the text must show it, or what is wrong with it. */
  readonly address: (address: string) => Result.Result<string, string>
}

const quote = (value: string): string => JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value)

const BASE58 = "1-9A-HJ-NP-Za-km-z"
const SOLANA_ADDRESS = new RegExp(`^[${BASE58}]{32,44}$`)
const BITCOIN_BASE58_ADDRESS = new RegExp(`^[13mn2][${BASE58}]{25,34}$`)
const BITCOIN_BECH32_ADDRESS = /^(?:(?:bc|tb|bcrt)1[02-9ac-hj-np-z]{8,87}|(?:BC|TB|BCRT)1[02-9AC-HJ-NP-Z]{8,87})$/
const POLKADOT_ADDRESS = new RegExp(`^[${BASE58}]{46,49}$`)
const EVM_ADDRESS = /^0x[0-9a-fA-F]{40}$/

const FAMILIES: { readonly [N in ChainNamespace]: Family } = {
  eip155: {
    accountName: "Ethereum",
    layout: "eip4361",
    address: (address) => {
      if (!EVM_ADDRESS.test(address)) return Result.fail(`The address ${quote(address)} is not 0x and 40 hexadecimal characters`)
      const checksummed = toChecksumAddress(address)
      const body = address.slice(2)
      const mixedCase = body !== body.toLowerCase() && body !== body.toUpperCase()
      return mixedCase && checksummed !== address
        ? Result.fail(`The address ${quote(address)} has a wrong EIP-55 checksum (check for a typo)`)
        : Result.succeed(checksummed)
    }
  },
  solana: {
    accountName: "Solana",
    layout: "siws",
    address: (address) =>
      SOLANA_ADDRESS.test(address)
        ? Result.succeed(address)
        : Result.fail(`The address ${quote(address)} is not a Solana address (32 to 44 base58 characters)`)
  },
  bip122: {
    accountName: "Bitcoin",
    layout: "eip4361",
    address: (address) =>
      BITCOIN_BASE58_ADDRESS.test(address) || BITCOIN_BECH32_ADDRESS.test(address)
        ? Result.succeed(address)
        : Result.fail(`The address ${quote(address)} is not a Bitcoin address (base58 or bech32)`)
  },
  polkadot: {
    accountName: "Polkadot",
    layout: "eip4361",
    address: (address) =>
      POLKADOT_ADDRESS.test(address)
        ? Result.succeed(address)
        : Result.fail(`The address ${quote(address)} is not a Polkadot address (46 to 49 base58 characters, SS58)`)
  }
}

const NAMESPACE_OF_ACCOUNT_NAME = new Map(
  (Object.keys(FAMILIES) as Array<ChainNamespace>).map((namespace) => [FAMILIES[namespace].accountName, namespace])
)

// ---------------------------------------------------------------------------------------------------------------
// Checking the data

// statement = *( reserved / unreserved / " " ) (EIP-4361, SIWS and CAIP-122 alike): printable ASCII without
// % " < > \ ^ ` { | } and without a line break. Empty or ending in a space it could not be read back.
const STATEMENT = /^[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;= ]*$/
const NONCE = /^[A-Za-z0-9]{8,}$/

interface Checked {
  readonly family: Family
  readonly reference: string
  readonly address: string
}

const checkData = (data: SiwxMessageData): Result.Result<Checked, string> => {
  const parts = parseCaipNetworkId(data.chainId)
  if (Result.isFailure(parts)) {
    return Result.fail(
      `The chain id ${quote(data.chainId)} is not a CAIP-2 id of a supported family ` +
        "(eip155:<decimal>, solana:<32 base58>, bip122:<32 hex>, polkadot:<32 hex>)"
    )
  }
  const { namespace, reference } = parts.success
  const family = FAMILIES[namespace]
  const domain = splitAuthority(data.domain)
  if (domain === undefined || domain.host === "") {
    return Result.fail(`The domain ${quote(data.domain)} is not an RFC 3986 authority (host, optional port)`)
  }
  const address = family.address(data.accountAddress)
  if (Result.isFailure(address)) return Result.fail(address.failure)
  const problem = checkFields(data)
  return problem === undefined ? Result.succeed({ family, reference, address: address.success }) : Result.fail(problem)
}

// The fields after the address, in the order the text has them, so a parse names the first wrong one.
const checkFields = (data: SiwxMessageData): string | undefined => {
  const { statement } = data
  if (statement !== undefined) {
    if (statement === "") return "The statement is empty: leave it out instead"
    if (statement.includes("\n") || statement.includes("\r")) return "The statement must be one line (no line break)"
    if (!STATEMENT.test(statement)) {
      return `The statement ${quote(statement)} has a character EIP-4361 does not allow (printable ASCII only, without % " < > \\ ^ \` { | })`
    }
    if (statement.endsWith(" ")) return "The statement must not end with a space"
  }
  if (!isUri(data.uri)) return `The URI ${quote(data.uri)} is not an RFC 3986 URI`
  if (data.version !== "1") return `The version must be 1, not ${quote(data.version)}`
  if (!NONCE.test(data.nonce)) return `The nonce ${quote(data.nonce)} is not at least 8 letters or digits`
  const times = [
    ["issued-at time", data.issuedAt],
    ["expiration time", data.expirationTime],
    ["not-before time", data.notBefore]
  ] as const
  for (const [name, value] of times) {
    if (value !== undefined && instantOf(value) === undefined) {
      return `The ${name} ${quote(value)} is not an RFC 3339 date-time (like 2024-05-01T12:00:00.000Z)`
    }
  }
  if (data.requestId !== undefined && !REQUEST_ID.test(data.requestId)) {
    return data.requestId === ""
      ? "The request id is empty: leave it out instead"
      : `The request id ${quote(data.requestId)} has a character an RFC 3986 path segment does not allow`
  }
  const badResource = data.resources?.find((resource) => !isUri(resource))
  if (badResource !== undefined) return `The resource ${quote(badResource)} is not an RFC 3986 URI`
  return undefined
}

// ---------------------------------------------------------------------------------------------------------------
// Text

const header = (domain: string, family: Family) => `${domain} wants you to sign in with your ${family.accountName} account:`

const fieldLines = (data: SiwxMessageData, reference: string): ReadonlyArray<string> => [
  `URI: ${data.uri}`,
  `Version: ${data.version}`,
  `Chain ID: ${reference}`,
  `Nonce: ${data.nonce}`,
  `Issued At: ${data.issuedAt}`,
  ...(data.expirationTime === undefined ? [] : [`Expiration Time: ${data.expirationTime}`]),
  ...(data.notBefore === undefined ? [] : [`Not Before: ${data.notBefore}`]),
  ...(data.requestId === undefined ? [] : [`Request ID: ${data.requestId}`]),
  ...(data.resources === undefined ? [] : ["Resources:", ...data.resources.map((resource) => `- ${resource}`)])
]

/**
 * The text a wallet signs for the message data: EIP-4361 for eip155, the Solana sign-in text for solana, CAIP-122's
 * generic text for bip122 and polkadot.
 * @example
 * formatSiwxMessage({ domain: "example.com", uri: "https://example.com", version: "1", chainId: "eip155:1" as CaipNetworkId,
 *   accountAddress: "0xd8da6bf26964af9d7eed9e03e53415d37aa96045", nonce: "abcd1234", issuedAt: "2024-05-01T12:00:00.000Z" })
 * // Result.succeed("example.com wants you to sign in with your Ethereum account:\n0xd8dA6BF2…6045\n\n\nURI: https://example.com\n…")
 */
export const formatSiwxMessage = (data: SiwxMessageData): Result.Result<string, string> =>
  Result.map(checkData(data), ({ family, reference, address }) => {
    const fields = fieldLines(data, reference).join("\n")
    const { statement } = data
    const top = `${header(data.domain, family)}\n${address}`
    return family.layout === "eip4361"
      ? `${top}\n\n${statement === undefined ? "" : `${statement}\n`}\n${fields}`
      : `${top}${statement === undefined ? "" : `\n\n${statement}`}\n\n${fields}`
  })

// ---------------------------------------------------------------------------------------------------------------
// Reading a text back

const HEADER = /^(.*) wants you to sign in with your (.*) account:$/
const REQUIRED_FIELDS = ["URI", "Version", "Chain ID", "Nonce", "Issued At"] as const
const OPTIONAL_FIELDS = ["Expiration Time", "Not Before", "Request ID"] as const
const ALL_LABELS: ReadonlyArray<string> = [...REQUIRED_FIELDS, ...OPTIONAL_FIELDS, "Resources"]

const labelOf = (line: string): string | undefined => ALL_LABELS.find((label) => line.startsWith(`${label}:`))

const describeLine = (line: string | undefined) =>
  line === undefined ? "the end of the message" : line === "" ? "an empty line" : quote(line)

/** Where the statement and the fields are, after the header, the address and the blank line 3. */
const locateStatement = (
  layout: Layout,
  lines: ReadonlyArray<string>
): Result.Result<{ readonly statement: string | undefined; readonly fieldsAt: number }, string> => {
  if (lines[3] === undefined) return Result.fail("The message ends before its 'URI:' line")
  if (layout === "eip4361") {
    if (lines[3] === "") return Result.succeed({ statement: undefined, fieldsAt: 4 })
    if (lines[4] === "") return Result.succeed({ statement: lines[3], fieldsAt: 5 })
    return Result.fail(
      labelOf(lines[3]) === undefined
        ? `Line 5 must be empty after the one-line statement, not ${describeLine(lines[4])}`
        : "Line 4 must be empty: without a statement, two empty lines separate the address from the fields"
    )
  }
  // A Solana text without a statement has its fields right after line 3; the URI line is never followed by a blank.
  if (lines[4] !== "") return Result.succeed({ statement: undefined, fieldsAt: 3 })
  return lines[3] === ""
    ? Result.fail("Line 4 is an empty statement: a message without one has no statement block")
    : Result.succeed({ statement: lines[3], fieldsAt: 5 })
}

interface Fields {
  readonly values: ReadonlyMap<string, string>
  readonly resources: ReadonlyArray<string> | undefined
}

/** The `Label: value` lines from `from` to the end: the required ones, then the optional ones, each in its place. */
const readFields = (lines: ReadonlyArray<string>, from: number): Result.Result<Fields, string> => {
  const values = new Map<string, string>()
  let next = from
  for (const label of REQUIRED_FIELDS) {
    const current = lines[next]
    if (current === undefined) return Result.fail(`The message ends before its '${label}:' line`)
    if (!current.startsWith(`${label}: `)) {
      const found = labelOf(current)
      return Result.fail(
        found !== undefined && found !== label
          ? `Line ${next + 1}: expected '${label}: …', found the '${found}:' line ('${label}:' missing or out of order)`
          : `Line ${next + 1}: expected '${label}: …', found ${describeLine(current)}`
      )
    }
    values.set(label, current.slice(label.length + 2))
    next++
  }
  for (const label of OPTIONAL_FIELDS) {
    const current = lines[next]
    if (current?.startsWith(`${label}: `)) {
      values.set(label, current.slice(label.length + 2))
      next++
    }
  }
  let resources: Array<string> | undefined
  if (lines[next] === "Resources:") {
    resources = []
    for (next++; lines[next]?.startsWith("- "); next++) resources.push((lines[next] ?? "").slice(2))
  }
  const current = lines[next]
  if (current === undefined) return Result.succeed({ values, resources })
  const found = labelOf(current)
  return Result.fail(
    current === "" && next === lines.length - 1
      ? "The message ends with a line break"
      : found !== undefined
        ? `Line ${next + 1}: '${found}:' is repeated, out of order or malformed`
        : resources !== undefined
          ? `Line ${next + 1}: expected a resource ('- ' and a URI) or the end, found ${describeLine(current)}`
          : `Line ${next + 1}: unexpected ${describeLine(current)}`
  )
}

/** The data the text's lines hold, their values not yet checked. */
const readText = (text: string): Result.Result<SiwxMessageData, string> => {
  if (text.includes("\r")) return Result.fail("The message has a carriage return (CR): its lines must end with LF only")
  const lines = text.split("\n")
  const blankEnd = lines.findIndex((line) => /\s$/u.test(line))
  if (blankEnd >= 0) return Result.fail(`Line ${blankEnd + 1} ends with whitespace`)

  const head = HEADER.exec(lines[0] ?? "")
  if (!head) return Result.fail("Line 1 must be '{domain} wants you to sign in with your {chain} account:'")
  const domain = head[1] ?? ""
  const accountName = head[2] ?? ""
  if (domain.includes("://")) return Result.fail(`The domain ${quote(domain)} has a scheme: this product writes the domain alone`)
  const namespace = NAMESPACE_OF_ACCOUNT_NAME.get(accountName)
  if (namespace === undefined) {
    return Result.fail(`Unknown chain family ${quote(accountName)} in line 1: expected Ethereum, Solana, Bitcoin or Polkadot`)
  }
  const accountAddress = lines[1]
  if (accountAddress === undefined || accountAddress === "") return Result.fail("Line 2 must be the account address")
  if (lines[2] !== "") return Result.fail(`Line 3 must be empty, not ${describeLine(lines[2])}`)

  return Result.flatMap(locateStatement(FAMILIES[namespace].layout, lines), ({ statement, fieldsAt }) =>
    Result.flatMap(readFields(lines, fieldsAt), ({ values, resources }) => {
      const reference = values.get("Chain ID") ?? ""
      const chainId = toCaipNetworkId(`${namespace}:${reference}`)
      if (Result.isFailure(chainId)) return Result.fail(`Chain ID ${quote(reference)} is not a ${namespace} chain reference`)
      const expirationTime = values.get("Expiration Time")
      const notBefore = values.get("Not Before")
      const requestId = values.get("Request ID")
      return Result.succeed({
        domain,
        uri: values.get("URI") ?? "",
        version: values.get("Version") ?? "",
        chainId: chainId.success,
        accountAddress,
        nonce: values.get("Nonce") ?? "",
        issuedAt: values.get("Issued At") ?? "",
        ...(expirationTime === undefined ? {} : { expirationTime }),
        ...(notBefore === undefined ? {} : { notBefore }),
        ...(statement === undefined ? {} : { statement }),
        ...(requestId === undefined ? {} : { requestId }),
        ...(resources === undefined ? {} : { resources })
      })
    })
  )
}

/** The message data of a sign-in text; the failure says in words what is wrong. */
export const parseSiwxMessage = (text: string): Result.Result<SiwxMessageData, string> =>
  Result.flatMap(readText(text), (data) =>
    Result.flatMap(checkData(data), ({ address }) =>
      address === data.accountAddress
        ? Result.succeed(data)
        : Result.fail(`The address ${quote(data.accountAddress)} is not written EIP-55 checksummed: expected ${address}`)
    )
  )

/**
 * Whether the message's times hold at `now`: issuedAt not after now + skewMs (a wallet's clock may run ahead; the
 * default skew is 0), notBefore not after now, expirationTime after now. A time that is not RFC 3339 never holds.
 */
export const siwxTimesHold = (data: SiwxMessageData, now: Date, skewMs = 0): boolean => {
  const at = now.getTime()
  const issuedAt = instantOf(data.issuedAt)
  const notBefore = data.notBefore === undefined ? at : instantOf(data.notBefore)
  const expiration = data.expirationTime === undefined ? Infinity : instantOf(data.expirationTime)
  return (
    issuedAt !== undefined && notBefore !== undefined && expiration !== undefined &&
    issuedAt <= at + skewMs && notBefore <= at && expiration > at
  )
}
