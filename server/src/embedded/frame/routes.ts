/**
 * Serves the embedded wallet's frame site on the frame origin (mounted beside the wallet server's API): the page at
 * `/frame?projectId=…&chainId=…&version=…&enableLogger=…` and its hashed assets under `/frame/assets/`. The page's
 * `Content-Security-Policy: frame-ancestors` lets only the project's allowed origins embed it.
 */
import { readFile } from "node:fs/promises"
import { join } from "node:path"
import { Schema } from "effect"
import { escapeHtml, htmlPage } from "../../lib/html"
import type { PageBuild, PageBuilder } from "../../lib/pageBuild"
import { HttpError, RawReply, route } from "../../lib/router"
import { type DevProject, devProjects } from "../../services/projects"

/** What the frame site's routes need. */
export interface FrameSiteOptions {
  /** The page's builder (`makeFramePageBuilder()` from ./build); the server stops it with itself. */
  readonly builder: PageBuilder
  /** The projects whose hosts may embed the frame; the devstack's projects by default. */
  readonly projects?: ReadonlyArray<DevProject>
}

/** Who may embed the frame for `projectId`: loopback pages on any port, the exact origins, or nobody. */
export const frameAncestors = (projects: ReadonlyArray<DevProject>, projectId: string | null): string => {
  const project = projects.find((p) => p.projectId === projectId)
  if (project === undefined) return "'none'"
  if (project.allowedOrigins === "loopback") return "http://127.0.0.1:* http://localhost:* http://[::1]:*"
  // An origin with a character CSP would read as a separator or keyword is left out, not passed through.
  const exact = project.allowedOrigins.filter((origin) => /^https?:\/\/[^\s;,']+$/.test(origin))
  return exact.length === 0 ? "'none'" : exact.join(" ")
}

const contentTypes: Readonly<Record<string, string>> = {
  js: "text/javascript; charset=utf-8",
  css: "text/css; charset=utf-8",
  map: "application/json; charset=utf-8"
}

/** The frame page's security headers for `projectId`. */
export const frameHeaders = (projects: ReadonlyArray<DevProject>, projectId: string | null): Record<string, string> => ({
  "content-security-policy": [
    "default-src 'none'",
    "script-src 'self'",
    // The page talks only to the wallet server on its own origin.
    "connect-src 'self'",
    // The page's empty favicon (data:,), so the browser asks the server for none.
    "img-src data:",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${frameAncestors(projects, projectId)}`
  ].join("; "),
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
  "x-content-type-options": "nosniff"
})

/** The routes of the frame site (`auth: "none"`: the page itself decides whom it answers). */
export const frameSiteRoutes = (opts: FrameSiteOptions) => {
  const projects = opts.projects ?? devProjects
  // Per build, not per hash: a version built again (after its folder was replaced) is read again.
  const html = new WeakMap<PageBuild, Promise<string>>()
  return [
    route({
      method: "GET",
      path: "/frame",
      auth: "none",
      handler: async ({ url }) => {
        const headers = frameHeaders(projects, url.searchParams.get("projectId"))
        try {
          const page = opts.builder.latest()
          let source = html.get(page)
          if (source === undefined) {
            source = page.ready.then(() => readFile(join(page.dir, "index.html"), "utf8"))
            html.set(page, source)
          }
          return new RawReply("text/html; charset=utf-8", await source, 200, headers)
        } catch (error) {
          // The reason is shown instead of a blank page (to whoever opens it directly: nobody sees a hidden frame).
          const reply = htmlPage(
            "Embedded wallet frame",
            `<p>The frame page could not be built:</p><pre>${escapeHtml(error instanceof Error ? error.message : String(error))}</pre><p>Build it alone with <code>npx tsx devstack/embedded/frame/build.ts</code> to see more.</p>`
          )
          return new RawReply(reply.contentType, reply.body, 500, headers)
        }
      }
    }),
    route({
      method: "GET",
      path: "/frame/assets/:file",
      auth: "none",
      params: Schema.Struct({ file: Schema.String }),
      handler: async ({ params: { file } }) => {
        // Path parameters arrive URL-decoded: only plain file names may reach the file system.
        const extension = /^[\w.-]+\.(\w+)$/.exec(file)?.[1]
        const type = extension === undefined || file.includes("..") ? undefined : contentTypes[extension]
        if (type === undefined) throw new HttpError(404, `No frame asset ${file}`)
        const page = opts.builder.latest()
        try {
          await page.ready
          const body = await readFile(join(page.dir, "assets", file))
          // File names carry a content hash: they never change.
          return new RawReply(type, body, 200, { "cache-control": "public, max-age=31536000, immutable", "x-content-type-options": "nosniff" })
        } catch {
          throw new HttpError(404, `No frame asset ${file}`)
        }
      }
    })
  ]
}
