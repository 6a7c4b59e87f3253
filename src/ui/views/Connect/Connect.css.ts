import { style } from "@vanilla-extract/css"
import { vars } from "../../theme/contract.css"

/** The terms line under the list. */
export const legal = style({
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

/** The "New to wallets?" line under the list. */
export const help = style({
  margin: 0,
  textAlign: "center",
  fontSize: vars.fontSize.small,
  color: vars.color.textMuted
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
