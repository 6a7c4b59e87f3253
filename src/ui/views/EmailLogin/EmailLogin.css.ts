import { globalStyle, style, styleVariants } from "@vanilla-extract/css"
import { vars } from "../../theme/contract.css"
import { linkText } from "../../theme/linkText"

/** A form of the email login or change: its parts one under the other. */
export const form = style({ display: "flex", flexDirection: "column", gap: vars.space.s, minWidth: 0 })

/** The field's label. */
export const label = style({ fontWeight: 600, fontSize: vars.fontSize.small })

/** The email input and its button on one line; they share the width of a 390 px phone too. */
export const row = style({ display: "flex", gap: vars.space.s, alignItems: "stretch", minWidth: 0 })

const inputBase = style({
  flex: "1 1 auto",
  minWidth: 0,
  minHeight: "44px",
  padding: `0 ${vars.space.m}`,
  borderRadius: vars.radius.medium,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.surface,
  color: vars.color.text,
  fontSize: vars.fontSize.body,
  outline: "none",
  selectors: {
    "&:focus": { borderColor: vars.accent, boxShadow: `0 0 0 2px ${vars.color.focus}` },
    '&[aria-invalid="true"]': { borderColor: vars.color.error },
    "&::placeholder": { color: vars.color.textMuted, opacity: 1 },
    "&:disabled": { opacity: 0.6, cursor: "default" }
  }
})

/** The email input. */
export const input = inputBase

/** The one-time code input: large digits, spaced, centred. */
export const codeInput = style([
  inputBase,
  {
    width: "100%",
    minHeight: "52px",
    textAlign: "center",
    fontSize: vars.fontSize.large,
    fontWeight: 600,
    fontVariantNumeric: "tabular-nums",
    letterSpacing: "0.4em",
    // The spacing also follows the last digit: this keeps the digits centred.
    textIndent: "0.4em"
  }
])

/** The submit button beside the email input keeps its size. */
export const submit = style({ flex: "0 0 auto" })

const wordsBase = style({ minHeight: "1.4em", margin: 0, fontSize: vars.fontSize.small, overflowWrap: "anywhere" })

/** The words under a field: quiet help, or what is wrong (a polite live region either way). */
export const words = styleVariants({
  hint: [wordsBase, { color: vars.color.textMuted }],
  problem: [wordsBase, { color: vars.color.error, fontWeight: 600 }]
})

/**
 * A sentence of explanation (where the code or link went). The device view focuses its sentence for screen readers:
 * words, not a control, so no ring, as the other views' focused headings.
 */
export const text = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.fontSize.small, lineHeight: 1.5, textAlign: "center", outline: "none" })

/** The address in a sentence: in full, wrapping anywhere rather than widening the modal. */
export const address = style({ color: vars.color.text, fontWeight: 600, overflowWrap: "anywhere" })

/** A column of centred parts (the device view, the connecting state). */
export const column = style({ display: "flex", flexDirection: "column", alignItems: "center", gap: vars.space.m, textAlign: "center" })

/** The buttons under a code: side by side, sharing the width, wrapping on a narrow phone. */
export const actions = style({ display: "flex", flexWrap: "wrap", gap: vars.space.s, width: "100%" })

// Each child shares the width (a child selector is a global style in vanilla-extract).
globalStyle(`${actions} > *`, { flex: "1 1 0" })

/** A link-looking button (Resend code, Use another email): a quiet action in the accent colour. */
export const linkButton = style(linkText({
  alignSelf: "center",
  minHeight: "32px",
  padding: `0 ${vars.space.s}`,
  borderRadius: vars.radius.small,
  fontSize: vars.fontSize.small,
  fontWeight: 600,
  cursor: "pointer",
  selectors: {
    "&:hover:not(:disabled)": { textDecoration: "underline" },
    "&:disabled": { color: vars.color.textMuted, cursor: "default" },
    "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: "2px" }
  }
}))

/** "or" between the connect methods: a line each side. */
export const divider = style({
  display: "flex",
  alignItems: "center",
  gap: vars.space.s,
  color: vars.color.textMuted,
  fontSize: vars.fontSize.small,
  selectors: {
    "&::before, &::after": { content: '""', flex: "1 1 0", borderTop: `1px solid ${vars.color.border}` }
  }
})
