/**
 * The demo as a visitor gets it: built for production once per run, served by a static server on loopback that
 * injects the running stack's config into the page, next to the stack's EVM chains, Solana network and services.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import { extname, join, normalize } from "node:path"
import { fileURLToPath } from "node:url"
import { type DemoStackConfig, demoStackConfig, injectDemoConfig } from "../../../devstack/demoConfig"
import { type DevstackInfo, type DevstackOptions, type DevstackPart, startDevstack } from "../../../devstack/main"
import type { Started } from "../../../server/src/lib/Started"
import { type Browser, launchBrowser } from "./browser"

const demoRoot = fileURLToPath(new URL("../../../demo/", import.meta.url))

/** Builds the demo into `outDir` with its own Vite config (with source maps when `sourcemap`, for the heap's bench). */
export const buildDemo = async (outDir: string, sourcemap = false): Promise<void> => {
  process.env["VITE_CONFIG_NATIVE_IGNORE_WARNING"] ??= "true"
  const { build } = await import("vite")
  await build({ root: demoRoot, configFile: join(demoRoot, "vite.config.ts"), logLevel: "error", build: { outDir, emptyOutDir: true, sourcemap } })
}

/** The variable naming the run's production build of the demo, made once by the browser tests' global setup. */
export const DEMO_BUILD_VARIABLE = "WR_DEMO_BUILD"

// The demo's production build, shared read-only by every file that serves it: the run's (the browser tests' global
// setup builds it once, `demoBuildSetup.ts`), or else this process's, made on first use and removed at its exit (the
// bench, the screenshots). A build that failed is not kept, so the next use tries again.
let sharedBuild: Promise<string> | undefined
const demoBuild = (): Promise<string> => {
  const ofRun = process.env[DEMO_BUILD_VARIABLE]
  if (ofRun !== undefined && ofRun !== "") return Promise.resolve(ofRun)
  if (sharedBuild === undefined) {
    const outDir = mkdtempSync(join(tmpdir(), "wr-demo-"))
    process.once("exit", () => rmSync(outDir, { recursive: true, force: true }))
    sharedBuild = buildDemo(outDir).then(
      () => outDir,
      (error: unknown) => {
        sharedBuild = undefined
        rmSync(outDir, { recursive: true, force: true })
        throw error
      }
    )
  }
  return sharedBuild
}

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript",
  ".css": "text/css",
  ".svg": "image/svg+xml",
  ".json": "application/json"
}

/**
 * Serves a built demo on loopback, injecting the stack's config into index.html (with `configChanges` over it, e.g.
 * another projectId); `headers` go on every answer. `hostName` is the name its address uses: `localhost` (the
 * frame's site) by default, `127.0.0.1` for a host on another site than the frame.
 */
export const serveDemo = async (
  outDir: string,
  stack: DevstackInfo,
  headers: Readonly<Record<string, string>> = {},
  configChanges: Partial<DemoStackConfig> = {},
  hostName: "localhost" | "127.0.0.1" = "localhost"
): Promise<Started<{ readonly url: string }>> => {
  const config = { ...demoStackConfig(stack.config), ...configChanges }
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname)).replace(/^(\.\.[/\\])+/, "")
    const file = join(outDir, path === "/" ? "index.html" : path)
    if (!file.startsWith(outDir) || !existsSync(file)) {
      res.writeHead(404).end("not found")
      return
    }
    const type = TYPES[extname(file)] ?? "application/octet-stream"
    const body = type.startsWith("text/html") ? injectDemoConfig(readFileSync(file, "utf8"), config) : readFileSync(file)
    res.writeHead(200, { ...headers, "content-type": type, "cache-control": "no-store" }).end(body)
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  // On `localhost` by default, as `npm start` serves it: the same site as the frame, another than the stack's other
  // pages on 127.0.0.1. The dev projects answer only the pages the stack was told of.
  const origin = `http://${hostName}:${port}`
  stack.allowAppOrigin(origin)
  return {
    info: { url: `${origin}/` },
    stop: () => new Promise((resolve) => server.close(() => resolve()))
  }
}

/** The stack parts the demo needs. */
export const DEMO_PARTS: ReadonlyArray<DevstackPart> = ["evm", "solana", "services"]

