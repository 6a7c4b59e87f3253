/**
 * RegisterAccountName: the visitor types a name for their EVM account, sees the suffix it is registered under, what
 * is wrong with it (too short, other characters, an ENSIP-15 reason) or whether it is free (checking…, available,
 * taken: announced politely), and free names like it as buttons. Register is pressable once the name is available;
 * the Names service takes it from there (the success view, the wallet's signature, the registration). A failure
 * brings the visitor back here, said in their words, with Try again.
 */
import { type FormEvent, type ReactNode, useEffect, useId, useRef, useState } from "react"
import { truncateAddress } from "../../../domain/format"
import { type Availability, type NamesState, registering } from "../../../services/namesState"
import { useAtomSet, useAtomValue } from "../../atom-react/hooks"
import { goBackFn } from "../../atoms/modal"
import { chooseNameFn, namesAtom, prepareNamesFn, registerNameFn, setNameInputFn } from "../../atoms/names"
import { Button } from "../../components/Button/Button"
import * as buttonStyles from "../../components/Button/Button.css"
import { Icon } from "../../components/Icon/Icon"
import { Notice } from "../../components/Notice/Notice"
import { Spinner } from "../../components/Spinner/Spinner"
import { visitorErrorOf } from "../errorText"
import type { ViewProps } from "../types"
import * as styles from "./RegisterAccountName.css"

/** How many suggestions are offered at most. */
const MAX_SUGGESTIONS = 6

/** The words under the field for an availability, and how they look. */
const wordsOf = (availability: Availability): { readonly text: string; readonly look: keyof typeof styles.words } => {
  switch (availability._tag) {
    case "Empty":
      return { text: "At least 4 letters, digits or hyphens", look: "hint" }
    case "Invalid":
      return { text: availability.message, look: "problem" }
    case "Checking":
      return { text: `Checking ${availability.name}…`, look: "checking" }
    case "Available":
      return { text: `${availability.name} is available`, look: "available" }
    case "Taken":
      return { text: `${availability.name} is taken`, look: "problem" }
    case "Failed":
      return { text: availability.message, look: "problem" }
  }
}

/** The free names like the typed one, as buttons; choosing one fills the field. */
function SuggestionList(props: { readonly state: NamesState; readonly onChoose: (label: string) => void }): ReactNode {
  const id = useId()
  const { suggestions, suffix } = props.state
  if (suggestions._tag === "Failed") return <p className={styles.words.hint}>{suggestions.message}</p>
  if (suggestions._tag !== "Ready" || suggestions.labels.length === 0) return null
  return (
    <div className={styles.suggestions}>
      <p id={id} className={styles.suggestionsTitle}>
        Suggestions
      </p>
      <ul className={styles.chips} aria-labelledby={id}>
        {suggestions.labels.slice(0, MAX_SUGGESTIONS).map((label) => (
          <li key={label}>
            {/* Named as one word: the suffix is a separate element only to look quieter. */}
            <button type="button" className={styles.chip} aria-label={`${label}${suffix}`} onClick={() => props.onChoose(label)}>
              {label}
              <span className={styles.chipSuffix}>{suffix}</span>
            </button>
          </li>
        ))}
      </ul>
    </div>
  )
}

/** The form of an account that can have a name. */
function NameForm(props: { readonly state: NamesState }): ReactNode {
  const { state } = props
  const id = useId()
  const input = useRef<HTMLInputElement>(null)
  const [text, setText] = useState(state.input)
  const setInput = useAtomSet(setNameInputFn)
  const choose = useAtomSet(chooseNameFn)
  const register = useAtomSet(registerNameFn)
  const availability = state.availability
  const words = wordsOf(availability)
  const busy = registering(state.register)
  const canRegister = availability._tag === "Available" && state.label !== undefined && !busy
  const failed = state.register._tag === "Failed" ? state.register : undefined
  const failure = failed === undefined ? undefined : visitorErrorOf(failed.error)
  const invalid = availability._tag === "Invalid" || availability._tag === "Taken"
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (canRegister && state.label !== undefined) register(state.label)
  }
  const chooseSuggestion = (label: string) => {
    setText(label)
    choose(label)
    // The suggestion pressed is gone from the list: the field is where the visitor goes on.
    input.current?.focus()
  }
  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-label="Choose a name">
      {state.caipAddress !== undefined && (
        <p className={styles.intro}>
          A name others can use instead of your address{" "}
          <span className={styles.address}>{truncateAddress(state.caipAddress.slice(state.caipAddress.lastIndexOf(":") + 1))}</span>.
        </p>
      )}
      <div className={styles.field}>
        <label className={styles.label} htmlFor={id}>
          Name
        </label>
        <div className={[styles.box, invalid && styles.boxInvalid].filter(Boolean).join(" ")}>
          <input
            ref={input}
            id={id}
            className={styles.input}
            autoComplete="off"
            autoCapitalize="off"
            autoCorrect="off"
            spellCheck={false}
            enterKeyHint="done"
            placeholder="yourname"
            value={text}
            aria-invalid={invalid}
            aria-describedby={`${id}-suffix ${id}-words`}
            onChange={(event) => {
              setText(event.target.value)
              setInput(event.target.value)
            }}
          />
          <span id={`${id}-suffix`} className={styles.suffix}>
            {state.suffix}
          </span>
        </div>
        <p id={`${id}-words`} className={styles.words[words.look]} role="status">
          {availability._tag === "Checking" && <Spinner size={12} />}
          {availability._tag === "Available" && <Icon name="check" size={14} />}
          {words.text}
        </p>
      </div>
      <SuggestionList state={state} onChoose={chooseSuggestion} />
      {failed !== undefined && failure !== undefined && (
        <Notice variant="error" title={failure.heading}>
          {failure.message}
        </Notice>
      )}
      {failed !== undefined ? (
        <div className={styles.actions}>
          <Button onClick={() => register(failed.label)}>Try again</Button>
        </div>
      ) : (
        <button
          type="submit"
          className={[buttonStyles.button.primary, buttonStyles.fullWidth].join(" ")}
          disabled={!canRegister}
          aria-busy={busy || undefined}
        >
          {busy && <Spinner />}
          Register
        </button>
      )}
    </form>
  )
}

/** The RegisterAccountName view. */
export function RegisterAccountName(_props: ViewProps<"RegisterAccountName">): ReactNode {
  const state = useAtomValue(namesAtom)
  const prepare = useAtomSet(prepareNamesFn)
  const back = useAtomSet(goBackFn)
  // Opened another way than the account's button (a host's route), or for another account: a fresh form. This is
  // also what fetches the form's code and its ENSIP-15 tables.
  useEffect(() => {
    prepare(undefined)
  }, [prepare])
  if (state === undefined || state.filled === 0) return <Spinner size={24} label="Loading" />
  if (state.caipAddress === undefined) return <Notice variant="info">Connect a wallet to choose a name.</Notice>
  if (state.ineligible !== undefined) {
    const why = visitorErrorOf(state.ineligible)
    return (
      <>
        <Notice variant="info" title={why.heading}>
          {why.message}
        </Notice>
        <Button variant="secondary" icon="back" fullWidth onClick={() => back(undefined)}>
          Back
        </Button>
      </>
    )
  }
  return <NameForm key={`${state.caipAddress}:${state.filled}`} state={state} />
}
