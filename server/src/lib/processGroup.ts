import { type ChildProcess, spawn } from "node:child_process"

const live = new Set<number>()

// A crash or an early process.exit of the parent must not leave detached children behind:
// their groups are killed synchronously on the way out.
process.on("exit", () => {
  for (const pid of live) killGroup(pid, "SIGKILL")
})

const killGroup = (pid: number, signal: NodeJS.Signals): void => {
  try {
    process.kill(-pid, signal)
  } catch {
    // The group is already gone.
  }
}

/** A child started in its own process group, stopped with its whole group. */
export interface GroupChild {
  readonly pid: number
  readonly child: ChildProcess
  /** Resolves with the exit code (or signal name) when the child exits. */
  readonly exited: Promise<number | string>
  /** The child's stderr so far, for error messages when it dies early. */
  readonly stderr: () => string
  /** SIGTERM to the group, SIGKILL after `graceMs`; resolves once the child has exited. Idempotent. */
  readonly stop: (graceMs?: number) => Promise<void>
}

/** Spawns `command` detached (its own process group) with stdout ignored and stderr kept for diagnostics. */
export const spawnGroup = (command: string, args: ReadonlyArray<string>): GroupChild => {
  const child = spawn(command, args, { detached: true, stdio: ["ignore", "ignore", "pipe"] })
  const pid = child.pid
  if (pid === undefined) throw new Error(`could not start ${command}`)
  live.add(pid)
  let stderr = ""
  child.stderr?.setEncoding("utf8")
  child.stderr?.on("data", (chunk: string) => {
    if (stderr.length < 16_384) stderr += chunk
  })
  const exited = new Promise<number | string>((resolve) => {
    child.once("exit", (code, signal) => {
      live.delete(pid)
      // Children of the leader may outlive it; the group goes with the leader.
      killGroup(pid, "SIGKILL")
      resolve(code ?? signal ?? "unknown")
    })
  })
  let stopping: Promise<void> | undefined
  const stop = (graceMs = 2_000): Promise<void> => {
    stopping ??= (async () => {
      if (child.exitCode !== null || child.signalCode !== null) return
      killGroup(pid, "SIGTERM")
      const timer = setTimeout(() => killGroup(pid, "SIGKILL"), graceMs)
      await exited
      clearTimeout(timer)
    })()
    return stopping
  }
  return { pid, child, exited, stderr: () => stderr, stop }
}
