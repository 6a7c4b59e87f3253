import { vanillaExtractPlugin } from "@vanilla-extract/vite-plugin"
import { readFileSync } from "node:fs"
import { defineConfig } from "vite"

const pkg = JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")) as {
  dependencies?: Record<string, string>
  peerDependencies?: Record<string, string>
}
const external = [...Object.keys(pkg.dependencies ?? {}), ...Object.keys(pkg.peerDependencies ?? {})]
const isExternal = (id: string) => external.some((name) => id === name || id.startsWith(`${name}/`))

/** Library build: one ESM file per entry point, shared chunks, extracted CSS; declarations come from tsc. */
export default defineConfig({
  plugins: [vanillaExtractPlugin()],
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
      external: isExternal
    }
  }
})
