import { style } from "@vanilla-extract/css"
import { vars } from "../../theme/contract.css"

/** The centred column of the views. */
export const stage = style({
  display: "flex",
  flexDirection: "column",
  alignItems: "center",
  gap: vars.space.m,
  padding: `${vars.space.m} 0`,
  textAlign: "center"
})

/** The square the QR code (or its placeholder) takes, so the view does not jump when the URI arrives. */
export const qrBox = style({
  display: "flex",
  alignItems: "center",
  justifyContent: "center",
  width: "100%",
  maxWidth: "280px",
  aspectRatio: "1 / 1",
  padding: vars.space.s,
  borderRadius: vars.radius.large,
  background: vars.color.surface
})

/** The state of the request. */
export const heading = style({ margin: 0, fontSize: vars.fontSize.title, fontWeight: 700 })

/** What to do now. */
export const text = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.fontSize.body })

/** The row of actions under the code. */
export const actions = style({ display: "flex", flexWrap: "wrap", gap: vars.space.s, justifyContent: "center" })

/** A link styled as a button: opening a wallet is navigation, so it stays a link. */
export const linkButton = style({
  display: "inline-flex",
  alignItems: "center",
  gap: vars.space.xs,
  padding: `${vars.space.s} ${vars.space.m}`,
  borderRadius: vars.radius.full,
  background: vars.accent,
  color: vars.color.accentText,
  fontWeight: 600
})
