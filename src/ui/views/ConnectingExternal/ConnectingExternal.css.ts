import { style } from "@vanilla-extract/css"
import { vars } from "../../theme/contract.css"
import { spin } from "../../theme/theme.css"

/** The centred column of the view. */
export const stage = style({
  display: "flex",
  flexDirection: "column",
  alignItems: "center",
  gap: vars.space.m,
  padding: `${vars.space.l} 0`,
  textAlign: "center"
})

/** The wallet's picture with its ring. */
export const picture = style({ position: "relative", display: "inline-flex", padding: "8px" })

/** The turning ring while the wallet is asked. */
export const ring = style({
  position: "absolute",
  inset: 0,
  borderRadius: vars.radius.large,
  border: `3px solid ${vars.accent}`,
  borderRightColor: "transparent",
  borderBottomColor: "transparent",
  animation: `${spin} 1s linear infinite`
})

/** The error-coloured ring after a failure. */
export const failedRing = style({
  position: "absolute",
  inset: 0,
  borderRadius: vars.radius.large,
  border: `3px solid ${vars.color.error}`
})

/** The state of the request. */
export const heading = style({ margin: 0, fontSize: vars.fontSize.title, fontWeight: 700 })

/** What to do now. */
export const text = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.fontSize.body })

/** The link to get a wallet that is not installed. */
export const link = style({ color: vars.color.text, fontWeight: 600, textDecoration: "underline" })
