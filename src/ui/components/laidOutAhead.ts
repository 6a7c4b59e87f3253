/**
 * Whether the UI below is laid out ahead of the visitor's click, hidden (the modal's first view, prepared once the
 * page is idle so the first click only shows it). While it is, nothing below asks a server for anything: no
 * catalogue request, no remote image.
 */
import { createContext } from "react"

/** True while the modal is laid out ahead, hidden. */
export const LaidOutAhead = createContext(false)
