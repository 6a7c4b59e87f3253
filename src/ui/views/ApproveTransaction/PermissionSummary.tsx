/**
 * The ERC-7715 part of ApproveTransaction: each permission a site asks for (or the one it gives up) as a sentence a
 * screen reader hears whole, then its token, amount and rate, expiry and the site's own reason as terms and values.
 */
import type { ReactNode } from "react"
import type { ApprovalSummary } from "../../../services/Embedded/embeddedState"
import * as styles from "./ApproveTransaction.css"

/** What a permissions request asks, as the view's heading. */
export const permissionHeading = (summary: Extract<ApprovalSummary, { readonly _tag: "Permissions" }>): string =>
  !summary.grant ? "Revoke this spending permission" : summary.permissions.length === 1 ? "Grant this spending permission" : "Grant these spending permissions"

/** The permissions of a grant or a revoke in plain words. */
export function PermissionSummary(props: { readonly summary: Extract<ApprovalSummary, { readonly _tag: "Permissions" }> }): ReactNode {
  const { summary } = props
  return (
    <>
      {!summary.grant && <p className={styles.network}>Once revoked, the site can no longer spend with it and must ask you again.</p>}
      <ul className={styles.calls} aria-label={summary.grant ? "Permissions asked for" : "Permission to revoke"}>
        {summary.permissions.map((permission, index) => (
          <li key={index}>
            <p className={styles.callTitle}>{permission.sentence}</p>
            <dl className={styles.summary}>
              <dt className={styles.term}>Token</dt>
              <dd className={styles.value}>{permission.token}</dd>
              <dt className={styles.term}>Amount</dt>
              <dd className={styles.value}>{permission.amount}</dd>
              <dt className={styles.term}>Until</dt>
              <dd className={styles.value}>{permission.until}</dd>
              {permission.reason !== undefined && (
                <>
                  <dt className={styles.term}>The site's reason</dt>
                  <dd className={styles.value}>{permission.reason}</dd>
                </>
              )}
            </dl>
          </li>
        ))}
      </ul>
    </>
  )
}
