/**
 * Prints the server's configuration reference (a Markdown table generated from the config Schema), or with `--write`
 * puts it into the README's "Run the services yourself" section between its markers. From the repository's root:
 * `npx tsx server/scripts/config-reference.ts --write`.
 */
import { readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { configReference, withReferenceSection } from "../src/config/reference"

const readme = fileURLToPath(new URL("../../README.md", import.meta.url))
const table = configReference()

if (process.argv.includes("--write")) {
  writeFileSync(readme, withReferenceSection(readFileSync(readme, "utf8"), table))
  console.log(`wrote the configuration reference into ${readme}`)
} else {
  console.log(table)
}
