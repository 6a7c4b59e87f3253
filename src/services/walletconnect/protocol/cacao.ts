/**
 * One-click sign-in's messages (spec: sign/wallet-authentication; CAIP-74 CACAOs, CAIP-122 text, EIP-5573 ReCaps):
 * the ReCap of the session's methods a dapp asks for, the methods and chains a ReCap grants, the sentence a ReCap
 * adds to the statement, and the text a wallet signs for a CACAO payload. Pure.
 */
import { fromBase64, toBase64 } from "../../../domain/encoding"

/** A ReCap: abilities (`request/personal_sign`) per resource (`eip155`), each with its limits. */
export interface Recap {
  readonly att: Readonly<Record<string, Readonly<Record<string, ReadonlyArray<Record<string, unknown>>>>>>
}

const RECAP_PREFIX = "urn:recap:"
const RECAP_SENTENCE = "I further authorize the stated URI to perform the following actions on my behalf: "

/** Encodes a ReCap as a resource URI (base64 of its JSON, unpadded). */
export const encodeRecap = (recap: Recap): string =>
  `${RECAP_PREFIX}${toBase64(new TextEncoder().encode(JSON.stringify(recap))).replace(/=+$/, "")}`

/** The ReCap of a resource URI; `undefined` when it is not a well-formed ReCap. */
export const decodeRecap = (resource: string | undefined): Recap | undefined => {
  if (resource === undefined || !resource.startsWith(RECAP_PREFIX)) return undefined
  const bytes = fromBase64(resource.slice(RECAP_PREFIX.length).replace(/-/g, "+").replace(/_/g, "/"))
  if (bytes === undefined) return undefined
  try {
    const value: unknown = JSON.parse(new TextDecoder().decode(bytes))
    const att = typeof value === "object" && value !== null ? (value as { att?: unknown }).att : undefined
    if (typeof att !== "object" || att === null || Array.isArray(att) || Object.keys(att).length === 0) return undefined
    for (const abilities of Object.values(att)) {
      if (typeof abilities !== "object" || abilities === null || Array.isArray(abilities)) return undefined
      for (const limits of Object.values(abilities)) if (!Array.isArray(limits) || limits.length === 0) return undefined
    }
    return value as Recap
  } catch {
    return undefined
  }
}

/** The ReCap among resources: by the spec, the last one. */
export const recapOf = (resources: ReadonlyArray<string> | undefined): Recap | undefined => decodeRecap(resources?.at(-1))

/** A ReCap granting `ability/action` on `resource` for each action (sorted), with the same limits. */
export const makeRecap = (resource: string, ability: string, actions: ReadonlyArray<string>, limits: Record<string, unknown> = {}): Recap => ({
  att: { [resource]: Object.fromEntries([...actions].sort((a, b) => a.localeCompare(b)).map((action) => [`${ability}/${action}`, [limits]])) }
})

/** The methods a ReCap grants on eip155 (`request/<method>`). */
export const methodsOfRecap = (recap: Recap): ReadonlyArray<string> =>
  Object.keys(recap.att["eip155"] ?? {}).flatMap((ability) => (ability.startsWith("request/") ? [ability.slice("request/".length)] : []))

/** The chains a ReCap's limits name (`[{ chains: [...] }]`). */
export const chainsOfRecap = (recap: Recap): ReadonlyArray<string> => [
  ...new Set(
    Object.values(recap.att).flatMap((abilities) =>
      Object.values(abilities).flatMap((limits) => {
        const chains = limits[0]?.["chains"]
        return Array.isArray(chains) ? chains.filter((c): c is string => typeof c === "string") : []
      })
    )
  )
]

/**
 * The statement with the sentence a ReCap adds (EIP-5573 as WalletConnect words it: per resource, its abilities'
 * actions in order, "(1) 'request': 'eth_sign', 'personal_sign' for 'eip155'."); unchanged when it already has it.
 */
