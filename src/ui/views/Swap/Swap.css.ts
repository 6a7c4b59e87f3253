import { globalStyle, style } from "@vanilla-extract/css"
import { vars } from "../../theme/contract.css"

/** One side of the swap (sell or buy): its token button and amount. */
export const side = style({
  display: "flex",
  flexDirection: "column",
  gap: vars.space.xs,
  padding: vars.space.m,
  borderRadius: vars.radius.medium,
  background: vars.color.surface,
  minWidth: 0
})

/** The token button and the amount on one line. */
export const sideRow = style({ display: "flex", gap: vars.space.s, alignItems: "center", minWidth: 0 })

/** The button that opens the token picker. */
export const tokenButton = style({
  display: "inline-flex",
  alignItems: "center",
  gap: vars.space.xs,
  minHeight: "44px",
  padding: `0 ${vars.space.m}`,
  borderRadius: vars.radius.medium,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.background,
  color: vars.color.text,
  fontWeight: 700,
  fontSize: vars.fontSize.body,
  cursor: "pointer",
  flexShrink: 0,
  selectors: { "&:focus-visible": { outline: `2px solid ${vars.color.focus}` } }
})

// Max, beside the token button on the sell side's panel: a secondary button is filled with the panel's own colour, so
// it showed as a word; it takes the token button's fill and edge (a child selector is a global style in vanilla-extract).
globalStyle(`${sideRow} > button:not(${tokenButton})`, { background: vars.color.background, border: `1px solid ${vars.color.border}` })

/** The bought amount, read-only. */
export const received = style({
  flex: "1 1 auto",
  minWidth: 0,
  margin: 0,
  textAlign: "right",
  fontSize: vars.fontSize.large,
  fontWeight: 700,
  overflow: "hidden",
  textOverflow: "ellipsis",
  whiteSpace: "nowrap"
})

/** The picker: a search field over the tokens. */
export const picker = style({
  display: "flex",
  flexDirection: "column",
  gap: vars.space.xs,
  padding: vars.space.s,
  borderRadius: vars.radius.medium,
  border: `1px solid ${vars.color.border}`
})

/** The tokens of the picker. */
export const tokenList = style({ listStyle: "none", margin: 0, padding: 0, display: "flex", flexDirection: "column", maxHeight: "200px", overflowY: "auto" })

/** One token of the picker: its symbol and name, then the visitor's balance of it, on one line in the row's middle. */
export const tokenOption = style({
  display: "flex",
  justifyContent: "space-between",
  alignItems: "center",
  gap: vars.space.s,
  width: "100%",
  minHeight: "44px",
  padding: `0 ${vars.space.s}`,
  border: "none",
  borderRadius: vars.radius.small,
  background: "transparent",
  color: vars.color.text,
  fontSize: vars.fontSize.body,
  cursor: "pointer",
  textAlign: "left",
  selectors: {
    "&:hover": { background: vars.color.surfaceHover },
    '&[aria-pressed="true"]': { fontWeight: 700 },
    "&:focus-visible": { outline: `2px solid ${vars.color.focus}` }
  }
})

/** A token's symbol and name: cut with an ellipsis rather than wrapping in the 360 px dialog. */
export const tokenName = style({ flex: "1 1 auto", minWidth: 0, overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" })

/** The visitor's balance of a token: whole, on one line. */
export const tokenBalance = style({ flexShrink: 0, whiteSpace: "nowrap", color: vars.color.textMuted, fontSize: vars.fontSize.small })

/** The flip button between the two sides. */
export const flipRow = style({ display: "flex", justifyContent: "center" })
