import { style } from "@vanilla-extract/css"
import { vars } from "../../theme/contract.css"

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
export const helpLink = style({
  padding: 0,
  border: "none",
  background: "none",
  font: "inherit",
  fontWeight: 600,
  color: vars.accent,
  cursor: "pointer",
  selectors: { "&:hover": { textDecoration: "underline" } }
})
