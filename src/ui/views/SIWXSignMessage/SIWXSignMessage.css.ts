import { style } from "@vanilla-extract/css"
import { vars } from "../../theme/contract.css"

/** The wallet's icon, the heading and the explanation, centred in a column. */
export const column = style({ display: "flex", flexDirection: "column", alignItems: "center", gap: vars.space.m, textAlign: "center" })

/** The heading: whom the visitor signs in to, or where signing stands. */
export const headline = style({ margin: 0, fontSize: vars.fontSize.large, fontWeight: 600, outline: "none" })

/** The explanation under the heading. */
export const hint = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.fontSize.small, lineHeight: 1.5 })

/** The account signing in, in a monospaced font. */
export const account = style({
  fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
  fontSize: vars.fontSize.small,
  padding: `${vars.space.xs} ${vars.space.s}`,
  borderRadius: vars.radius.full,
  background: vars.color.surface
})

/** Cancel and Sign side by side, each half the width. */
export const actions = style({ display: "grid", gridTemplateColumns: "1fr 1fr", gap: vars.space.s, width: "100%" })
