import { style } from "@vanilla-extract/css"
import { vars } from "../../theme/contract.css"

export const list = style({
  display: "flex",
  flexDirection: "column",
  gap: vars.space.xs
})

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

export const text = style({
  display: "flex",
  flexDirection: "column",
  flex: 1,
  minWidth: 0
})

export const label = style({
  fontWeight: 600,
  overflow: "hidden",
  textOverflow: "ellipsis",
  whiteSpace: "nowrap"
})

export const sublabel = style({
  fontSize: vars.fontSize.small,
  color: vars.color.textMuted,
  overflow: "hidden",
  textOverflow: "ellipsis",
  whiteSpace: "nowrap"
})

export const tag = style({
  flexShrink: 0,
  padding: `2px ${vars.space.s}`,
  borderRadius: vars.radius.full,
  fontSize: vars.fontSize.small,
  fontWeight: 600,
  color: vars.color.success,
  border: `1px solid currentColor`
})

export const trailing = style({
  display: "inline-flex",
  flexShrink: 0,
  color: vars.color.textMuted
})
