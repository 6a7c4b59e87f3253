import { style } from "@vanilla-extract/css"
import { vars } from "../../../theme/contract.css"

/** The end of the list: more to load, or loading. */
export const more = style({ display: "flex", justifyContent: "center", padding: vars.space.s })
