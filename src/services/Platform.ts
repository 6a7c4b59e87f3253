/**
 * Platform: what the page runs on (phone or desktop, a messenger mini-app and its OS) and its address. Read once
 * from the browser; a fixed value in tests and on the server.
 */
import { Context, Layer } from "effect"
import type { MiniAppPlatform } from "../domain/validation"

/** What the page runs on. */
export interface PlatformInfo {
  /** A phone or tablet: deep links instead of QR codes, AllWallets first in basic mode. */
  readonly isMobile: boolean
  /** Inside a messenger mini-app, and on which OS (decides the social logins offered). */
  readonly miniApp: MiniAppPlatform | undefined
  /** The page's address, when there is a page. */
  readonly href: string | undefined
}

const MOBILE = /Android|iPhone|iPad|iPod|Mobile|Opera Mini|IEMobile/i

/** What a user agent string says about the device. */
export const detectPlatform = (userAgent: string, href: string | undefined, inMiniApp: boolean): PlatformInfo => ({
  isMobile: MOBILE.test(userAgent),
  miniApp: !inMiniApp
    ? undefined
    : /iPhone|iPad|iPod/i.test(userAgent)
      ? "ios"
      : /Android/i.test(userAgent)
        ? "android"
        : /Macintosh|Mac OS X/i.test(userAgent)
          ? "mac"
          : "other",
  href
})

// Read when a layer is built, never at import.
const readBrowser = (): PlatformInfo => {
  if (typeof navigator === "undefined" || typeof location === "undefined") {
    return { isMobile: false, miniApp: undefined, href: undefined }
  }
  // A messenger mini-app exposes its web-app bridge on window.
  const inMiniApp = typeof window !== "undefined" && "Telegram" in window
  return detectPlatform(navigator.userAgent, location.href, inMiniApp)
}

/** What the page runs on. */
export class Platform extends Context.Service<Platform, PlatformInfo>()("wallet-runtime/Platform") {
  /** Read from `navigator` and `location` when the layer is built (never at import, so SSR is safe). */
  static readonly layerBrowser: Layer.Layer<Platform> = Layer.sync(Platform)(() => readBrowser())

  /** The browser's, in the mini-app on `miniApp`'s OS when the host forces it (its `miniApp` option). */
  static readonly layerBrowserWith = (miniApp: MiniAppPlatform | undefined): Layer.Layer<Platform> =>
    miniApp === undefined ? Platform.layerBrowser : Layer.sync(Platform)(() => ({ ...readBrowser(), miniApp }))

  /** A fixed platform, for tests and server rendering. */
  static readonly layerFixed = (info: Partial<PlatformInfo> = {}): Layer.Layer<Platform> =>
    Layer.succeed(Platform)({ isMobile: false, miniApp: undefined, href: undefined, ...info })
}
