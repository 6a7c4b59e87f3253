import { style } from "@vanilla-extract/css"
import { vars } from "../../theme/contract.css"

/** The code's frame. */
export const qr = style({ display: "block", borderRadius: vars.radius.medium, maxWidth: "100%", height: "auto" })

/** The light ground under the code: scanners need dark modules on light, whatever the theme. */
export const background = style({ fill: "#ffffff" })

/** The dark modules. */
export const modules = style({ fill: vars.qrColor })
