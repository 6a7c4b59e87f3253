/**
 * ERC-7715 execution permissions (the revised text, MetaMask's four types): the request as a host sends it to
 * `wallet_requestExecutionPermissions` (or the spec's `wallet_grantPermissions`), decoded with the visitor's words for
 * every refusal; a use of a grant (a plain native or ERC-20 transfer) read from a transaction; and whether a grant covers
 * a use at a given time. Pure: the modal checks a request before the approval view with it, the wallet server checks it
 * again before storing, and checks each use before signing (`server/src/embedded/server/permissions.ts`). A request
 * enters through a Schema (`PermissionRequest`) whose refusals are in the visitor's words.
 */
import { Result, Schema } from "effect"

/** The four permission types (MetaMask's): native or ERC-20, a fixed amount per period or a stream per second. */
export const EXECUTION_PERMISSION_TYPES = ["native-token-periodic", "native-token-stream", "erc20-token-periodic", "erc20-token-stream"] as const

/** One of {@link EXECUTION_PERMISSION_TYPES}. */
export type ExecutionPermissionType = (typeof EXECUTION_PERMISSION_TYPES)[number]

/** What a grant allows: a token (undefined: the native currency) and a periodic or streamed allowance. */
export type PermissionAllowance =
  | { readonly _tag: "Periodic"; readonly periodAmount: bigint; readonly periodDuration: number }
  | { readonly _tag: "Stream"; readonly initialAmount: bigint; readonly amountPerSecond: bigint; readonly maxAmount: bigint | undefined }

/** A decoded permission request: what the visitor approves and the server stores. Times are unix seconds. */
export interface PermissionTerms {
  readonly type: ExecutionPermissionType
  readonly chainId: number
  /** The ERC-20 contract (lower case) for the erc20 types. */
  readonly token: `0x${string}` | undefined
  readonly allowance: PermissionAllowance
  /** When the allowance starts counting (the request's startTime, or the time of the request). */
  readonly startTime: number
  readonly expiry: number
  /** The site's reason, as it gave it (shown to the visitor as the site's words). */
  readonly justification: string | undefined
  /** The account the site names as the one that redeems the grant (`to` or `signer`), if any. */
  readonly grantee: `0x${string}` | undefined
}

/** A decode's outcome: the value, or the visitor's words for what is wrong. */
export type Decoded<A> = { readonly ok: true; readonly value: A } | { readonly ok: false; readonly message: string }

const fail = (message: string): Decoded<never> => ({ ok: false, message })
const ok = <A>(value: A): Decoded<A> => ({ ok: true, value })

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const ADDRESS = /^0x[0-9a-fA-F]{40}$/
const WHOLE = /^(?:0x[0-9a-fA-F]+|[0-9]+)$/

/** A whole number given as a safe integer, a hex quantity or a decimal string (as JSON carries it); `message` when it is not one. */
const WholeNumber = (message: string) =>
  Schema.Union([
    Schema.Number.check(Schema.makeFilter(Number.isSafeInteger, { message })),
    Schema.String.check(Schema.isPattern(WHOLE, { message }))
  ]).annotate({ message })

/** The value of a {@link WholeNumber}. */
const whole = (value: number | string): bigint => BigInt(value)

/** A whole amount given in any of {@link WholeNumber}'s forms; undefined when it is not one. */
const decodeWholeNumber = Schema.decodeUnknownResult(WholeNumber("not a whole number"))
const wholeNumber = (value: unknown): bigint | undefined => {
  const decoded = decodeWholeNumber(value)
  return Result.isSuccess(decoded) ? whole(decoded.success) : undefined
}

// A field the site may leave out or send as undefined or null; anything else is refused in the field's own words.
const maybe = <S extends Schema.Top>(schema: S) => {
  const message = schema.ast.annotations?.["message"]
  return Schema.optionalKey(Schema.Union([schema, Schema.Null, Schema.Undefined]).annotate(typeof message === "string" ? { message } : {}))
}

/** An amount the site asks for: a whole number above zero (missing, it is not a whole number either). */
const PositiveAmount = (field: string) => {
  const message = `The permission's ${field} must be a whole number (in the token's smallest unit)`
  return WholeNumber(message)
    .check(Schema.makeFilter((value) => whole(value) > 0n || `The permission's ${field} must be more than zero`))
    .annotateKey({ messageMissingKey: message })
}

