/**
 * ConnectingFarcaster: Sign In With Farcaster. The sign-in link of a channel the wallet server opened, as a QR code to
 * scan with the Farcaster app and as a link that opens it on this device, while the embedded wallet waits for the
 * app's signature (until the link expires); then the login, or what went wrong with Try again.
 */
import { type ReactNode, useState } from "react"
import { useAtomSet, useAtomValue } from "../../atom-react/hooks"
import { connectFarcasterFn, embeddedAtom } from "../../atoms/embedded"
import { isMobileAtom } from "../../atoms/platform"
import { Button } from "../../components/Button/Button"
import { Notice } from "../../components/Notice/Notice"
import { QrCode } from "../../components/QrCode/QrCode"
import { Spinner } from "../../components/Spinner/Spinner"
import type { ViewProps } from "../types"
import * as styles from "../WalletConnect/WalletConnect.css"

/** The ConnectingFarcaster view. */
export function ConnectingFarcaster(_props: ViewProps<"ConnectingFarcaster">): ReactNode {
  const step = useAtomValue(embeddedAtom, (state) => state?.farcaster)
  const isMobile = useAtomValue(isMobileAtom)
  const start = useAtomSet(connectFarcasterFn)
  const [copied, setCopied] = useState<string | undefined>(undefined)
  if (step === undefined || step._tag === "Idle") {
    return (
      <div className={styles.stage}>
        <p className={styles.text}>Sign in with the Farcaster app on your phone.</p>
        <Button onClick={() => start(undefined)}>Show the sign-in code</Button>
      </div>
    )
  }
  if (step._tag === "Starting") {
    return (
      <div className={styles.stage}>
        <div className={styles.qrBox}>
          <Spinner size={24} label="Preparing the sign-in code" />
        </div>
      </div>
    )
  }
  if (step._tag === "Connecting") {
    return (
      <div className={styles.stage}>
        <Spinner size={24} label={`Logging you in as @${step.username}`} />
        <div role="status" aria-live="polite">
          <h3 className={styles.heading}>Signed in as @{step.username}</h3>
        </div>
      </div>
    )
  }
  if (step._tag === "Failed") {
    return (
      <div className={styles.stage}>
        <div role="status" aria-live="polite">
          <h3 className={styles.heading}>{step.expired ? "The sign-in link expired" : "Farcaster sign-in failed"}</h3>
        </div>
        <Notice variant="error">{step.message}</Notice>
        <Button variant="secondary" onClick={() => start(undefined)}>
          Try again
        </Button>
      </div>
    )
  }
  const url = step.url
  const copy = () => void navigator.clipboard?.writeText(url).then(() => setCopied(url), () => setCopied(undefined))
  return (
    <div className={styles.stage}>
      {!isMobile && (
        <div className={styles.qrBox}>
          <QrCode value={url} label="QR code to sign in with Farcaster" />
        </div>
      )}
      <div role="status" aria-live="polite">
        <h3 className={styles.heading}>{isMobile ? "Continue in Farcaster" : "Scan with Farcaster"}</h3>
      </div>
      <p className={styles.text}>
        {isMobile
          ? "Open the Farcaster app, then approve the sign-in there."
          : "Scan this code with your phone's camera or the Farcaster app, then approve the sign-in there."}
      </p>
      <div className={styles.actions}>
        <a className={styles.linkButton} href={url}>
          Open Farcaster
        </a>
        <Button variant="secondary" icon={copied === url ? "check" : "copy"} onClick={copy}>
          {copied === url ? "Link copied" : "Copy link"}
        </Button>
      </div>
    </div>
  )
}
