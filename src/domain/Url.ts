/**
 * URLs a host or a service hands us, by where they end up: a request (http(s), ws(s)), a picture (http(s) or an
 * inline `data:image/…`), a link that opens a wallet (http(s) or the wallet's own scheme). A scheme that runs or
 * reads something in the page's own context (`javascript:`, `vbscript:`, `data:` other than a picture, `file:`,
 * `blob:`…) is never accepted, so such a value never becomes an `href` or a `src`.
 */
import { Schema } from "effect"

// Longest URL accepted for a request or a link (what every browser and server handles).
const MAX_URL_LENGTH = 2048
// Longest picture URL accepted: an inline `data:image/…` icon of a few hundred pixels fits.
const MAX_IMAGE_URL_LENGTH = 256 * 1024

// Browsers drop tabs and newlines anywhere in a URL and spaces around it, so `java\tscript:` still runs: a URL
// holding any whitespace or control character is refused rather than cleaned.
const WHITESPACE_OR_CONTROL = /[\s\u0000-\u001f\u007f]/

// Schemes that are never a wallet: they run script, read local or in-page data, or show a browser page.
const UNSAFE_SCHEMES: ReadonlyArray<string> = ["javascript:", "vbscript:", "data:", "file:", "blob:", "filesystem:", "about:"]

const INLINE_IMAGE =
  /^data:image\/(?:png|jpeg|gif|webp|avif|bmp|x-icon|vnd\.microsoft\.icon|svg\+xml)(?:;[-\w.+]+=[-\w.+]+)*(?:;base64)?,[^"<>\\`]*$/i

// The platform's own parser reads the scheme as a browser will; a string it refuses has none.
const protocolOf = (value: string, maxLength: number): string | undefined => {
  if (value.length > maxLength || WHITESPACE_OR_CONTROL.test(value)) return undefined
  try {
    return new URL(value).protocol
  } catch {
    return undefined
  }
}

/** True for an absolute http(s) URL of at most 2048 characters, with no whitespace. */
export const isHttpUrl = (value: string): boolean => {
  const protocol = protocolOf(value, MAX_URL_LENGTH)
  return protocol === "http:" || protocol === "https:"
}

/** True for an absolute ws(s) URL of at most 2048 characters, with no whitespace. */
export const isWsUrl = (value: string): boolean => {
  const protocol = protocolOf(value, MAX_URL_LENGTH)
  return protocol === "ws:" || protocol === "wss:"
}

/** True for a picture: an http(s) URL, or an inline `data:image/…` (png, jpeg, gif, webp, avif, bmp, icon, svg). */
export const isImageUrl = (value: string): boolean =>
  isHttpUrl(value) ||
  (value.length <= MAX_IMAGE_URL_LENGTH && !WHITESPACE_OR_CONTROL.test(value) && INLINE_IMAGE.test(value))

/**
 * True for a link that may open a wallet: an http(s) URL (a universal or web link) or the wallet's own scheme
 * (`metamask:`, `rainbow://`); never `javascript:`, `vbscript:`, `data:`, `file:`, `blob:`, `filesystem:` or `about:`.
 */
export const isWalletLink = (value: string): boolean => {
  const protocol = protocolOf(value, MAX_URL_LENGTH)
  return protocol !== undefined && !UNSAFE_SCHEMES.includes(protocol)
}

const urlSchema = (accepts: (value: string) => boolean, expected: string) =>
  Schema.String.pipe(Schema.check(Schema.makeFilter((value: string) => accepts(value), { expected })))

/** An absolute http(s) URL: an endpoint, a page or a web link. */
export const HttpUrl = urlSchema(isHttpUrl, "an absolute http(s) URL")

/** An absolute ws(s) URL: a WebSocket endpoint. */
export const WsUrl = urlSchema(isWsUrl, "an absolute ws(s) URL")

/** A picture's URL: http(s) or an inline `data:image/…`. */
export const ImageUrl = urlSchema(isImageUrl, "an http(s) or data:image/… URL")

/** A link that opens a wallet: http(s) or the wallet's own scheme, never one that runs script in the page. */
export const WalletLink = urlSchema(isWalletLink, "an http(s) URL or a wallet's own scheme (not javascript:, data:, vbscript: or file:)")
