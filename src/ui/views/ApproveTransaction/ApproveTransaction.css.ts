import { style } from "@vanilla-extract/css"
import { vars } from "../../theme/contract.css"
import { linkText } from "../../theme/linkText"

/** The request: heading, network, summary, buttons, one under the other. */
export const column = style({ display: "flex", flexDirection: "column", gap: vars.space.m, minWidth: 0 })

/** What is asked, as a heading (focused first: a stray Enter must not approve). */
export const headline = style({ margin: 0, fontSize: vars.fontSize.large, fontWeight: 700, textAlign: "center", outline: "none" })

/** The network the request is for. */
export const network = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.fontSize.small, textAlign: "center" })

/**
 * A text shown as it is (a message, a permissions request): its lines kept, long words broken, and scrolled inside
 * its box, so a long text neither widens the modal nor pushes the buttons out of reach.
 */
export const block = style({
  margin: 0,
  maxHeight: "min(40vh, 240px)",
  overflow: "auto",
  padding: vars.space.m,
  borderRadius: vars.radius.medium,
  background: vars.color.surface,
  color: vars.color.text,
  fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
  fontSize: vars.fontSize.small,
  lineHeight: 1.5,
  whiteSpace: "pre-wrap",
  overflowWrap: "anywhere",
  selectors: { "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: "2px" } }
})

/** The summary as terms and values. */
export const summary = style({
  display: "grid",
  gridTemplateColumns: "minmax(0, auto) minmax(0, 1fr)",
  columnGap: vars.space.m,
  rowGap: vars.space.s,
  margin: 0,
  padding: vars.space.m,
  borderRadius: vars.radius.medium,
  background: vars.color.surface,
  fontSize: vars.fontSize.small
})

/** A term of the summary. */
export const term = style({ color: vars.color.textMuted })

/** A value of the summary: right-aligned, breaking anywhere rather than widening the modal. */
export const value = style({
  display: "flex",
  flexDirection: "column",
  alignItems: "flex-end",
  gap: vars.space.xs,
  margin: 0,
  minWidth: 0,
  textAlign: "right",
  overflowWrap: "anywhere",
  fontWeight: 600
})

/** An address or data in a monospaced font. */
export const mono = style({ fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace", fontWeight: 400 })

/** The calls of a batch, numbered. */
export const calls = style({ display: "flex", flexDirection: "column", gap: vars.space.s, margin: 0, padding: 0, listStyle: "none" })

/** A call's number. */
export const callTitle = style({ margin: `0 0 ${vars.space.xs}`, fontSize: vars.fontSize.small, fontWeight: 600 })

/** A quiet action inside a value (Copy, Show all data), in the accent as text, readable on either theme. */
export const small = style(linkText({
  minHeight: "28px",
  padding: `0 ${vars.space.s}`,
  borderRadius: vars.radius.full,
  background: vars.color.background,
  border: `1px solid ${vars.color.border}`,
  fontSize: vars.fontSize.small,
  fontWeight: 600,
  cursor: "pointer",
  selectors: {
    "&:hover": { background: vars.color.surfaceHover },
    "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: "2px" }
  }
}))

/** Reject and Approve side by side, each half the width. */
export const actions = style({ display: "grid", gridTemplateColumns: "1fr 1fr", gap: vars.space.s, width: "100%" })
