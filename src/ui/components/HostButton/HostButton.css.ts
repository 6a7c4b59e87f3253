import { style } from "@vanilla-extract/css"
import { accentHover } from "../../theme/accentHover"
import { vars } from "../../theme/contract.css"

// A phone-sized screen (the modal becomes a bottom sheet at the same width).
const PHONE_WIDTH = "screen and (max-width: 430px)"

/** The pill every host button is. */
export const hostButton = style({
  display: "inline-flex",
  alignItems: "center",
  gap: vars.space.s,
  minHeight: "40px",
  padding: `0 ${vars.space.l}`,
  borderRadius: vars.radius.full,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.background,
  color: vars.color.text,
  fontWeight: 600,
  whiteSpace: "nowrap",
  maxWidth: "100%",
  cursor: "pointer",
  transition: "background-color 120ms ease",
  selectors: {
    "&:hover": { background: vars.color.surface },
    '&[aria-busy="true"]': { cursor: "progress" }
  },
  "@media": { [PHONE_WIDTH]: { padding: `0 ${vars.space.m}` } }
})

/** The accent-filled variant (Connect). */
export const primary = style({
  background: vars.accent,
  color: vars.color.accentText,
  borderColor: "transparent",
  ...accentHover("&:hover")
})

/** The error-coloured variant (unsupported network). */
export const warning = style({ color: vars.color.error })

/** A muted part of the label (the balance). */
export const muted = style({ color: vars.color.textMuted, fontWeight: 500 })


/** Shown only on wider screens (the balance, the account's name). */
export const wideOnly = style({ "@media": { [PHONE_WIDTH]: { display: "none" } } })

/** Shown only on phone-sized screens (the short address in place of the name). */
export const phoneOnly = style({ display: "none", "@media": { [PHONE_WIDTH]: { display: "inline" } } })

/** A wrapper that takes no box of its own (the button inside is laid out as if it were not there). */
export const contents = style({ display: "contents" })
