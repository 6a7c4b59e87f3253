/** The few icons the modal draws, inline SVG so nothing is fetched (offline, CSP-friendly). */
import type { ReactNode } from "react"

const PATHS = {
  close: "M6 6l12 12M18 6L6 18",
  back: "M15 5l-7 7 7 7",
  forward: "M9 5l7 7-7 7",
  check: "M5 12.5l4.5 4.5L19 7.5",
  copy: "M9 9h10v10H9zM5 15V5h10",
  search: "M11 4a7 7 0 1 1 0 14 7 7 0 0 1 0-14zM20 20l-4-4",
  warning: "M12 4l9 16H3zM12 10v4M12 17v.5",
  grid: "M5 5h5v5H5zM14 5h5v5h-5zM5 14h5v5H5zM14 14h5v5h-5z",
  exit: "M14 5h5v14h-5M10 8l-4 4 4 4M6 12h10",
  wallet: "M4 7h14a2 2 0 0 1 2 2v9a2 2 0 0 1-2 2H6a2 2 0 0 1-2-2zM4 7l11-3v3M16 13.5h.5",
  key: "M8 16a4 4 0 1 1 0-8 4 4 0 0 1 0 8zM12 12h8M17 12v3M20 12v2",
  signIn: "M10 5H5v14h5M14 8l4 4-4 4M18 12H8"
} as const

/** The name of an icon. */
export type IconName = keyof typeof PATHS

/** An icon, hidden from assistive technology (the control around it carries the words). */
export function Icon(props: { readonly name: IconName; readonly size?: number; readonly className?: string }): ReactNode {
  const size = props.size ?? 20
  return (
    <svg
      aria-hidden="true"
      focusable="false"
      width={size}
      height={size}
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
      className={props.className}
    >
      <path d={PATHS[props.name]} />
    </svg>
  )
}
