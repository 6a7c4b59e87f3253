import { style } from "@vanilla-extract/css"
import { vars } from "../../theme/contract.css"
import { linkText } from "../../theme/linkText"

/** A small centred line under the list: the terms, and "New to wallets?". */
export const footnote = style({
  margin: 0,
  textAlign: "center",
  fontSize: vars.fontSize.small,
  color: vars.color.textMuted
})

/** A link of the terms line. */
export const link = style({
  color: vars.color.text,
  textDecoration: "underline"
})

/** "What is a wallet?": a link-looking button (it opens a view, it goes nowhere). */
export const helpLink = style(linkText({
  padding: 0,
  border: "none",
  background: "none",
  font: "inherit",
  fontWeight: 600,
  cursor: "pointer",
  selectors: { "&:hover": { textDecoration: "underline" } }
}))

/** "I agree to this site's Terms and Privacy Policy": a checkbox and its words, above the ways to connect. */
export const agreement = style({
  display: "flex",
  alignItems: "flex-start",
  gap: vars.space.s,
  padding: vars.space.m,
  borderRadius: vars.radius.medium,
  border: `1px solid ${vars.color.border}`,
  fontSize: vars.fontSize.small,
  color: vars.color.text,
  lineHeight: 1.4,
  cursor: "pointer"
})

/** The agreement's checkbox, in the theme's accent, with room to aim at. */
export const checkbox = style({
  flex: "0 0 auto",
  width: "18px",
  height: "18px",
  margin: 0,
  accentColor: vars.accent,
  cursor: "pointer"
})

/** A line's place held while its code arrives (the passkey buttons' "Create a passkey"): its size, not its words. */
export const heldLine = style({ visibility: "hidden" })
