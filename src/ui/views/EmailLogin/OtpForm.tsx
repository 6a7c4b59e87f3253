/**
 * The one-time code form shared by the login (EmailVerifyOtp) and the email change (UpdateEmailPrimaryOtp,
 * UpdateEmailSecondaryOtp): "Enter the 6-digit code we sent to {email}", one numeric field that sends the code by
 * itself once it has 6 digits (typed, or pasted with spaces or dashes), Continue, the service's failure under the
 * field — focus stays in the field, its code selected so the next digit typed replaces it —, and Resend code with its
 * countdown.
 */
import { type ClipboardEvent, type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from "react"
import * as buttonStyles from "../../components/Button/Button.css"
import { Spinner } from "../../components/Spinner/Spinner"
import * as styles from "./EmailLogin.css"

/** How many digits a code has. */
export const OTP_LENGTH = 6

/** The digits of what was typed or pasted (spaces, dashes and anything else dropped), at most 6. */
export const otpDigits = (input: string): string => input.replace(/\D/g, "").slice(0, OTP_LENGTH)

/** Props of {@link OtpForm}. */
export interface OtpFormProps {
  /** Where the code was sent. */
  readonly email: string
  /** The service checks a code. */
  readonly submitting: boolean
  /** The service's last failure, in the visitor's words. */
  readonly error: string | undefined
  /** Seconds until another code may be mailed (0: now). */
  readonly resendInSeconds: number
  readonly onSubmit: (code: string) => void
  readonly onResend: () => void
}

/** The code field, Continue and Resend code. */
export function OtpForm(props: OtpFormProps): ReactNode {
  const { submitting, error, onSubmit } = props
  const id = useId()
  const input = useRef<HTMLInputElement>(null)
  const [code, setCode] = useState("")
  const [problem, setProblem] = useState<string | undefined>(undefined)

  const send = (digits: string) => {
    if (submitting) return
    if (digits.length !== OTP_LENGTH) return setProblem(`Enter the ${OTP_LENGTH} digits of the code`)
    setProblem(undefined)
    onSubmit(digits)
  }
  const take = (typed: string) => {
    const digits = otpDigits(typed)
    setCode(digits)
    setProblem(undefined)
    if (digits.length === OTP_LENGTH) send(digits)
  }
  // A refused code: the visitor types the next one at once, without reaching for the field.
  const failed = error !== undefined && !submitting
  useEffect(() => {
    if (!failed) return
    input.current?.focus()
    input.current?.select()
  }, [failed, error])

  const words = problem ?? error
  const resendIn = props.resendInSeconds
  return (
    <form
      className={styles.form}
      noValidate
      aria-label="One-time code"
      onSubmit={(event: FormEvent) => {
        event.preventDefault()
        send(code)
      }}
    >
      <p className={styles.text} id={`${id}-sent`}>
        Enter the {OTP_LENGTH}-digit code we sent to <span className={styles.address}>{props.email}</span>
      </p>
      <label className={styles.label} htmlFor={id}>
        Code
      </label>
      <input
        ref={input}
        id={id}
        className={styles.codeInput}
        type="text"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="[0-9]*"
        // The field holds at most 6 digits; a paste is cleaned first (below), so "123 456" is not cut to "123 45".
        maxLength={OTP_LENGTH}
        enterKeyHint="done"
        value={code}
        readOnly={submitting}
        aria-invalid={words !== undefined}
        aria-describedby={`${id}-sent ${id}-words`}
        onChange={(event) => take(event.target.value)}
        onPaste={(event: ClipboardEvent<HTMLInputElement>) => {
          event.preventDefault()
          take(event.clipboardData.getData("text"))
        }}
      />
      <p id={`${id}-words`} className={styles.words[words === undefined ? "hint" : "problem"]} role="status">
        {words}
      </p>
      <button
        type="submit"
        className={[buttonStyles.button.primary, buttonStyles.fullWidth].join(" ")}
        disabled={submitting}
        aria-busy={submitting || undefined}
      >
        {submitting && <Spinner />}
        Continue
      </button>
      <button type="button" className={styles.linkButton} disabled={resendIn > 0} onClick={props.onResend}>
        {resendIn > 0 ? `Resend in ${resendIn} s` : "Resend code"}
      </button>
    </form>
  )
}
