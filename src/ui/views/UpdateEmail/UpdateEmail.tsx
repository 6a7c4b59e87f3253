/**
 * UpdateEmail: the embedded wallet's new address (from the Account view's "Update email"). The address is checked
 * here (well formed, not the current one) before the service is asked; the service then mails a code to the current
 * address and pushes UpdateEmailPrimaryOtp, then one to the new address (UpdateEmailSecondaryOtp).
 */
import type { ReactNode } from "react"
import { useAtomSet, useAtomValue } from "../../atom-react/hooks"
import { embeddedAtom, startEmailUpdateFn } from "../../atoms/embedded"
import { Notice } from "../../components/Notice/Notice"
import { Spinner } from "../../components/Spinner/Spinner"
import * as styles from "../EmailLogin/EmailLogin.css"
import { EmailForm } from "../EmailLogin/EmailForm"
import type { ViewProps } from "../types"

/** The UpdateEmail view. */
export function UpdateEmail(_props: ViewProps<"UpdateEmail">): ReactNode {
  const state = useAtomValue(embeddedAtom)
  const start = useAtomSet(startEmailUpdateFn)
  if (state === undefined) return <Spinner size={24} label="Loading" />
  const current = state.email
  if (current === undefined) return <Notice variant="info">Connect with your email to change it.</Notice>
  return (
    <>
      <p className={styles.text}>
        Your wallet's email is <span className={styles.address}>{current}</span>. We will send a code to it, then one to
        the new address.
      </p>
      <EmailForm
        label="New email"
        submitLabel="Continue"
        busy={state.update._tag === "Sending"}
        error={state.error}
        refuse={(email) => (email.toLowerCase() === current.toLowerCase() ? "This is already your wallet's email" : undefined)}
        onSubmit={(email) => start(email)}
      />
    </>
  )
}
