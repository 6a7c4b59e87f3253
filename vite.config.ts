import { vanillaExtractPlugin } from "@vanilla-extract/vite-plugin"
import { readFileSync } from "node:fs"
import { defineConfig, type Plugin } from "vite"

const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as {
  dependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
}
const external = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})]
const isExternal = (id: string) => external.some((name) => id === name || id.startsWith(`${name}/`))

/** The module graph as the bundler sees it once every module is parsed. */
interface ModuleGraph {
  readonly getModuleIds: () => IterableIterator<string>
  readonly getModuleInfo: (id: string) => { readonly importedIds: ReadonlyArray<string>; readonly isEntry: boolean } | null
}

/**
 * What a host loads at start: the modules reachable through static imports from the runtime, then from the provider
 * and the modal. Each set becomes one chunk of the build, so a host's bundler sees it as one module and keeps it in
 * one piece (Rolldown otherwise cuts code shared with the lazily loaded parts into many small chunks that all load at
 * start: more requests and more bytes). What loads later (views, chain adapters, WalletConnect's session, the bundled
 * wallet list) stays in chunks of its own. Guarded by test/unit/build.test.ts.
 */
const eagerGraph = () => {
  let graph: ModuleGraph | undefined
  const reach = new Map<string, Set<string>>()
  const reachable = (root: string): Set<string> => {
    const known = reach.get(root)
    if (known) return known
    const seen = new Set<string>()
    const walk = (id: string) => {
      if (seen.has(id) || isExternal(id)) return
      seen.add(id)
      for (const next of graph?.getModuleInfo(id)?.importedIds ?? []) walk(next)
    }
    const start = [...(graph?.getModuleIds() ?? [])].find((id) => id.endsWith(root))
    if (start === undefined) throw new Error(`The library build has no module ${root}`)
    walk(start)
    reach.set(root, seen)
    return seen
  }
  const plugin: Plugin = {
    name: "wallet-runtime:eager-graph",
    buildEnd() {
      graph = this
      reach.clear()
    }
  }
  /** The module is loaded at once by one of `roots` and not by `unless`; the build's entries stay apart. */
  const eager = (roots: ReadonlyArray<string>, unless?: string) => (id: string) =>
    roots.some((root) => reachable(root).has(id)) &&
    !(unless !== undefined && reachable(unless).has(id)) &&
    graph?.getModuleInfo(id)?.isEntry !== true
  return { plugin, eager }
}
const graph = eagerGraph()

/** Library build: one ESM file per entry point, shared chunks, extracted CSS; declarations come from tsc. */
export default defineConfig({
  plugins: [vanillaExtractPlugin(), graph.plugin],
  build: {
    target: "es2022",
    outDir: "dist",
    emptyOutDir: true,
    sourcemap: true,
    minify: false,
    cssCodeSplit: false,
    lib: {
      entry: {
        index: "src/index.ts",
        react: "src/react.ts",
        testing: "src/testing.ts"
      },
      formats: ["es"],
      cssFileName: "wallet-runtime"
    },
    rolldownOptions: {
      external: isExternal,
      output: {
        codeSplitting: {
          groups: [
            // What `makeWalletRuntime` starts, then what the provider and the modal render before any view.
            { name: "core", test: graph.eager(["/src/runtime.ts"]), priority: 2 },
            {
              name: "view",
              test: graph.eager(["/src/ui/react/WalletRuntimeProvider.tsx", "/src/ui/modal/WalletModal.tsx"], "/src/runtime.ts"),
              priority: 1
            }
          ]
        }
      }
    }
  }
})
