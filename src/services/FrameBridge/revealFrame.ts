/**
 * The embedded wallet's frame shown over the modal for a secure view (FramePort.reveal in the browser), fetched with
 * the first one. The frame stays where it is in the document (moving it would reload it): it is placed exactly over the
 * placeholder, followed while it shows, made reachable (not inert, not hidden from assistive technology, focusable)
 * and given focus; when the scope closes it is hidden, inert again if it was, and focus goes back to the modal.
 */
import { Effect, type Scope } from "effect"
import type { FramePlace } from "./FrameBridge"
import { hideFrame } from "./hideFrame"

/** Marks the embedded-wallet frame while it shows a secure view over the modal. */
export const SECURE_FRAME_ATTRIBUTE = "data-wr-secure-frame"

/** Shows `iframe` over `place` for as long as the scope lasts. */
export const revealFrame = (iframe: HTMLIFrameElement, place: FramePlace): Effect.Effect<void, never, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.sync(() => {
      const style = iframe.style
      const wasInert = iframe.hasAttribute("inert")
      // Written only when the box moved: followed at every frame, it is mostly where it was.
      let last = ""
      const follow = () => {
        const box = place.rect()
        const now = `${box.top},${box.left},${box.width},${box.height}`
        if (now === last) return
        last = now
        style.setProperty("top", `${box.top}px`)
        style.setProperty("left", `${box.left}px`)
        style.setProperty("width", `${box.width}px`)
        style.setProperty("height", `${box.height}px`)
      }
      follow()
      const stop = place.watch(follow)
      iframe.setAttribute(SECURE_FRAME_ATTRIBUTE, "")
      iframe.removeAttribute("inert")
      iframe.removeAttribute("aria-hidden")
      iframe.tabIndex = 0
      style.setProperty("visibility", "visible")
      iframe.focus()
      return { wasInert, stop }
    }),
    ({ wasInert, stop }) =>
      Effect.sync(() => {
        stop()
        hideFrame(iframe.style)
        iframe.removeAttribute(SECURE_FRAME_ATTRIBUTE)
        iframe.setAttribute("aria-hidden", "true")
        iframe.tabIndex = -1
        if (wasInert) iframe.setAttribute("inert", "")
        place.returnFocus()
      })
  ).pipe(Effect.asVoid)
