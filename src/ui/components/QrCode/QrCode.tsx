/**
 * A QR code drawn by us as one SVG path (uqr encodes it): crisp at any size, coloured by the theme's `qrColor` on
 * the theme's background, with a quiet zone so phones read it in dark themes too.
 */
import { type ReactNode, useMemo } from "react"
import { encode } from "uqr"
import * as styles from "./QrCode.css"

/** The SVG path of the dark modules; each row's runs are merged so the path stays short. */
export const qrPath = (data: ReadonlyArray<ReadonlyArray<boolean>>): string => {
  const parts: Array<string> = []
  data.forEach((row, y) => {
    let x = 0
    while (x < row.length) {
      if (row[x] !== true) {
        x++
        continue
      }
      const start = x
      while (row[x] === true) x++
      parts.push(`M${start} ${y}h${x - start}v1h-${x - start}z`)
    }
  })
  return parts.join("")
}

/** Props of {@link QrCode}. */
export interface QrCodeProps {
  readonly value: string
  /** Size in CSS pixels. */
  readonly size?: number
  /** What the code holds, for assistive technology. */
  readonly label: string
}

/** A themable QR code of `value`. */
export function QrCode(props: QrCodeProps): ReactNode {
  const code = useMemo(() => encode(props.value, { ecc: "M", border: 0 }), [props.value])
  const quiet = 2
  const box = code.size + quiet * 2
  const size = props.size ?? 240
  return (
    <svg
      className={styles.qr}
      role="img"
      aria-label={props.label}
      data-qr-value={props.value}
      width={size}
      height={size}
      viewBox={`${-quiet} ${-quiet} ${box} ${box}`}
      shapeRendering="crispEdges"
    >
      <rect x={-quiet} y={-quiet} width={box} height={box} className={styles.background} />
      <path d={qrPath(code.data)} className={styles.modules} />
    </svg>
  )
}
