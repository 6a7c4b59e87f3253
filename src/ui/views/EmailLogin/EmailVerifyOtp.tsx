/**
 * EmailVerifyOtp: the code mailed to the visitor's address (spec point 4, VERIFY_OTP). The embedded wallet pushes
 * this view after the email; once the code is right it connects (the view says so) and the modal goes on like any
 * wallet connection.
 */
import type { ReactNode } from "react"
import { useAtomSet, useAtomValue } from "../../atom-react/hooks"
import { embeddedAtom, resendEmailFn, submitOtpFn } from "../../atoms/embedded"
import { Notice } from "../../components/Notice/Notice"
import { Spinner } from "../../components/Spinner/Spinner"
import type { ViewProps } from "../types"
import * as styles from "./EmailLogin.css"
import { OtpForm } from "./OtpForm"
import { UseAnotherEmail } from "./UseAnotherEmail"

/** The EmailVerifyOtp view. */
export function EmailVerifyOtp(_props: ViewProps<"EmailVerifyOtp">): ReactNode {
  const state = useAtomValue(embeddedAtom)
  const submit = useAtomSet(submitOtpFn)
  const resend = useAtomSet(resendEmailFn)
  if (state === undefined) return <Spinner size={24} label="Loading" />
  const login = state.login
  if (login._tag === "Connecting") {
    return (
      <div className={styles.column} role="status">
        <Spinner size={32} />
        <p className={styles.text}>Connecting your wallet…</p>
      </div>
    )
  }
  if (login._tag !== "VerifyOtp") return <Notice variant="info">Enter your email on the Connect view to get a code.</Notice>
  return (
    <>
      <OtpForm
        email={login.email}
        submitting={login.submitting}
        error={state.error}
        resendInSeconds={state.resendInSeconds}
        onSubmit={(code) => submit(code)}
        onResend={() => resend(undefined)}
      />
      <UseAnotherEmail />
    </>
  )
}
