/**
 * A QR code drawn by us as one SVG (uqr encodes it): dots for the modules, rounded finder patterns, and the wallet's
 * logo on a tile in the centre. Crisp at any size, coloured by the theme's `qrColor` on a light ground, with a quiet
 * zone so phones read it in dark themes too.
 */
import { type ReactNode, useMemo, useState } from "react"
import { encode } from "uqr"
import * as styles from "./QrCode.css"

/** Side of a finder pattern, in modules. */
const FINDER = 7
/** The light ring left around the logo's tile, in modules. */
const LOGO_MARGIN = 1
/**
 * Largest share of the code's width the logo's clear square may take. At level H it hides 4–6% of the modules; even
 * counting every codeword it touches as wrong, no Reed–Solomon block of a version 2–40 code loses more than half of what
 * it can correct, which leaves the other half for glare and blur (the tests decode every version to check it).
 */
const LOGO_SHARE = 0.2

/** The part of a code left clear for the logo: a square of `span` modules from (`start`, `start`). */
export interface QrLogoArea {
  readonly start: number
  readonly span: number
}

/** A code laid out for drawing: the modules that are drawn (dark and outside the logo area) and the logo area. */
export interface QrLayout {
  readonly size: number
  readonly ecc: "M" | "H"
  readonly modules: ReadonlyArray<ReadonlyArray<boolean>>
  readonly logo: QrLogoArea | undefined
}

/** One of the eight mask patterns of ISO/IEC 18004, or `undefined` to choose by the standard's penalty score. */
export type QrMask = 0 | 1 | 2 | 3 | 4 | 5 | 6 | 7 | undefined

/**
 * The mask of WalletConnect pairing URIs: the one the penalty score picks for about 98% of them (measured over 900
 * random URIs, with and without a logo and one-click), given at once: choosing costs a cold page 20–100 ms, the
 * larger part of showing the code. Scanners read the mask from the code's format bits, whichever it is.
 */
export const WALLET_CONNECT_QR_MASK: QrMask = 2

/**
 * Encodes `value` (with `mask`, else the one the penalty score picks) and leaves the centre clear when a logo is drawn
 * there; the logo raises the level to H, whose correction recovers what the logo hides.
 * @example qrLayout("wc:…", true).ecc // "H"
 */
export const qrLayout = (value: string, withLogo: boolean, mask?: QrMask): QrLayout => {
  const ecc = withLogo ? "H" : "M"
  const code = encode(value, { ecc, border: 0, ...(mask === undefined ? {} : { maskPattern: mask }) })
  const size = code.size
  if (!withLogo) return { size, ecc, modules: code.data, logo: undefined }
  // Odd like the code's size, so the square sits on whole modules around the centre one; rounded down, as small codes
  // have the least correction to spare.
  const span = Math.floor((size * LOGO_SHARE) / 2) * 2 + 1
  const start = (size - span) / 2
  const inLogo = (i: number) => i >= start && i < start + span
  const modules = code.data.map((row, y) => row.map((dark, x) => dark && !(inLogo(x) && inLogo(y))))
  return { size, ecc, modules, logo: { start, span } }
}

const inFinder = (x: number, y: number, size: number): boolean =>
  (x < FINDER && y < FINDER) || (x >= size - FINDER && y < FINDER) || (x < FINDER && y >= size - FINDER)

/**
 * The SVG path of the dark modules as dots of 0.84 module, the finder patterns left out (they are drawn whole by
 * {@link finderPath}). Scanners sample a module's centre, so a dot reads as a square does.
 */
export const dotsPath = (modules: ReadonlyArray<ReadonlyArray<boolean>>): string => {
  const size = modules.length
  const parts: Array<string> = []
  modules.forEach((row, y) => {
    row.forEach((dark, x) => {
      // Written from the dot's top point as text, not sums, so no float noise like 3.0800000000000001 reaches the path.
      if (dark && !inFinder(x, y, size)) parts.push(`M${x}.5 ${y}.08a.42 .42 0 0 1 0 .84a.42 .42 0 0 1 0-.84z`)
    })
  })
  return parts.join("")
}

const roundedSquare = (x: number, y: number, side: number, r: number): string => {
  const straight = side - 2 * r
  const corner = (dx: number, dy: number) => `a${r} ${r} 0 0 1 ${dx} ${dy}`
  return (
    `M${x + r} ${y}h${straight}${corner(r, r)}v${straight}${corner(-r, r)}` +
    `h${-straight}${corner(-r, -r)}v${-straight}${corner(r, -r)}z`
  )
}

/**
 * One finder pattern with its top-left module at (`x`, `y`): a rounded 7-module ring around a rounded 3-module
 * square, to be filled even-odd. The 1:1:3:1:1 widths through its centre, which scanners look for, stay exact.
 */
export const finderPath = (x: number, y: number): string =>
  roundedSquare(x, y, 7, 2.25) + roundedSquare(x + 1, y + 1, 5, 1.5) + roundedSquare(x + 2, y + 2, 3, 1)

/** Props of {@link QrCode}. */
export interface QrCodeProps {
  readonly value: string
  /** Size in CSS pixels. */
  readonly size?: number
  /** What the code holds, for assistive technology. */
  readonly label: string
  /** Image drawn in the centre (a URL or a data: URI); none when left out or empty. */
  readonly logo?: string | undefined
  /** The mask pattern, when the caller knows the one its values get (WALLET_CONNECT_QR_MASK); else it is chosen. */
  readonly mask?: QrMask
}

/** A themable QR code of `value`, with an optional logo in its centre. */
export function QrCode(props: QrCodeProps): ReactNode {
  // The failed URL, not a flag: the caller may hand another logo to the same element.
  const [failedLogo, setFailedLogo] = useState<string | undefined>(undefined)
  const logo = props.logo !== undefined && props.logo !== "" && props.logo !== failedLogo ? props.logo : undefined
  const withLogo = logo !== undefined
  const layout = useMemo(() => qrLayout(props.value, withLogo, props.mask), [props.value, withLogo, props.mask])
  const dots = useMemo(() => dotsPath(layout.modules), [layout])
  const quiet = 2
  const box = layout.size + quiet * 2
  const size = props.size ?? 240
  const far = layout.size - FINDER
  const tile = layout.logo === undefined ? undefined : { at: layout.logo.start + LOGO_MARGIN, side: layout.logo.span - LOGO_MARGIN * 2 }
  return (
    <svg
      className={styles.qr}
      role="img"
      aria-label={props.label}
      data-qr-value={props.value}
      width={size}
      height={size}
      viewBox={`${-quiet} ${-quiet} ${box} ${box}`}
    >
      <rect x={-quiet} y={-quiet} width={box} height={box} className={styles.background} />
      <path d={dots} className={styles.modules} />
      {[finderPath(0, 0), finderPath(far, 0), finderPath(0, far)].map((d) => (
        <path key={d} d={d} fillRule="evenodd" className={styles.modules} />
      ))}
      {logo !== undefined && tile !== undefined && (
        <>
          <rect x={tile.at} y={tile.at} width={tile.side} height={tile.side} rx={tile.side * 0.25} className={styles.logoTile} />
          <image
            href={logo}
            x={tile.at + 1}
            y={tile.at + 1}
            width={tile.side - 2}
            height={tile.side - 2}
            preserveAspectRatio="xMidYMid meet"
            className={styles.logo}
            aria-hidden="true"
            onError={() => setFailedLogo(logo)}
          />
        </>
      )}
    </svg>
  )
}
