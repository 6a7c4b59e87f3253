import { style } from "@vanilla-extract/css"
import { vars } from "../../../theme/contract.css"

/** The total above the list. */
export const total = style({
  display: "flex",
  justifyContent: "space-between",
  alignItems: "baseline",
  margin: 0,
  padding: `0 ${vars.space.xs}`,
  color: vars.color.textMuted,
  fontSize: vars.fontSize.small
})

/** The total's amount. */
export const totalValue = style({ color: vars.color.text, fontSize: vars.fontSize.large, fontWeight: 700 })

/** The token rows. */
export const list = style({ listStyle: "none", margin: 0, padding: 0, display: "flex", flexDirection: "column", gap: vars.space.xs })

/** One token. */
export const row = style({
  display: "flex",
  alignItems: "center",
  gap: vars.space.s,
  padding: vars.space.s,
  borderRadius: vars.radius.medium,
  background: vars.color.surface,
  textAlign: "left"
})

/** Name over quantity. */
export const text = style({ display: "flex", flexDirection: "column", minWidth: 0, flex: 1 })

/** The token's name. */
export const name = style({ color: vars.color.text, fontWeight: 600, overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" })

/** Quantity and symbol, or a price. */
export const detail = style({ color: vars.color.textMuted, fontSize: vars.fontSize.small })

/** The USD value at the end of a row. */
export const value = style({ color: vars.color.text, fontWeight: 600, fontVariantNumeric: "tabular-nums" })

