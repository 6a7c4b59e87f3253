import { style } from "@vanilla-extract/css"
import { vars } from "../../../theme/contract.css"
import { explorerLink } from "../../../theme/linkText"

/** The grid of NFTs: two per row in the modal's width. */
export const grid = style({
  listStyle: "none",
  margin: 0,
  padding: 0,
  display: "grid",
  gridTemplateColumns: "repeat(2, minmax(0, 1fr))",
  gap: vars.space.s
})

/** One NFT: its picture and name, a button opening its details. */
export const card = style({
  display: "flex",
  flexDirection: "column",
  gap: vars.space.xs,
  width: "100%",
  padding: vars.space.xs,
  borderRadius: vars.radius.medium,
  background: vars.color.surface,
  color: vars.color.text,
  textAlign: "left",
  selectors: { "&:hover": { background: vars.color.surfaceHover } }
})

/** A square picture (the grid's and the detail's). */
export const picture = style({
  display: "block",
  width: "100%",
  aspectRatio: "1 / 1",
  objectFit: "cover",
  borderRadius: vars.radius.small,
  background: vars.color.surfaceHover
})

/** The NFT's name under its picture, and the detail's heading (focused when the detail opens: no ring on words). */
export const name = style({ fontWeight: 600, fontSize: vars.fontSize.small, overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap", outline: "none" })

/** The collection's name under the NFT's. */
export const collection = style({ color: vars.color.textMuted, fontSize: vars.fontSize.small, overflow: "hidden", textOverflow: "ellipsis", whiteSpace: "nowrap" })

/** The details of one NFT. */
export const detail = style({ display: "flex", flexDirection: "column", gap: vars.space.s })

/** The facts of the detail: collection, token id, standard. */
export const facts = style({
  display: "grid",
  gridTemplateColumns: "auto 1fr",
  gap: `${vars.space.xs} ${vars.space.m}`,
  margin: 0,
  fontSize: vars.fontSize.small
})

/** A fact's name. */
export const term = style({ color: vars.color.textMuted })

/** A fact's value. */
export const value = style({ margin: 0, overflowWrap: "anywhere" })

/** The link to the explorer: a control of its own, 24 px high to aim at (WCAG 2.5.8). */
export const link = style(explorerLink())