/** The demo built and served beside stack parts, with a fresh Chromium: what the bench and the screenshots drive. */
export interface DemoSession {
  readonly outDir: string
  readonly stack: DevstackInfo
  readonly url: string
  readonly browser: Browser
}

/** A demo built and served beside stack parts, with a fresh Chromium; `stop` ends all of it (and removes a build of its own). */
export interface OpenDemo extends DemoSession {
  readonly stop: () => Promise<void>
}

/** A demo built and served beside stack parts, without a browser: the running stack, the demo's server, and `stop`. */
export interface ServedDemo {
  readonly outDir: string
  readonly stack: Started<DevstackInfo>
  readonly demo: Started<{ readonly url: string }>
  /** Stops the demo's server and the stack, and removes a build of its own (with source maps). */
  readonly stop: () => Promise<void>
}

/**
 * Serves the demo's build (the process's shared one, built while the stack parts start the first time; with source
 * maps, its own, in a folder named after `name`) with the headers `headers` makes from the build and the stack: a test
 * file's `beforeAll` that launches its own browsers.
 */
export const serveDemoOnStack = async (
  name: string,
  parts: ReadonlyArray<DevstackPart> = DEMO_PARTS,
  headers?: (outDir: string, stack: DevstackInfo) => Readonly<Record<string, string>>,
  stackOptions: Omit<DevstackOptions, "parts"> = {},
  sourcemap = false
): Promise<ServedDemo> => {
  const own = sourcemap ? mkdtempSync(join(tmpdir(), `wr-demo-${name}-`)) : undefined
  const [started, built] = await Promise.allSettled([
    startDevstack({ ...stackOptions, parts }),
    own === undefined ? demoBuild() : buildDemo(own, true).then(() => own)
  ])
  // The shared build stays for the next file; an own one goes with its demo.
  const removeBuild = () => own !== undefined && rmSync(own, { recursive: true, force: true })
  // One failed, the other may not have: nothing it started is left running, nor its folder left behind.
  if (started.status === "rejected") {
    removeBuild()
    throw started.reason
  }
  if (built.status === "rejected") {
    await started.value.stop()
    removeBuild()
    throw built.reason
  }
  const stack = started.value
  const outDir = built.value
  const demo = await serveDemo(outDir, stack.info, headers?.(outDir, stack.info) ?? {}).catch(async (error: unknown) => {
    await stack.stop()
    removeBuild()
    throw error
  })
  return {
    outDir,
    stack,
    demo,
    stop: async () => {
      await demo.stop()
      await stack.stop()
      removeBuild()
    }
  }
}

/**
 * Builds the demo (into a folder named after `name`) while the stack starts, serves it (with the headers `headers`
 * makes from the build and the stack, e.g. a Content-Security-Policy) and launches Chromium: a test file's
 * `beforeAll`, with `stop` for its `afterAll`.
 */
export const openDemo = async (
  options: {
    readonly name?: string | undefined
    readonly parts?: ReadonlyArray<DevstackPart> | undefined
    readonly headers?: ((outDir: string, stack: DevstackInfo) => Readonly<Record<string, string>>) | undefined
    /** More of the stack's options (e.g. the embedded wallet server's clock). */
    readonly stack?: Omit<DevstackOptions, "parts"> | undefined
    /** Builds the demo with source maps (the heap's bench maps what it measures to our sources). */
    readonly sourcemap?: boolean | undefined
  } = {}
): Promise<OpenDemo> => {
  const served = await serveDemoOnStack(options.name ?? "session", options.parts ?? DEMO_PARTS, options.headers, options.stack, options.sourcemap)
  // The caller's afterAll has nothing to stop yet when Chromium fails to start: stop the stack and the server here.
  const browser = await launchBrowser().catch(async (error: unknown) => {
    await served.stop()
    throw error
  })
  return {
    outDir: served.outDir,
    stack: served.stack.info,
    url: served.demo.info.url,
    browser,
    stop: async () => {
      await browser.close()
      await served.stop()
    }
  }
}

/** Runs `use` against the demo built for production, served on the given stack parts, then stops all of it. */
export const withDemo = async <A>(parts: ReadonlyArray<DevstackPart>, use: (session: DemoSession) => Promise<A>): Promise<A> => {
  const session = await openDemo({ parts })
  try {
    return await use(session)
  } finally {
    await session.stop()
  }
}