export const statementWithRecap = (statement: string | undefined, recap: Recap): string => {
  const text = statement ?? ""
  if (text.includes(RECAP_SENTENCE)) return text
  let n = 0
  const parts = Object.keys(recap.att).map((resource) => {
    const byAbility = new Map<string, Array<string>>()
    const entries = Object.keys(recap.att[resource]!).map((key) => ({ ability: key.split("/")[0]!, action: key.split("/")[1] ?? "" }))
    entries.sort((a, b) => a.action.localeCompare(b.action))
    for (const { ability, action } of entries) byAbility.set(ability, [...(byAbility.get(ability) ?? []), action])
    return [...byAbility].map(([ability, actions]) => `(${++n}) '${ability}': '${actions.join("', '")}' for '${resource}'.`).join(" ")
  })
  return `${text === "" ? "" : `${text} `}${RECAP_SENTENCE}${parts.join(" ")}`
}

/** The payload of a CACAO (CAIP-74) as peers send it. */
export interface CacaoPayload {
  readonly iss: string
  readonly domain: string
  readonly aud?: string | undefined
  readonly uri?: string | undefined
  readonly version?: string | undefined
  readonly nonce: string
  readonly iat?: string | undefined
  readonly exp?: string | undefined
  readonly nbf?: string | undefined
  readonly statement?: string | undefined
  readonly requestId?: string | undefined
  readonly resources?: ReadonlyArray<string> | undefined
}

/**
 * The text a wallet signs for a CACAO payload (CAIP-122 in EIP-4361's words, as WalletConnect writes it): the account
 * is `iss`'s last part as written, the statement carries the ReCap sentence. Throws when `iss` is not a did:pkh.
 */
export const formatAuthMessage = (payload: CacaoPayload): string => {
  const parts = payload.iss.split(":")
  // No text can be made for an issuer that names no account: callers leave such a CACAO out.
  if (parts.length !== 5 || parts[0] !== "did" || parts[1] !== "pkh" || parts.some((part) => part === "")) {
    throw new Error(`Not a did:pkh issuer: ${payload.iss}`)
  }
  const recap = recapOf(payload.resources)
  const statement = recap === undefined ? payload.statement || undefined : statementWithRecap(payload.statement, recap)
  const lines: Array<string | undefined> = [
    `${payload.domain} wants you to sign in with your Ethereum account:`,
    parts.at(-1),
    "",
    statement,
    "",
    `URI: ${payload.aud ?? payload.uri ?? ""}`,
    `Version: ${payload.version ?? "1"}`,
    `Chain ID: ${parts[3] ?? ""}`,
    `Nonce: ${payload.nonce}`,
    `Issued At: ${payload.iat ?? ""}`,
    payload.exp ? `Expiration Time: ${payload.exp}` : undefined,
    payload.nbf ? `Not Before: ${payload.nbf}` : undefined,
    payload.requestId ? `Request ID: ${payload.requestId}` : undefined,
    payload.resources ? `Resources:${payload.resources.map((resource) => `\n- ${resource}`).join("")}` : undefined
  ]
  return lines.filter((line) => line !== undefined).join("\n")
}

/**
 * The eip155 namespace of a session made by one-click sign-in: each CACAO's account on its chain (and on the chains
 * its ReCap names), with the methods its ReCap grants. `undefined` when no CACAO signs on a chain that was asked, or
 * none grants a method (then there is no session, as in WalletConnect's own clients).
 */
export const cacaoSession = (
  cacaos: ReadonlyArray<{ readonly p: CacaoPayload }>,
  asked: ReadonlyArray<string>
): Record<string, { chains: Array<string>; accounts: Array<string>; methods: Array<string>; events: Array<string> }> | undefined => {
  const accounts = new Set<string>()
  const methods = new Set<string>()
  for (const { p } of cacaos) {
    const [did, pkh, namespace, reference, address] = p.iss.split(":")
    if (did !== "did" || pkh !== "pkh" || namespace !== "eip155" || reference === undefined || address === undefined) continue
    const recap = recapOf(p.resources)
    const chains = [`${namespace}:${reference}`, ...(recap === undefined ? [] : chainsOfRecap(recap))].filter((chain) => asked.includes(chain))
    for (const chain of chains) accounts.add(`${chain}:${address}`)
    if (recap !== undefined) for (const method of methodsOfRecap(recap)) methods.add(method)
  }
  if (accounts.size === 0 || methods.size === 0) return undefined
  const chains = [...new Set([...accounts].map((account) => account.slice(0, account.lastIndexOf(":"))))]
  return { eip155: { chains, accounts: [...accounts], methods: [...methods], events: ["chainChanged", "accountsChanged"] } }
}
