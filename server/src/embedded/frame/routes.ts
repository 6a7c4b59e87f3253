/**
 * Serves the embedded wallet's frame site on the frame origin, as plain `HttpRouter` routes beside the wallet server's
 * API: the page at `/frame?projectId=…&chainId=…&version=…&enableLogger=…` and its hashed assets under
 * `/frame/assets/`. The page's `Content-Security-Policy: frame-ancestors` lets only the project's allowed origins
 * embed it. The passkey window's page is `/frame/passkey?projectId=…&state=…`: a top-level page nobody may embed.
 */
import { readFile } from "node:fs/promises"
import { join } from "node:path"
import { Effect, Layer } from "effect"
import { HttpRouter, HttpServerRequest, HttpServerResponse } from "effect/http"
import { escapeHtml, htmlDocument, pageSecurityHeaders } from "../../lib/html"
import type { PageBuild, PageBuilder } from "../../lib/pageBuild"
import { type DevProject, devProjects } from "../../services/projects"
import type { ExtraRoutes } from "../server/index"

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

/**
 * The frame page's security headers for `projectId`: its own script and stylesheet (the secure views'), talking only
 * to the wallet server on its origin.
 */
export const frameHeaders = (projects: ReadonlyArray<DevProject>, projectId: string | null): Record<string, string> =>
  pageSecurityHeaders({ script: "'self'", style: "'self'", connect: "'self'", frameAncestors: frameAncestors(projects, projectId) })

/** The passkey window's security headers: its own script and stylesheet, the wallet server, and no embedding. */
export const passkeyPageHeaders: Record<string, string> = pageSecurityHeaders({
  script: "'self'",
  style: "'self'",
  connect: "'self'",
  frameAncestors: "'none'"
})

const notFound = (file: string) => HttpServerResponse.jsonUnsafe({ error: `No frame asset ${file}` }, { status: 404 })

const message = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** The routes of the frame site (no project check of the API's: the page itself decides whom it answers). */
export const frameSiteRoutes = (opts: FrameSiteOptions): ExtraRoutes => {
  const projects = opts.projects ?? devProjects
  // Per build, not per hash: a version built again (after its folder was replaced) is read again.
  const sources = { "index.html": new WeakMap<PageBuild, Promise<string>>(), "passkey.html": new WeakMap<PageBuild, Promise<string>>() }
  const pageSource = (file: keyof typeof sources) =>
    Effect.tryPromise({
      try: () => {
        const page = opts.builder.latest()
        let source = sources[file].get(page)
        if (source === undefined) {
          source = page.ready.then(() => readFile(join(page.dir, file), "utf8"))
          sources[file].set(page, source)
        }
        return source
      },
      catch: message
    })
  const servePage = (file: keyof typeof sources, headersOf: (projectId: string | null) => Record<string, string>) =>
    Effect.gen(function* () {
      const request = yield* HttpServerRequest.HttpServerRequest
      const headers = headersOf(new URL(request.url, "http://server").searchParams.get("projectId"))
      return yield* pageSource(file).pipe(
        Effect.map((source) => HttpServerResponse.text(source, { contentType: "text/html; charset=utf-8", headers })),
        // The reason is shown instead of a blank page (to whoever opens it directly: nobody sees a hidden frame).
        Effect.catch((reason) =>
          Effect.succeed(
            HttpServerResponse.text(
              htmlDocument(
                "Embedded wallet frame",
                `<p>The frame page could not be built:</p><pre>${escapeHtml(reason)}</pre><p>Build it alone with <code>npx tsx server/src/embedded/frame/build.ts</code> to see more.</p>`
              ),
              { status: 500, contentType: "text/html; charset=utf-8", headers }
            )
          )
        )
      )
    })
  const framePage = servePage("index.html", (projectId) => frameHeaders(projects, projectId))
  const passkeyPage = servePage("passkey.html", () => passkeyPageHeaders)
  const asset = Effect.gen(function* () {
    const { file = "" } = yield* HttpRouter.params
    // Path parameters arrive URL-decoded: only plain file names may reach the file system.
    const extension = /^[\w.-]+\.(\w+)$/.exec(file)?.[1]
    const type = extension === undefined || file.includes("..") ? undefined : contentTypes[extension]
    if (type === undefined) return notFound(file)
    return yield* Effect.tryPromise(async () => {
      const page = opts.builder.latest()
      await page.ready
      return readFile(join(page.dir, "assets", file))
    }).pipe(
      Effect.map((body) =>
        // File names carry a content hash: they never change.
        HttpServerResponse.uint8Array(body, {
          contentType: type,
          headers: { "cache-control": "public, max-age=31536000, immutable", "x-content-type-options": "nosniff" }
        })
      ),
      Effect.orElseSucceed(() => notFound(file))
    )
  })
  return {
    layer: Layer.mergeAll(
      HttpRouter.add("GET", "/frame", framePage),
      HttpRouter.add("GET", "/frame/passkey", passkeyPage),
      HttpRouter.add("GET", "/frame/assets/:file", asset)
    ),
    routes: [
      { method: "GET", path: "/frame" },
      { method: "GET", path: "/frame/passkey" },
      { method: "GET", path: "/frame/assets/:file" }
    ]
  }
}
