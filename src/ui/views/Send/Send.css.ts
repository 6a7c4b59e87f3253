import { globalStyle, style } from "@vanilla-extract/css"
import { vars } from "../../theme/contract.css"
import { explorerLink } from "../../theme/linkText"

/** The form: its fields one under the other. */
export const form = style({ display: "flex", flexDirection: "column", gap: vars.space.m })

/** One field: its label, its control and its words. */
export const field = style({ display: "flex", flexDirection: "column", gap: vars.space.xs, minWidth: 0 })

/** A field's label. */
export const label = style({ fontWeight: 600, fontSize: vars.fontSize.small })

/** A text input or a select, with the look of the modal's search field. */
export const control = style({
  width: "100%",
  minWidth: 0,
  minHeight: "44px",
  padding: `0 ${vars.space.m}`,
  borderRadius: vars.radius.medium,
  background: vars.color.surface,
  color: vars.color.text,
  border: `1px solid ${vars.color.border}`,
  fontSize: vars.fontSize.body,
  outline: "none",
  selectors: {
    "&:focus-visible": { borderColor: vars.accent, boxShadow: `0 0 0 2px ${vars.color.focus}` },
    '&[aria-invalid="true"]': { borderColor: vars.color.error },
    "&::placeholder": { color: vars.color.textMuted, opacity: 1 }
  }
})

/** The amount input and its Max button side by side. */
export const amountRow = style({ display: "flex", gap: vars.space.s, alignItems: "stretch" })

/** Words under a control: the balance, the USD value, a name's address. */
export const hint = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.fontSize.small, overflowWrap: "anywhere" })

/** What is wrong with a field. */
export const problem = style({ margin: 0, color: vars.color.error, fontSize: vars.fontSize.small, fontWeight: 600 })

/** The NFT being sent: its picture and names. */
export const nft = style({ display: "flex", gap: vars.space.m, alignItems: "center" })

/** The NFT's picture. */
export const nftPicture = style({
  width: "64px",
  height: "64px",
  flexShrink: 0,
  borderRadius: vars.radius.small,
  objectFit: "cover",
  background: vars.color.surfaceHover
})

/** The NFT's names beside its picture. */
export const nftText = style({ display: "flex", flexDirection: "column", minWidth: 0 })

/** The lines of the review and of the result. */
export const summary = style({
  display: "grid",
  gridTemplateColumns: "auto minmax(0, 1fr)",
  gap: `${vars.space.s} ${vars.space.m}`,
  margin: 0,
  padding: vars.space.m,
  borderRadius: vars.radius.medium,
  background: vars.color.surface,
  fontSize: vars.fontSize.small
})

/** A line's name. */
export const term = style({ color: vars.color.textMuted })

/** A line's value, right-aligned; long addresses wrap. */
export const value = style({ margin: 0, textAlign: "right", overflowWrap: "anywhere", fontWeight: 600 })

/** A value's USD equivalent under it. */
export const usd = style({ display: "block", color: vars.color.textMuted, fontWeight: 400 })

/** The buttons at the bottom of a step. */
export const actions = style({ display: "flex", gap: vars.space.s, flexWrap: "wrap" })

// Each child shares the width (a child selector is a global style in vanilla-extract).
globalStyle(`${actions} > *`, { flex: "1 1 0" })

/** The result's headline: what happened to the transfer. */
export const status = style({
  display: "flex",
  flexDirection: "column",
  alignItems: "center",
  gap: vars.space.s,
  padding: `${vars.space.m} 0`,
  textAlign: "center"
})

/** The result's headline text (focused when the result shows: words, not a control, so no ring). */
export const headline = style({ margin: 0, fontSize: vars.fontSize.large, fontWeight: 700, outline: "none" })

/** A mark of success in the accent colour. */
export const success = style({ color: vars.color.success })

/** A link to the explorer: a control of its own, 24 px high to aim at (WCAG 2.5.8). */
export const link = style(explorerLink({ overflowWrap: "anywhere" }))
