/**
 * SendResult: the confirmed send, followed from the wallet's prompt to the chain's confirmation — waiting for the
 * wallet, waiting for the network, then confirmed with the explorer link, or failed in the visitor's words (a
 * refusal, the wallet's own sentence, the decoded revert reason) with Try again and Edit.
 */
import { type ReactNode, useEffect, useRef } from "react"
import { explorerHost } from "../../../domain/accountFeatures"
import type { SubmitState } from "../../../services/sendState"
import { useAtomSet, useAtomValue } from "../../atom-react/hooks"
import { goBackFn } from "../../atoms/modal"
import { confirmSendFn, finishSendFn, sendAtom } from "../../atoms/send"
import { Button } from "../../components/Button/Button"
import { Icon } from "../../components/Icon/Icon"
import { Notice } from "../../components/Notice/Notice"
import { Spinner } from "../../components/Spinner/Spinner"
import { visuallyHidden } from "../../theme/theme.css"
import { visitorErrorOf } from "../errorText"
import type { ViewProps } from "../types"
import * as styles from "./Send.css"

function ExplorerLink(props: { readonly url: string | undefined }): ReactNode {
  if (props.url === undefined) return null
  return (
    <a className={styles.link} href={props.url} target="_blank" rel="noopener noreferrer">
      View on {explorerHost(props.url)}
      <span className={visuallyHidden}> (opens the explorer)</span>
    </a>
  )
}

const headlineOf = (submit: SubmitState): string => {
  switch (submit._tag) {
    case "Idle":
    case "Signing":
      return "Confirm in your wallet"
    case "Confirming":
      return "Waiting for the network"
    case "Confirmed":
      return "Transaction confirmed"
    case "Failed":
      return visitorErrorOf(submit.error).heading
  }
}

/** The SendResult view. */
export function SendResult(_props: ViewProps<"SendResult">): ReactNode {
  const state = useAtomValue(sendAtom)
  const retry = useAtomSet(confirmSendFn)
  const finish = useAtomSet(finishSendFn)
  const back = useAtomSet(goBackFn)
  const submit: SubmitState = state?.submit ?? { _tag: "Idle" }
  const heading = useRef<HTMLHeadingElement>(null)
  // Each new step is where the keyboard user's attention belongs: the buttons it replaced are gone.
  useEffect(() => heading.current?.focus(), [submit._tag])
  const amount = state?.reviewed?.lines.amount.text
  const waiting = submit._tag === "Idle" || submit._tag === "Signing" || submit._tag === "Confirming"
  const failure = submit._tag === "Failed" ? visitorErrorOf(submit.error) : undefined
  if (submit._tag === "Idle" && state?.reviewed === undefined) {
    return (
      <>
        <Notice variant="info">Nothing has been sent: fill in the form first.</Notice>
        <Button variant="secondary" icon="back" fullWidth onClick={() => back(undefined)}>
          Back
        </Button>
      </>
    )
  }
  return (
    <>
      <div className={styles.status} role="status">
        {waiting && <Spinner size={32} />}
        {submit._tag === "Confirmed" && (
          <span className={styles.success}>
            <Icon name="check" size={32} />
          </span>
        )}
        <h3 className={styles.headline} ref={heading} tabIndex={-1}>
          {headlineOf(submit)}
        </h3>
        {amount !== undefined && submit._tag !== "Failed" && <p className={styles.hint}>{amount}</p>}
        {submit._tag === "Signing" && <p className={styles.hint}>Your wallet asks you to approve the transfer.</p>}
        {(submit._tag === "Confirming" || submit._tag === "Confirmed") && <ExplorerLink url={submit.explorerUrl} />}
      </div>
      {submit._tag === "Failed" && failure !== undefined && (
        <>
          <Notice variant="error">{failure.message}</Notice>
          <ExplorerLink url={submit.explorerUrl} />
          <div className={styles.actions}>
            <Button variant="secondary" onClick={() => back(undefined)}>
              Edit
            </Button>
            <Button onClick={() => retry(undefined)}>Try again</Button>
          </div>
        </>
      )}
      {submit._tag === "Confirmed" && (
        <Button fullWidth onClick={() => finish(undefined)}>
          Done
        </Button>
      )}
    </>
  )
}
