import { style } from "@vanilla-extract/css"
import { vars } from "../../theme/contract.css"

/** The step the registration is at: its mark, headline, the name and what to do, centred. */
export const status = style({
  display: "flex",
  flexDirection: "column",
  alignItems: "center",
  gap: vars.space.s,
  padding: `${vars.space.l} 0 ${vars.space.m}`,
  textAlign: "center"
})

/** The headline: what happens now. */
export const headline = style({ margin: 0, fontSize: vars.fontSize.title, fontWeight: 700, outline: "none" })

/** The name being registered, large; a long one wraps. */
export const name = style({ margin: 0, fontSize: vars.fontSize.large, fontWeight: 700, overflowWrap: "anywhere" })

/** What the visitor is asked to do, under the name. */
export const hint = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.fontSize.small, maxWidth: "32ch" })

/** The mark of a registered name. */
export const done = style({
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  width: "48px",
  height: "48px",
  borderRadius: vars.radius.full,
  background: vars.color.surface,
  color: vars.color.success
})
