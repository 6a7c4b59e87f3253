/**
 * The page side of a social login: the popup the visitor logs in in, the messages the provider's callback page posts
 * back, the full-page redirect when no popup may open, and the page's address (for `returnTo` and `result_uri`). A
 * `Context.Reference` whose default is the browser's (touched only when a login runs, so SSR stays safe); tests give
 * their own.
 */
import { Context } from "effect"

/** The popup a social login runs in. */
export interface SocialPopup {
  /** The window itself: a callback message counts only when its `source` is this. */
  readonly window: unknown
  readonly navigate: (uri: string) => void
  readonly isClosed: () => boolean
  readonly close: () => void
}

/** A message the page received. */
export interface PageMessage {
  readonly source: unknown
  readonly origin: string
  readonly data: unknown
}

/** What a social login needs of the page. */
export interface SocialWindowService {
  /** Opens an empty popup now, in the click (so popup blockers let it through); `undefined` when it was blocked. */
  readonly open: () => SocialPopup | undefined
  /** Listens to the page's messages until the returned function is called. */
  readonly listen: (listener: (message: PageMessage) => void) => () => void
  /** Leaves the page for `uri` (the redirect fallback). */
  readonly redirect: (uri: string) => void
  /** The page's address now, or `undefined` without a page. */
  readonly pageUrl: () => string | undefined
  /** Replaces the page's address without a navigation (`history.replaceState`). */
  readonly replacePageUrl: (url: string) => void
}

const POPUP_FEATURES = "popup=yes,width=480,height=680"

/** The browser's window: `window.open`, `message` events, `location` and `history`. */
export const browserSocialWindow: SocialWindowService = {
  open: () => {
    if (typeof window === "undefined") return undefined
    const popup = window.open("", "wallet-runtime-social", POPUP_FEATURES)
    if (popup === null) return undefined
    return {
      window: popup,
      navigate: (uri) => popup.location.replace(uri),
      isClosed: () => popup.closed,
      close: () => popup.close()
    }
  },
  listen: (listener) => {
    if (typeof window === "undefined") return () => undefined
    const onMessage = (event: MessageEvent) => listener({ source: event.source, origin: event.origin, data: event.data })
    window.addEventListener("message", onMessage)
    return () => window.removeEventListener("message", onMessage)
  },
  redirect: (uri) => {
    if (typeof location !== "undefined") location.assign(uri)
  },
  pageUrl: () => (typeof location === "undefined" ? undefined : location.href),
  replacePageUrl: (url) => {
    if (typeof history !== "undefined") history.replaceState(history.state, "", url)
  }
}

/** The page side of social logins; the browser's by default. */
export const SocialWindow = Context.Reference<SocialWindowService>("wallet-runtime/SocialWindow", { defaultValue: () => browserSocialWindow })
