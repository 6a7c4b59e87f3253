/**
 * Compiles the contracts of this folder with solc-js and writes `artifacts.json`.
 * Run after editing a `.sol` file: `npx tsx devstack/contracts/build.ts`.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { Schema } from "effect"
import solc from "solc"
import { Artifacts, artifactsPath } from "./artifacts"

const folder = fileURLToPath(new URL(".", import.meta.url))
const sources = Object.fromEntries(
  readdirSync(folder)
    .filter((file) => file.endsWith(".sol"))
    .sort()
    .map((file) => [file, { content: readFileSync(folder + file, "utf8") }])
)

const SolcOutput = Schema.Struct({
  errors: Schema.optionalKey(
    Schema.Array(Schema.Struct({ severity: Schema.String, formattedMessage: Schema.String }))
  ),
  contracts: Schema.optionalKey(
    Schema.Record(
      Schema.String,
      Schema.Record(
        Schema.String,
        Schema.Struct({
          abi: Schema.Array(Schema.Record(Schema.String, Schema.Unknown)),
          evm: Schema.Struct({ bytecode: Schema.Struct({ object: Schema.String }) })
        })
      )
    )
  )
})

const input = {
  language: "Solidity",
  sources,
  settings: {
    // Fixed EVM version and settings keep the bytecode reproducible across solc-js hosts.
    evmVersion: "cancun",
    optimizer: { enabled: true, runs: 200 },
    metadata: { bytecodeHash: "none" },
    outputSelection: { "*": { "*": ["abi", "evm.bytecode.object"] } }
  }
}

// Imports such as `@account-abstraction/contracts/core/BasePaymaster.sol` are read from the installed packages.
const nodeModules = fileURLToPath(new URL("../../node_modules/", import.meta.url))
const findImports = (path: string) =>
  existsSync(nodeModules + path) ? { contents: readFileSync(nodeModules + path, "utf8") } : { error: `not found: ${path}` }

const output = Schema.decodeUnknownSync(Schema.fromJsonString(SolcOutput))(
  solc.compile(JSON.stringify(input), { import: findImports })
)
const problems = (output.errors ?? []).filter((e) => e.severity === "error")
if (problems.length > 0) {
  for (const problem of problems) console.error(problem.formattedMessage)
  process.exit(1)
}
for (const warning of output.errors ?? []) console.warn(warning.formattedMessage)

const compiled = new Map<string, { abi: ReadonlyArray<Record<string, unknown>>; bytecode: string }>()
// Only the contracts of this folder: the imported ones come compiled with their packages where they are needed.
for (const [source, file] of Object.entries(output.contracts ?? {})) {
  if (!(source in sources)) continue
  for (const [name, contract] of Object.entries(file)) {
    if (contract.evm.bytecode.object.length > 0) {
      compiled.set(name, { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` })
    }
  }
}

const artifacts = Schema.decodeUnknownSync(Artifacts)({
  solcVersion: String(solc.version()),
  contracts: Object.fromEntries(compiled)
})
writeFileSync(artifactsPath, `${JSON.stringify(artifacts, null, 2)}\n`)
console.log(`wrote ${artifactsPath}: ${[...compiled.keys()].join(", ")}`)
