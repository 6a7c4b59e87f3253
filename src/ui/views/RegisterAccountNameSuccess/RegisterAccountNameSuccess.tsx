/**
 * RegisterAccountNameSuccess: pushed first when the visitor registers a name (spec 4). It shows the name and where
 * the registration is — waiting for the wallet's signature, then for the names service — and then that the name is
 * the account's, with Done back to the account (which shows the name at once). A failure takes the visitor back to
 * RegisterAccountName, where it is said; opened with nothing under way, it says so with Back.
 */
import { type ReactNode, useEffect, useRef } from "react"
import type { RegisterState } from "../../../services/namesState"
import { useAtomSet, useAtomValue } from "../../atom-react/hooks"
import { goBackFn } from "../../atoms/modal"
import { finishNamesFn, namesAtom } from "../../atoms/names"
import { Button } from "../../components/Button/Button"
import { Icon } from "../../components/Icon/Icon"
import { Notice } from "../../components/Notice/Notice"
import { Spinner } from "../../components/Spinner/Spinner"
import { visitorErrorOf } from "../errorText"
import type { ViewProps } from "../types"
import * as styles from "./RegisterAccountNameSuccess.css"

const headlineOf = (register: RegisterState): string => {
  switch (register._tag) {
    case "Idle":
    case "Signing":
      return "Confirm in your wallet"
    case "Registering":
      return "Registering your name"
    case "Registered":
      return "Name registered"
    case "Failed":
      return visitorErrorOf(register.error).heading
  }
}

const hintOf = (register: RegisterState): string | undefined => {
  switch (register._tag) {
    case "Signing":
      return "Your wallet asks you to sign a message for this name. Signing costs nothing."
    case "Registering":
      return "This takes a moment."
    case "Registered":
      return "Your account shows it from now on."
    default:
      return undefined
  }
}

/** The RegisterAccountNameSuccess view. */
export function RegisterAccountNameSuccess(props: ViewProps<"RegisterAccountNameSuccess">): ReactNode {
  const state = useAtomValue(namesAtom)
  const finish = useAtomSet(finishNamesFn)
  const back = useAtomSet(goBackFn)
  const register: RegisterState = state?.register ?? { _tag: "Idle" }
  const heading = useRef<HTMLHeadingElement>(null)
  // Each new step is where the keyboard user's attention belongs: the step before it said something else.
  useEffect(() => heading.current?.focus(), [register._tag])
  const name = register._tag === "Idle" ? props.route.name : register.name
  if (register._tag === "Idle" || name === undefined) {
    return (
      <>
        <Notice variant="info">No name is being registered: choose one first.</Notice>
        <Button variant="secondary" icon="back" fullWidth onClick={() => back(undefined)}>
          Back
        </Button>
      </>
    )
  }
  const waiting = register._tag === "Signing" || register._tag === "Registering"
  const hint = hintOf(register)
  return (
    <>
      <div className={styles.status} role="status">
        {waiting && <Spinner size={32} />}
        {register._tag === "Registered" && (
          <span className={styles.done}>
            <Icon name="check" size={28} />
          </span>
        )}
        <h3 className={styles.headline} ref={heading} tabIndex={-1}>
          {headlineOf(register)}
        </h3>
        <p className={styles.name}>{name}</p>
        {hint !== undefined && <p className={styles.hint}>{hint}</p>}
      </div>
      {register._tag === "Failed" && (
        <>
          <Notice variant="error">{visitorErrorOf(register.error).message}</Notice>
          <Button variant="secondary" icon="back" fullWidth onClick={() => back(undefined)}>
            Back
          </Button>
        </>
      )}
      {register._tag === "Registered" && (
        <Button fullWidth onClick={() => finish(undefined)}>
          Done
        </Button>
      )}
    </>
  )
}
