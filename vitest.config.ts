import { vanillaExtractPlugin } from "@vanilla-extract/vite-plugin"
import { defineConfig } from "vitest/config"

// vitest 5 wants node >= 22; on node 20 its reporter needs Map.groupBy when a run fails.
if (!("groupBy" in Map)) {
  Object.defineProperty(Map, "groupBy", {
    value: <K, V>(items: Iterable<V>, key: (item: V, index: number) => K) => {
      const map = new Map<K, Array<V>>()
      let i = 0
      for (const item of items) {
        const k = key(item, i++)
        const list = map.get(k)
        if (list) list.push(item)
        else map.set(k, [item])
      }
      return map
    }
  })
}

export default defineConfig({
  plugins: [vanillaExtractPlugin()],
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: "unit",
          include: ["test/unit/**/*.test.{ts,tsx}"],
          environment: "node"
        }
      },
      {
        extends: true,
        test: {
          name: "integration",
          include: ["test/integration/**/*.test.ts"],
          environment: "node",
          testTimeout: 60_000,
          hookTimeout: 60_000,
          fileParallelism: false,
          // One file at a time in one worker, each starting and stopping its own stack: the modules (the server's, the
          // devstack's, Vite's, Playwright's) are loaded once for the run instead of once per file.
          isolate: false
        }
      },
      {
        extends: true,
        test: {
          name: "e2e",
          include: ["test/e2e/**/*.test.ts"],
          // The demo is built for production once for the run, not once per file.
          globalSetup: ["test/e2e/support/demoBuildSetup.ts"],
          environment: "node",
          testTimeout: 120_000,
          hookTimeout: 180_000,
          // What a page shows after a service answers (a balance after connecting) waits on loopback requests: vitest's
          // 1 s default for `expect.poll` was passed on a loaded 2-core machine with nothing wrong. Still bounded.
          expect: { poll: { timeout: 10_000 } },
          fileParallelism: false,
          // As for integration: the modules are loaded once for the run, not once per file.
          isolate: false
        }
      }
    ]
  }
})