/** An amount that may be zero (a stream's start). */
const NonNegativeAmount = (field: string) => {
  const message = `The permission's ${field} must be a whole number (in the token's smallest unit)`
  return WholeNumber(message).check(Schema.makeFilter((value) => whole(value) >= 0n, { message }))
}

/** A time or a duration in seconds. */
const Seconds = (field: string) => {
  const message = `The permission's ${field} must be a whole number of seconds`
  return WholeNumber(message).check(Schema.makeFilter((value) => whole(value) <= BigInt(Number.MAX_SAFE_INTEGER), { message }))
}

const Address = (message: string) => Schema.String.annotate({ message }).check(Schema.isPattern(ADDRESS, { message }))

const TokenAddress = Address("The permission's tokenAddress must be a token contract's address (0x and 40 hex digits)").annotateKey({
  messageMissingKey: "The permission's tokenAddress must be a token contract's address (0x and 40 hex digits)"
})

// What every type's data may hold besides its amounts.
const common = {
  startTime: maybe(Seconds("startTime")),
  justification: maybe(Schema.String.annotate({ message: "The permission's justification must be text" }))
}
const periodic = { ...common, periodAmount: PositiveAmount("periodAmount"), periodDuration: Seconds("periodDuration") }
const stream = {
  ...common,
  amountPerSecond: PositiveAmount("amountPerSecond"),
  initialAmount: maybe(NonNegativeAmount("initialAmount")),
  maxAmount: maybe(PositiveAmount("maxAmount"))
}
const Data = <F extends Schema.Struct.Fields>(fields: F) =>
  Schema.Struct(fields).annotate({ message: "The permission's data must be an object" })

const NO_TYPE = "The permission request has no permission type"
/** The permission of a request: one of the four types with its data, the type naming which. */
const Permission = Schema.Union([
  Schema.Struct({ type: Schema.Literal("native-token-periodic"), data: Data(periodic) }),
  Schema.Struct({ type: Schema.Literal("native-token-stream"), data: Data(stream) }),
  Schema.Struct({ type: Schema.Literal("erc20-token-periodic"), data: Data({ ...periodic, tokenAddress: TokenAddress }) }),
  Schema.Struct({ type: Schema.Literal("erc20-token-stream"), data: Data({ ...stream, tokenAddress: TokenAddress }) }),
  // Any other type, in words: tried last, so a known type's own refusal comes first.
  Schema.Struct({
    type: Schema.String.annotate({ message: NO_TYPE }).check(
      Schema.makeFilter(
        (type) => `The permission type "${type.slice(0, 60)}" is not supported: ask for one of ${EXECUTION_PERMISSION_TYPES.join(", ")}`
      )
    )
  })
])
  .annotate({ message: NO_TYPE })
  .annotateKey({ messageMissingKey: NO_TYPE })

// The revised ERC-7715 puts the expiry in `rules` ({ type: "expiry", data: { timestamp } }); MetaMask's SDK sends `expiry`.
const ExpiryRule = Schema.Struct({ type: Schema.Literal("expiry"), data: Schema.Struct({ timestamp: Seconds("expiry") }) })

const GRANTEE = "The permission's account (to) must be an address"

/** One request of `wallet_requestExecutionPermissions`, as a site sends it (the fields this wallet reads). */
const PermissionRequest = Schema.Struct({
  chainId: WholeNumber("The permission request names no chain (chainId)").annotateKey({
    messageMissingKey: "The permission request names no chain (chainId)"
  }),
  permission: Permission,
  expiry: maybe(Seconds("expiry")),
  rules: maybe(
    Schema.Array(
      Schema.Union([ExpiryRule, Schema.Struct({ type: Schema.String.check(Schema.makeFilter((type) => type !== "expiry")) })]).annotate({
        message: "The permission's rules must each be an object with a type"
      })
    )
  ),
  // `to` (the revised text) or `signer: { type: "account", data: { address } }` (the first one).
  to: maybe(Address(GRANTEE)),
  signer: maybe(Schema.Struct({ data: Schema.Struct({ address: Address(GRANTEE) }) }).annotate({ message: GRANTEE }))
}).annotate({ message: "A permission request must be an object" })

