/**
 * The licence gate: every package package-lock.json installs is under an OSI licence of the allowlist (or an SPDX
 * expression of them, read by spdx-expression-parse: OR needs one side allowed, AND both). A package whose lockfile
 * entry has no licence is read from its own package.json. Anything else is allowed only for a devDependency no host
 * receives, named below with why; copyleft (GPL, LGPL, AGPL) likewise. And no WalletConnect package under the
 * WalletConnect Community License (sign-client, core, utils, types, universal-provider 2.21.9 and later; walletkit
 * 1.2.11 and later) is installed anywhere.
 */
import { readdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

type SpdxNode = { readonly license: string; readonly plus?: boolean; readonly exception?: string } | { readonly left: SpdxNode; readonly conjunction: "and" | "or"; readonly right: SpdxNode }
const parseSpdx = createRequire(import.meta.url)("spdx-expression-parse") as (expression: string) => SpdxNode

const ROOT = join(import.meta.dirname, "..", "..")

/** OSI licences any installed package may have. */
const ALLOWED = new Set(["MIT", "MIT-0", "Apache-2.0", "ISC", "BSD-2-Clause", "BSD-3-Clause", "0BSD", "BlueOak-1.0.0", "MPL-2.0", "CC0-1.0"])

/**
 * devDependencies (never shipped to a host) under a licence outside the allowlist, each with its reason. The
 * Uniswap v2 contracts (GPL-3.0) are copyleft: the local stack deploys their build artifacts (`devstack/evm/uniswap.ts`).
 * `@account-abstraction/contracts` (MIT in its manifest; its EntryPoint sources say GPL-3.0) brings Uniswap v3's sources
 * (BUSL-1.1, GPL-2.0-or-later) that nothing reads: the local stack deploys its EntryPoint and factory artifacts
 * (`devstack/evm/accountAbstraction.ts`).
 */
const DEV_ONLY_EXCEPTIONS: Readonly<Record<string, string>> = {
  "caniuse-lite": "CC-BY-4.0 browser-support data read by the build's Babel (vanilla-extract's plugin)",
  "spdx-exceptions": "CC-BY-3.0 list of SPDX exception ids, data of this gate's own SPDX parser",
  "require-like": "no licence field; its README and License file say MIT (a dependency of vanilla-extract's eval)",
  "@uniswap/v2-core": "GPL-3.0: contract artifacts the local stack deploys",
  "@uniswap/v2-periphery": "GPL-3.0: contract artifacts the local stack deploys",
  "@uniswap/lib": "GPL-3.0: a dependency of @uniswap/v2-periphery (Solidity sources; nothing of it is read)",
  "@uniswap/v3-core": "BUSL-1.1: a dependency of @account-abstraction/contracts (Solidity sources; nothing of it is read)",
  "@uniswap/v3-periphery": "GPL-2.0-or-later: a dependency of @account-abstraction/contracts (Solidity sources; nothing of it is read)"
}

interface LockEntry {
  readonly version?: string
  readonly license?: string
  readonly dev?: boolean
  readonly optional?: boolean
  readonly devOptional?: boolean
}

const lock = JSON.parse(readFileSync(join(ROOT, "package-lock.json"), "utf8")) as { readonly packages: Record<string, LockEntry> }
const installed = Object.entries(lock.packages).filter(([path]) => path !== "" && path.includes("node_modules/"))
const nameOf = (path: string) => path.slice(path.lastIndexOf("node_modules/") + "node_modules/".length)

/** The licence a package declares: the lockfile's, else its own package.json's (`license`, or the old `licenses`). */
const licenceOf = (path: string, entry: LockEntry): string | undefined => {
  if (entry.license !== undefined) return entry.license
  try {
    const manifest = JSON.parse(readFileSync(join(ROOT, path, "package.json"), "utf8")) as { license?: unknown; licenses?: unknown }
    if (typeof manifest.license === "string") return manifest.license
    if (Array.isArray(manifest.licenses)) {
      const types = manifest.licenses.map((l: { type?: unknown }) => l.type).filter((t): t is string => typeof t === "string")
      return types.length === 0 ? undefined : types.join(" OR ")
    }
  } catch {
    // Not installed here (another platform's optional package): its lockfile entry is all there is.
  }
  return undefined
}

const allowed = (node: SpdxNode): boolean =>
  "license" in node ? ALLOWED.has(node.license) : node.conjunction === "or" ? allowed(node.left) || allowed(node.right) : allowed(node.left) && allowed(node.right)

/** Whether a licence text is allowed; `undefined` text or an unparsable one is not. */
const licenceAllowed = (text: string | undefined): boolean => {
  if (text === undefined) return false
  try {
    return allowed(parseSpdx(text))
  } catch {
    return false
  }
}

describe("licence gate", () => {
  it("reads SPDX expressions with the library: OR needs one side allowed, AND both, copyleft is not allowed", () => {
    expect(licenceAllowed("MIT")).toBe(true)
    expect(licenceAllowed("(MIT OR EUPL-1.1+)")).toBe(true)
    expect(licenceAllowed("(Apache-2.0 AND MIT)")).toBe(true)
    expect(licenceAllowed("(MIT AND GPL-3.0-only)")).toBe(false)
    expect(licenceAllowed("GPL-3.0")).toBe(false)
    expect(licenceAllowed("SEE LICENSE IN LICENSE.md")).toBe(false)
    expect(licenceAllowed(undefined)).toBe(false)
  })

  it("every installed package is under an allowed licence, or is a devDependency named among the exceptions", () => {
    expect(installed.length).toBeGreaterThan(100)
    const refused = installed.flatMap(([path, entry]) => {
      const licence = licenceOf(path, entry)
      if (licenceAllowed(licence)) return []
      const name = nameOf(path)
      if (entry.dev === true && DEV_ONLY_EXCEPTIONS[name] !== undefined) return []
      return [`${name}@${entry.version ?? "?"}: ${licence ?? "no licence"}${entry.dev === true ? " (dev)" : " (shipped)"}`]
    })
    expect(refused).toEqual([])
  })

  it("every exception is still needed and is a devDependency", () => {
    const present = installed.filter(([path]) => DEV_ONLY_EXCEPTIONS[nameOf(path)] !== undefined)
    for (const [path, entry] of present) expect({ name: nameOf(path), dev: entry.dev === true }).toEqual({ name: nameOf(path), dev: true })
  })

  it("no WalletConnect package under the WalletConnect Community License is installed", () => {
    const version = (v: string | undefined) => (v ?? "0.0.0").split(".").map(Number) as [number, number, number]
    const above = (v: string | undefined, limit: [number, number, number]) => {
      const [a, b, c] = version(v)
      return a !== limit[0] ? a > limit[0] : b !== limit[1] ? b > limit[1] : c > limit[2]
    }
    const licensed = installed.filter(([path, entry]) => {
      const name = nameOf(path)
      if (/^@walletconnect\/(core|sign-client|universal-provider|utils|types|ethereum-provider)$/.test(name)) return above(entry.version, [2, 21, 8])
      if (name === "@reown/walletkit") return above(entry.version, [1, 2, 10])
      return name.startsWith("@reown/appkit")
    })
    expect(licensed.map(([path, entry]) => `${nameOf(path)}@${entry.version}`)).toEqual([])
  })

  it("WalletConnect's own clients are devDependencies only: no host receives them", () => {
    const shipped = installed.filter(([path, entry]) => /^@(walletconnect|reown)\//.test(nameOf(path)) && entry.dev !== true)
    expect(shipped.map(([path]) => nameOf(path))).toEqual([])
  })

  it("the Uniswap contracts are copyleft or source-available devDependencies that no host receives: not in the library nor the server", () => {
    const manifest = (path: string) =>
      JSON.parse(readFileSync(join(ROOT, path), "utf8")) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> }
    const root = manifest("package.json")
    const server = manifest("server/package.json")
    for (const name of ["@uniswap/v2-core", "@uniswap/v2-periphery", "@uniswap/lib", "@uniswap/v3-core", "@uniswap/v3-periphery"]) {
      const entry = lock.packages[`node_modules/${name}`]
      expect({ name, installed: entry !== undefined, dev: entry?.dev === true, copyleft: /GPL|BUSL/.test(entry === undefined ? "" : (licenceOf(`node_modules/${name}`, entry) ?? "")) }).toEqual({
        name,
        installed: true,
        dev: true,
        copyleft: true
      })
      if (name === "@uniswap/v2-core" || name === "@uniswap/v2-periphery") expect(root.devDependencies?.[name]).toBeDefined()
      expect(root.dependencies?.[name]).toBeUndefined()
      expect(server.dependencies?.[name]).toBeUndefined()
      expect(server.devDependencies?.[name]).toBeUndefined()
    }
    // The EntryPoint's package too: a devDependency of the root only, its artifacts deployed by the local stack.
    expect([root.devDependencies?.["@account-abstraction/contracts"] !== undefined, root.dependencies?.["@account-abstraction/contracts"], server.dependencies?.["@account-abstraction/contracts"]]).toEqual([true, undefined, undefined])
    // Only the local stack reads them: no module of the library (src/) or of the server (server/src/) names them.
    const importers = (dir: string): Array<string> =>
      readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
        .filter((file) => file.isFile() && /\.(ts|tsx)$/.test(file.name))
        .map((file) => join(file.parentPath, file.name))
        .filter((file) => readFileSync(file, "utf8").includes("@uniswap/"))
    expect([...importers("src"), ...importers("server/src")]).toEqual([])
  })
})
