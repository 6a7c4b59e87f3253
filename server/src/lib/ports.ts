import { createServer } from "node:net"

/** Asks the OS for a port that is free on 127.0.0.1 right now (another process may take it before we bind: retry on collision). */
export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.on("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      const port = typeof address === "object" && address !== null ? address.port : 0
      server.close(() => (port > 0 ? resolve(port) : reject(new Error("the OS gave no port"))))
    })
  })
