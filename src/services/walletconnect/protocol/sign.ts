/**
 * The sign protocol's data both sides share (spec: sign/data-structures, sign/namespaces): metadata, the namespaces a
 * proposal asks for and a session grants, the Schemas messages are decoded with, and the rule a session's namespaces
 * must keep: only namespaces that were proposed, and accounts only on chains that were proposed. Pure.
 */
import { Schema } from "effect"

/** Who a peer says it is. */
export const Metadata = Schema.Struct({
  name: Schema.String,
  description: Schema.String,
  url: Schema.String,
  icons: Schema.Array(Schema.String)
})
/** Who a peer says it is. */
export type Metadata = typeof Metadata.Type

/** A namespace of a proposal: the chains, methods and events asked for. */
export const ProposalNamespace = Schema.Struct({
  chains: Schema.optionalKey(Schema.Array(Schema.String)),
  methods: Schema.Array(Schema.String),
  events: Schema.Array(Schema.String)
})
/** A namespace of a proposal. */
export type ProposalNamespace = typeof ProposalNamespace.Type

/** A namespace of a session: the accounts granted (CAIP-10), with the methods and events allowed. */
export const SessionNamespace = Schema.Struct({
  chains: Schema.optionalKey(Schema.Array(Schema.String)),
  accounts: Schema.Array(Schema.String),
  methods: Schema.Array(Schema.String),
  events: Schema.Array(Schema.String)
})
/** A namespace of a session. */
export type SessionNamespace = typeof SessionNamespace.Type

/** Namespaces of a session, by key (`eip155`, or a chain as key: `eip155:1`). */
export const SessionNamespaces = Schema.Record(Schema.String, SessionNamespace)
/** Namespaces of a session. */
export type SessionNamespaces = typeof SessionNamespaces.Type

/** Namespaces of a proposal, by key. */
export const ProposalNamespaces = Schema.Record(Schema.String, ProposalNamespace)
/** Namespaces of a proposal. */
export type ProposalNamespaces = typeof ProposalNamespaces.Type

/** A peer: its key and metadata. */
export const Participant = Schema.Struct({ publicKey: Schema.String, metadata: Metadata })

/** `wc_sessionPropose` params. */
export const ProposeParams = Schema.Struct({
  relays: Schema.Array(Schema.Struct({ protocol: Schema.String })),
  proposer: Participant,
  requiredNamespaces: Schema.optionalKey(ProposalNamespaces),
  optionalNamespaces: Schema.optionalKey(ProposalNamespaces),
  sessionProperties: Schema.optionalKey(Schema.Record(Schema.String, Schema.String)),
  expiryTimestamp: Schema.optionalKey(Schema.Number),
  pairingTopic: Schema.optionalKey(Schema.String)
})
/** `wc_sessionPropose` params. */
export type ProposeParams = typeof ProposeParams.Type

/** `wc_sessionSettle` params. */
export const SettleParams = Schema.Struct({
  relay: Schema.Struct({ protocol: Schema.String }),
  namespaces: SessionNamespaces,
  controller: Participant,
  expiry: Schema.Number,
  sessionProperties: Schema.optionalKey(Schema.Record(Schema.String, Schema.String)),
  pairingTopic: Schema.optionalKey(Schema.String)
})
/** `wc_sessionSettle` params. */
export type SettleParams = typeof SettleParams.Type

/** `wc_sessionAuthenticate` params: who asks, and the CAIP-122 fields to sign on each chain. */
export const AuthenticateParams = Schema.Struct({
  requester: Participant,
  authPayload: Schema.Struct({
    type: Schema.optionalKey(Schema.String),
    chains: Schema.Array(Schema.String),
    aud: Schema.String,
    domain: Schema.String,
    version: Schema.optionalKey(Schema.String),
    nonce: Schema.String,
    iat: Schema.String,
    statement: Schema.optionalKey(Schema.String),
    exp: Schema.optionalKey(Schema.String),
    nbf: Schema.optionalKey(Schema.String),
    requestId: Schema.optionalKey(Schema.String),
    resources: Schema.optionalKey(Schema.Array(Schema.String))
  }),
  expiryTimestamp: Schema.optionalKey(Schema.Number)
})
/** `wc_sessionAuthenticate` params. */
export type AuthenticateParams = typeof AuthenticateParams.Type

