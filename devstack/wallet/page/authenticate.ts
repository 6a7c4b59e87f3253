/**
 * One-click sign-in on the wallet's side (WalletConnect's `wc_sessionAuthenticate`: CAIP-122 messages with a ReCap of
 * the session's methods): the dapp asks to connect and sign in at once; approving signs one message per requested
 * chain the wallet has, each the text WalletConnect formats for that chain, and answers the CACAOs. Built on our own
 * protocol code (`../wcWallet`); shared by the test wallet page and the Node tests' wallets
 * (`test/integration/support/walletKit.ts`).
 */
import { type AuthPayload, authMethods, buildCacao, type Cacao, formatAuthMessage, populateAuthPayload } from "../wcWallet"
import { sessionMethods } from "./requests"

/** What a one-click sign-in request asks, for the visitor to read. */
export interface AuthRequestSummary {
  /** Whom the visitor signs in to (the message's domain). */
  readonly domain: string
  /** The message's statement as the dapp wrote it (approving adds WalletConnect's ReCap sentence to it). */
  readonly statement: string
  /** CAIP-2 ids asked for. */
  readonly chains: ReadonlyArray<string>
  /** The methods the session would allow (the ReCap's). */
  readonly methods: ReadonlyArray<string>
}

/** Describes a `wc_sessionAuthenticate` request's payload. */
export const describeAuthRequest = (payload: AuthPayload): AuthRequestSummary => ({
  domain: payload.domain,
  statement: payload.statement ?? "",
  chains: payload.chains,
  methods: authMethods(payload)
})

/** Signs `message` as the account `address` (EIP-191, `personal_sign`); gives the 0x signature. */
export type SignText = (message: string) => Promise<string>

/**
 * The CACAOs answering a one-click sign-in: the payload narrowed to the chains and methods this wallet has (the ReCap
 * sentence written into the statement), then for each chain its text signed by `sign`. Throws ("No supported chains")
 * when the wallet has none of the chains asked for.
 */
export const signAuthRequest = async (
  payload: AuthPayload,
  wallet: { readonly chains: ReadonlyArray<string>; readonly address: string },
  sign: SignText
): Promise<Array<Cacao>> => {
  const request = populateAuthPayload(payload, { chains: wallet.chains, methods: sessionMethods })
  const cacaos: Array<Cacao> = []
  for (const chain of request.chains) {
    const iss = `did:pkh:${chain}:${wallet.address}`
    cacaos.push(buildCacao(request, { t: "eip191", s: await sign(formatAuthMessage(request, iss)) }, iss))
  }
  return cacaos
}
