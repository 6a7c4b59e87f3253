/**
 * Links that carry a pairing URI to a wallet (the catalogue's mobile_link, desktop_link and webapp_link). Pure.
 */
import { isWalletLink } from "../../domain/Url"

/**
 * The link opening `wallet` with the pairing `uri`: a universal or web link (http/https) gets `wc?uri=` under its
 * path; a native scheme (`wallet://`, `wallet:`) gets it after the scheme. `undefined` when the result would not be
 * a safe wallet link (`javascript:`, `data:`, `vbscript:`, `file:`…, or no URL at all): such a link is never shown.
 * @example walletLink("https://wallet.example/app", "wc:abc@2") // "https://wallet.example/app/wc?uri=wc%3Aabc%402"
 */
export const walletLink = (link: string, uri: string): string | undefined => {
  const encoded = encodeURIComponent(uri)
  if (/^https?:\/\//i.test(link)) return safe(`${link.endsWith("/") ? link : `${link}/`}wc?uri=${encoded}`)
  const scheme = link.includes("://") ? link : `${link.replace(/:+$/, "")}://`
  return safe(`${scheme.endsWith("/") ? scheme : `${scheme}/`}wc?uri=${encoded}`)
}

// The scheme is judged on the link as built, as the browser will read it.
const safe = (href: string): string | undefined => (isWalletLink(href) ? href : undefined)
