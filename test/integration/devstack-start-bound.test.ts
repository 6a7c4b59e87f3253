/**
 * `startDevstack` bounds each part's start: a part that does not start fails the whole start with an error naming the
 * part and the bound, and every part that did start is stopped (its ports closed, anvil's processes gone).
 *
 * The stalled part is the services' database, given a real TCP server that accepts connections and never answers.
 * The Postgres client gives up on such a server after its own 5 s connect time-out, so the URL turns that off
 * (`connect_timeout=0`, libpq's "wait indefinitely", which a host may well write): without the devstack's bound the
 * start would wait forever.
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs"
import { createServer, type Socket } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DevstackStartTimeout, startDevstack } from "../../devstack/main"

/** The process ids of this process and of every process it started, however deep (anvil runs in a group of its own). */
const ourProcesses = (): ReadonlyArray<number> => {
  const parentOf = new Map<number, number>()
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue
    try {
      // /proc/<pid>/stat: "pid (comm) state ppid …"; comm may hold spaces, so parse after the last ")".
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8")
      const [state, ppid] = stat.slice(stat.lastIndexOf(")") + 2).split(" ")
      // A zombie has freed its sockets: no running leftover.
      if (state !== "Z") parentOf.set(Number(entry), Number(ppid))
    } catch {
      // Gone meanwhile.
    }
  }
  const ours = new Set([process.pid])
  for (let grew = true; grew; ) {
    grew = false
    for (const [pid, ppid] of parentOf) {
      if (!ours.has(pid) && ours.has(ppid)) {
        ours.add(pid)
        grew = true
      }
    }
  }
  return [...ours]
}

/** The TCP ports on which this process or one it started listens, as `pid:port`. */
const ourListeners = (): ReadonlySet<string> => {
  const listeningPortByInode = new Map<string, number>()
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    for (const line of readFileSync(table, "utf8").split("\n").slice(1)) {
      const fields = line.trim().split(/\s+/)
      const [local, state, inode] = [fields[1], fields[3], fields[9]]
      // 0A is TCP_LISTEN; the local address is hex "ADDR:PORT".
      if (local !== undefined && state === "0A" && inode !== undefined) {
        listeningPortByInode.set(inode, parseInt(local.slice(local.lastIndexOf(":") + 1), 16))
      }
    }
  }
  const listeners = new Set<string>()
  for (const pid of ourProcesses()) {
    let fds: Array<string>
    try {
      fds = readdirSync(`/proc/${pid}/fd`)
    } catch {
      continue
    }
    for (const fd of fds) {
      try {
        const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1]
        const port = inode === undefined ? undefined : listeningPortByInode.get(inode)
        if (port !== undefined) listeners.add(`${pid}:${port}`)
      } catch {
        // Closed meanwhile.
      }
    }
  }
  return listeners
}

/** A database server that accepts every connection and never says a word. */
const silentServer = async () => {
  const sockets = new Set<Socket>()
  const server = createServer((socket) => {
    sockets.add(socket)
    socket.on("close", () => sockets.delete(socket))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const address = server.address()
  if (address === null || typeof address === "string") throw new Error("the silent server has no port")
  return {
    port: address.port,
    connections: () => sockets.size,
    stop: () => {
      for (const socket of sockets) socket.destroy()
      return new Promise<void>((resolve) => server.close(() => resolve()))
    }
  }
}

let silent: Awaited<ReturnType<typeof silentServer>>
beforeAll(async () => {
  silent = await silentServer()
})
// Its connections dropped, the stalled database start (still waiting on it, past its bound) fails and closes its pool.
afterAll(() => silent.stop())

describe("startDevstack's bound on each part", () => {
  it("fails naming the database that never answers, with the bound, and leaves no other part listening", async () => {
    const before = ourListeners()
    const processesBefore = new Set(ourProcesses())
    // Past the other parts' honest starts (about 1 s for the EVM part, the slowest here), so that they are all seen
    // listening before the database's bound ends the start.
    const boundMs = 6_000
    // Every other part keeps the default bound: only the stalled one is cut short.
    const start = startDevstack({
      parts: ["evm", "solana", "bitcoin", "relay", "mail", "services"],
      database: { url: `postgres://postgres@127.0.0.1:${silent.port}/postgres?connect_timeout=0` },
      startBoundMs: { database: boundMs }
    })
    const outcome = start.then(
      (stack) => ({ ok: true as const, stack }),
      (error: unknown) => ({ ok: false as const, error })
    )
    // While the database waits, the other parts come up: what the check after the failure must find closed.
    const seen = new Set<string>()
    let settled = false
    void outcome.then(() => (settled = true))
    while (!settled) {
      for (const listener of ourListeners()) if (!before.has(listener)) seen.add(listener)
      await new Promise((resolve) => setTimeout(resolve, 25))
    }
    const result = await outcome
    if (result.ok) {
      await result.stack.stop()
      throw new Error("startDevstack started with a database that never answers")
    }
    expect(result.error).toBeInstanceOf(DevstackStartTimeout)
    expect(String(result.error)).toBe(
      `DevstackStartTimeout: startDevstack: the services' database (part "database") did not start within ${boundMs} ms; the parts that had started are stopped`
    )
    expect(result.error).toMatchObject({ step: "database", boundMs })
    expect(silent.connections()).toBeGreaterThan(0)

    // Two anvil chains (other processes), Solana's HTTP and websocket, bitcoin, the relay, SMTP and the inbox page.
    const children = [...seen].filter((listener) => !listener.startsWith(`${process.pid}:`))
    expect(children.length).toBeGreaterThanOrEqual(2)
    expect(seen.size - children.length).toBeGreaterThanOrEqual(6)
    expect([...ourListeners()].filter((listener) => !before.has(listener))).toEqual([])
    expect(ourProcesses().filter((pid) => !processesBefore.has(pid))).toEqual([])
  })

})
