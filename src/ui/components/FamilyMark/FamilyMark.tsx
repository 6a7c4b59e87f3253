/**
 * The mark of a chain family, drawn by us in `currentColor` (inline SVG like `Icon`, so nothing is fetched): it
 * stands for a network that names no image, or whose image did not load.
 */
import type { ReactNode } from "react"
import type { ChainNamespace } from "../../../domain/Caip"

// Outlines take the tile's text colour; the bars and dots are filled so they stay legible at 12–14 px.
const MARKS: { readonly [N in ChainNamespace]: ReactNode } = {
  eip155: <path d="M12 3l5.5 9-5.5 3.2L6.5 12zM12 3v12.2M6.5 14.8L12 21l5.5-6.2" />,
  solana: (
    <path fill="currentColor" stroke="none" d="M8 5h12l-3.5 3.5h-12zM4.5 10.25h12l3.5 3.5H8zM8 15.5h12L16.5 19h-12z" />
  ),
  bip122: (
    <>
      <circle cx="12" cy="12" r="9" />
      <path d="M10 7.75v8.5M10 7.75h3a2 2 0 0 1 0 4.25h-3M10 12h3.5a2.1 2.1 0 0 1 0 4.25H10M11.75 6v1.75M11.75 16.25V18" />
    </>
  ),
  polkadot: (
    <g fill="currentColor" stroke="none">
      <circle cx="12" cy="4.75" r="2" />
      <circle cx="18.3" cy="8.4" r="2" />
      <circle cx="18.3" cy="15.6" r="2" />
      <circle cx="12" cy="19.25" r="2" />
      <circle cx="5.7" cy="15.6" r="2" />
      <circle cx="5.7" cy="8.4" r="2" />
    </g>
  )
}

/** Props of {@link FamilyMark}. */
export interface FamilyMarkProps {
  readonly family: ChainNamespace
  readonly size?: number
}

/**
 * A chain family's mark, hidden from assistive technology (the row around it names the network).
 * @example <FamilyMark family="solana" size={14} />
 */
export function FamilyMark(props: FamilyMarkProps): ReactNode {
  const size = props.size ?? 20
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      data-family={props.family}
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.75"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      {MARKS[props.family]}
    </svg>
  )
}
