import { style, styleVariants } from "@vanilla-extract/css"
import { vars } from "../../theme/contract.css"

// Its words start beside the warning sign in every view: a centred view (sign-in, connecting) centred them otherwise,
// the sign left alone at the box's edge.
const base = style({
  display: "flex",
  alignItems: "flex-start",
  gap: vars.space.s,
  textAlign: "start",
  padding: `${vars.space.s} ${vars.space.m}`,
  borderRadius: vars.radius.medium,
  fontSize: vars.fontSize.small
})

/** The variants of a message. */
export const notice = styleVariants({
  error: [base, { background: vars.color.errorSurface, color: vars.color.error }],
  info: [base, { background: vars.color.surface, color: vars.color.textMuted }]
})

/** The message's title and text. */
export const body = style({ display: "flex", flexDirection: "column", gap: "2px", flex: 1, minWidth: 0, overflowWrap: "anywhere" })

/** The message's title. */
export const title = style({ fontWeight: 700 })