/** A signed CACAO (CAIP-74) as a wallet answers `wc_sessionAuthenticate`. */
export const Cacao = Schema.Struct({
  h: Schema.optionalKey(Schema.Struct({ t: Schema.String })),
  p: Schema.Struct({
    iss: Schema.String,
    domain: Schema.String,
    aud: Schema.optionalKey(Schema.String),
    version: Schema.optionalKey(Schema.String),
    nonce: Schema.String,
    iat: Schema.optionalKey(Schema.String),
    statement: Schema.optionalKey(Schema.String),
    exp: Schema.optionalKey(Schema.String),
    nbf: Schema.optionalKey(Schema.String),
    requestId: Schema.optionalKey(Schema.String),
    resources: Schema.optionalKey(Schema.Array(Schema.String))
  }),
  s: Schema.Struct({ t: Schema.String, s: Schema.String })
})

/** A signed CACAO. */
export type Cacao = typeof Cacao.Type

/** The answer to `wc_sessionAuthenticate`: the signed CACAOs and who signed. */
export const AuthenticateResult = Schema.Struct({ cacaos: Schema.Array(Cacao), responder: Participant })
/** The answer to `wc_sessionAuthenticate`. */
export type AuthenticateResult = typeof AuthenticateResult.Type

/** `wc_sessionRequest` params. */
export const RequestParams = Schema.Struct({
  request: Schema.Struct({ method: Schema.String, params: Schema.Unknown, expiryTimestamp: Schema.optionalKey(Schema.Number) }),
  chainId: Schema.String
})

/** `wc_sessionEvent` params. */
export const EventParams = Schema.Struct({ event: Schema.Struct({ name: Schema.String, data: Schema.Unknown }), chainId: Schema.String })

/** The CAIP-2 chain of a CAIP-10 account. */
export const chainOfAccount = (account: string): string => account.slice(0, account.lastIndexOf(":"))

/** The chains a proposal namespace stands for: its key when the key is a chain, else its `chains`. */
const chainsOfProposal = (key: string, namespace: ProposalNamespace): ReadonlyArray<string> =>
  key.includes(":") ? [key] : (namespace.chains ?? [])

const namespaceOfKey = (key: string) => (key.includes(":") ? key.slice(0, key.indexOf(":")) : key)

/** The chains a session's namespaces cover: the accounts' chains and the `chains` given. */
export const sessionChains = (namespaces: SessionNamespaces): ReadonlyArray<string> => [
  ...new Set(Object.entries(namespaces).flatMap(([key, ns]) => [...(key.includes(":") ? [key] : []), ...(ns.chains ?? []), ...ns.accounts.map(chainOfAccount)]))
]

/**
 * Why a session's namespaces break the proposal they answer, or `undefined` when they keep it: every namespace must
 * have been proposed (required or optional), every account must be on a proposed chain of its namespace, and every
 * required namespace must be granted.
 */
export const namespacesBreak = (
  proposed: { readonly requiredNamespaces?: ProposalNamespaces | undefined; readonly optionalNamespaces?: ProposalNamespaces | undefined },
  granted: SessionNamespaces
): string | undefined => {
  const chainsByNamespace = new Map<string, Set<string>>()
  for (const [key, namespace] of [...Object.entries(proposed.requiredNamespaces ?? {}), ...Object.entries(proposed.optionalNamespaces ?? {})]) {
    const set = chainsByNamespace.get(namespaceOfKey(key)) ?? new Set<string>()
    for (const chain of chainsOfProposal(key, namespace)) set.add(chain)
    chainsByNamespace.set(namespaceOfKey(key), set)
  }
  if (Object.keys(granted).length === 0) return "no namespace granted"
  for (const [key, namespace] of Object.entries(granted)) {
    const chains = chainsByNamespace.get(namespaceOfKey(key))
    if (chains === undefined) return `namespace ${key} was not proposed`
    for (const account of namespace.accounts) {
      if (!account.startsWith(`${namespaceOfKey(key)}:`) || account.split(":").length !== 3) return `account ${account} is not of ${key}`
      if (!chains.has(chainOfAccount(account))) return `account ${account} is on a chain not proposed`
    }
  }
  for (const key of Object.keys(proposed.requiredNamespaces ?? {})) {
    if (!Object.keys(granted).some((grantedKey) => namespaceOfKey(grantedKey) === namespaceOfKey(key))) return `required namespace ${key} not granted`
  }
  return undefined
}
