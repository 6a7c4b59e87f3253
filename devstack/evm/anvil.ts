import { fileURLToPath } from "node:url"
import type { Started } from "../../server/src/lib/Started"
import { freePort } from "../../server/src/lib/ports"
import { type GroupChild, spawnGroup } from "../../server/src/lib/processGroup"

/** The native anvil binary; its npm wrapper leaves zombies when killed, so it is spawned directly. */
export const anvilBinary = fileURLToPath(
  new URL("../../node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil", import.meta.url)
)

/** What a running anvil exposes. */
export interface AnvilInfo {
  readonly chainId: number
  readonly rpcUrl: string
  readonly port: number
  /** The leader of anvil's process group. */
  readonly pid: number
}

// The chain id is checked so that another node that grabbed the port first is not taken for ours.
const rpcAnswers = async (rpcUrl: string, chainId: number): Promise<boolean> => {
  try {
    const response = await fetch(rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] })
    })
    const body: unknown = await response.json()
    return typeof body === "object" && body !== null && "result" in body && body.result === `0x${chainId.toString(16)}`
  } catch {
    return false
  }
}

// anvil --silent prints nothing when it is ready: its RPC is polled instead, racing its exit.
const waitReady = async (child: GroupChild, rpcUrl: string, chainId: number, timeoutMs: number): Promise<"ready" | "exited"> => {
  let exited = false
  void child.exited.then(() => (exited = true))
  const deadline = performance.now() + timeoutMs
  while (performance.now() < deadline) {
    if (exited) return "exited"
    if (await rpcAnswers(rpcUrl, chainId)) return exited ? "exited" : "ready"
    await new Promise((resolve) => setTimeout(resolve, 15))
  }
  throw new Error(`anvil did not answer on ${rpcUrl} within ${timeoutMs} ms`)
}

/** Starts one anvil chain on 127.0.0.1; without a port it takes a free one and retries if another process grabs it first. */
export const startAnvil = async (opts: { readonly chainId: number; readonly port?: number }): Promise<Started<AnvilInfo>> => {
  const attempts = opts.port === undefined ? 5 : 1
  let lastError = ""
  for (let attempt = 0; attempt < attempts; attempt++) {
    const port = opts.port ?? (await freePort())
    const rpcUrl = `http://127.0.0.1:${port}`
    const child = spawnGroup(anvilBinary, [
      "--host",
      "127.0.0.1",
      "--port",
      String(port),
      "--chain-id",
      String(opts.chainId),
      "--silent"
    ])
    try {
      if ((await waitReady(child, rpcUrl, opts.chainId, 10_000)) === "ready") {
        return { info: { chainId: opts.chainId, rpcUrl, port, pid: child.pid }, stop: () => child.stop() }
      }
      lastError = child.stderr().trim()
    } catch (error) {
      await child.stop()
      throw error
    }
  }
  throw new Error(`anvil for chain ${opts.chainId} did not start: ${lastError}`)
}
