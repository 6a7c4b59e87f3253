import { globalStyle, style } from "@vanilla-extract/css"
import { vars } from "../../theme/contract.css"
import { explorerLink, linkText } from "../../theme/linkText"

/** Avatar, name and balance, centred. */
export const profile = style({
  display: "flex",
  flexDirection: "column",
  alignItems: "center",
  gap: vars.space.s,
  paddingTop: vars.space.s,
  textAlign: "center"
})

/** The name and the copy button, far enough apart that the button's focus ring (4 px out) keeps clear of the name. */
export const nameRow = style({ display: "flex", alignItems: "center", gap: vars.space.s })

/** The account's name or truncated address; a long name wraps inside the dialog rather than running past its edge. */
export const name = style({ margin: 0, minWidth: 0, fontSize: vars.fontSize.large, fontWeight: 700, overflowWrap: "anywhere" })

/** The truncated address under a name. */
export const address = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.fontSize.small })

/** The email of an embedded wallet, under the address: in full, wrapping rather than widening the modal. */
export const email = style({ margin: 0, color: vars.color.textMuted, fontSize: vars.fontSize.small, overflowWrap: "anywhere" })

/** The social login's user name, its provider's mark beside it, centred on the line (not standing on the baseline). */
export const socialUser = style([email, { display: "flex", alignItems: "center", gap: vars.space.xs }])

/** "Choose a name", under the address of an EVM account without one: a quiet action in the accent colour. */
export const chooseName = style(linkText({
  minHeight: "32px",
  padding: `0 ${vars.space.m}`,
  borderRadius: vars.radius.full,
  background: vars.color.surface,
  fontSize: vars.fontSize.small,
  fontWeight: 600,
  cursor: "pointer",
  selectors: {
    "&:hover": { background: vars.color.surfaceHover },
    "&:focus-visible": { outline: `2px solid ${vars.color.focus}`, outlineOffset: "2px" }
  }
}))

/** The native balance. */
export const balance = style({ margin: 0, fontSize: vars.fontSize.title, color: vars.color.textMuted, fontWeight: 600 })

/** The link to the account on the network's explorer: a control of its own, 24 px high to aim at (WCAG 2.5.8). */
export const explorer = style(explorerLink())

/** The wallet feature buttons, side by side and sharing the width (they wrap on a narrow phone). */
export const features = style({ display: "flex", flexWrap: "wrap", gap: vars.space.s })

// Each child shares the width (a child selector is a global style in vanilla-extract).
globalStyle(`${features} > *`, { flex: "1 1 0" })

/** What shows when the balance cannot be had. */
export const balanceUnavailable = style({ margin: 0, fontSize: vars.fontSize.small, color: vars.color.textMuted })

/** The tab list. */
export const tabs = style({
  display: "flex",
  gap: vars.space.xs,
  padding: vars.space.xs,
  borderRadius: vars.radius.full,
  background: vars.color.surface
})

/** One tab. */
export const tab = style({
  flex: 1,
  minHeight: "32px",
  borderRadius: vars.radius.full,
  color: vars.color.textMuted,
  fontWeight: 600,
  fontSize: vars.fontSize.small,
  selectors: {
    '&[aria-selected="true"]': { background: vars.color.background, color: vars.color.text }
  }
})

/** The selected tab's panel. */
export const panel = style({
  display: "flex",
  flexDirection: "column",
  gap: vars.space.s,
  paddingTop: vars.space.s
})

