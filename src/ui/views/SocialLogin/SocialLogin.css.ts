import { style } from "@vanilla-extract/css"
import { vars } from "../../theme/contract.css"
import { linkText } from "../../theme/linkText"

/** The social logins: the first one wide, the others in a row of icons. */
export const section = style({ display: "flex", flexDirection: "column", gap: vars.space.s })

/** A row of icon buttons. */
export const row = style({ display: "flex", gap: vars.space.s, flexWrap: "wrap" })

const button = style({
  display: "flex",
  alignItems: "center",
  justifyContent: "center",
  gap: vars.space.s,
  minHeight: "48px",
  padding: `0 ${vars.space.m}`,
  borderRadius: vars.radius.medium,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surface,
  color: vars.color.text,
  font: "inherit",
  fontWeight: 600,
  cursor: "pointer",
  selectors: {
    "&:hover:not(:disabled)": { background: vars.color.surfaceHover },
    "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: "2px" },
    "&:disabled": { cursor: "default", opacity: 0.6 }
  }
})

/** The first provider's button, with its name. */
export const wide = style([button, { width: "100%" }])

/** Another provider's button: its mark only (its name is the button's accessible name). */
export const icon = style([button, { flex: "1 1 0", minWidth: "48px" }])

/** "Waiting for the provider's window" with its Cancel. */
export const waiting = style({
  display: "flex",
  alignItems: "center",
  justifyContent: "space-between",
  gap: vars.space.s,
  fontSize: vars.fontSize.small,
  color: vars.color.text
})

/**
 * The Cancel of the wait: a link-looking button, with room to aim at (32 px high, as Resend code's; its word is wide
 * enough), its end on the view's edge.
 */
export const cancel = style(linkText({
  flexShrink: 0,
  minHeight: "32px",
  padding: 0,
  borderRadius: vars.radius.small,
  border: "none",
  background: "none",
  font: "inherit",
  fontWeight: 600,
  cursor: "pointer"
}))

/** A button's place, held blank while the social logins' code arrives (the Connect view shows it): same size, no text. */
const heldPlace = style({
  minHeight: "48px",
  borderRadius: vars.radius.medium,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surface
})

/** The wide button's place. */
export const held = style([heldPlace, { width: "100%" }])

/** An icon button's place. */
export const heldIcon = style([heldPlace, { flex: "1 1 0", minWidth: "48px" }])
