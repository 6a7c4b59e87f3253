import { style } from "@vanilla-extract/css"
import { vars } from "../../theme/contract.css"
import { linkText } from "../../theme/linkText"

/** The three points, one under the other. */
export const points = style({
  display: "flex",
  flexDirection: "column",
  gap: vars.space.m,
  margin: 0,
  padding: 0,
  listStyle: "none"
})

/** A point: its mark beside its heading and sentence. */
export const point = style({
  display: "grid",
  gridTemplateColumns: "40px 1fr",
  columnGap: vars.space.m,
  alignItems: "start"
})

/** The round mark of a point. */
export const mark = style(linkText({
  display: "inline-flex",
  alignItems: "center",
  justifyContent: "center",
  width: "40px",
  height: "40px",
  borderRadius: vars.radius.full,
  background: vars.color.surface
}))

/** A point's heading. */
export const heading = style({ margin: 0, fontSize: vars.fontSize.body, fontWeight: 700 })

/** A point's sentence. */
export const text = style({ margin: `${vars.space.xs} 0 0`, fontSize: vars.fontSize.small, color: vars.color.textMuted, lineHeight: 1.45 })
