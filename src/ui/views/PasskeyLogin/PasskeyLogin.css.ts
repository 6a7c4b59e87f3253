import { style } from "@vanilla-extract/css"
import { vars } from "../../theme/contract.css"
import { linkText } from "../../theme/linkText"

/** "New here? Create a passkey": a small centred line under the passkey button (as the Connect view's footnotes). */
export const createLine = style({
  margin: 0,
  textAlign: "center",
  fontSize: vars.fontSize.small,
  color: vars.color.textMuted
})

/** "Create a passkey": a link-looking button in the accent as text, readable on either theme, underlined. */
export const textButton = style(linkText({
  padding: 0,
  border: "none",
  background: "none",
  font: "inherit",
  fontWeight: 600,
  textDecoration: "underline",
  cursor: "pointer",
  selectors: {
    "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: "2px" },
    "&:disabled": { cursor: "default", opacity: 0.6 }
  }
}))
