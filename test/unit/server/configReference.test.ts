/**
 * The guide's configuration reference is the one generated from the config Schema: a setting added, renamed or
 * documented anew without `npx tsx server/scripts/config-reference.ts --write` fails here.
 */
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { configReference, referenceSectionOf, withReferenceSection } from "../../../server/src/config/reference"
import { serverSettings } from "../../../server/src/config/schema"

const readme = readFileSync(new URL("../../../README.md", import.meta.url), "utf8")

describe("the configuration reference in the README", () => {
  it("is the table generated from the config Schema (else run: npx tsx server/scripts/config-reference.ts --write)", () => {
    expect(referenceSectionOf(readme)).toBe(configReference())
  })

  it("has a row per setting, naming its variable and file key", () => {
    const rows = configReference().split("\n").slice(2)
    expect(rows).toHaveLength(serverSettings.length)
    expect(rows).toContainEqual(expect.stringMatching(/^\| `DATABASE_URL` \| `database\.url` \| Postgres URL, secret \| — \|/))
    expect(rows).toContainEqual(expect.stringMatching(/^\| `WALLET_RUNTIME_PROJECTS` \| `projects` \| JSON list of projects \| \*\*required\*\* \|/))
    expect(rows).toContainEqual(expect.stringMatching(/^\| `WALLET_RUNTIME_SERVICES_PORT` \| `services\.port` \| port \(0–65535\) \| `8080` \|/))
  })

  it("is replaced whole by the script, the rest of the README untouched", () => {
    const stale = withReferenceSection(readme, "| old |")
    expect(referenceSectionOf(stale)).toBe("| old |")
    expect(withReferenceSection(stale, configReference())).toBe(readme)
  })
})
