import { vanillaExtractPlugin } from "@vanilla-extract/vite-plugin"
import { fileURLToPath } from "node:url"
import { defineConfig, type Plugin } from "vite"
import { readRuntimeConfig } from "../devstack/config"
import { demoStackConfig, injectDemoConfig } from "../devstack/demoConfig"
import { eagerGraph, FORMS_CHUNKS, SERVICES_SHARED_CHUNK } from "../scripts/eagerChunks"

const src = (path: string) => fileURLToPath(new URL(`../src/${path}`, import.meta.url))

// The dev server injects the running stack's ports into the page; a production build keeps the marker and
// whoever serves it injects them (test/e2e and bench do).
const devstackConfig = (): Plugin => ({
  name: "devstack-config",
  apply: "serve",
  transformIndexHtml: (html) => injectDemoConfig(html, demoStackConfig(readRuntimeConfig()))
})

// What the page loads at start in a few chunks, as a host receives it from the library's build (see vite.config.ts).
const graph = eagerGraph(() => false)

/** The demo host app: it imports only the package's public entry points (aliased to the sources). */
export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  plugins: [vanillaExtractPlugin(), devstackConfig(), graph.plugin],
  resolve: {
    alias: [
      { find: /^wallet-runtime$/, replacement: src("index.ts") },
      { find: /^wallet-runtime\/react$/, replacement: src("react.ts") },
      { find: /^wallet-runtime\/atoms$/, replacement: src("atoms.ts") }
    ]
  },
  build: {
    target: "es2022",
    outDir: "dist",
    emptyOutDir: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // React in a chunk of its own, so the benchmark can tell the host's framework from what we add.
            { name: "react", test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/, priority: 3 },
            { name: "plain", test: /[\\/]src[\\/]domain[\\/](networks|constants|format)\.ts$/, priority: 5 },
            { name: "shell", test: graph.eager(["/src/react.ts"]), priority: 4 },
            { name: "core", test: graph.eager(["/src/runtime.ts"], "/src/react.ts"), priority: 2 },
            { name: "view", test: graph.eager(["/src/ui/react/core.ts"], "/src/react.ts"), priority: 1 },
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
