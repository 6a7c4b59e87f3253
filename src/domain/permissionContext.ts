/**
 * The little of ERC-7715 the embedded wallet's provider needs on every request, apart from the decoders and words
 * (`./executionPermissions.ts`, `services/Embedded/permissionApproval.ts`) fetched on a permission's first request:
 * which methods grant or revoke, and whether a send is made with a grant.
 */

/** The methods that grant a permission (`wallet_grantPermissions` is the spec's alias). */
export const PERMISSION_GRANT_METHODS: ReadonlyArray<string> = ["wallet_requestExecutionPermissions", "wallet_grantPermissions"]

/** The methods that revoke one (`wallet_revokePermissions` is the spec's alias). */
export const PERMISSION_REVOKE_METHODS: ReadonlyArray<string> = ["wallet_revokeExecutionPermission", "wallet_revokePermissions"]

/**
 * The transaction of an `eth_sendTransaction` made with a grant (it carries `permissionsContext`), if it is one: the
 * modal sends it to the frame without asking the visitor, and the wallet server checks it against the grant.
 */
export const permissionTransactionOf = (method: string, params: unknown): Readonly<Record<string, unknown>> | undefined => {
  if (method !== "eth_sendTransaction" || !Array.isArray(params)) return undefined
  const tx: unknown = params[0]
  return typeof tx === "object" && tx !== null && !Array.isArray(tx) && (tx as Record<string, unknown>)["permissionsContext"] !== undefined
    ? (tx as Readonly<Record<string, unknown>>)
    : undefined
}
