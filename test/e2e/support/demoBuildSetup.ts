/**
 * The browser tests' global setup: builds the demo for production once for the run, before any file starts, and
 * names it to every file through `WR_DEMO_BUILD` (`serveDemoOnStack` serves it); removed when the run ends.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { buildDemo, DEMO_BUILD_VARIABLE } from "./demo"

/** Builds the run's demo and returns its removal. */
export default async function setup(): Promise<() => void> {
  const outDir = mkdtempSync(join(tmpdir(), "wr-demo-run-"))
  const remove = () => rmSync(outDir, { recursive: true, force: true })
  try {
    await buildDemo(outDir)
  } catch (error) {
    remove()
    throw error
  }
  process.env[DEMO_BUILD_VARIABLE] = outDir
  return () => {
    delete process.env[DEMO_BUILD_VARIABLE]
    remove()
  }
}