/**
 * Decodes one permission request of `wallet_requestExecutionPermissions`: its chain must be one of `chainIds`, its type
 * one of the four, its amounts whole and above zero, its expiry after `nowSeconds`.
 */
export const decodePermissionRequest = (raw: unknown, chainIds: ReadonlyArray<number>, nowSeconds: number): Decoded<PermissionTerms> => {
  const decoded = Schema.decodeUnknownResult(PermissionRequest)(raw)
  // The first refusal's words (the lines after them name where it is, which the words already say).
  if (Result.isFailure(decoded)) return fail(decoded.failure.message.split("\n")[0] ?? "A permission request must be an object")
  const request = decoded.success
  const chainId = whole(request.chainId)
  if (!chainIds.includes(Number(chainId))) return fail(`The chain ${chainId} is not one this wallet grants permissions on`)
  const { permission } = request
  if (!("data" in permission)) return fail(NO_TYPE)
  const { data } = permission
  const rule = request.rules?.find((entry): entry is typeof ExpiryRule.Type => entry.type === "expiry")
  const expiryValue = request.expiry ?? rule?.data.timestamp
  if (expiryValue === undefined) return fail("The permission has no expiry")
  const expiry = Number(whole(expiryValue))
  if (expiry <= nowSeconds) return fail("The permission's expiry is in the past")
  const startTime = data.startTime === undefined || data.startTime === null ? nowSeconds : Number(whole(data.startTime))
  if (startTime >= expiry) return fail("The permission would start after it expires")
  let allowance: PermissionAllowance
  if ("periodAmount" in data) {
    const periodDuration = Number(whole(data.periodDuration))
    if (periodDuration <= 0) return fail("The permission's periodDuration must be more than zero seconds")
    allowance = { _tag: "Periodic", periodAmount: whole(data.periodAmount), periodDuration }
  } else {
    const initialAmount = data.initialAmount === undefined || data.initialAmount === null ? 0n : whole(data.initialAmount)
    const maxAmount = data.maxAmount === undefined || data.maxAmount === null ? undefined : whole(data.maxAmount)
    if (maxAmount !== undefined && maxAmount < initialAmount) return fail("The permission's maxAmount is below its initialAmount")
    allowance = { _tag: "Stream", initialAmount, amountPerSecond: whole(data.amountPerSecond), maxAmount }
  }
  const grantee = request.to ?? request.signer?.data.address ?? undefined
  const justification = data.justification?.trim()
  return ok({
    type: permission.type,
    chainId: Number(chainId),
    token: "tokenAddress" in data ? (data.tokenAddress.toLowerCase() as `0x${string}`) : undefined,
    allowance,
    startTime,
    expiry,
    justification: justification === undefined || justification === "" ? undefined : justification.slice(0, 300),
    grantee: grantee === undefined ? undefined : (grantee.toLowerCase() as `0x${string}`)
  })
}

/** The requests of one `wallet_requestExecutionPermissions` call (`[[request, …]]`, or `[request]` as the spec's alias sends it). */
export const permissionRequestsOf = (params: unknown): Decoded<ReadonlyArray<unknown>> => {
  const list: ReadonlyArray<unknown> = Array.isArray(params) ? params : [params]
  const requests = Array.isArray(list[0]) ? (list[0] as ReadonlyArray<unknown>) : list
  if (requests.length === 0) return fail("The request asks for no permission")
  if (requests.length > 10) return fail("Ask for at most 10 permissions at once")
  return ok(requests)
}

/** The permission context of `wallet_revokeExecutionPermission` (`[{ permissionContext }]`, or `[{ context }]` as the alias sends it). */
export const revokedContextOf = (params: unknown): Decoded<`0x${string}`> => {
  const first: unknown = Array.isArray(params) ? params[0] : params
  const context = isRecord(first) ? (first["permissionContext"] ?? first["context"]) : first
  return typeof context === "string" && /^0x[0-9a-fA-F]{64}$/.test(context)
    ? ok(context.toLowerCase() as `0x${string}`)
    : fail("Name the permission to revoke by its permissionContext")
}

/** A transfer made with a grant: of the native currency (token undefined) or of an ERC-20, to `to`. */
export interface PermissionUse {
  readonly token: `0x${string}` | undefined
  readonly to: `0x${string}`
  readonly amount: bigint
}

