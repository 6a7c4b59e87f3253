/**
 * The wallet modal once the runtime runs (`<WalletModal/>` renders it): nothing until the modal opens. It is
 * appended to `document.body` through a portal, unless the host set `disableAppend` (rendered where it is placed,
 * still modal) or `enableEmbedded` (rendered in place as part of the page: no backdrop, no focus trap, page not
 * inert).
 */
import {
  type ReactNode,
  type RefObject,
  useCallback,
  useDeferredValue,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore
} from "react"
import { createPortal } from "react-dom"
import { currentEntry, type ModalState } from "../../services/Modal"
import { useAtomMount, useAtomSet, useAtomValue } from "../atom-react/hooks"
import { activeAccountAtom, disconnectFn } from "../atoms/connection"
import { closeModalFn, goBackFn, modalAtom } from "../atoms/modal"
import { switchNetworkFn } from "../atoms/networks"
import { useWalletRuntime } from "../react/context"
import { visuallyHidden } from "../theme/theme.css"
import { useThemeRoot } from "../theme/useTheme"
import { type LazyView, NEXT_VIEWS, openingViews, preloadViews, VIEWS, viewOf } from "../views/registry"
import type { ViewProps } from "../views/types"
import { Alerts } from "../components/Alerts/Alerts"
import { useLazyPart } from "../components/lazyPart"
import { LaidOutAhead } from "../components/laidOutAhead"
import { Button, IconButton } from "../components/Button/Button"
import { Notice } from "../components/Notice/Notice"
import { Snackbar } from "../components/Snackbar/Snackbar"
import { Spinner } from "../components/Spinner/Spinner"
import { tabbables, useModalBehaviour } from "./useModalBehaviour"
import * as styles from "./WalletModal.css"
import { warmFont } from "./warmFont"
import { whenIdle } from "./whenIdle"

const subscribeNever = () => () => {}

/** True once rendering in the browser (false on the server and while hydrating), so the portal is never SSR'd. */
const useIsClient = (): boolean =>
  useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false
  )

/** The wallet modal of a running runtime. */
export function ModalRoot(): ReactNode {
  const { options } = useWalletRuntime()
  const state = useAtomValue(modalAtom)
  // A connected visitor's click opens the account, not Connect: nothing to lay out ahead then.
  const connected = useAtomValue(activeAccountAtom, (account) => account.status === "connected")
  const isClient = useIsClient()
  // A wallet prompt or a switch keeps running when the view that started it goes (Back, Close): its atom lives
  // as long as the modal component does, not the view.
  useAtomMount(switchNetworkFn)
  useAtomMount(disconnectFn)
  const theme = useThemeRoot()
  const [connectLoaded, setConnectLoaded] = useState(() => VIEWS.Connect.Component.loaded() !== undefined)
  // Once the page is idle, the views the next click opens are fetched (our own code, from the page's own origin):
  // Connect's before a connection, Account's once connected.
  useEffect(() => whenIdle(() => preloadViews(openingViews(connected))), [connected])
  // Once the page is idle, the modal's font is looked up; then the Connect view is laid out ahead, hidden: the first
  // click only shows it.
  useEffect(
    () => {
      let live = true
      const cancel = whenIdle(() => {
        warmFont(theme)
        VIEWS.Connect.Component.load().then(
          () => live && setConnectLoaded(true),
          () => {}
        )
      })
      return () => {
        live = false
        cancel()
      }
    },
    // Again when the theme's classes change (another mode), not on every render.
    [theme.className]
  )
  if (state === undefined || !isClient) return null
  // Laid out ahead only where it would not take room in the page (not embedded), and only its first view, Connect.
  const ahead =
    !state.open && connectLoaded && !connected && !options.enableEmbedded && currentEntry(state).route.view === "Connect"
  if (!state.open && !ahead) return null
  const dialog = <ModalDialog state={state} embedded={options.enableEmbedded} hidden={!state.open} />
  return options.enableEmbedded || options.disableAppend ? dialog : createPortal(dialog, document.body)
}

