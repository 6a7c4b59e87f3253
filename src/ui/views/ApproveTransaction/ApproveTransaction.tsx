/**
 * ApproveTransaction: an unsafe request of the embedded wallet waits on the visitor (spec points 2 and 6). A heading
 * says what is asked (sign a message, sign data, approve a transaction, calls, a Solana transfer, a spending permission), the
 * network it is for, and the request in plain words: the message as written, the typed data's fields, the receiver in
 * full (copyable), the amount, the data shortened with a way to see it whole. Reject and Approve answer it; Approve
 * spins while the wallet signs or sends. The heading, not Approve, takes focus: a stray Enter approves nothing.
 * Closing the modal (Escape) rejects it — the Modal service rejects every open unsafe request on close.
 */
import { type ReactNode, useEffect, useId, useRef, useState } from "react"
import type { ApprovalSummary, PendingApproval } from "../../../services/Embedded/embeddedState"
import { useAtomSet, useAtomValue } from "../../atom-react/hooks"
import { approveRequestFn, embeddedAtom, rejectRequestFn } from "../../atoms/embedded"
import { showSnackbarFn } from "../../atoms/notifications"
import { openSecureViewFn } from "../../atoms/secureView"
import { newDeviceWords } from "../../../domain/newDevice"
import { Button } from "../../components/Button/Button"
import { Notice } from "../../components/Notice/Notice"
import type { ViewProps } from "../types"
import { PermissionSummary, permissionHeading } from "./PermissionSummary"
import * as styles from "./ApproveTransaction.css"

/** What the request asks, as its heading. */
export const approvalHeading = (summary: ApprovalSummary): string => {
  switch (summary._tag) {
    case "Message":
      return "Sign this message"
    case "TypedData":
      return "Sign this data"
    case "Transaction":
      return "Approve this transaction"
    case "Calls":
      return "Approve these calls"
    case "SolanaTransfer":
      return "Approve this Solana transfer"
    case "SolanaTransactions":
      return summary.count === 1 ? "Approve this Solana transaction" : `Approve these ${summary.count} Solana transactions`
    case "Permissions":
      return permissionHeading(summary)
  }
}

/** Data longer than this is shown shortened until the visitor asks to see it whole. */
const DATA_SHOWN = 26

/** A receiver in full, with a button that copies it. */
function Address(props: { readonly address: string; readonly label: string }): ReactNode {
  const snackbar = useAtomSet(showSnackbarFn)
  const copy = () =>
    Promise.resolve()
      .then(() => navigator.clipboard.writeText(props.address))
      .then(
        () => snackbar({ variant: "success", message: "Address copied" }),
        () => snackbar({ variant: "error", message: "Could not copy the address" })
      )
  return (
    <>
      <span className={styles.mono}>{props.address}</span>
      <button type="button" className={styles.small} aria-label={`Copy ${props.label}`} onClick={() => void copy()}>
        Copy
      </button>
    </>
  )
}

/** Call data: shortened (with its size), or whole once asked. */
function Data(props: { readonly data: string }): ReactNode {
  const id = useId()
  const [whole, setWhole] = useState(false)
  const { data } = props
  const bytes = Math.max(0, Math.floor((data.length - 2) / 2))
  if (data.length <= DATA_SHOWN) return <span className={styles.mono}>{data}</span>
  return (
    <>
      {whole ? (
        <pre id={id} className={styles.block} tabIndex={0} aria-label="Data">
          {data}
        </pre>
      ) : (
        <span className={styles.mono}>
          {data.slice(0, 10)}…{data.slice(-8)} ({bytes} bytes)
        </span>
      )}
      <button type="button" className={styles.small} aria-expanded={whole} aria-controls={whole ? id : undefined} onClick={() => setWhole(!whole)}>
        {whole ? "Show less" : "Show all data"}
      </button>
    </>
  )
}

/** Receiver, value and data of one transaction or call. */
function TransactionLines(props: { readonly to: string | undefined; readonly value: string; readonly data: string | undefined }): ReactNode {
  return (
    <>
      <dt className={styles.term}>To</dt>
      <dd className={styles.value}>{props.to === undefined ? "A new contract" : <Address address={props.to} label="receiver address" />}</dd>
      <dt className={styles.term}>Value</dt>
      <dd className={styles.value}>{props.value}</dd>
      {props.data !== undefined && props.data !== "0x" && (
        <>
          <dt className={styles.term}>Data</dt>
          <dd className={styles.value}>
            <Data data={props.data} />
          </dd>
        </>
      )}
    </>
  )
}

