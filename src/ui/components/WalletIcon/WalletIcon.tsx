/** A wallet's or network's picture: its image when it has one, else a fallback (by default its initial) on a neutral tile. */
import { type ReactNode, useContext, useState } from "react"
import { LaidOutAhead } from "../laidOutAhead"
import * as styles from "./WalletIcon.css"

/** Props of {@link WalletIcon}. */
export interface WalletIconProps {
  readonly name: string
  readonly src?: string | undefined
  readonly size?: number
  readonly round?: boolean
  /** What the tile shows when there is no image or it failed to load; the name's initial when left out. */
  readonly fallback?: ReactNode
}

/** A decorative picture of a wallet or a network (the row around it names it). */
export function WalletIcon(props: WalletIconProps): ReactNode {
  // The failed URL, not a flag: the same element may be handed another image (the network button after a switch).
  const [failedSrc, setFailedSrc] = useState<string | undefined>(undefined)
  const size = props.size ?? 32
  const className = [styles.icon, props.round === true && styles.round].filter(Boolean).join(" ")
  // Laid out ahead of the visitor's click, a picture from another host waits for the click (nothing is fetched before).
  const ahead = useContext(LaidOutAhead)
  const src = props.src
  if (src !== undefined && src !== "" && src !== failedSrc && !(ahead && !src.startsWith("data:"))) {
    // Sized inline: the scoped reset reverts presentational width/height attributes.
    return <img className={className} src={src} alt="" style={{ width: size, height: size }} onError={() => setFailedSrc(src)} />
  }
  return (
    <span className={className} style={{ width: size, height: size, fontSize: Math.round(size * 0.45) }} aria-hidden="true">
      {props.fallback ?? (props.name.trim()[0] ?? "?").toUpperCase()}
    </span>
  )
}
