/**
 * ERC-7715 execution permissions of the embedded wallet: grants (`wallet_requestExecutionPermissions`, the
 * spec's `wallet_grantPermissions`), their list, revocation (`wallet_revokeExecutionPermission`, the spec's
 * `wallet_revokePermissions`), the types on offer, and their use: an `eth_sendTransaction` carrying
 * `permissionsContext`, executed from the user's smart account only when the grant covers it.
 *
 * Enforced before signing (README, "Spending permissions"): the grant store counts the spend atomically (the server's
 * database, under the row's lock), then the transfer is signed and sent, and given back if the send fails. No node or
 * database imports: the grants are reached through the {@link GrantStore} the runner hands in.
 */
import type { Hex } from "viem"
import {
  type Coverage,
  decodePermissionRequest,
  EXECUTION_PERMISSION_TYPES,
  type GrantState,
  type PermissionTerms,
  type PermissionUse,
  permissionRequestsOf,
  permissionUseOf,
  revokedContextOf
} from "../../../../src/domain/executionPermissions"
import { PERMISSION_GRANT_METHODS, PERMISSION_REVOKE_METHODS, permissionTransactionOf } from "../../../../src/domain/permissionContext"
import { ApiError } from "./errors"
import { randomHex } from "./keys"

/** The account a grant spends from: the user's smart account on one chain. */
export interface GrantAccount {
  readonly chainId: number
  readonly account: string
}

/** A stored grant: its context, terms, the request as the site sent it, and what is spent. */
export interface StoredGrant extends GrantState {
  readonly context: string
  readonly request: unknown
}

/** What a send made with a grant needs of the store: an atomic count, and its refund. */
export interface GrantSpends {
  /** The clock in ms. */
  readonly now: () => number
  /** Counts `use` against the grant `context` of `account` atomically when it covers it; undefined when there is no such grant. */
  readonly spend: (account: GrantAccount, context: string, use: PermissionUse, nowSeconds: number) => Promise<Coverage | undefined>
  /** Gives back `amount` of a spend whose transfer failed, if the grant still counts the same period. */
  readonly refund: (context: string, periodStart: number, amount: bigint) => Promise<void>
}

/** Where the grants of the request's user and project live, with the clock that dates them. */
export interface GrantStore extends GrantSpends {
  /** Stores a grant the visitor approved. */
  readonly insert: (account: GrantAccount, context: string, terms: PermissionTerms, request: unknown) => Promise<void>
  /** The grants of `account` not revoked and not past their expiry at `nowSeconds`, oldest first. */
  readonly active: (account: GrantAccount, nowSeconds: number) => Promise<ReadonlyArray<StoredGrant>>
  /** Revokes the grant `context` on `chainId`; false when there is none (another's, or revoked already). */
  readonly revoke: (chainId: number, context: string) => Promise<boolean>
}

/** The chain a permission call is on: its id, whether it has smart accounts, the user's one and a send from it. */
export interface PermissionChain {
  readonly chainId: number
  readonly smartAccounts: boolean
  readonly smartAccount: () => Promise<Hex>
  readonly send: (call: { readonly to: Hex; readonly value?: bigint; readonly data?: Hex }) => Promise<Hex>
}

const PERMISSION_METHODS: ReadonlySet<string> = new Set([
  ...PERMISSION_GRANT_METHODS,
  ...PERMISSION_REVOKE_METHODS,
  "wallet_getSupportedExecutionPermissions",
  "wallet_getGrantedExecutionPermissions"
])

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** Whether this server's permission code answers `method` (a permission method, or a send made with a grant). */
export const isPermissionCall = (method: string, params: unknown): boolean =>
  PERMISSION_METHODS.has(method) || permissionTransactionOf(method, params) !== undefined

const invalid = (message: string) => new ApiError(400, "rpc_error", message, { rpcCode: -32602 })
// 4100: not authorised — the site asked for more than the visitor allowed.
const refused = (message: string) => new ApiError(400, "rpc_error", message, { rpcCode: 4100 })

const hexId = (chainId: number): Hex => `0x${chainId.toString(16)}`

// A granted permission as the site reads it: its request, the account it spends from and its context.
const grantAnswer = (grant: Pick<StoredGrant, "context" | "request" | "terms">, account: string) => ({
  ...(isRecord(grant.request) ? grant.request : {}),
  chainId: hexId(grant.terms.chainId),
  from: account,
  context: grant.context,
  dependencies: []
})

