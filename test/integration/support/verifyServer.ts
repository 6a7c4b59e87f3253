/**
 * A WalletConnect Verify server of our own on loopback, per the public Verify server API: `POST /attestation/:id`
 * with `{ origin }` registers an attestation (201; 400 for a malformed id or body, or an origin other than the one
 * the browser sent in its `Origin` header), `GET /attestation/:id` resolves it (`{ origin, isScam }`, 404 when
 * unknown); CORS for the pages that register. It records every request, and can be told to hold requests unanswered
 * (a Verify server that hangs) or to refuse them (500).
 */
import { createServer, type IncomingMessage, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

/** A request the stand-in received. */
export interface VerifyRequest {
  readonly method: string
  readonly path: string
  /** The browser's `Origin` header, when there was one. */
  readonly origin: string | undefined
  readonly body: string
}

/** The stand-in, started. */
export interface VerifyServer {
  /** `http://127.0.0.1:<port>`: a host's `endpoints.verify`. */
  readonly url: string
  /** Every request received, in order. */
  readonly requests: ReadonlyArray<VerifyRequest>
  /** The attestations registered: id → origin. */
  readonly attestations: ReadonlyMap<string, string>
  /** How requests are answered from now on: as the API says, never, or with a 500. */
  readonly behave: (mode: "answer" | "hold" | "refuse") => void
  readonly stop: () => Promise<void>
}

const ATTESTATION = /^\/attestation\/([0-9a-f]{64})$/

/** Starts the stand-in on 127.0.0.1, on a port from the OS. */
export const startVerifyServer = async (): Promise<VerifyServer> => {
  const requests: Array<VerifyRequest> = []
  const attestations = new Map<string, string>()
  const held = new Set<ServerResponse>()
  let mode: "answer" | "hold" | "refuse" = "answer"

  const reply = (res: ServerResponse, req: IncomingMessage, status: number, body?: unknown) => {
    const origin = req.headers.origin
    res.writeHead(status, {
      ...(origin === undefined ? {} : { "access-control-allow-origin": origin, vary: "Origin" }),
      ...(body === undefined ? {} : { "content-type": "application/json" })
    })
    res.end(body === undefined ? undefined : JSON.stringify(body))
  }

  const server = createServer((req, res) => {
    const chunks: Array<Buffer> = []
    req.on("data", (chunk: Buffer) => chunks.push(chunk))
    req.on("end", () => {
      const path = new URL(req.url ?? "/", "http://verify").pathname
      const body = Buffer.concat(chunks).toString("utf8")
      if (req.method === "OPTIONS") {
        res.writeHead(204, {
          "access-control-allow-origin": req.headers.origin ?? "*",
          "access-control-allow-methods": "GET, POST",
          "access-control-allow-headers": "content-type",
          "access-control-max-age": "600"
        })
        res.end()
        return
      }
      requests.push({ method: req.method ?? "", path, origin: req.headers.origin, body })
      if (mode === "hold") {
        held.add(res)
        return
      }
      if (mode === "refuse") return reply(res, req, 500, { error: "refused" })
      const id = ATTESTATION.exec(path)?.[1]
      if (id === undefined) return reply(res, req, 404, { error: "not found" })
      if (req.method === "GET") {
        const origin = attestations.get(id)
        return origin === undefined ? reply(res, req, 404, { error: "not found" }) : reply(res, req, 200, { origin, isScam: null })
      }
      if (req.method !== "POST") return reply(res, req, 405, { error: "method not allowed" })
      let claimed: unknown
      try {
        claimed = (JSON.parse(body) as { origin?: unknown }).origin
      } catch {
        claimed = undefined
      }
      if (typeof claimed !== "string" || claimed === "") return reply(res, req, 400, { error: "an origin is required" })
      // A page cannot choose its Origin header: when the browser sent one, it is the origin attested.
      if (req.headers.origin !== undefined && req.headers.origin !== claimed) return reply(res, req, 400, { error: "origin mismatch" })
      attestations.set(id, claimed)
      return reply(res, req, 201)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    attestations,
    behave: (next) => {
      mode = next
    },
    stop: () =>
      new Promise<void>((resolve) => {
        for (const res of held) res.destroy()
        held.clear()
        server.close(() => resolve())
        server.closeAllConnections()
      })
  }
}
