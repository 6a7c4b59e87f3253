/** A wallet's or network's picture: its image when it has one, else its initial on a neutral tile. */
import { type ReactNode, useState } from "react"
import * as styles from "./WalletIcon.css"

/** Props of {@link WalletIcon}. */
export interface WalletIconProps {
  readonly name: string
  readonly src?: string | undefined
  readonly size?: number
  readonly round?: boolean
}

/** A decorative picture of a wallet or a network (the row around it names it). */
export function WalletIcon(props: WalletIconProps): ReactNode {
  const [failed, setFailed] = useState(false)
  const size = props.size ?? 32
  const className = [styles.icon, props.round === true && styles.round].filter(Boolean).join(" ")
  if (props.src !== undefined && props.src !== "" && !failed) {
    // Sized inline: the scoped reset reverts presentational width/height attributes.
    return <img className={className} src={props.src} alt="" style={{ width: size, height: size }} onError={() => setFailed(true)} />
  }
  return (
    <span className={className} style={{ width: size, height: size, fontSize: Math.round(size * 0.45) }} aria-hidden="true">
      {(props.name.trim()[0] ?? "?").toUpperCase()}
    </span>
  )
}
