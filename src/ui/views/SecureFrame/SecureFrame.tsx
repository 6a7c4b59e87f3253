/**
 * SecureFrame: a view of the embedded wallet's own (protect the wallet, recover it, export its key) shown by its frame,
 * on the frame's origin. This view only holds the room: the frame, already in the page, is shown exactly over it and
 * follows its size and place, and takes focus; when its view ends, or the visitor leaves this one (Back, Escape,
 * Close), the frame is hidden again and focus comes back to the modal. What the visitor types there, and the key,
 * never reach this page.
 */
import { type ReactNode, useLayoutEffect, useRef } from "react"
import type { FramePlace } from "../../../services/FrameBridge/FrameBridge"
import { useAtomSet, useAtomValue } from "../../atom-react/hooks"
import { embeddedAtom } from "../../atoms/embedded"
import { hideSecureViewFn, showSecureViewFn } from "../../atoms/secureView"
import { Notice } from "../../components/Notice/Notice"
import type { ViewProps } from "../types"

// The room's size as a style property (allowed by a strict Content-Security-Policy, unlike a style attribute): a
// stylesheet of its own would be one more file for the view and one more name in the list the page starts with. Tall
// enough for a password, its confirmation, the progress and the buttons at 390 px without the frame scrolling.
const ROOM = { width: "100%", minHeight: "26rem" } as const

/**
 * The placeholder's box, followed at every frame while the view shows (the modal's slides and the page's layout move
 * it without any event: transforms, Web Animations), and the modal to return focus to.
 */
const placeOf = (element: HTMLElement): FramePlace => ({
  rect: () => {
    const box = element.getBoundingClientRect()
    return { top: box.top, left: box.left, width: box.width, height: box.height }
  },
  watch: (moved) => {
    let frame = requestAnimationFrame(function follow() {
      moved()
      frame = requestAnimationFrame(follow)
    })
    return () => cancelAnimationFrame(frame)
  },
  returnFocus: () => element.closest<HTMLElement>("[role=dialog]")?.focus()
})

/** The SecureFrame view. */
export function SecureFrame({ route }: ViewProps<"SecureFrame">): ReactNode {
  const place = useRef<HTMLDivElement>(null)
  const error = useAtomValue(embeddedAtom, (state) => state?.secureViewError)
  const show = useAtomSet(showSecureViewFn)
  const hide = useAtomSet(hideSecureViewFn)
  useLayoutEffect(() => {
    const element = place.current
    if (element === null) return
    show(placeOf(element))
    return () => hide(undefined)
  }, [route.kind, show, hide])
  if (error !== undefined) return <Notice variant="error">{error}</Notice>
  return <div ref={place} style={ROOM} data-testid="secure-frame-place" />
}