/** The request in plain words. */
function Summary(props: { readonly summary: ApprovalSummary }): ReactNode {
  const { summary } = props
  switch (summary._tag) {
    case "Message":
      // Focusable: a long message scrolls inside its box, and the keyboard must be able to scroll it.
      return (
        <pre className={styles.block} tabIndex={0} aria-label="Message">
          {summary.text}
        </pre>
      )
    case "TypedData":
      return (
        <dl className={styles.summary} aria-label="Data to sign">
          {summary.domainName !== undefined && (
            <>
              <dt className={styles.term}>From</dt>
              <dd className={styles.value}>{summary.domainName}</dd>
            </>
          )}
          <dt className={styles.term}>Type</dt>
          <dd className={styles.value}>{summary.primaryType}</dd>
          {summary.fields.map(([label, value], index) => (
            <FieldLine key={`${index}:${label}`} label={label} value={value} />
          ))}
        </dl>
      )
    case "Transaction":
      return (
        <dl className={styles.summary} aria-label="Transaction">
          <TransactionLines to={summary.to} value={summary.value} data={summary.data} />
        </dl>
      )
    case "Calls":
      return (
        <ol className={styles.calls} aria-label="Calls">
          {summary.calls.map((call, index) => (
            <li key={index}>
              <p className={styles.callTitle}>
                Call {index + 1} of {summary.calls.length}
              </p>
              <dl className={styles.summary}>
                <TransactionLines to={call.to} value={call.value} data={call.data} />
              </dl>
            </li>
          ))}
        </ol>
      )
    case "SolanaTransfer":
      return (
        <dl className={styles.summary} aria-label="Transfer">
          <dt className={styles.term}>To</dt>
          <dd className={styles.value}>
            <Address address={summary.to} label="receiver address" />
          </dd>
          <dt className={styles.term}>Amount</dt>
          <dd className={styles.value}>{summary.amount}</dd>
        </dl>
      )
    case "SolanaTransactions":
      return (
        <dl className={styles.summary} aria-label="Transactions">
          <dt className={styles.term}>Transactions</dt>
          <dd className={styles.value}>{summary.count}</dd>
          <dt className={styles.term}>{summary.programs.length === 1 ? "Program" : "Programs"}</dt>
          <dd className={styles.value}>
            {summary.programs.length === 0
              ? "None"
              : summary.programs.map((program) => (
                  <span key={program} className={styles.mono}>
                    {program}
                  </span>
                ))}
          </dd>
        </dl>
      )
    case "Permissions":
      return <PermissionSummary summary={summary} />
  }
}

/** A value written in hex (an address, bytes): shown in the monospaced font, as a transaction's receiver is. */
const HEX = /^0x[0-9a-fA-F]+$/

/** One field of typed data; a long value (an address, data) breaks anywhere. */
function FieldLine(props: { readonly label: string; readonly value: string }): ReactNode {
  return (
    <>
      <dt className={styles.term}>{props.label}</dt>
      <dd className={styles.value}>{HEX.test(props.value) ? <span className={styles.mono}>{props.value}</span> : props.value}</dd>
    </>
  )
}

/** One request, from its heading to its answers. */
function Request(props: { readonly approval: PendingApproval }): ReactNode {
  const { approval } = props
  const approve = useAtomSet(approveRequestFn)
  const reject = useAtomSet(rejectRequestFn)
  const needsRecovery = useAtomValue(embeddedAtom, (state) => state?.needsRecovery)
  const recovery = useAtomValue(embeddedAtom, (state) => state?.recovery)
  const openSecureView = useAtomSet(openSecureViewFn)
  const heading = useRef<HTMLHeadingElement>(null)
  // The modal would focus the first control; the heading goes first, so that Enter pressed by habit approves nothing.
  useEffect(() => heading.current?.focus(), [])
  return (
    <div className={styles.column}>
      <h3 className={styles.headline} ref={heading} tabIndex={-1}>
        {approvalHeading(approval.summary)}
      </h3>
      <p className={styles.network}>On {approval.networkName}</p>
      <Summary summary={approval.summary} />
      {/* A device without the key's share cannot sign: the view says why and offers Recover, after which it comes back here. */}
      {needsRecovery === true && <Notice variant="info">{newDeviceWords(recovery)}</Notice>}
      <div className={styles.actions}>
        <Button variant="secondary" disabled={approval.working} onClick={() => reject(undefined)}>
          Reject
        </Button>
        {needsRecovery !== true ? (
          <Button busy={approval.working} onClick={() => approve(undefined)}>
            Approve
          </Button>
        ) : (
          recovery !== "device" && <Button onClick={() => openSecureView("recover")}>Recover wallet</Button>
        )}
      </div>
    </div>
  )
}

/** The ApproveTransaction view. */
export function ApproveTransaction(_props: ViewProps<"ApproveTransaction">): ReactNode {
  const approval = useAtomValue(embeddedAtom, (state) => state?.approval)
  if (approval === undefined) return <Notice variant="info">Nothing is waiting for your approval.</Notice>
  // Keyed by the request: the next request never shows the previous one's expanded data or focus.
  return <Request key={approval.id} approval={approval} />
}
