/**
 * The host page as the embedded wallet's popup logins (social, passkey) see it in service tests: a test
 * `SocialWindow` noting the popups opened and where they were sent, where the page went, its address, and a way to
 * post messages to it; and waits on the embedded wallet's state.
 */
import { Effect, Option, Stream, SubscriptionRef } from "effect"
import { EmbeddedWallet, type EmbeddedState } from "../../../../src/services/Embedded/EmbeddedWallet"
import type { PageMessage, SocialWindowService } from "../../../../src/services/Embedded/SocialWindow"

/** The host page's address. */
export const PAGE = "https://app.test/shop?item=1"

/** The page as a test sees it: the popups opened, where the page went, its address, and a way to post to it. */
export const makePage = (opts: { readonly blocked?: boolean; readonly href?: string } = {}) => {
  const listeners = new Set<(message: PageMessage) => void>()
  const popups: Array<{ readonly window: object; navigated: Array<string>; closed: boolean }> = []
  const page = { href: opts.href ?? PAGE, redirected: [] as Array<string>, events: [] as Array<string> }
  const service: SocialWindowService = {
    open: () => {
      page.events.push("open")
      if (opts.blocked === true) return undefined
      const popup = { window: { popup: popups.length }, navigated: [] as Array<string>, closed: false }
      popups.push(popup)
      return {
        window: popup.window,
        navigate: (uri) => void popup.navigated.push(uri),
        isClosed: () => popup.closed,
        close: () => void (popup.closed = true)
      }
    },
    listen: (listener) => {
      listeners.add(listener)
      return () => void listeners.delete(listener)
    },
    redirect: (uri) => void page.redirected.push(uri),
    pageUrl: () => page.href,
    replacePageUrl: (url) => void (page.href = url)
  }
  const post = (message: PageMessage) => {
    for (const listener of [...listeners]) listener(message)
  }
  return { service, popups, page, post, listening: () => listeners.size }
}

/** The test page. */
export type Page = ReturnType<typeof makePage>

/** The embedded wallet's state once `condition` holds. */
export const until = (condition: (state: EmbeddedState) => boolean) =>
  Effect.flatMap(EmbeddedWallet, (wallet) => SubscriptionRef.changes(wallet.state).pipe(Stream.filter(condition), Stream.runHead, Effect.map(Option.getOrThrow)))

/** Lets the forked fibers run. */
export const settle = Effect.forEach(Array.from({ length: 50 }), () => Effect.yieldNow, { discard: true })
