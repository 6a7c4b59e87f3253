import { style } from "@vanilla-extract/css"

/**
 * The room the frame's view takes in the modal: the embedded wallet's frame is shown exactly over it. Tall enough for
 * a password, its confirmation, the progress and the buttons at 390 px without the frame scrolling.
 */
export const place = style({
  width: "100%",
  minHeight: "26rem"
})
