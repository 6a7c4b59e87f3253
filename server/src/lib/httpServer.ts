import { createServer, type RequestListener, type Server } from "node:http"
import type { AddressInfo, Socket } from "node:net"

/** A node:http server listening on 127.0.0.1, with a stop that closes open keep-alive sockets too. */
export interface LocalHttpServer {
  readonly server: Server
  readonly port: number
  readonly url: string
  /** Sets the request handler (servers that need their own URL to build it start without one). */
  readonly handle: (listener: RequestListener) => void
  readonly stop: () => Promise<void>
}

/** Makes `server` listen on 127.0.0.1 (or `host`) at `port` (0: a port the OS chooses); resolves with the port it got. */
export const listenOnLoopback = (server: Server, port: number, host = "127.0.0.1"): Promise<number> =>
  new Promise((resolve, reject) => {
    const onError = (error: Error) => reject(error)
    server.once("error", onError)
    server.listen(port, host, () => {
      server.off("error", onError)
      resolve((server.address() as AddressInfo).port)
    })
  })

/** Listens on 127.0.0.1 at `port` (0 or absent: a port the OS chooses). */
export const listenHttp = async (port = 0): Promise<LocalHttpServer> => {
  const server = createServer()
  const sockets = new Set<Socket>()
  server.on("connection", (socket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
  })
  const actual = await listenOnLoopback(server, port)
  let stopping: Promise<void> | undefined
  return {
    server,
    port: actual,
    url: `http://127.0.0.1:${actual}`,
    handle: (listener) => {
      server.removeAllListeners("request")
      server.on("request", listener)
    },
    stop: () => {
      stopping ??= new Promise<void>((resolve) => {
        server.close(() => resolve())
        for (const socket of sockets) socket.destroy()
      })
      return stopping
    }
  }
}
