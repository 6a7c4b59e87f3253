/**
 * The email field of the Connect view ("Continue with email") and of the UpdateEmail view: a labelled email input
 * and its button; Enter submits. The address is checked here first: a malformed one is said under the field (the
 * field marked invalid, the words announced politely) and nothing is asked of the service. While the service works
 * the button shows a spinner; the service's failure ('Please try again after 23 seconds') shows under the field.
 */
import { type FormEvent, type ReactNode, useId, useState } from "react"
import * as Result from "effect/Result"
import { validateEmail } from "../../../domain/validation"
import * as buttonStyles from "../../components/Button/Button.css"
import { Spinner } from "../../components/Spinner/Spinner"
import * as styles from "./EmailLogin.css"

/** Props of {@link EmailForm}. */
export interface EmailFormProps {
  /** The form's accessible name and the field's visible label. */
  readonly label: string
  readonly submitLabel: string
  /** The service is at work on an address: the button spins and cannot be pressed. */
  readonly busy: boolean
  /** The service's last failure, in the visitor's words. */
  readonly error: string | undefined
  /** Quiet words under the field while nothing is wrong. */
  readonly hint?: string | undefined
  /** A further check of a well-formed address (the current address on UpdateEmail): the words when it fails. */
  readonly refuse?: ((email: string) => string | undefined) | undefined
  /** Not usable yet (the host's terms not agreed to): the field and its button are disabled. */
  readonly disabled?: boolean | undefined
  /** Called with the trimmed, valid address. */
  readonly onSubmit: (email: string) => void
}

/** An email field with its button. */
export function EmailForm(props: EmailFormProps): ReactNode {
  const id = useId()
  const [text, setText] = useState("")
  // What is wrong with the address last submitted; typing again clears it.
  const [problem, setProblem] = useState<string | undefined>(undefined)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (props.busy || props.disabled === true) return
    const checked = validateEmail(text)
    if (Result.isFailure(checked)) return setProblem(checked.failure)
    const refused = props.refuse?.(checked.success)
    if (refused !== undefined) return setProblem(refused)
    setProblem(undefined)
    props.onSubmit(checked.success)
  }
  const words = problem ?? props.error
  return (
    // noValidate: the browser's own bubble would come before our words (and differs between browsers).
    <form className={styles.form} onSubmit={submit} noValidate aria-label={props.label}>
      <label className={styles.label} htmlFor={id}>
        {props.label}
      </label>
      <div className={styles.row}>
        <input
          id={id}
          className={styles.input}
          type="email"
          name="email"
          autoComplete="email"
          autoCapitalize="off"
          autoCorrect="off"
          spellCheck={false}
          enterKeyHint="go"
          placeholder="you@example.com"
          value={text}
          disabled={props.disabled}
          aria-invalid={problem !== undefined}
          aria-describedby={`${id}-words`}
          onChange={(event) => {
            setText(event.target.value)
            setProblem(undefined)
          }}
        />
        <button
          type="submit"
          className={[buttonStyles.button.primary, styles.submit].join(" ")}
          disabled={props.busy || props.disabled === true}
          aria-busy={props.busy || undefined}
        >
          {props.busy && <Spinner />}
          {props.submitLabel}
        </button>
      </div>
      {/* Always in the page, so that what appears in it is announced (politely: the visitor is typing). */}
      <p id={`${id}-words`} className={styles.words[words === undefined ? "hint" : "problem"]} role="status">
        {words ?? props.hint}
      </p>
    </form>
  )
}
