/**
 * The social providers' marks: bundled inline SVGs of our own drawing (a rounded tile in the provider's colour with
 * one letter: a single character, so an icon button's accessible name need not contain it), so nothing is fetched
 * and no provider's artwork is copied.
 */
import type { ReactNode } from "react"
import type { SocialLogin } from "../../../domain/Account"

/** Each provider's tile colour, letter and name as the buttons say it. */
export const SOCIAL_LOOK: Readonly<Record<SocialLogin, { readonly name: string; readonly letter: string; readonly tile: string; readonly ink: string }>> = {
  google: { name: "Google", letter: "G", tile: "#4285F4", ink: "#FFFFFF" },
  x: { name: "X", letter: "X", tile: "#14171A", ink: "#FFFFFF" },
  discord: { name: "Discord", letter: "D", tile: "#5865F2", ink: "#FFFFFF" },
  github: { name: "GitHub", letter: "g", tile: "#24292F", ink: "#FFFFFF" },
  apple: { name: "Apple", letter: "A", tile: "#000000", ink: "#FFFFFF" },
  facebook: { name: "Facebook", letter: "f", tile: "#1877F2", ink: "#FFFFFF" },
  farcaster: { name: "Farcaster", letter: "F", tile: "#855DCD", ink: "#FFFFFF" }
}

/** A provider's mark, hidden from assistive technology (the button around it says the provider's name). */
export function SocialIcon(props: { readonly provider: SocialLogin; readonly size?: number }): ReactNode {
  const look = SOCIAL_LOOK[props.provider]
  const size = props.size ?? 24
  return (
    <svg width={size} height={size} viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      {/* A mid-grey edge keeps the dark tiles (X, GitHub, Apple) apart from a dark surface. */}
      <rect x="0.5" y="0.5" width="23" height="23" rx="5.5" fill={look.tile} stroke="rgba(128, 128, 128, 0.55)" />
      <text
        x="12"
        y="16.5"
        textAnchor="middle"
        fontFamily="system-ui, sans-serif"
        fontWeight="700"
        fontSize={13}
        fill={look.ink}
      >
        {look.letter}
      </text>
    </svg>
  )
}
