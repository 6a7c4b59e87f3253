/**
 * One-click sign-in on the wallet's side (WalletConnect's `wc_sessionAuthenticate`: CAIP-122 messages with a ReCap of
 * the session's methods): the dapp asks to connect and sign in at once; approving signs one message per requested
 * chain the wallet has, each the text WalletKit formats (`formatAuthMessage`) for that chain, and answers the CACAOs.
 * Shared by the test wallet page and the Node tests' walletkit wallet (`test/integration/support/walletKit.ts`).
 */
import type { AuthTypes } from "@walletconnect/types"
import { buildAuthObject, getMethodsFromRecap, getRecapFromResources, populateAuthPayload } from "@walletconnect/utils"
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
export const describeAuthRequest = (payload: AuthTypes.PayloadParams): AuthRequestSummary => {
  const recap = getRecapFromResources(payload.resources)
  let methods: ReadonlyArray<string> = []
  try {
    methods = recap === undefined ? [] : getMethodsFromRecap(recap)
  } catch {
    methods = []
  }
  return { domain: payload.domain, statement: payload.statement ?? "", chains: payload.chains, methods }
}

/** Signs `message` as the account `address` (EIP-191, `personal_sign`); gives the 0x signature. */
export type SignText = (message: string) => Promise<string>

/**
 * The CACAOs answering a one-click sign-in: the payload narrowed to the chains and methods this wallet has (WalletKit's
 * `populateAuthPayload`, which also writes the ReCap sentence into the statement), then for each chain the text
 * `format` gives (WalletKit's `formatAuthMessage`) signed by `sign`. Throws ("No supported chains") when the wallet
 * has none of the chains asked for.
 */
export const signAuthRequest = async (
  payload: AuthTypes.PayloadParams,
  wallet: { readonly chains: ReadonlyArray<string>; readonly address: string },
  format: (params: { request: AuthTypes.PayloadParams; iss: string }) => string,
  sign: SignText
): Promise<Array<AuthTypes.Cacao>> => {
  const request = populateAuthPayload({ authPayload: payload, chains: [...wallet.chains], methods: [...sessionMethods] })
  const cacaos: Array<AuthTypes.Cacao> = []
  for (const chain of request.chains) {
    const iss = `did:pkh:${chain}:${wallet.address}`
    const message = format({ request, iss })
    cacaos.push(buildAuthObject(request, { t: "eip191", s: await sign(message) }, iss))
  }
  return cacaos
}
