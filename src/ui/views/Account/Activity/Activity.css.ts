import { style } from "@vanilla-extract/css"
import { vars } from "../../../theme/contract.css"

/** One day's heading. */
export const day = style({
  margin: `${vars.space.s} 0 ${vars.space.xs}`,
  padding: `0 ${vars.space.xs}`,
  color: vars.color.textMuted,
  fontSize: vars.fontSize.small,
  fontWeight: 600,
  textAlign: "left"
})

/** A day's transactions. */
export const list = style({ listStyle: "none", margin: 0, padding: 0, display: "flex", flexDirection: "column", gap: vars.space.xs })

/** One transaction: a link to the explorer when there is one. */
export const row = style({
  display: "flex",
  alignItems: "center",
  gap: vars.space.s,
  padding: vars.space.s,
  borderRadius: vars.radius.medium,
  background: vars.color.surface,
  color: vars.color.text,
  textDecoration: "none",
  textAlign: "left",
  selectors: { "&[href]:hover": { background: vars.color.surfaceHover } }
})

/** The transfer pictures: one, or two overlapping as a pair. */
export const images = style({ position: "relative", display: "inline-flex", flexShrink: 0, width: "40px", height: "36px" })

/** The second picture of a pair, overlapping the first. */
export const second = style({ position: "absolute", right: 0, bottom: 0 })

/** Title over status or time. */
export const text = style({ display: "flex", flexDirection: "column", minWidth: 0, flex: 1 })

/** What happened. */
export const title = style({ fontWeight: 600 })

/** When, or its status when not confirmed. */
export const detail = style({ color: vars.color.textMuted, fontSize: vars.fontSize.small })

/** A failed transaction's status. */
export const failed = style({ color: vars.color.error, fontSize: vars.fontSize.small, fontWeight: 600 })

/** The signed amount at the end of the row. */
export const amount = style({
  maxWidth: "45%",
  overflow: "hidden",
  textOverflow: "ellipsis",
  whiteSpace: "nowrap",
  fontWeight: 600,
  fontVariantNumeric: "tabular-nums"
})

/** An amount that came in. */
export const plus = style({ color: vars.color.success })

