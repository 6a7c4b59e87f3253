import { vanillaExtractPlugin } from "@vanilla-extract/vite-plugin"
import { readFileSync } from "node:fs"
import { defineConfig } from "vite"
import { eagerGraph, FORMS_CHUNKS, SERVICES_SHARED_CHUNK } from "./scripts/eagerChunks"

const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as {
  dependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
}
const external = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})]
const isExternal = (id: string) => external.some((name) => id === name || id.startsWith(`${name}/`))

/**
 * What a host loads at start, and what follows, each made one chunk: a host's bundler then receives each as one module
 * and keeps it in one piece. `shell` is all `wallet-runtime/react` loads at start (React code only, no Effect);
 * `core` is what `makeWalletRuntime` starts and `view` the React side of the runtime, both fetched once the page is
 * idle; `plain` the well-known networks, constants and formatting a host may import (plain data and functions).
 * Guarded by test/unit/build.test.ts.
 */
const graph = eagerGraph(isExternal)

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
        atoms: "src/atoms.ts",
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
            { name: "plain", test: /[\\/]src[\\/]domain[\\/](networks|constants|format)\.ts$/, priority: 4 },
            { name: "shell", test: graph.eager(["/src/react.ts"]), priority: 3 },
            { name: "core", test: graph.eager(["/src/runtime.ts"], "/src/react.ts"), priority: 2 },
            { name: "view", test: graph.eager(["/src/ui/react/core.ts"], "/src/react.ts"), priority: 1 },
            // The Swap and Buy forms' services, and their atoms, fetched on first use (see FORMS_CHUNKS).
            { name: "forms", test: FORMS_CHUNKS.services, priority: 0 },
            { name: "formAtoms", test: FORMS_CHUNKS.atoms, priority: 0 },
            // What the catalogue's call and the derived clients share (see SERVICES_SHARED_CHUNK).
            { name: "servicesShared", test: SERVICES_SHARED_CHUNK, priority: 0 }
          ]
        }
      }
    }
  }
})
