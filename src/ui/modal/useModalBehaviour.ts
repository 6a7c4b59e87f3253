/**
 * What makes the dialog behave like Radix Dialog (CONVENTIONS 10): focus moves in and stays in (Tab and Shift+Tab
 * cycle through the dialog's controls), Escape asks to close, the rest of the page is inert and hidden from
 * assistive technology, the page does not scroll behind, and focus returns to the trigger when the dialog goes.
 * A non-modal (embedded) dialog only gets Escape and focus return.
 */
import { type RefObject, useLayoutEffect, useRef } from "react"
import { HOST_BUTTON_ATTRIBUTE } from "../components/HostButton/HostButton"

const TABBABLE = [
  "a[href]",
  "button:not(:disabled)",
  "input:not(:disabled):not([type=hidden])",
  "select:not(:disabled)",
  "textarea:not(:disabled)",
  "[tabindex]"
].join(",")

/** The controls Tab reaches inside `container`, in document order. */
export const tabbables = (container: HTMLElement): ReadonlyArray<HTMLElement> =>
  [...container.querySelectorAll<HTMLElement>(TABBABLE)].filter(
    (element) => element.tabIndex >= 0 && element.closest("[inert],[hidden]") === null
  )

/** Options of {@link useModalBehaviour}. */
export interface ModalBehaviourOptions {
  /** Trap focus, make the page inert and lock its scroll. */
  readonly modal: boolean
  /** False while the dialog is laid out ahead, hidden: it does nothing to the page or to focus until shown. */
  readonly active: boolean
  readonly onEscape: () => void
}

// Marks set on the page while the dialog is open, to undo exactly what was done.
interface Hidden {
  readonly element: Element
  readonly inert: boolean
  readonly ariaHidden: string | null
}

const hideOthers = (keep: Element): ReadonlyArray<Hidden> => {
  const hidden: Array<Hidden> = []
  let node: Element = keep
  while (node.parentElement !== null && node !== document.body) {
    for (const sibling of node.parentElement.children) {
      if (sibling === node || ["SCRIPT", "STYLE", "TEMPLATE", "LINK", "META"].includes(sibling.tagName)) continue
      hidden.push({ element: sibling, inert: sibling.hasAttribute("inert"), ariaHidden: sibling.getAttribute("aria-hidden") })
      sibling.setAttribute("inert", "")
      sibling.setAttribute("aria-hidden", "true")
    }
    node = node.parentElement
  }
  return hidden
}

const restore = (hidden: ReadonlyArray<Hidden>): void => {
  for (const { element, inert, ariaHidden } of hidden) {
    if (!inert) element.removeAttribute("inert")
    if (ariaHidden === null) element.removeAttribute("aria-hidden")
    else element.setAttribute("aria-hidden", ariaHidden)
  }
}

const lockScroll = (): (() => void) => {
  const body = document.body
  const previous = { overflow: body.style.overflow, paddingRight: body.style.paddingRight }
  // Keep the page from shifting sideways when its scrollbar disappears (no layout, no width: nothing to keep).
  const pageWidth = document.documentElement.clientWidth
  const scrollbar = pageWidth > 0 ? window.innerWidth - pageWidth : 0
  body.style.overflow = "hidden"
  if (scrollbar > 0) body.style.paddingRight = `${scrollbar}px`
  return () => {
    body.style.overflow = previous.overflow
    body.style.paddingRight = previous.paddingRight
  }
}

/**
 * Gives `dialog` (inside the element `root`, the part of our UI attached to the page) the behaviour of a modal
 * dialog for as long as the calling component is mounted.
 */
export function useModalBehaviour(
  root: RefObject<HTMLElement | null>,
  dialog: RefObject<HTMLElement | null>,
  options: ModalBehaviourOptions
): void {
  const onEscape = useRef(options.onEscape)
  useLayoutEffect(() => {
    onEscape.current = options.onEscape
  })

  // Layout effects, declared in this order: the trigger is known before any view moves focus, and on the way out
  // the page is live again and focus is no longer held before focus returns to the trigger.
  useLayoutEffect(() => {
    const element = root.current
    if (!options.modal || !options.active || element === null) return
    const hidden = hideOthers(element)
    const unlock = lockScroll()
    return () => {
      unlock()
      restore(hidden)
    }
  }, [root, options.modal, options.active])

  useLayoutEffect(() => {
    const element = dialog.current
    if (element === null || !options.active) return
    const onKeyDown = (event: KeyboardEvent) => {
      // An embedded dialog is part of the page: only keys pressed inside it are its own.
      if (!options.modal && !element.contains(document.activeElement)) return
      if (event.key === "Escape") {
        event.preventDefault()
        event.stopPropagation()
        onEscape.current()
        return
      }
      if (event.key !== "Tab" || !options.modal) return
      // Every Tab is moved by hand, not only at the edges: the order is then the same in every browser, and focus
      // can never land on the inert page.
      event.preventDefault()
      const controls = tabbables(element)
      if (controls.length === 0) {
        element.focus()
        return
      }
      const index = controls.findIndex((control) => control === document.activeElement)
      const next =
        index === -1
          ? event.shiftKey ? controls.length - 1 : 0
          : (index + (event.shiftKey ? -1 : 1) + controls.length) % controls.length
      controls[next]?.focus()
    }
    // Focus that escapes anyway (a click on the page, a script) is brought back. A frame the page left focusable while
    // the rest is inert is the embedded wallet's showing a secure view over the dialog: part of it while it does.
    const onFocusIn = (event: FocusEvent) => {
      if (!options.modal || !(event.target instanceof Node) || element.contains(event.target)) return
      if (event.target instanceof HTMLIFrameElement && !event.target.inert) return
      element.focus()
    }
    document.addEventListener("keydown", onKeyDown, true)
    document.addEventListener("focusin", onFocusIn)
    return () => {
      document.removeEventListener("keydown", onKeyDown, true)
      document.removeEventListener("focusin", onFocusIn)
    }
  }, [dialog, options.modal, options.active])

  // Focus in, and back to the trigger on the way out; when the trigger is gone (a host that shows its account
  // button in place of the connect button once connected), to our host button now in its place.
  useLayoutEffect(() => {
    if (!options.active) return
    const trigger = document.activeElement instanceof HTMLElement ? document.activeElement : null
    const place = trigger?.getAttribute(HOST_BUTTON_ATTRIBUTE) ?? null
    const element = dialog.current
    if (element !== null && !element.contains(document.activeElement)) element.focus()
    return () => {
      if (trigger === null || trigger === document.body) return
      const target = trigger.isConnected
        ? trigger
        : ((place !== null ? document.querySelector<HTMLElement>(`[${HOST_BUTTON_ATTRIBUTE}="${place}"]`) : null) ??
          document.querySelector<HTMLElement>(`[${HOST_BUTTON_ATTRIBUTE}]`))
      target?.focus()
    }
  }, [dialog, options.active])
}
