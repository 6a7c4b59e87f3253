/**
 * The social logins of the Connect view, in the host's `features.socials` order: the first as a wide button with its
 * name, the next ones as icons, and "More" past the visible count (it shows them all). A click hands the provider to
 * the embedded wallet, which opens the popup in that click; while the visitor is at the provider the buttons wait,
 * with a Cancel. Failures (cancelled, refused, timed out) are said under them.
 */
import { type ReactNode, useState } from "react"
import type { SocialLogin as SocialLoginName } from "../../../domain/Account"
import { useAtomSet, useAtomValue } from "../../atom-react/hooks"
import { cancelSocialFn, connectFarcasterFn, connectSocialFn, embeddedAtom } from "../../atoms/embedded"
import { Icon } from "../../components/Icon/Icon"
import { Notice } from "../../components/Notice/Notice"
import { SOCIAL_LOOK, SocialIcon } from "../../components/SocialIcon/SocialIcon"
import { Spinner } from "../../components/Spinner/Spinner"
import * as styles from "./SocialLogin.css"

/** How many icon buttons fit beside each other under the wide one (the last place is "More" when there are more). */
export const SOCIAL_ICONS_VISIBLE = 4

/** The social logins offered. */
export function SocialLogin(props: { readonly providers: ReadonlyArray<SocialLoginName>; readonly disabled: boolean }): ReactNode {
  const embedded = useAtomValue(embeddedAtom)
  const connectSocial = useAtomSet(connectSocialFn)
  const connectFarcaster = useAtomSet(connectFarcasterFn)
  // Farcaster signs in on the visitor's phone (ConnectingFarcaster's QR code); the others in a popup opened in the click.
  const connect = (provider: SocialLoginName) => (provider === "farcaster" ? connectFarcaster(undefined) : connectSocial(provider))
  const cancel = useAtomSet(cancelSocialFn)
  const [expanded, setExpanded] = useState(false)
  const [first, ...rest] = props.providers
  if (first === undefined || embedded === undefined) return null
  const step = embedded.social
  if (step._tag === "Waiting") {
    return (
      <div className={styles.section} role="status">
        <div className={styles.waiting}>
          <span>Continue in the {SOCIAL_LOOK[step.provider].name} window…</span>
          <button type="button" className={styles.cancel} onClick={() => cancel(undefined)}>
            Cancel
          </button>
        </div>
      </div>
    )
  }
  if (step._tag === "Connecting") return <Spinner size={24} label="Logging you in" />
  const overflow = !expanded && rest.length > SOCIAL_ICONS_VISIBLE
  const icons = overflow ? rest.slice(0, SOCIAL_ICONS_VISIBLE - 1) : rest
  const button = (provider: SocialLoginName, wide: boolean) => (
    <button
      key={provider}
      type="button"
      className={wide ? styles.wide : styles.icon}
      disabled={props.disabled}
      aria-label={wide ? undefined : `Continue with ${SOCIAL_LOOK[provider].name}`}
      onClick={() => connect(provider)}
    >
      <SocialIcon provider={provider} size={wide ? 24 : 28} />
      {wide && <span>Continue with {SOCIAL_LOOK[provider].name}</span>}
    </button>
  )
  return (
    <div className={styles.section} role="group" aria-label="Log in with a social account">
      {button(first, true)}
      {rest.length > 0 && (
        <div className={styles.row}>
          {icons.map((provider) => button(provider, false))}
          {overflow && (
            <button type="button" className={styles.icon} disabled={props.disabled} aria-label="More social logins" onClick={() => setExpanded(true)}>
              <Icon name="grid" size={24} />
            </button>
          )}
        </div>
      )}
      {embedded.socialError !== undefined && <Notice variant="error">{embedded.socialError}</Notice>}
    </div>
  )
}
