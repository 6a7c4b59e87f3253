/**
 * The shape of the house (ARCHITECTURE.md), checked on the source: dependencies point down only, no import circle
 * (type-only imports and `import()` included), and the UI runs no effect itself.
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), "../../src")

const filesUnder = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : /\.tsx?$/.test(name) ? [path] : []
  })

const files = filesUnder(SRC)
const rel = (path: string) => relative(SRC, path).replaceAll("\\", "/")

// Every module specifier of a file: static imports and re-exports (type-only too) and dynamic `import()`.
const SPECIFIER = /(?:^|\n)\s*(?:import|export)\s[^"']*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g

const resolveImport = (from: string, specifier: string): string | undefined => {
  if (!specifier.startsWith(".")) return undefined
  const base = resolve(dirname(from), specifier)
  return [`${base}.ts`, `${base}.tsx`, join(base, "index.ts")].find((candidate) => files.includes(candidate))
}

const graph = new Map<string, ReadonlyArray<string>>(
  files.map((file) => {
    const text = readFileSync(file, "utf8")
    const targets = [...text.matchAll(SPECIFIER)]
      .map((match) => resolveImport(file, match[1] ?? match[2] ?? ""))
      .filter((target): target is string => target !== undefined)
    return [rel(file), targets.map(rel)] as const
  })
)

const importsOf = (file: string) => graph.get(file) ?? []
const violations = (from: (file: string) => boolean, to: (target: string) => boolean) =>
  [...graph.keys()].filter(from).flatMap((file) => importsOf(file).filter(to).map((target) => `${file} → ${target}`))

describe("architecture", () => {
  it("reads the whole source (the checks below are not vacuous)", () => {
    expect(files.length).toBeGreaterThan(80)
    expect(importsOf("ui/views/registry.ts")).toContain("ui/views/Connect/Connect.tsx")
    expect(importsOf("services/Connection.ts")).toContain("services/connectors/Connectors.ts")
  })

  it("has no import circle, type-only imports and import() included", () => {
    const cycles: Array<string> = []
    const state = new Map<string, "visiting" | "done">()
    const visit = (file: string, path: ReadonlyArray<string>) => {
      if (state.get(file) === "done") return
      if (state.get(file) === "visiting") {
        cycles.push([...path.slice(path.indexOf(file)), file].join(" → "))
        return
      }
      state.set(file, "visiting")
      for (const target of importsOf(file)) visit(target, [...path, file])
      state.set(file, "done")
    }
    for (const file of graph.keys()) visit(file, [])
    expect(cycles).toEqual([])
  })

  it("domain imports nothing of ours outside the domain", () => {
    expect(violations((f) => f.startsWith("domain/"), (t) => !t.startsWith("domain/"))).toEqual([])
  })

  it("services never import the UI, the layers or the runtime", () => {
    expect(violations((f) => f.startsWith("services/"), (t) => t.startsWith("ui/") || t.startsWith("layers/") || t.startsWith("runtime"))).toEqual([])
  })

  it("the UI never imports a layer; only runtime.ts turns layers into a runtime, and it imports no UI", () => {
    expect(violations((f) => f.startsWith("ui/"), (t) => t.startsWith("layers/"))).toEqual([])
    expect(violations((f) => f === "runtime.ts" || f === "runtimeAtoms.ts" || f.startsWith("layers/"), (t) => t.startsWith("ui/"))).toEqual([])
  })

  it("components are primitives: they import no view, modal or host button", () => {
    expect(
      violations((f) => f.startsWith("ui/components/"), (t) => t.startsWith("ui/views/") || t.startsWith("ui/modal/") || t.startsWith("ui/buttons/"))
    ).toEqual([])
  })

  it("atoms import no React and no component", () => {
    expect(violations((f) => f.startsWith("ui/atoms/"), (t) => !t.startsWith("ui/atoms/") && t.startsWith("ui/"))).toEqual([])
    const reactInAtoms = files.filter((f) => rel(f).startsWith("ui/atoms/") && /from\s+["']react["']/.test(readFileSync(f, "utf8")))
    expect(reactInAtoms.map(rel)).toEqual([])
  })

  it("the UI runs no effect itself: no runtime.run, no Effect.run*, no setTimeout, no try/catch outside the atom bindings", () => {
    const offenders = files
      .filter((f) => rel(f).startsWith("ui/") && !rel(f).startsWith("ui/atom-react/"))
      .flatMap((f) => {
        const text = readFileSync(f, "utf8")
        return [/\.run(Promise|Sync|Fork)?\(/, /\bsetTimeout\(/, /\btry\s*\{/]
          .filter((pattern) => pattern.test(text))
          .map((pattern) => `${rel(f)}: ${pattern}`)
      })
    expect(offenders).toEqual([])
  })

  it("chain libraries are never imported statically (they load on first use of their family)", () => {
    const heavy = /(?:^|\n)\s*import\s(?!type\s)[^"']*?from\s+["'](viem|viem\/[^"']+|@solana\/kit|@walletconnect\/[^"']+)["']/
    const offenders = files
      .filter((f) => !rel(f).startsWith("services/solana/SolanaAdapter") && !rel(f).startsWith("services/eip155/Eip155Adapter"))
      .filter((f) => heavy.test(readFileSync(f, "utf8")))
      .map(rel)
    expect(offenders).toEqual([])
    // The family adapters themselves are reached only through import().
    const staticAdapterImports = violations(
      () => true,
      (t) => t === "services/solana/SolanaAdapter.ts" || t === "services/eip155/Eip155Adapter.ts"
    ).filter((edge) => {
      const [from] = edge.split(" → ")
      const text = readFileSync(join(SRC, from!), "utf8")
      return /(?:^|\n)\s*import\s(?!type\s)[^"']*?from\s+["'][^"']*(SolanaAdapter|Eip155Adapter)["']/.test(text)
    })
    expect(staticAdapterImports).toEqual([])
  })

  it("the library never ships the polkadot-js bundle, and the polkadot adapter is reached only through import()", () => {
    const polkadotJs = /(?:^|\n)\s*(?:import|export)\s[^"']*?from\s+["']@polkadot\/|import\(\s*["']@polkadot\//
    expect(files.filter((f) => polkadotJs.test(readFileSync(f, "utf8"))).map(rel)).toEqual([])
    const staticImports = violations(() => true, (t) => t === "services/polkadot/PolkadotAdapter.ts").filter((edge) =>
      /(?:^|\n)\s*import\s(?!type\s)[^"']*?from\s+["'][^"']*PolkadotAdapter["']/.test(readFileSync(join(SRC, edge.split(" → ")[0]!), "utf8"))
    )
    expect(staticImports).toEqual([])
    expect(importsOf("layers/LiveFamilies.ts")).toContain("services/polkadot/PolkadotAdapter.ts")
    // Listing Polkadot wallets needs no SS58 codec: it comes with the first connect.
    const discovery = readFileSync(join(SRC, "services/connectors/injectedWeb3.ts"), "utf8")
    expect(discovery).not.toMatch(/(?:^|\n)\s*import\s(?!type\s)[^"']*?from\s+["']\.\.\/polkadot\/(ss58|accounts)["']/)
    expect(importsOf("services/connectors/injectedWeb3.ts")).toContain("services/polkadot/accounts.ts")
  })
})

describe("the error catalogue", () => {
  it("holds no error the runtime never raises: each class of domain/errors.ts is constructed somewhere else in src", () => {
    const catalogue = readFileSync(join(SRC, "domain/errors.ts"), "utf8")
    const classes = [...catalogue.matchAll(/export class (\w+) extends/g)].map((match) => match[1] ?? "")
    const elsewhere = files.filter((file) => rel(file) !== "domain/errors.ts").map((file) => readFileSync(file, "utf8")).join("\n")
    const neverRaised = classes.filter((name) => !new RegExp(`new (?:E\\.)?${name}\\(`).test(elsewhere))
    expect(neverRaised).toEqual([])
  })
})

describe("the constants", () => {
  it("every constant of domain/constants.ts is used by the runtime (a value nothing reads is an option that does nothing)", () => {
    const constants = readFileSync(join(SRC, "domain/constants.ts"), "utf8")
    const names = [...constants.matchAll(/export const (\w+)/g)].map((match) => match[1] ?? "")
    const elsewhere = files
      .filter((file) => !["domain/constants.ts", "index.ts"].includes(rel(file)))
      .map((file) => readFileSync(file, "utf8"))
      .join("\n")
    expect(names.filter((name) => !new RegExp(`\\b${name}\\b`).test(elsewhere))).toEqual([])
  })
})
