/**
 * Sums the V8 CPU profiles in a folder (`bench/scale.ts --profile DIR` writes one per relay node): where the time went,
 * by area (our relay, the Redis client, the WebSocket library, Effect, JSON, node's own code, the garbage collector)
 * and by function. A figure to read, not an assertion.
 *
 *   npx tsx bench/profileSummary.ts DIR [top] [--after SECONDS]
 *
 * `--after` leaves out each profile's first seconds (the process starting, the clients connecting) to see the time of
 * the messages alone; the busy time per second printed first shows where each phase is.
 */
import { readdirSync, readFileSync } from "node:fs"
import { join } from "node:path"

interface ProfileNode {
  readonly id: number
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number }
}
interface Profile {
  readonly nodes: ReadonlyArray<ProfileNode>
  readonly samples: ReadonlyArray<number>
  readonly timeDeltas: ReadonlyArray<number>
}

/** The area a frame's code belongs to, from its script's address. */
const areaOf = (url: string, name: string): string => {
  if (url === "") return name.startsWith("(") ? name : `native: ${name}`
  if (url.startsWith("node:")) return "node's own code"
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
  if (pkg !== null) return pkg[1] ?? url
  const ours = /\/(server\/src\/[^/]+|src\/[^/]+)/.exec(url)
  return ours !== null ? `ours: ${ours[1]}` : url
}

const args = process.argv.slice(2)
const afterAt = args.indexOf("--after")
const afterMicros = afterAt < 0 ? 0 : Number(args[afterAt + 1]) * 1e6
const [dir, topArg] = args.filter((_, index) => afterAt < 0 || (index !== afterAt && index !== afterAt + 1))
if (dir === undefined) throw new Error("usage: tsx bench/profileSummary.ts DIR [top] [--after SECONDS]")
const top = Number(topArg ?? 25)
const byArea = new Map<string, number>()
const byFunction = new Map<string, number>()
let total = 0
for (const file of readdirSync(dir).filter((name) => name.endsWith(".cpuprofile"))) {
  const profile = JSON.parse(readFileSync(join(dir, file), "utf8")) as Profile
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]))
  const perSecond: Array<number> = []
  let at = 0
  profile.samples.forEach((id, index) => {
    const node = nodes.get(id)
    const micros = profile.timeDeltas[index] ?? 0
    at += micros
    if (node === undefined || node.callFrame.functionName === "(idle)") return
    const second = Math.floor(at / 1e6)
    perSecond[second] = (perSecond[second] ?? 0) + micros
    if (at < afterMicros) return
    const { functionName, url, lineNumber } = node.callFrame
    const area = areaOf(url, functionName)
    total += micros
    byArea.set(area, (byArea.get(area) ?? 0) + micros)
    const key = `${functionName || "(anonymous)"}  ${url.replace(/.*\/(node_modules|server|src)\//, "$1/")}:${lineNumber + 1}`
    byFunction.set(key, (byFunction.get(key) ?? 0) + micros)
  })
  console.log(`${file}: busy ms per second: ${Array.from(perSecond, (micros = 0) => (micros / 1000).toFixed(0)).join(" ")}`)
}
const table = (title: string, rows: Map<string, number>) => {
  console.log(`\n| ${title} | ms | share |\n| --- | --- | --- |`)
  for (const [key, micros] of [...rows].sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`| ${key} | ${(micros / 1000).toFixed(0)} | ${((100 * micros) / total).toFixed(1)} % |`)
  }
}
console.log(`busy time in ${dir}${afterMicros > 0 ? ` after ${afterMicros / 1e6} s` : ""}: ${(total / 1000).toFixed(0)} ms (idle left out)`)
table("area", byArea)
table("function (self time)", byFunction)
