/**
 * The passkey login of the Connect view, beside email: "Continue with a passkey" for a visitor who made one, and
 * "Create a passkey" for a new one (a new wallet). A click hands the choice to the embedded wallet, which opens the
 * passkey window in that click; while the visitor is there the buttons give way to a wait with a Cancel. How it ended
 * without a login (cancelled, closed, refused, too long) is said under them; nothing was changed by it.
 */
import type { ReactNode } from "react"
import { useAtomSet, useAtomValue } from "../../atom-react/hooks"
import { embeddedAtom } from "../../atoms/embedded"
import { cancelPasskeyFn, connectPasskeyFn } from "../../atoms/passkey"
import { Icon } from "../../components/Icon/Icon"
import { Notice } from "../../components/Notice/Notice"
import { Spinner } from "../../components/Spinner/Spinner"
import * as socialStyles from "../SocialLogin/SocialLogin.css"
import * as styles from "./PasskeyLogin.css"

/** The passkey buttons. */
export function PasskeyLogin(props: { readonly disabled: boolean }): ReactNode {
  const embedded = useAtomValue(embeddedAtom)
  const connect = useAtomSet(connectPasskeyFn)
  const cancel = useAtomSet(cancelPasskeyFn)
  if (embedded === undefined) return null
  const step = embedded.passkey
  if (step._tag === "Waiting") {
    return (
      <div className={socialStyles.section} role="status">
        <div className={socialStyles.waiting}>
          <span>{step.mode === "create" ? "Create your passkey in the window that opened…" : "Use your passkey in the window that opened…"}</span>
          <button type="button" className={socialStyles.cancel} onClick={() => cancel(undefined)}>
            Cancel
          </button>
        </div>
      </div>
    )
  }
  if (step._tag === "Connecting") return <Spinner size={24} label="Logging you in" />
  return (
    <div className={socialStyles.section} role="group" aria-label="Log in with a passkey">
      <button type="button" className={socialStyles.wide} disabled={props.disabled} onClick={() => connect("login")}>
        <Icon name="key" size={24} />
        <span>Continue with a passkey</span>
      </button>
      <p className={styles.createLine}>
        New here?{" "}
        <button type="button" className={styles.textButton} disabled={props.disabled} onClick={() => connect("create")}>
          Create a passkey
        </button>
      </p>
      {embedded.passkeyError !== undefined && <Notice variant="error">{embedded.passkeyError}</Notice>}
    </div>
  )
}
