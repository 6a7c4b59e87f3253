import { style } from "@vanilla-extract/css"
import { vars } from "../../theme/contract.css"

/** The code, the address and the networks, centred in a column. */
export const column = style({ display: "flex", flexDirection: "column", alignItems: "center", gap: vars.space.m, textAlign: "center" })

/** The full address under the code: every character shown, wrapped. */
export const address = style({
  margin: 0,
  fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
  fontSize: vars.fontSize.small,
  overflowWrap: "anywhere",
  maxWidth: "100%"
})

/** The networks the address is valid on. */
export const networks = style({ display: "flex", flexWrap: "wrap", justifyContent: "center", gap: vars.space.s, margin: 0, padding: 0 })

/** One network: its icon and name. */
export const network = style({
  display: "inline-flex",
  alignItems: "center",
  gap: vars.space.xs,
  padding: `${vars.space.xs} ${vars.space.s}`,
  borderRadius: vars.radius.full,
  background: vars.color.surface,
  fontSize: vars.fontSize.small
})

/** The sentence above the networks. */
export const note = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.fontSize.small })
