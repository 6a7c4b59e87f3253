import { globalStyle, style, styleVariants } from "@vanilla-extract/css"
import { vars } from "../../theme/contract.css"

/** The form: what it is for, the name field, the suggestions, the failure and Register, one under the other. */
export const form = style({ display: "flex", flexDirection: "column", gap: vars.space.m })

/** What the name is for, above the field. */
export const intro = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.fontSize.small, textAlign: "center" })

/** The address in the sentence above the field, kept on one line. */
export const address = style({ whiteSpace: "nowrap" })

/** The name field: its label, the input with its suffix, and the availability under it. */
export const field = style({ display: "flex", flexDirection: "column", gap: vars.space.xs, minWidth: 0 })

/** The field's label. */
export const label = style({ fontWeight: 600, fontSize: vars.fontSize.small })

/** The input and the suffix after it, drawn as one box; the ring shows while the input has focus. */
export const box = style({
  display: "flex",
  alignItems: "center",
  minWidth: 0,
  minHeight: "44px",
  borderRadius: vars.radius.medium,
  background: vars.color.surface,
  border: `1px solid ${vars.color.border}`,
  selectors: {
    "&:focus-within": { borderColor: vars.accent, boxShadow: `0 0 0 2px ${vars.color.focus}` }
  }
})

/** The box of a name that cannot be registered (a broken rule, a taken name). */
export const boxInvalid = style({
  borderColor: vars.color.error,
  selectors: { "&:focus-within": { borderColor: vars.color.error } }
})

/** The name input: the box draws its border and ring. */
export const input = style({
  flex: "1 1 auto",
  minWidth: 0,
  alignSelf: "stretch",
  padding: `0 0 0 ${vars.space.m}`,
  border: "none",
  background: "transparent",
  color: vars.color.text,
  fontSize: vars.fontSize.body,
  outline: "none",
  selectors: { "&::placeholder": { color: vars.color.textMuted, opacity: 1 } }
})

/** The suffix after the input: part of the name, not typed. */
export const suffix = style({
  flexShrink: 0,
  padding: `0 ${vars.space.m} 0 ${vars.space.xs}`,
  color: vars.color.textMuted,
  fontSize: vars.fontSize.body,
  whiteSpace: "nowrap"
})

const wordsBase = style({
  display: "flex",
  alignItems: "center",
  gap: vars.space.xs,
  minHeight: "1.4em",
  margin: 0,
  fontSize: vars.fontSize.small,
  overflowWrap: "anywhere"
})

/** The words under the field, by what they say. */
export const words = styleVariants({
  hint: [wordsBase, { color: vars.color.textMuted }],
  checking: [wordsBase, { color: vars.color.textMuted }],
  available: [wordsBase, { color: vars.color.success, fontWeight: 600 }],
  problem: [wordsBase, { color: vars.color.error, fontWeight: 600 }]
})

/** The suggestions: a heading and the names as buttons that wrap. */
export const suggestions = style({ display: "flex", flexDirection: "column", gap: vars.space.xs, minWidth: 0 })

/** The suggestions' heading. */
export const suggestionsTitle = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.fontSize.small, fontWeight: 600 })

/** The suggested names. */
export const chips = style({ display: "flex", flexWrap: "wrap", gap: vars.space.xs, margin: 0, padding: 0, listStyle: "none" })

/** A suggested name. */
export const chip = style({
  maxWidth: "100%",
  minHeight: "32px",
  padding: `0 ${vars.space.m}`,
  borderRadius: vars.radius.full,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.background,
  color: vars.color.text,
  fontSize: vars.fontSize.small,
  fontWeight: 600,
  overflow: "hidden",
  textOverflow: "ellipsis",
  whiteSpace: "nowrap",
  cursor: "pointer",
  selectors: {
    "&:hover": { background: vars.color.surfaceHover },
    "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: "2px" }
  }
})

/** The suffix inside a suggestion, quieter than the name. */
export const chipSuffix = style({ color: vars.color.textMuted, fontWeight: 400 })

/** The buttons under a failure. */
export const actions = style({ display: "flex", gap: vars.space.s, flexWrap: "wrap" })

// Each child shares the width (a child selector is a global style in vanilla-extract).
globalStyle(`${actions} > *`, { flex: "1 1 0" })
