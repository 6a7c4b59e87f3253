/**
 * One-click sign-in over WalletConnect (`wc_sessionAuthenticate`: CAIP-122 messages with a ReCap of the session's
 * methods, one per chain, signed while pairing): whether a pairing can use it, what our sign client's
 * `authenticate` is given, and the messages its answer carries. WalletConnect 2.25 authenticates eip155 sessions only
 * and, for a wallet that does not answer `wc_sessionAuthenticate`, sends a session proposal for eip155 only beside it:
 * a host whose WalletConnect session also serves another family (Solana) pairs the usual way, so that family is not
 * lost, and signs in in a second step. Pure: nothing here loads WalletConnect.
 */
import type { CaipNetworkId } from "../../domain/Caip"
import type { ProposalNamespace } from "./namespaces"
import type { OneClickFields, OneClickMessageData, OneClickSigned } from "./types"

/**
 * The chains a one-click sign-in asks for: those of the proposal when it asks for eip155 only (the one to start on
 * first, as `proposalNamespaces` orders them); `undefined` when the session also serves another family.
 */
export const oneClickChains = (namespaces: Readonly<Record<string, ProposalNamespace>>): ReadonlyArray<CaipNetworkId> | undefined => {
  const eip155 = namespaces["eip155"]
  if (eip155 === undefined || Object.keys(namespaces).length !== 1 || eip155.chains.length === 0) return undefined
  return eip155.chains
}

/**
 * What a one-click pairing is asked with: the request's fields (`uri` is the message's URI, `exp` / `nbf`
 * its times), the chains, the methods its ReCap asks for, and the namespaces with their `rpcMap` (the provider reads
 * through the host's RPCs, never a hosted one, whichever way the wallet answers).
 */
export interface AuthenticateRequest extends OneClickFields {
  readonly chains: Array<string>
  readonly methods: Array<string>
  readonly exp: string | undefined
  readonly nbf: string | undefined
  readonly optionalNamespaces: Readonly<Record<string, ProposalNamespace>>
}

/**
 * The `authenticate` request of a one-click sign-in with the site's fields (the times under WalletConnect's names;
 * the sign client reads the fields it knows, and an absent one is `undefined`), on the proposal's eip155 chains and
 * methods.
 */
export const authenticateRequest = (
  fields: OneClickFields,
  namespaces: Readonly<Record<string, ProposalNamespace>>,
  chains: ReadonlyArray<CaipNetworkId>
): AuthenticateRequest => ({
  ...fields,
  exp: fields.expirationTime,
  nbf: fields.notBefore,
  chains: [...chains],
  methods: namespaces["eip155"]?.methods ?? [],
  optionalNamespaces: namespaces
})

/** A CACAO as a wallet answers `wc_sessionAuthenticate` (the parts read here): its payload and its signature. */
export interface CacaoLike {
  readonly p: {
    /** `did:pkh:{namespace}:{reference}:{address}`: the account that signed. */
    readonly iss: string
    readonly domain: string
    readonly aud?: string
    readonly uri?: string
    readonly version?: string
    readonly nonce: string
    readonly iat?: string
    readonly exp?: string
    readonly nbf?: string
    readonly statement?: string
    readonly requestId?: string
    readonly resources?: ReadonlyArray<string>
  }
  readonly s: { readonly t: string; readonly s: string }
}

/**
 * What a CACAO's payload says, in the sign-in message's fields; a field the payload leaves out or empty is absent
 * (an empty statement is none, as WalletConnect writes the text).
 */
export const messageDataOf = ({ p }: CacaoLike): OneClickMessageData => {
  const [, , namespace, reference, accountAddress] = p.iss.split(":")
  const fields = {
    domain: p.domain,
    uri: p.aud ?? p.uri,
    version: p.version,
    chainId: `${namespace}:${reference}`,
    accountAddress,
    nonce: p.nonce,
    issuedAt: p.iat,
    expirationTime: p.exp,
    notBefore: p.nbf,
    statement: p.statement,
    requestId: p.requestId,
    resources: p.resources
  }
  // Unchecked: the site's sign-in decodes it with its Schema before keeping anything.
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined && value !== "")) as unknown as OneClickMessageData
}

/**
 * The messages the wallet signed: each CACAO's data, its text as WalletConnect formats it (`format`, the sign client's
 * `formatAuthMessage`, what the wallet signed) and its signature. A CACAO whose text cannot be made is left out.
 */
export const signedMessages = (
  auths: ReadonlyArray<CacaoLike> | undefined,
  format: (cacao: CacaoLike) => string
): ReadonlyArray<OneClickSigned> =>
  (auths ?? []).flatMap((cacao) => {
    try {
      return cacao.s.s ? [{ data: messageDataOf(cacao), message: format(cacao), signature: cacao.s.s }] : []
    } catch {
      return []
    }
  })
