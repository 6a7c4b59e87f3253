/**
 * EmailVerifyDevice: the address is known but this browser is new for it (spec point 4, VERIFY_DEVICE). A link was
 * mailed; the view waits while the embedded wallet waits for it to be followed, offers to wait again when a 30 s
 * step ended without it, and to mail it again once the cooldown is over.
 */
import { type ReactNode, useEffect, useRef } from "react"
import { useAtomSet, useAtomValue } from "../../atom-react/hooks"
import { embeddedAtom, resendEmailFn, waitForDeviceFn } from "../../atoms/embedded"
import { Button } from "../../components/Button/Button"
import { Notice } from "../../components/Notice/Notice"
import { Spinner } from "../../components/Spinner/Spinner"
import type { ViewProps } from "../types"
import * as styles from "./EmailLogin.css"
import { UseAnotherEmail } from "./UseAnotherEmail"

/** The EmailVerifyDevice view. */
export function EmailVerifyDevice(_props: ViewProps<"EmailVerifyDevice">): ReactNode {
  const state = useAtomValue(embeddedAtom)
  const waitAgain = useAtomSet(waitForDeviceFn)
  const resend = useAtomSet(resendEmailFn)
  // The modal would focus the first control, "Use another email" while Resend waits: the words go first, so that an
  // Enter pressed by habit cancels nothing.
  const words = useRef<HTMLParagraphElement>(null)
  useEffect(() => words.current?.focus(), [])
  if (state === undefined) return <Spinner size={24} label="Loading" />
  const login = state.login
  if (login._tag !== "VerifyDevice") return <Notice variant="info">Enter your email on the Connect view first.</Notice>
  const resendIn = state.resendInSeconds
  return (
    <div className={styles.column}>
      <p className={styles.text} ref={words} tabIndex={-1}>
        We sent a link to <span className={styles.address}>{login.email}</span>. Open it on any device to approve this
        browser.
      </p>
      <div className={styles.column} role="status">
        {login.waiting ? (
          <>
            <Spinner size={32} />
            <p className={styles.text}>Waiting for the link to be opened…</p>
          </>
        ) : (
          <p className={styles.text}>The link was not opened in time. Open it, then wait again.</p>
        )}
      </div>
      {state.error !== undefined && <Notice variant="error">{state.error}</Notice>}
      {!login.waiting && (
        <Button fullWidth onClick={() => waitAgain(undefined)}>
          Wait again
        </Button>
      )}
      <button type="button" className={styles.linkButton} disabled={resendIn > 0} onClick={() => resend(undefined)}>
        {resendIn > 0 ? `Resend in ${resendIn} s` : "Resend link"}
      </button>
      <UseAnotherEmail />
    </div>
  )
}