/**
 * Answers a permission call (see {@link isPermissionCall}) on `chain` for the store's user. A runner that only counts
 * spends (the frame: grants are made, listed and revoked by the server) answers only the sends made with a grant.
 */
export const permissionRpc = async (store: GrantStore | GrantSpends, chain: PermissionChain, method: string, params: unknown): Promise<unknown> => {
  const nowSeconds = Math.floor(store.now() / 1000)
  const owner = async (): Promise<GrantAccount> => {
    if (!chain.smartAccounts) throw invalid(`The chain ${chain.chainId} is not one this wallet grants permissions on`)
    return { chainId: chain.chainId, account: await chain.smartAccount() }
  }
  const tx = permissionTransactionOf(method, params)
  if (tx !== undefined) return usePermission(store, chain, await owner(), tx, nowSeconds)
  if (!("insert" in store)) throw new ApiError(400, "method_not_allowed", "Requested RPC call is not allowed")
  switch (method) {
    case "wallet_getSupportedExecutionPermissions":
      return Object.fromEntries(
        EXECUTION_PERMISSION_TYPES.map((type) => [type, { chainIds: chain.smartAccounts ? [hexId(chain.chainId)] : [], ruleTypes: ["expiry"] }])
      )
    case "wallet_getGrantedExecutionPermissions": {
      if (!chain.smartAccounts) return []
      const who = await owner()
      const grants = await store.active(who, nowSeconds)
      return grants.map((grant) => grantAnswer(grant, who.account))
    }
    case "wallet_requestExecutionPermissions":
    case "wallet_grantPermissions": {
      const requests = permissionRequestsOf(params)
      if (!requests.ok) throw invalid(requests.message)
      // Every request is checked before any is stored: a bad one leaves nothing behind.
      const decoded: Array<{ readonly terms: PermissionTerms; readonly request: unknown }> = []
      for (const request of requests.value) {
        const terms = decodePermissionRequest(request, chain.smartAccounts ? [chain.chainId] : [], nowSeconds)
        if (!terms.ok) throw invalid(terms.message)
        decoded.push({ terms: terms.value, request })
      }
      const who = await owner()
      const answers = []
      for (const { terms, request } of decoded) {
        const context = randomHex(32)
        await store.insert(who, context, terms, request)
        answers.push(grantAnswer({ context, request, terms }, who.account))
      }
      return answers
    }
    case "wallet_revokeExecutionPermission":
    case "wallet_revokePermissions": {
      const context = revokedContextOf(params)
      if (!context.ok) throw invalid(context.message)
      const revoked = await store.revoke(chain.chainId, context.value)
      if (!revoked) throw invalid("This site has no active permission with that context")
      return {}
    }
    default:
      throw new ApiError(400, "method_not_allowed", "Requested RPC call is not allowed")
  }
}

// A transfer made with a grant: counted first (atomically), then sent from the smart account; given back if it fails.
const usePermission = async (
  store: GrantSpends,
  chain: PermissionChain,
  owner: GrantAccount,
  tx: Readonly<Record<string, unknown>>,
  nowSeconds: number
): Promise<Hex> => {
  const context = tx["permissionsContext"]
  if (typeof context !== "string" || !/^0x[0-9a-fA-F]{64}$/.test(context)) throw invalid("The permissionsContext is not one this wallet gave")
  const from = tx["from"]
  if (from !== undefined && (typeof from !== "string" || from.toLowerCase() !== owner.account.toLowerCase())) {
    throw refused("A permission spends from the smart account it was granted on")
  }
  const use = permissionUseOf(tx)
  if (!use.ok) throw invalid(use.message)
  const coverage = await store.spend(owner, context.toLowerCase(), use.value, nowSeconds)
  if (coverage === undefined) throw refused("This site has no permission with that context")
  if (!coverage.covered) throw refused(coverage.message)
  const call =
    use.value.token === undefined
      ? { to: use.value.to, value: use.value.amount }
      : { to: use.value.token, data: (tx["data"] ?? tx["input"]) as Hex }
  try {
    return await chain.send(call)
  } catch (error) {
    // Refused or reverted: nothing moved, so the allowance is given back. A wait for the receipt that timed out may
    // still land: that spend stays counted rather than risk paying twice.
    const mayLand = error instanceof Error && error.message.startsWith("Timed out while waiting for User Operation")
    if (!mayLand) await store.refund(context.toLowerCase(), coverage.periodStart, use.value.amount)
    throw error
  }
}
