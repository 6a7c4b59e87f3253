import { RawReply } from "./router"

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

/** {@link htmlDocument} as a reply of `./router.ts`'s routes (the embedded wallet's pages and the mail inbox). */
export const htmlPage = (title: string, body: string, extra: { readonly css?: string; readonly nav?: string } = {}): RawReply =>
  new RawReply(HTML_CONTENT_TYPE, htmlDocument(title, body, extra))