// ERC-20 transfer(address,uint256).
const TRANSFER_SELECTOR = "0xa9059cbb"

/**
 * The transfer an `eth_sendTransaction` makes with a grant: a plain native transfer (no data) or an ERC-20
 * `transfer(to, amount)` with no value. Anything else is not something a spending permission covers.
 */
export const permissionUseOf = (tx: Readonly<Record<string, unknown>>): Decoded<PermissionUse> => {
  const to = tx["to"]
  if (typeof to !== "string" || !ADDRESS.test(to)) return fail("A transaction made with a permission needs a to address")
  const value = tx["value"] === undefined || tx["value"] === null ? 0n : wholeNumber(tx["value"])
  if (value === undefined) return fail("The transaction's value must be a hex quantity")
  const data = tx["data"] ?? tx["input"]
  if (data === undefined || data === null || data === "0x") {
    return value > 0n ? ok({ token: undefined, to: to.toLowerCase() as `0x${string}`, amount: value }) : fail("The transaction moves nothing")
  }
  if (typeof data !== "string" || !/^0x[0-9a-fA-F]*$/.test(data)) return fail("The transaction's data must be hex")
  if (value !== 0n || data.length !== 2 + 8 + 64 * 2 || data.slice(0, 10).toLowerCase() !== TRANSFER_SELECTOR) {
    return fail("A permission covers plain transfers only: the native currency, or an ERC-20 transfer")
  }
  const recipientWord = data.slice(10, 74)
  if (!/^0{24}/.test(recipientWord)) return fail("The ERC-20 transfer's recipient is not an address")
  const amount = BigInt(`0x${data.slice(74)}`)
  if (amount === 0n) return fail("The transaction moves nothing")
  return ok({ token: to.toLowerCase() as `0x${string}`, to: `0x${recipientWord.slice(24)}`, amount })
}

/** A stored grant's terms with what was spent: in the current period (periodic, from `periodStart`) or in all (stream). */
export interface GrantState {
  readonly terms: PermissionTerms
  readonly spent: bigint
  /** The start of the period `spent` counts (periodic); the stream's is its start time. */
  readonly periodStart: number
  readonly revoked: boolean
}

/** Whether a grant covers a use: if so, what is spent after it and in which period; if not, why, in the visitor's words. */
export type Coverage =
  | { readonly covered: true; readonly spent: bigint; readonly periodStart: number }
  | { readonly covered: false; readonly message: string }

/**
 * Whether `grant` covers `use` at `nowSeconds`. A periodic grant's allowance starts again each period (from its start
 * time, every periodDuration seconds); a stream's grows by amountPerSecond from its start, up to maxAmount.
 */
export const permissionCoverage = (grant: GrantState, use: Pick<PermissionUse, "token" | "amount">, nowSeconds: number): Coverage => {
  const { terms } = grant
  if (grant.revoked) return { covered: false, message: "This permission was revoked" }
  if (nowSeconds >= terms.expiry) return { covered: false, message: "This permission has expired" }
  if (nowSeconds < terms.startTime) return { covered: false, message: "This permission has not started yet" }
  if ((use.token ?? "native") !== (terms.token ?? "native")) {
    return { covered: false, message: terms.token === undefined ? "This permission covers the native currency only" : "This permission covers another token" }
  }
  if (use.amount <= 0n) return { covered: false, message: "The transaction moves nothing" }
  const { allowance } = terms
  if (allowance._tag === "Periodic") {
    const periodStart = terms.startTime + Math.floor((nowSeconds - terms.startTime) / allowance.periodDuration) * allowance.periodDuration
    const spent = (grant.periodStart === periodStart ? grant.spent : 0n) + use.amount
    if (spent > allowance.periodAmount) return { covered: false, message: "This exceeds what the permission allows in this period" }
    return { covered: true, spent, periodStart }
  }
  const streamed = allowance.initialAmount + allowance.amountPerSecond * BigInt(nowSeconds - terms.startTime)
  const available = allowance.maxAmount === undefined || streamed < allowance.maxAmount ? streamed : allowance.maxAmount
  const spent = grant.spent + use.amount
  if (spent > available) return { covered: false, message: "This exceeds what the permission has made available so far" }
  return { covered: true, spent, periodStart: grant.periodStart }
}
