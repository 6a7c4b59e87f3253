/**
 * `npm run bench:heap`: where the page's JS heap goes, on the demo's production build (with source maps) in Debian
 * Chromium against the local stack, as a first visitor loads the page and opens the modal. Figures, not assertions.
 *
 * Three views of the same visit, each after a forced GC:
 * - the heap by V8's kind of object (machine code, bytecode, the rest of the compiled code, strings, objects…): the
 *   code a page runs is most of what we add, so this says whether to load less code or to keep fewer objects;
 * - the live objects allocated since navigation (the sampling heap profiler), by the source file of the function
 *   that allocated them, and by the nearest of our own files on its stack (what of ours made a library allocate);
 * - the same after load and after open, so the open's own share shows.
 *
 * Allocations V8 makes outside any JS frame (compiling a script, "(V8 API)") have no source file; machine code is
 * allocated by the compiler, so the kinds table, not the sources, shows it.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { originalPositionFor, TraceMap } from "@jridgewell/trace-mapping"
import type { CDPSession } from "playwright-core"
import { DEMO_PARTS, openDemo } from "../test/e2e/support/demo"
import { installInjectedWallet } from "../test/e2e/support/injectedWallet"

const WALLET_NAME = "Wallet Runtime Test Wallet"
const TOP = 25

interface CallFrame {
  readonly functionName: string
  readonly url: string
  readonly lineNumber: number
  readonly columnNumber: number
}
interface SamplingNode {
  readonly callFrame: CallFrame
  readonly selfSize: number
  readonly children: ReadonlyArray<SamplingNode>
}
interface Snapshot {
  readonly snapshot: { readonly meta: { readonly node_fields: ReadonlyArray<string>; readonly node_types: ReadonlyArray<unknown> } }
  readonly nodes: ReadonlyArray<number>
  readonly strings: ReadonlyArray<string>
}

const mib = (bytes: number) => `${(bytes / 1048576).toFixed(2)} MiB`
const kib = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`

const gcAndUsage = async (cdp: CDPSession): Promise<number> => {
  await cdp.send("HeapProfiler.collectGarbage")
  return (await cdp.send("Runtime.getHeapUsage")).usedSize
}

// The heap by kind: V8's own object kinds for compiled code, the snapshot's node types for the rest. Native (Blink,
// external string data) is left out: Runtime.getHeapUsage does not count it either.
const CODE_KINDS: Readonly<Record<string, string>> = {
  "system / InstructionStream": "machine code (Sparkplug, Maglev, TurboFan)",
  "system / BytecodeArray": "bytecode"
}
const kinds = async (cdp: CDPSession): Promise<Map<string, number>> => {
  const chunks: Array<string> = []
  const collect = (event: { chunk: string }) => chunks.push(event.chunk)
  cdp.on("HeapProfiler.addHeapSnapshotChunk", collect)
  await cdp.send("HeapProfiler.takeHeapSnapshot", { reportProgress: false })
  cdp.off("HeapProfiler.addHeapSnapshotChunk", collect)
  const snapshot = JSON.parse(chunks.join("")) as Snapshot
  const fields = snapshot.snapshot.meta.node_fields
  const types = snapshot.snapshot.meta.node_types[0] as ReadonlyArray<string>
  const [typeAt, nameAt, sizeAt] = [fields.indexOf("type"), fields.indexOf("name"), fields.indexOf("self_size")]
  const by = new Map<string, number>()
  for (let i = 0; i < snapshot.nodes.length; i += fields.length) {
    const type = types[snapshot.nodes[i + typeAt] ?? 0] ?? "?"
    if (type === "native" || type === "synthetic") continue
    const name = snapshot.strings[snapshot.nodes[i + nameAt] ?? 0] ?? ""
    const kind = type === "code" ? (CODE_KINDS[name] ?? "other compiled code (function infos, feedback, scopes)") : type
    by.set(kind, (by.get(kind) ?? 0) + (snapshot.nodes[i + sizeAt] ?? 0))
  }
  return by
}

/** Maps a frame of the built page to its source file (`src/…`, or a package's file), through the build's maps. */
const sourceFiles = (outDir: string) => {
  const maps = new Map<string, TraceMap | null>()
  const mapOf = (file: string) => {
    if (!maps.has(file)) {
      try {
        maps.set(file, new TraceMap(readFileSync(join(outDir, "assets", `${file}.map`), "utf8")))
      } catch {
        maps.set(file, null)
      }
    }
    return maps.get(file) ?? null
  }
  return (frame: CallFrame): string | undefined => {
    const file = /\/assets\/([^/?#]+\.js)/.exec(frame.url)?.[1]
    if (file === undefined) return frame.url === "" ? undefined : "(another script)"
    const map = mapOf(file)
    const source = map === null ? null : originalPositionFor(map, { line: frame.lineNumber + 1, column: frame.columnNumber }).source
    // A chunk's top level (the bundled modules' own statements run as it is evaluated) has no one source.
    if (source === null) return `${file.replace(/-[\w-]{8}\.js$/, "")} chunk's top level`
    return source.replace(/^.*node_modules\//, "").replace(/^.*?\/src\//, "src/")
  }
}

/** Live bytes by the allocating frame's file, and by the nearest of our own files on its stack. */
const bySource = (head: SamplingNode, sourceOf: (frame: CallFrame) => string | undefined) => {
  const allocator = new Map<string, number>()
  const ours = new Map<string, number>()
  const add = (to: Map<string, number>, key: string, bytes: number) => to.set(key, (to.get(key) ?? 0) + bytes)
  const walk = (node: SamplingNode, stack: ReadonlyArray<string>) => {
    const source = sourceOf(node.callFrame)
    const here = source === undefined ? stack : [...stack, source]
    if (node.selfSize > 0) {
      const outside = `(no JS frame: ${node.callFrame.functionName || "?"})`
      add(allocator, here.at(-1) ?? outside, node.selfSize)
      add(ours, [...here].reverse().find((file) => file.startsWith("src/")) ?? here.at(-1) ?? outside, node.selfSize)
    }
    for (const child of node.children) walk(child, here)
  }
  walk(head, [])
  return { allocator, ours }
}

const table = (title: string, rows: ReadonlyArray<readonly [string, number, number]>) => {
  console.log(`\n${title}\n\n| | after load | after open | open's own |\n|---|---|---|---|`)
  for (const [name, load, open] of rows) console.log(`| ${name} | ${kib(load)} | ${kib(open)} | ${kib(open - load)} |`)
}

const joined = (load: Map<string, number>, open: Map<string, number>, top: number) =>
  [...new Set([...load.keys(), ...open.keys()])]
    .map((key) => [key, load.get(key) ?? 0, open.get(key) ?? 0] as const)
    .sort((a, b) => b[2] - a[2])
    .slice(0, top)

const main = async () => {
  const session = await openDemo({ name: "heap", parts: DEMO_PARTS, sourcemap: true })
  try {
    const evm = session.stack.config.evm
    if (evm === null) throw new Error("no EVM part")
    await installInjectedWallet(session.browser.context, {
      privateKeys: evm.accounts.slice(0, 1).map((account) => account.privateKey as `0x${string}`),
      chains: evm.chains.map((chain) => ({ chainId: chain.chainId, name: `Local ${chain.chainId}`, rpcUrl: chain.rpcUrl })),
      chainId: 31337
    })
    const page = session.browser.page
    // A first visit: nothing stored. The sampling starts before the navigation, so the page's whole life is in it.
    await page.goto(session.url)
    await page.evaluate(() => localStorage.clear())
    await page.goto("about:blank")
    const cdp = await session.browser.context.newCDPSession(page)
    await cdp.send("HeapProfiler.enable")
    await cdp.send("HeapProfiler.startSampling", { samplingInterval: 512 })
    await page.goto(session.url)
    await page.getByRole("button", { name: "Connect wallet" }).waitFor()
    await page.waitForLoadState("networkidle")
    const loadUsed = await gcAndUsage(cdp)
    const loadKinds = await kinds(cdp)
    const sourceOf = sourceFiles(session.outDir)
    const loadSources = bySource(((await cdp.send("HeapProfiler.getSamplingProfile")).profile as { head: SamplingNode }).head, sourceOf)

    // The demo's project takes analytics: the open's event (MODAL_OPEN) is sent 500 ms after the click, which the
    // network's idle alone may come before; its code and requests are the open's, so the figures wait for its answer.
    const openEvent = page.waitForResponse((response) => new URL(response.url()).pathname === "/e" && response.request().method() === "POST", {
      timeout: 15_000
    })
    await page.getByRole("button", { name: "Connect wallet" }).click()
    await page.getByRole("dialog").getByRole("button", { name: new RegExp(WALLET_NAME) }).waitFor()
    await openEvent
    await page.waitForLoadState("networkidle")
    const openUsed = await gcAndUsage(cdp)
    const openKinds = await kinds(cdp)
    const openSources = bySource(((await cdp.send("HeapProfiler.stopSampling")).profile as { head: SamplingNode }).head, sourceOf)

    console.log(`\nJS heap (Runtime.getHeapUsage, after GC): ${mib(loadUsed)} after load, ${mib(openUsed)} with the modal open`)
    table("By kind (heap snapshot; Blink's native objects left out)", joined(loadKinds, openKinds, TOP))
    table(`Live allocations by the allocating function's file (sampled; top ${TOP} by open)`, joined(loadSources.allocator, openSources.allocator, TOP))
    table(`Live allocations by the nearest of our files on the stack (sampled; top ${TOP} by open)`, joined(loadSources.ours, openSources.ours, TOP))
  } finally {
    await session.stop()
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error)
    process.exit(1)
  }
)
