import { style } from "@vanilla-extract/css"
import { vars } from "../../theme/contract.css"

/** Rows are fixed-height so the virtual list knows every position without measuring. */
export const ROW_HEIGHT_PX = 56
/** The list's own height: the window of rows the virtual list fills. */
export const LIST_HEIGHT_PX = 360

/** The search field with its icon; focused, the 2 px ring of the modal's other fields (a 1 px edge alone was faint). */
export const searchBox = style({
  display: "flex",
  alignItems: "center",
  gap: vars.space.s,
  padding: `0 ${vars.space.m}`,
  minHeight: "44px",
  borderRadius: vars.radius.full,
  background: vars.color.surface,
  color: vars.color.textMuted,
  border: `1px solid ${vars.color.border}`,
  selectors: {
    "&:focus-within": { borderColor: vars.accent, boxShadow: `0 0 0 2px ${vars.color.focus}` }
  }
})

/** The search input itself. */
export const searchInput = style({
  flex: 1,
  minWidth: 0,
  height: "42px",
  color: vars.color.text,
  background: "transparent",
  outline: "none",
  fontSize: vars.fontSize.body,
  selectors: {
    "&::placeholder": { color: vars.color.textMuted, opacity: 1 },
    "&::-webkit-search-cancel-button": { cursor: "pointer" }
  }
})

/** The scrolling window of the virtual list. */
export const scroller = style({
  height: `${LIST_HEIGHT_PX}px`,
  maxHeight: "50vh",
  overflowY: "auto",
  overscrollBehavior: "contain",
  // Room for the rows' focus rings.
  padding: "2px",
  margin: "-2px"
})

/** The full-height content the rows are placed in. */
export const inner = style({ position: "relative", width: "100%" })

/** A row, placed at its offset. */
export const row = style({
  position: "absolute",
  top: 0,
  left: 0,
  width: "100%",
  height: `${ROW_HEIGHT_PX}px`,
  paddingBottom: vars.space.xs
})

/** What shows when nothing matches. */
export const empty = style({ textAlign: "center", color: vars.color.textMuted, padding: vars.space.xl })

/** The row that loads the next page. */
export const more = style({ display: "flex", alignItems: "center", justifyContent: "center", color: vars.color.textMuted })