function ModalDialog(props: { readonly state: ModalState; readonly embedded: boolean; readonly hidden: boolean }): ReactNode {
  const { state, embedded, hidden } = props
  const rootRef = useRef<HTMLDivElement>(null)
  const dialogRef = useRef<HTMLDivElement>(null)
  const bodyRef = useRef<HTMLDivElement>(null)
  const titleId = useId()
  const descriptionId = useId()
  const close = useAtomSet(closeModalFn)
  const goBack = useAtomSet(goBackFn)
  const theme = useThemeRoot(embedded ? styles.embedded : styles.overlay, hidden && styles.ahead)
  const onEscape = useCallback(() => close(undefined), [close])
  useModalBehaviour(rootRef, dialogRef, { modal: !embedded, active: !hidden, onEscape })

  const { route, key } = currentEntry(state)
  const view = viewOf(route.view)
  // A view whose entry comes with another view's chunk (Swap, Buy: no title until it is there) takes its title then.
  useLazyPart(view.Component, view.title !== "")
  // The click that shows a view laid out ahead changes the dialog alone; the view learns it is shown (and asks the
  // catalogue, fetches its pictures) in a render of its own right after, not in the one that paints the dialog.
  const viewHidden = useDeferredValue(hidden)
  const laidOutKey = useRef<number | undefined>(undefined)
  useEffect(() => {
    if (hidden) laidOutKey.current = key
  }, [hidden, key])
  // Only the view that was laid out waits for that render; a view the click opens afresh (Networks) renders at once.
  const viewAhead = hidden || (viewHidden && laidOutKey.current === key)
  const viewProps = useMemo((): ViewProps => ({ route, entryKey: key }), [route, key])
  useEffect(() => (hidden ? undefined : whenIdle(() => preloadViews(NEXT_VIEWS[route.view] ?? []))), [route.view, hidden])
  return (
    <div
      {...theme}
      ref={rootRef}
      data-wallet-runtime="modal"
      aria-hidden={hidden || undefined}
      inert={hidden}
      onClick={embedded ? undefined : (event) => {
        if (event.target === event.currentTarget) close(undefined)
      }}
    >
      <div
        ref={dialogRef}
        role="dialog"
        aria-modal={!embedded}
        aria-labelledby={titleId}
        aria-describedby={descriptionId}
        tabIndex={-1}
        className={[styles.dialog, state.shake && styles.shake, hidden && styles.ahead].filter(Boolean).join(" ")}
        data-view={route.view}
        data-shake={state.shake || undefined}
      >
        <div className={styles.header}>
          {state.history.length > 1 && <IconButton icon="back" label="Back" onClick={() => goBack(undefined)} />}
          <h2 id={titleId} className={styles.title}>
            {view.title}
          </h2>
          {/* While sign-in is required the modal cannot be closed (Escape shakes it): no Close that only shakes, on any
              view. The sign view's Disconnect is the way out, and a view over it (Recover) has Back to it. */}
          {!state.signInRequired && (
            <span className={styles.close}>
              <IconButton icon="close" label="Close" onClick={() => close(undefined)} />
            </span>
          )}
        </div>
        <p id={descriptionId} className={visuallyHidden}>
          {view.description}
        </p>
        <Alerts />
        <div ref={bodyRef} className={styles.body}>
          <LaidOutAhead.Provider value={viewAhead}>
            <LoadedView view={view.Component} props={viewProps} dialog={dialogRef} body={bodyRef} active={!hidden} />
          </LaidOutAhead.Provider>
        </div>
        <Snackbar />
      </div>
    </div>
  )
}

/**
 * Once a view has loaded, focus goes to its first control when it is nowhere useful (on the dialog itself, or lost
 * with the control of the previous view): the keyboard user lands on the new view, not outside it. A view whose
 * controls come later (a list still loading) gets focus when they appear, unless the visitor moved it meanwhile.
 */
function FocusIntoView(props: {
  readonly dialog: RefObject<HTMLDivElement | null>
  readonly body: RefObject<HTMLDivElement | null>
  readonly active: boolean
}): ReactNode {
  const { dialog, body, active: shown } = props
  useEffect(() => {
    if (!shown) return
    const dialogElement = dialog.current
    const bodyElement = body.current
    if (dialogElement === null || bodyElement === null) return
    const active = document.activeElement
    if (active !== dialogElement && dialogElement.contains(active)) return
    const focusFirst = (): boolean => {
      const first = tabbables(bodyElement)[0]
      first?.focus()
      return first !== undefined
    }
    if (focusFirst()) return
    dialogElement.focus()
    const observer = new MutationObserver(() => {
      if (document.activeElement !== dialogElement || focusFirst()) observer.disconnect()
    })
    observer.observe(bodyElement, { childList: true, subtree: true })
    return () => observer.disconnect()
  }, [dialog, body, shown])
  return null
}

type ViewLoad = { readonly status: "loading" } | { readonly status: "failed"; readonly retry: () => void }

/**
 * A view once its code is there; meanwhile a spinner (shown at once, gone the moment the view arrives), or, when its
 * code cannot be fetched (offline, a deploy replaced the files), a message with Try again.
 */
function LoadedView(props: {
  readonly view: LazyView
  readonly props: ViewProps
  readonly dialog: RefObject<HTMLDivElement | null>
  readonly body: RefObject<HTMLDivElement | null>
  readonly active: boolean
}): ReactNode {
  const [load, setLoad] = useState<ViewLoad>({ status: "loading" })
  const [, rerender] = useState(0)
  const Component = props.view.loaded()
  useEffect(() => {
    if (props.view.loaded() !== undefined) return
    let live = true
    const start = () => {
      setLoad({ status: "loading" })
      props.view.load().then(
        () => live && rerender((n) => n + 1),
        () => live && setLoad({ status: "failed", retry: start })
      )
    }
    start()
    return () => {
      live = false
    }
  }, [props.view])
  // The same element while the view's props are the same: showing a view laid out ahead does not render it again.
  const element = useMemo(
    () => (Component === undefined ? undefined : <Component key={props.props.entryKey} {...props.props} />),
    [Component, props.props]
  )
  if (element !== undefined) {
    return (
      <>
        {element}
        <FocusIntoView key={`focus:${props.props.entryKey}`} dialog={props.dialog} body={props.body} active={props.active} />
      </>
    )
  }
  if (load.status === "failed") {
    return (
      <Notice variant="error" title="This part of the wallet could not be loaded">
        <Button onClick={load.retry}>Try again</Button>
      </Notice>
    )
  }
  return (
    <div className={styles.fallback}>
      <Spinner label="Loading" />
    </div>
  )
}
