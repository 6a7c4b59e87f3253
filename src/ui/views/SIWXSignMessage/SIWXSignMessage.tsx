/**
 * SIWXSignMessage: sign in with the wallet (spec points 2 and 4). It says whom the visitor signs in to and with
 * which account, that signing costs nothing, and asks the wallet to sign; while the wallet shows its prompt it
 * says so ('Authenticating...'): it is the spec's connecting view for sign-in with the wallet; a refusal ('Signature declined') or a failure stays here with Try again. Cancel disconnects when the site
 * requires sign-in (the button says so), otherwise closes. Where nothing on this device can make the account sign (an
 * embedded wallet whose key only its first device protects), the words say what to do there, Check again reads it anew
 * (nothing tells this device when it was done), and the way out is Disconnect when sign-in is required, otherwise the
 * header's Close (no second one in the body).
 */
import { type ReactNode, useEffect, useRef } from "react"
import type { SiwxStep } from "../../../services/Siwx/Siwx"
import { useAtomSet, useAtomValue } from "../../atom-react/hooks"
import { cancelSignInFn, signInFn, siwxAtom } from "../../atoms/siwx"
import { Button } from "../../components/Button/Button"
import { truncateAddress } from "../../../domain/format"
import { Icon } from "../../components/Icon/Icon"
import { Notice } from "../../components/Notice/Notice"
import { Spinner } from "../../components/Spinner/Spinner"
import type { ViewProps } from "../types"
import * as styles from "./SIWXSignMessage.css"

const headlineOf = (step: SiwxStep, siteName: string): string => {
  switch (step._tag) {
    case "Checking":
      return "Checking your sign-in"
    case "Needed":
      return step.signing ? "Confirm in your wallet" : `Sign in to ${siteName}`
    case "SignedIn":
      return "You are signed in"
    default:
      return "Sign in"
  }
}

type SignInError = NonNullable<Extract<SiwxStep, { readonly _tag: "Needed" }>["error"]>

// A step nothing on this device can sign (`final`: the key is protected only on the first device) is guidance, not a
// failure: its alert says what to do; any other failure of the sign-in is named as one.
const noticeTitle = (error: SignInError, final: boolean): string =>
  final ? "Protect your wallet first" : error._tag === "SignInFailed" ? "Sign-in failed" : error.message

/** The SIWXSignMessage view. */
export function SIWXSignMessage(_props: ViewProps<"SIWXSignMessage">): ReactNode {
  const state = useAtomValue(siwxAtom)
  const signIn = useAtomSet(signInFn)
  const cancel = useAtomSet(cancelSignInFn)
  const heading = useRef<HTMLHeadingElement>(null)
  const step: SiwxStep = state?.step ?? { _tag: "SignedOut" }
  const stage = step._tag === "Needed" ? (step.signing ? "signing" : step.error === undefined ? "ask" : "failed") : step._tag
  // Each stage replaces the buttons the keyboard was on: the heading is where attention belongs.
  useEffect(() => heading.current?.focus(), [stage])
  if (state === undefined || step._tag === "Disabled" || step._tag === "SignedOut") {
    return <Notice variant="info">Connect a wallet to sign in.</Notice>
  }
  const siteName = state.siteName
  const signing = step._tag === "Needed" && step.signing
  const error = step._tag === "Needed" ? step.error : undefined
  return (
    <div className={styles.column}>
      <div role="status" className={styles.column}>
        {(step._tag === "Checking" || signing) && <Spinner size={32} />}
        {step._tag === "SignedIn" && <Icon name="check" size={32} />}
        <h3 className={styles.headline} ref={heading} tabIndex={-1}>
          {headlineOf(step, siteName)}
        </h3>
        {step._tag === "Needed" && !signing && !step.final && (
          <p className={styles.hint}>
            Sign a message with your wallet to prove this account is yours. Signing is free: it sends no transaction
            and moves no funds.
          </p>
        )}
        {signing && (
          <>
            {/* Spec point 8's loading message while the signature is pending. */}
            <p className={styles.hint}>Authenticating...</p>
            <p className={styles.hint}>Your wallet shows the message to sign.</p>
          </>
        )}
      </div>
      {step._tag !== "SignedIn" && (
        <span className={styles.account} aria-label={`Account ${step.account.address}`}>
          {truncateAddress(step.account.address)}
        </span>
      )}
      {error !== undefined && (
        <Notice variant="error" title={noticeTitle(error, step._tag === "Needed" && step.final)}>
          {error._tag === "SignatureDeclined"
            ? "You declined the request in your wallet. Sign again to continue."
            : error._tag === "SmartAccountSignInRefused"
              ? "The site could not verify your smart account's signature. Switch to your EOA in the account view, or ask the site to accept smart accounts."
              : error.message}
        </Notice>
      )}
      {step._tag === "Needed" && (
        <div className={styles.actions}>
          {/* Where sign-in is not required and nothing here can sign, the header's Close is the way out: no second one. */}
          {(state.required || !step.final) && (
            <Button variant="secondary" onClick={() => cancel(undefined)} disabled={signing}>
              {state.required ? "Disconnect" : "Cancel"}
            </Button>
          )}
          <Button onClick={() => signIn(undefined)} busy={signing}>
            {step.final ? "Check again" : error === undefined ? "Sign" : "Try again"}
          </Button>
        </div>
      )}
    </div>
  )
}
