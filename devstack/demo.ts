import { existsSync } from "node:fs"
import { fileURLToPath } from "node:url"
import type { RuntimeConfig } from "./config"
import { HTML_CONTENT_TYPE } from "../server/src/lib/html"
import { listenHttp } from "../server/src/lib/httpServer"
import type { Started } from "../server/src/lib/Started"
import { statusPageHtml } from "./status"

/** The folder of the demo host app; once it has an `index.html`, `npm start` serves it with Vite. */
export const demoDir = fileURLToPath(new URL("../demo/", import.meta.url))

/** What `--demo` serves: the demo's Vite dev server, or the stack's status page while `demo/` does not exist. */
export interface DemoInfo {
  readonly url: string
  readonly kind: "vite" | "status"
}

const startVite = async (): Promise<Started<DemoInfo>> => {
  // Vite warns about config features its future native loader lacks (extensionless imports): noise for a newcomer.
  process.env["VITE_CONFIG_NATIVE_IGNORE_WARNING"] ??= "true"
  const { createServer } = await import("vite")
  const configFile = [`${demoDir}vite.config.ts`, `${demoDir}vite.config.mts`].find((file) => existsSync(file))
  // The demo reads the ports of the stack with readRuntimeConfig() (devstack/config.ts) in its Vite config:
  // main.ts writes .devstack/runtime.json before it starts the demo.
  const server = await createServer({
    root: demoDir,
    configFile: configFile ?? false,
    clearScreen: false,
    logLevel: "warn",
    server: { host: "127.0.0.1", port: 0, strictPort: false }
  })
  await server.listen()
  const address = server.resolvedUrls?.local[0]
  if (address === undefined) {
    await server.close()
    throw new Error("the demo's Vite server did not report its address")
  }
  // Visited as `localhost`: the embedded wallet's frame is on localhost too (same site, so it keeps its session),
  // while every other page of the stack is on 127.0.0.1 and shares none of their storage.
  const url = new URL(address)
  url.hostname = "localhost"
  return { info: { url: url.toString(), kind: "vite" }, stop: () => server.close() }
}

const startStatusPage = async (config: () => RuntimeConfig): Promise<Started<DemoInfo>> => {
  const http = await listenHttp()
  http.handle((req, res) => {
    if (req.url !== "/" && req.url !== "/index.html") {
      res.writeHead(302, { location: "/" })
      res.end()
      return
    }
    res.writeHead(200, { "content-type": HTML_CONTENT_TYPE })
    res.end(statusPageHtml(config()))
  })
  return { info: { url: `${http.url}/`, kind: "status" }, stop: http.stop }
}

/** Starts the demo slot of `npm start`; `config` gives the stack's runtime config at the time of each request. */
export const startDemo = (config: () => RuntimeConfig): Promise<Started<DemoInfo>> =>
  existsSync(`${demoDir}index.html`) ? startVite() : startStatusPage(config)
