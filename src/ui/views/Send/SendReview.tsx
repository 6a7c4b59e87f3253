/**
 * SendReview: what the wallet will be asked to sign — what is sent (and its USD value), to whom (the name and the
 * full address), on which network, the estimated network fee, and for the native coin the total leaving the account.
 * Confirm sends it; Edit goes back to the form.
 */
import type { ReactNode } from "react"
import type { ReviewLine } from "../../../domain/send"
import { useAtomSet, useAtomValue } from "../../atom-react/hooks"
import { goBackFn } from "../../atoms/modal"
import { confirmSendFn, sendAtom } from "../../atoms/send"
import { Button } from "../../components/Button/Button"
import { Notice } from "../../components/Notice/Notice"
import type { ViewProps } from "../types"
import * as styles from "./Send.css"

function Line(props: { readonly term: string; readonly line: ReviewLine }): ReactNode {
  return (
    <>
      <dt className={styles.term}>{props.term}</dt>
      <dd className={styles.value}>
        {props.line.text}
        {props.line.usd !== undefined && <span className={styles.usd}>{props.line.usd}</span>}
      </dd>
    </>
  )
}

/** The SendReview view. */
export function SendReview(_props: ViewProps<"SendReview">): ReactNode {
  const state = useAtomValue(sendAtom)
  const confirm = useAtomSet(confirmSendFn)
  const back = useAtomSet(goBackFn)
  const reviewed = state?.reviewed
  if (reviewed === undefined) {
    return (
      <>
        <Notice variant="info">There is nothing to review: fill in the form first.</Notice>
        <Button variant="secondary" icon="back" fullWidth onClick={() => back(undefined)}>
          Back to the form
        </Button>
      </>
    )
  }
  const { lines } = reviewed
  return (
    <>
      <dl className={styles.summary} aria-label="Transfer">
        <Line term={reviewed.send.asset.kind === "nft" ? "NFT" : "Amount"} line={lines.amount} />
        <dt className={styles.term}>To</dt>
        <dd className={styles.value}>
          {reviewed.receiverName !== undefined && <span>{reviewed.receiverName}</span>}
          <span className={reviewed.receiverName !== undefined ? styles.usd : undefined}>{reviewed.send.to}</span>
        </dd>
        <dt className={styles.term}>Network</dt>
        <dd className={styles.value}>{state?.network?.name}</dd>
        <Line term="Network fee" line={lines.fee} />
        {lines.total !== undefined && <Line term="Total" line={lines.total} />}
      </dl>
      <div className={styles.actions}>
        <Button variant="secondary" onClick={() => back(undefined)}>
          Edit
        </Button>
        <Button onClick={() => confirm(undefined)}>Confirm</Button>
      </div>
    </>
  )
}
