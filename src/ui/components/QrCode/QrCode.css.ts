import { style } from "@vanilla-extract/css"
import { vars } from "../../theme/contract.css"

/** The code's frame. */
export const qr = style({ display: "block", borderRadius: vars.radius.medium, maxWidth: "100%", height: "auto" })

/** The light ground under the code: scanners need dark modules on light, whatever the theme. */
export const background = style({ fill: "#ffffff" })

/** The dark modules and finder patterns. */
export const modules = style({ fill: vars.qrColor })

/** The tile under the logo: the light ground, with a hairline of the code's colour so a logo on white still reads as a tile. */
export const logoTile = style({ fill: "#ffffff", stroke: vars.qrColor, strokeOpacity: 0.16, strokeWidth: "0.2px" })

/** The logo, its corners rounded like the wallet icons elsewhere in the modal. */
export const logo = style({ clipPath: "inset(0 round 22%)" })
