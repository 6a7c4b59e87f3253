import { globalStyle, style, styleVariants } from "@vanilla-extract/css"
import { vars } from "../../theme/contract.css"

// In the dialog's flow, below the view: a message must never cover a control of the view.
/** The live region holding the snackbar. */
export const region = style({
  display: "flex",
  justifyContent: "center",
  selectors: { "&:not(:empty)": { padding: `0 ${vars.space.l} ${vars.space.l}` } }
})

const base = style({
  display: "inline-flex",
  alignItems: "center",
  gap: vars.space.s,
  maxWidth: "100%",
  padding: `${vars.space.s} ${vars.space.l}`,
  borderRadius: vars.radius.full,
  background: vars.color.text,
  color: vars.color.background,
  fontSize: vars.fontSize.small,
  fontWeight: 600,
  // A long word (a changed email address) breaks instead of running out of the pill.
  overflowWrap: "anywhere",
  boxShadow: vars.color.shadow
})

// The tick keeps its size beside a long message (a changed email address): a flex item, it was squeezed to a few
// pixels. A child selector is a global style in vanilla-extract; CSS only, no code on the page's start.
globalStyle(`${base} > svg`, { flexShrink: 0 })

/** The variants of the snackbar. */
export const snackbar = styleVariants({
  success: [base],
  info: [base],
  loading: [base],
  error: [base, { background: vars.color.error, color: vars.color.background }]
})

/** The region of the messages shown while the modal is closed: fixed at the bottom of the page, above its content. */
export const hostRegion = style({
  position: "fixed",
  left: 0,
  right: 0,
  bottom: vars.space.l,
  zIndex: vars.zIndex,
  display: "flex",
  justifyContent: "center",
  padding: `0 ${vars.space.l}`,
  pointerEvents: "none",
  background: "transparent"
})
