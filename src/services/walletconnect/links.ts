/**
 * Links that carry a pairing URI to a wallet (the catalogue's mobile_link, desktop_link and webapp_link). Pure.
 */

/**
 * The link opening `wallet` with the pairing `uri`: a universal or web link (http/https) gets `wc?uri=` under its
 * path; a native scheme (`wallet://`, `wallet:`) gets it after the scheme.
 * @example walletLink("https://wallet.example/app", "wc:abc@2") // "https://wallet.example/app/wc?uri=wc%3Aabc%402"
 */
export const walletLink = (link: string, uri: string): string => {
  const encoded = encodeURIComponent(uri)
  if (/^https?:\/\//i.test(link)) return `${link.endsWith("/") ? link : `${link}/`}wc?uri=${encoded}`
  const scheme = link.includes("://") ? link : `${link.replace(/:+$/, "")}://`
  return `${scheme.endsWith("/") ? scheme : `${scheme}/`}wc?uri=${encoded}`
}
