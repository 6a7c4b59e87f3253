/**
 * ERC-7715 execution permissions (the revised text, MetaMask's four types): the request as a host sends it to
 * `wallet_requestExecutionPermissions` (or the spec's `wallet_grantPermissions`), decoded with the visitor's words for
 * every refusal; a use of a grant (a plain native or ERC-20 transfer) read from a transaction; and whether a grant covers
 * a use at a given time. Pure: the modal checks a request before the approval view with it, the wallet server checks it
 * again before storing, and checks each use before signing (`server/src/embedded/server/permissions.ts`).
 */

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
const HEX_QUANTITY = /^0x[0-9a-fA-F]+$/
const DECIMAL = /^[0-9]+$/

/** A whole amount given as a hex quantity, a decimal string or a safe integer; undefined when it is not one. */
const wholeNumber = (value: unknown): bigint | undefined => {
  if (typeof value === "bigint") return value
  if (typeof value === "number") return Number.isSafeInteger(value) ? BigInt(value) : undefined
  if (typeof value === "string" && (HEX_QUANTITY.test(value) || DECIMAL.test(value))) return BigInt(value)
  return undefined
}

/** An amount the site asks for: a whole number above zero. */
const positiveAmount = (field: string, value: unknown): Decoded<bigint> => {
  const amount = wholeNumber(value)
  if (amount === undefined) return fail(`The permission's ${field} must be a whole number (in the token's smallest unit)`)
  if (amount <= 0n) return fail(`The permission's ${field} must be more than zero`)
  return ok(amount)
}

/** A time or a duration in seconds. */
const seconds = (field: string, value: unknown): Decoded<number> => {
  const amount = wholeNumber(value)
  if (amount === undefined || amount > BigInt(Number.MAX_SAFE_INTEGER)) return fail(`The permission's ${field} must be a whole number of seconds`)
  return ok(Number(amount))
}

// The revised ERC-7715 puts the expiry in `rules` ({ type: "expiry", data: { timestamp } }); MetaMask's SDK sends `expiry`.
const expiryOf = (request: Readonly<Record<string, unknown>>): unknown => {
  if (request["expiry"] !== undefined) return request["expiry"]
  const rules = request["rules"]
  if (!Array.isArray(rules)) return undefined
  const rule = rules.find((entry: unknown) => isRecord(entry) && entry["type"] === "expiry")
  return isRecord(rule) && isRecord(rule["data"]) ? rule["data"]["timestamp"] : undefined
}

// `to` (the revised text) or `signer: { type: "account", data: { address } }` (the first one).
const granteeOf = (request: Readonly<Record<string, unknown>>): unknown => {
  if (request["to"] !== undefined) return request["to"]
  const signer = request["signer"]
  return isRecord(signer) && isRecord(signer["data"]) ? signer["data"]["address"] : undefined
}

/**
 * Decodes one permission request of `wallet_requestExecutionPermissions`: its chain must be one of `chainIds`, its type
 * one of the four, its amounts whole and above zero, its expiry after `nowSeconds`.
 */
export const decodePermissionRequest = (raw: unknown, chainIds: ReadonlyArray<number>, nowSeconds: number): Decoded<PermissionTerms> => {
  if (!isRecord(raw)) return fail("A permission request must be an object")
  const chainId = wholeNumber(raw["chainId"])
  if (chainId === undefined) return fail("The permission request names no chain (chainId)")
  if (!chainIds.includes(Number(chainId))) return fail(`The chain ${chainId} is not one this wallet grants permissions on`)
  const permission = raw["permission"]
  if (!isRecord(permission) || typeof permission["type"] !== "string") return fail("The permission request has no permission type")
  const type = permission["type"]
  if (!(EXECUTION_PERMISSION_TYPES as ReadonlyArray<string>).includes(type)) {
    return fail(`The permission type "${type.slice(0, 60)}" is not supported: ask for one of ${EXECUTION_PERMISSION_TYPES.join(", ")}`)
  }
  const data = isRecord(permission["data"]) ? permission["data"] : {}
  const expiryRaw = expiryOf(raw)
  if (expiryRaw === undefined) return fail("The permission has no expiry")
  const expiry = seconds("expiry", expiryRaw)
  if (!expiry.ok) return expiry
  if (expiry.value <= nowSeconds) return fail("The permission's expiry is in the past")
  const start = data["startTime"] === undefined || data["startTime"] === null ? ok(nowSeconds) : seconds("startTime", data["startTime"])
  if (!start.ok) return start
  if (start.value >= expiry.value) return fail("The permission would start after it expires")
  let token: `0x${string}` | undefined
  if (type.startsWith("erc20-")) {
    const address = data["tokenAddress"]
    if (typeof address !== "string" || !ADDRESS.test(address)) return fail("The permission's tokenAddress must be a token contract's address (0x and 40 hex digits)")
    token = address.toLowerCase() as `0x${string}`
  }
  const grantee = granteeOf(raw)
  if (grantee !== undefined && (typeof grantee !== "string" || !ADDRESS.test(grantee))) return fail("The permission's account (to) must be an address")
  let allowance: PermissionAllowance
  if (type.endsWith("-periodic")) {
    const periodAmount = positiveAmount("periodAmount", data["periodAmount"])
    if (!periodAmount.ok) return periodAmount
    const periodDuration = seconds("periodDuration", data["periodDuration"])
    if (!periodDuration.ok) return periodDuration
    if (periodDuration.value <= 0) return fail("The permission's periodDuration must be more than zero seconds")
    allowance = { _tag: "Periodic", periodAmount: periodAmount.value, periodDuration: periodDuration.value }
  } else {
    const amountPerSecond = positiveAmount("amountPerSecond", data["amountPerSecond"])
    if (!amountPerSecond.ok) return amountPerSecond
    const initial = data["initialAmount"] === undefined || data["initialAmount"] === null ? 0n : wholeNumber(data["initialAmount"])
    if (initial === undefined || initial < 0n) return fail("The permission's initialAmount must be a whole number (in the token's smallest unit)")
    let maxAmount: bigint | undefined
    if (data["maxAmount"] !== undefined && data["maxAmount"] !== null) {
      const max = positiveAmount("maxAmount", data["maxAmount"])
      if (!max.ok) return max
      if (max.value < initial) return fail("The permission's maxAmount is below its initialAmount")
      maxAmount = max.value
    }
    allowance = { _tag: "Stream", initialAmount: initial, amountPerSecond: amountPerSecond.value, maxAmount }
  }
  const justification = typeof data["justification"] === "string" && data["justification"].trim() !== "" ? data["justification"].trim().slice(0, 300) : undefined
  return ok({
    type: type as ExecutionPermissionType,
    chainId: Number(chainId),
    token,
    allowance,
    startTime: start.value,
    expiry: expiry.value,
    justification,
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
