/**
 * Sign In With Farcaster on the wallet server: the relay side of the channel (the wallet server opens a channel for
 * one device, a Farcaster client signs the channel's message with the fid's custody key and posts it here, the frame
 * polls the channel's status) and the check of the signed message.
 *
 * The check is `@farcaster/auth-client`'s `verifySignInMessage` with an Ethereum connector of our own: the message
 * is EIP-4361 shaped (statement 'Farcaster Auth', chain id 10, one `farcaster://fid/N` resource), its nonce and
 * domain must be the channel's, the signature must be the message's address's (viem, ERC-1271 and ERC-6492 too, on
 * the configured chain), and that address must be the custody address of the fid, read from the id registry
 * (`idOf(custody)`) configured here instead of Farcaster's on OP mainnet. Auth addresses (the key registry) are not
 * accepted: only the custody key signs in.
 */
import { randomBytes } from "node:crypto"
import { type AuthClientError, verifySignInMessage } from "@farcaster/auth-client"
import { Data, Effect } from "effect"
import { type Address, createPublicClient, getAddress, http, isAddress } from "viem"

/** How long a channel can be signed after it was opened. */
export const FARCASTER_CHANNEL_TTL_MS = 5 * 60_000

/** Where the wallet server reads fids' custody addresses: a chain's RPC and the id registry on it. */
export interface FarcasterConfig {
  readonly rpcUrl: string
  /** The id registry (`idOf(address) → fid`); Farcaster's is `0x00000000Fc6c5F01Fc30151999387Bb99A9f489b` on OP mainnet. */
  readonly idRegistry: string
}

/** Why a signed message was refused, in the words the Farcaster client shows. */
export class FarcasterRefused extends Data.TaggedError("FarcasterRefused")<{
  readonly kind: "invalid" | "unavailable"
  readonly message: string
}> {}

/** What the channel expects the message to say. */
export interface ChannelTerms {
  readonly nonce: string
  readonly domain: string
  readonly siweUri: string
}

/** A nonce of 24 letters and digits (EIP-4361 asks for at least 8 alphanumerics). */
export const newChannelNonce = (): string => randomBytes(18).toString("base64url").replace(/[-_]/g, "0").slice(0, 24)

/** The deep link a Farcaster client opens (or scans) to sign in on this channel. */
export const channelUrl = (channelToken: string, terms: ChannelTerms, expiresAt: Date): string => {
  const url = new URL("farcaster://connect")
  url.searchParams.set("channelToken", channelToken)
  url.searchParams.set("nonce", terms.nonce)
  url.searchParams.set("domain", terms.domain)
  url.searchParams.set("siweUri", terms.siweUri)
  url.searchParams.set("expirationTime", expiresAt.toISOString())
  return url.href
}

const idRegistryAbi = [
  { type: "function", name: "idOf", stateMutability: "view", inputs: [{ name: "owner", type: "address" }], outputs: [{ name: "fid", type: "uint256" }] }
] as const

/** The Ethereum side of the check, over the configured chain and registry. */
export const farcasterConnector = (config: FarcasterConfig) => {
  if (!isAddress(config.idRegistry)) throw new Error(`The Farcaster id registry ${config.idRegistry} is not an address`)
  const registry = getAddress(config.idRegistry)
  const publicClient = createPublicClient({ transport: http(config.rpcUrl, { timeout: 10_000, retryCount: 0 }) })
  return {
    publicClient,
    getFid: (custody: Address): Promise<bigint> => publicClient.readContract({ address: registry, abi: idRegistryAbi, functionName: "idOf", args: [custody] }),
    isValidAuthAddress: async (): Promise<boolean> => false
  }
}

const reason = (error: unknown): string => {
  const cause = (error as AuthClientError | undefined)?.cause
  const text = cause instanceof Error ? cause.message : typeof cause === "string" ? cause : error instanceof Error ? error.message : String(error)
  return text.split("\n")[0] ?? text
}

/**
 * Checks a signed Sign In With Farcaster message against the channel's terms and the id registry; the fid and the
 * custody address that signed. A message of another channel (nonce, domain, URI), a signature that is not the
 * address's, or an address that is not the fid's custody: `invalid`. The chain cannot be read: `unavailable`.
 */
export const verifyFarcasterSignIn = Effect.fn("Farcaster.verifySignIn")(function* (
  connector: ReturnType<typeof farcasterConnector>,
  terms: ChannelTerms,
  signed: { readonly message: string; readonly signature: string }
) {
  if (!/^0x[0-9a-fA-F]+$/.test(signed.signature)) {
    return yield* new FarcasterRefused({ kind: "invalid", message: "The signature is not hexadecimal" })
  }
  const refused = (error: AuthClientError | undefined) => {
    const code = error?.errCode
    return new FarcasterRefused({
      kind: code === "unavailable" ? "unavailable" : "invalid",
      message: code === "unavailable" ? `The Farcaster id registry could not be read: ${reason(error)}` : `The sign-in message was refused: ${reason(error)}`
    })
  }
  const result = yield* Effect.tryPromise({
    try: () =>
      verifySignInMessage(
        { ethereum: connector } as unknown as Parameters<typeof verifySignInMessage>[0],
        { nonce: terms.nonce, domain: terms.domain, message: signed.message, signature: signed.signature as `0x${string}`, acceptAuthAddress: false }
      ),
    catch: (error) => refused(error as AuthClientError)
  })
  if (result.isError) return yield* refused(result.error)
  if (result.data.uri !== terms.siweUri) {
    return yield* new FarcasterRefused({ kind: "invalid", message: "The sign-in message was refused: it is for another URI" })
  }
  return { fid: String(result.fid), custody: result.data.address }
})
