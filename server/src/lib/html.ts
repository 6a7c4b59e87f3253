/** Escapes text for HTML content and attribute values. */
export const escapeHtml = (text: string) =>
  text.replace(/[<>&"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;" })[c] ?? c)

/**
 * A minimal HTML document in the devstack's style; `css` is added to its style sheet, `nav` (HTML) goes above the
 * title.
 */
export const htmlDocument = (title: string, body: string, extra: { readonly css?: string; readonly nav?: string } = {}): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(title)}</title><style>body{font:15px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}code{background:#f1f3f5;padding:0 .25rem;border-radius:4px;word-break:break-all}table{border-collapse:collapse}td,th{padding:.25rem .75rem .25rem 0;text-align:left;vertical-align:top}${extra.css ?? ""}</style></head><body>${extra.nav ?? ""}<h1>${escapeHtml(title)}</h1>${body}</body></html>`

/** The content type of {@link htmlDocument}. */
export const HTML_CONTENT_TYPE = "text/html; charset=utf-8"

/**
 * The security headers of a page the wallet server serves: nothing loads but what `sources` names (its scripts,
 * styles, the origins it may call, the pages that may frame it) and data: images; no referrer (its address may carry
 * a login's state), no caching, no type sniffing.
 */
export const pageSecurityHeaders = (sources: {
  readonly script: string
  readonly style?: string
  readonly connect?: string
  readonly frameAncestors: string
}): Record<string, string> => ({
  "content-security-policy": [
    "default-src 'none'",
    `script-src ${sources.script}`,
    ...(sources.style === undefined ? [] : [`style-src ${sources.style}`]),
    ...(sources.connect === undefined ? [] : [`connect-src ${sources.connect}`]),
    // Images inline only (the frame's favicon is an empty data:, so the browser asks the server for none).
    "img-src data:",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${sources.frameAncestors}`
  ].join("; "),
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
  "x-content-type-options": "nosniff"
})
