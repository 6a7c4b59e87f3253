import { keyframes, style } from "@vanilla-extract/css"
import { vars } from "../theme/contract.css"
import { accentReadable } from "../theme/linkText"

const MOBILE = "screen and (max-width: 430px)"

const appear = keyframes({ from: { opacity: 0 }, to: { opacity: 1 } })

const rise = keyframes({
  from: { opacity: 0, transform: "translateY(8px) scale(0.98)" },
  to: { opacity: 1, transform: "none" }
})

const shakeFrames = keyframes({
  "0%, 100%": { transform: "translateX(0)" },
  "20%, 60%": { transform: "translateX(-8px)" },
  "40%, 80%": { transform: "translateX(8px)" }
})

/** The backdrop covering the page, holding the dialog. */
export const overlay = style({
  position: "fixed",
  inset: 0,
  zIndex: vars.zIndex,
  display: "flex",
  alignItems: "center",
  justifyContent: "center",
  padding: vars.space.l,
  background: vars.color.overlay,
  animation: `${appear} 150ms ease-out`,
  "@media": { [MOBILE]: { alignItems: "flex-end", padding: 0 } }
})

/** The dialog rendered in the page's flow (embedded mode). */
export const embedded = style({ position: "relative", display: "inline-block" })

/** The dialog card: 360 px wide (a bottom sheet on phones); the accent as its views' text and focus ring, readable. */
export const dialog = style(accentReadable({
  position: "relative",
  display: "flex",
  flexDirection: "column",
  width: vars.modalWidth,
  maxWidth: "100%",
  maxHeight: "min(640px, calc(100vh - 32px))",
  overflow: "hidden",
  borderRadius: vars.radius.large,
  border: `1px solid ${vars.color.border}`,
  background: vars.color.background,
  color: vars.color.text,
  boxShadow: vars.color.shadow,
  animation: `${rise} 180ms ease-out`,
  selectors: {
    // The dialog itself takes focus only as a landing place; its controls show the focus ring.
    "&:focus": { outline: "none" }
  },
  "@media": {
    [MOBILE]: { width: "100%", borderBottomLeftRadius: 0, borderBottomRightRadius: 0, maxHeight: "calc(100vh - 48px)" }
  }
}))

/**
 * The modal laid out ahead of the first click: in the page (its layout done, its code warm) but unseen, unreachable
 * and not animated; showing it is then a change of class. Its entrance animation runs when it is shown.
 */
export const ahead = style({ visibility: "hidden", animation: "none", pointerEvents: "none" })

/**
 * The refused-close or wrong-code shake (0.5 s, as long as the Modal service keeps `shake` on). The entrance stays in
 * the list: an animation that leaves the list and comes back is started again, so without it the modal faded out
 * and rose again when the shake ended.
 */
export const shake = style({ animation: `${rise} 180ms ease-out, ${shakeFrames} 500ms ease-in-out` })

/** Back, title and Close in three columns; as tall with neither button (required sign-in's sign view) as with them. */
export const header = style({
  display: "grid",
  gridTemplateColumns: "36px 1fr 36px",
  gridAutoRows: "minmax(36px, auto)",
  alignItems: "center",
  gap: vars.space.s,
  padding: `${vars.space.m} ${vars.space.m} ${vars.space.s}`
})

/** The view's title, centred. */
export const title = style({
  gridColumn: 2,
  margin: 0,
  textAlign: "center",
  fontSize: vars.fontSize.title,
  fontWeight: 700,
  overflow: "hidden",
  textOverflow: "ellipsis",
  whiteSpace: "nowrap"
})

/** The Close button's column. */
export const close = style({ gridColumn: 3 })

/** The view, scrolling when taller than the dialog. */
export const body = style({
  display: "flex",
  flexDirection: "column",
  gap: vars.space.m,
  flex: 1,
  minHeight: "120px",
  overflowY: "auto",
  padding: `${vars.space.s} ${vars.space.l} ${vars.space.xl}`
})

/** What shows while a view loads. */
export const fallback = style({
  display: "flex",
  alignItems: "center",
  justifyContent: "center",
  gap: vars.space.s,
  minHeight: "120px",
  color: vars.color.textMuted
})
