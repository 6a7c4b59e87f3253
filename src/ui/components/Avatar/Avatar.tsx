/** An account's picture: its profile image when it has one, else colours drawn from its address (no asset fetched). */
import { type ReactNode, useState } from "react"
import * as styles from "./Avatar.css"

const hueOf = (text: string, from: number): number => {
  let hash = from
  for (const char of text.toLowerCase()) hash = (hash * 31 + char.charCodeAt(0)) % 360
  return hash
}

/** A decorative picture of an account (its name or address is written beside it). */
export function Avatar(props: { readonly address: string; readonly image?: string | null | undefined; readonly size?: number }): ReactNode {
  const [failed, setFailed] = useState(false)
  const size = props.size ?? 32
  if (props.image !== undefined && props.image !== null && props.image !== "" && !failed) {
    // Sized inline: the scoped reset reverts presentational width/height attributes.
    return <img className={styles.avatar} src={props.image} alt="" style={{ width: size, height: size }} onError={() => setFailed(true)} />
  }
  const background = `linear-gradient(135deg, hsl(${hueOf(props.address, 7)} 70% 60%), hsl(${hueOf(props.address, 13)} 65% 42%))`
  return <span className={styles.avatar} style={{ width: size, height: size, background }} aria-hidden="true" />
}
