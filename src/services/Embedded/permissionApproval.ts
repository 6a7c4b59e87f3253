/**
 * ERC-7715 requests of the embedded wallet before the visitor sees them: a permission request is decoded (a bad one
 * is refused here, before the approval view, with the reason in words), its token read from the chain, and it is put
 * in plain words — what the site may spend, how much, how often or at what rate, until when. A revoke names the grant
 * it ends, read from the wallet's list of grants (an unknown one is refused before approval).
 */
import { Clock, Effect } from "effect"
import { decodeAbiText } from "../../domain/abiText"
import { formatUnits } from "../../domain/format"
import type { CaipNetwork } from "../../domain/Network"
import { RPC_ERROR_CODES } from "../../domain/constants"
import {
  decodePermissionRequest,
  type PermissionTerms,
  permissionRequestsOf,
  revokedContextOf
} from "../../domain/executionPermissions"
import { PERMISSION_GRANT_METHODS, PERMISSION_REVOKE_METHODS } from "../../domain/permissionContext"
import type { ApprovalSummary, PermissionWords } from "./embeddedState"


/** A token as the words name it: its symbol and decimals. */
export interface TokenFace {
  readonly symbol: string
  readonly decimals: number
}

/** How often a periodic allowance starts again, in words: `per day`, `every 2 hours`. */
export const periodWords = (seconds: number): string => {
  const named: Readonly<Record<number, string>> = { 60: "per minute", 3600: "per hour", 86_400: "per day", 604_800: "per week" }
  const name = named[seconds]
  if (name !== undefined) return name
  const unit = ([[604_800, "week"], [86_400, "day"], [3600, "hour"], [60, "minute"]] as const).find(([size]) => seconds % size === 0)
  return unit === undefined ? `every ${seconds} seconds` : `every ${seconds / unit[0]} ${unit[1]}s`
}

/** A unix time in the visitor's locale (`locale` undefined: the browser's). */
export const untilWords = (seconds: number, locale: string | undefined): string =>
  new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).format(new Date(seconds * 1000))

/** One granted permission in plain words. */
export const permissionWords = (terms: PermissionTerms, token: TokenFace, locale: string | undefined): PermissionWords => {
  const amount = (value: bigint) => `${formatUnits(value, token.decimals)} ${token.symbol}`
  const until = untilWords(terms.expiry, locale)
  const { allowance } = terms
  const reason = terms.justification
  if (allowance._tag === "Periodic") {
    const often = periodWords(allowance.periodDuration)
    return {
      token: token.symbol,
      amount: `Up to ${amount(allowance.periodAmount)} ${often}`,
      until,
      sentence: `This site may spend up to ${amount(allowance.periodAmount)} ${often} from your account, without asking again, until ${until}.`,
      reason
    }
  }
  const start = allowance.initialAmount > 0n ? `${amount(allowance.initialAmount)} at once, then ` : ""
  const cap = allowance.maxAmount === undefined ? "" : `, at most ${amount(allowance.maxAmount)} in all`
  const rate = `${start}${amount(allowance.amountPerSecond)} more each second${cap}`
  return {
    token: token.symbol,
    amount: rate.charAt(0).toUpperCase() + rate.slice(1),
    until,
    sentence: `This site may spend ${rate} from your account, without asking again, until ${until}.`,
    reason
  }
}

/** An error a provider answers with (EIP-1193). */
interface ProviderFailure {
  readonly code: number
  readonly message: string
}

const refuse = (message: string): ProviderFailure => ({ code: RPC_ERROR_CODES.invalidParams, message })

/**
 * The approval summary of a permission request (undefined for any other method), or the reason it is refused before
 * approval. `rpc` asks the frame (safe methods: the token's symbol and decimals, the granted list).
 */
export const permissionApproval = <E>(
  method: string,
  params: unknown,
  network: Pick<CaipNetwork, "id" | "nativeCurrency">,
  rpc: (method: string, params: unknown) => Effect.Effect<unknown, E>,
  locale?: string
): Effect.Effect<ApprovalSummary | undefined, ProviderFailure> =>
  Effect.gen(function* () {
    if (!PERMISSION_GRANT_METHODS.includes(method) && !PERMISSION_REVOKE_METHODS.includes(method)) return undefined
    const nowSeconds = Math.floor((yield* Clock.currentTimeMillis) / 1000)
    // A token's face read from its contract; one that does not answer is named by its address, in base units.
    const faceOf = (terms: PermissionTerms): Effect.Effect<TokenFace> => {
      const token = terms.token
      if (token === undefined) return Effect.succeed({ symbol: network.nativeCurrency.symbol, decimals: network.nativeCurrency.decimals })
      const ask = (data: string) => rpc("eth_call", [{ to: token, data }, "latest"])
      return Effect.all([ask("0x313ce567"), ask("0x95d89b41")], { concurrency: "unbounded" }).pipe(
        Effect.map(([decimals, symbol]) => {
          const places = typeof decimals === "string" && /^0x[0-9a-fA-F]+$/.test(decimals) ? Number(BigInt(decimals)) : undefined
          const name = typeof symbol === "string" ? decodeAbiText(symbol) : undefined
          return places !== undefined && places <= 36 && name !== undefined
            ? { symbol: name, decimals: places }
            : { symbol: `units of the token ${token}`, decimals: 0 }
        }),
        Effect.orElseSucceed(() => ({ symbol: `units of the token ${token}`, decimals: 0 }))
      )
    }
    if (PERMISSION_GRANT_METHODS.includes(method)) {
      const requests = permissionRequestsOf(params)
      if (!requests.ok) return yield* Effect.fail(refuse(requests.message))
      const words: Array<PermissionWords> = []
      for (const request of requests.value) {
        const terms = decodePermissionRequest(request, [Number(network.id)], nowSeconds)
        if (!terms.ok) return yield* Effect.fail(refuse(terms.message))
        words.push(permissionWords(terms.value, yield* faceOf(terms.value), locale))
      }
      return { _tag: "Permissions", grant: true, permissions: words }
    }
    const context = revokedContextOf(params)
    if (!context.ok) return yield* Effect.fail(refuse(context.message))
    const granted = yield* rpc("wallet_getGrantedExecutionPermissions", []).pipe(Effect.orElseSucceed(() => []))
    const grant = (Array.isArray(granted) ? granted : []).find(
      (entry: unknown) => typeof entry === "object" && entry !== null && String((entry as { context?: unknown }).context).toLowerCase() === context.value
    )
    // The grant as it was asked for: the list holds unexpired grants only, so it decodes as it did when granted.
    const terms = grant === undefined ? undefined : decodePermissionRequest(grant, [Number(network.id)], nowSeconds)
    if (terms === undefined || !terms.ok) return yield* Effect.fail(refuse("This site has no active permission with that context"))
    return { _tag: "Permissions", grant: false, permissions: [permissionWords(terms.value, yield* faceOf(terms.value), locale)] }
  })
