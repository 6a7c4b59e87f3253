import { keyframes, style } from "@vanilla-extract/css"
import { vars } from "../../theme/contract.css"

/** A column of rows. */
export const list = style({
  display: "flex",
  flexDirection: "column",
  gap: vars.space.xs
})

/** A row: icon, text, tag and trailing mark in a line. */
export const item = style({
  display: "flex",
  alignItems: "center",
  gap: vars.space.m,
  width: "100%",
  minHeight: "52px",
  padding: `${vars.space.s} ${vars.space.m}`,
  borderRadius: vars.radius.medium,
  background: vars.color.surface,
  color: vars.color.text,
  textAlign: "start",
  transition: "background-color 120ms ease",
  selectors: {
    "&:hover:not(:disabled)": { background: vars.color.surfaceHover },
    "&:disabled": { cursor: "default", opacity: 0.6 },
    '&[aria-busy="true"]': { opacity: 1, cursor: "progress" }
  }
})

/** The label and sublabel, stacked, cut with an ellipsis. */
export const text = style({
  display: "flex",
  flexDirection: "column",
  flex: 1,
  minWidth: 0
})

/** The row's name. */
export const label = style({
  fontWeight: 600,
  overflow: "hidden",
  textOverflow: "ellipsis",
  whiteSpace: "nowrap"
})

/** A smaller, muted line under the name. */
export const sublabel = style({
  fontSize: vars.fontSize.small,
  color: vars.color.textMuted,
  overflow: "hidden",
  textOverflow: "ellipsis",
  whiteSpace: "nowrap"
})

/** A short outlined mark such as "Installed". */
export const tag = style({
  flexShrink: 0,
  padding: `2px ${vars.space.s}`,
  borderRadius: vars.radius.full,
  fontSize: vars.fontSize.small,
  fontWeight: 600,
  color: vars.color.success,
  border: `1px solid currentColor`
})

/** The mark at the end of the row (chevron, check). */
export const trailing = style({
  display: "inline-flex",
  flexShrink: 0,
  color: vars.color.textMuted
})

const shimmer = keyframes({ from: { backgroundPosition: "100% 0" }, to: { backgroundPosition: "-100% 0" } })

const placeholder = style({
  borderRadius: vars.radius.small,
  background: `linear-gradient(90deg, ${vars.color.surfaceHover} 25%, ${vars.color.surface} 50%, ${vars.color.surfaceHover} 75%)`,
  backgroundSize: "200% 100%",
  animation: `${shimmer} 1.2s linear infinite`,
  "@media": { "(prefers-reduced-motion: reduce)": { animation: "none" } }
})

/** A row still coming: the size of a row, so the list does not move when it arrives. */
export const skeleton = style([item, { pointerEvents: "none" }])

/** The icon's place in a row still coming. */
export const skeletonIcon = style([placeholder, { width: "32px", height: "32px", flexShrink: 0, borderRadius: vars.radius.medium }])

/** The label's place in a row still coming. */
export const skeletonLabel = style([placeholder, { height: "14px", width: "45%" }])
