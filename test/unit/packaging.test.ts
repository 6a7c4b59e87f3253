/**
 * How the two packages are cut: a host who installs the library (`wallet-runtime`, the repository's root package)
 * receives `dist/` only and none of the server's dependencies; a self-hoster gets the server as the `server/`
 * workspace with a command of its own; and the library's sources never reach into the server's.
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join } from "node:path"
import { describe, expect, it } from "vitest"

const root = join(import.meta.dirname, "../..")
const manifest = (path: string) =>
  JSON.parse(readFileSync(join(root, path), "utf8")) as {
    readonly name: string
    readonly files?: ReadonlyArray<string>
    readonly workspaces?: ReadonlyArray<string>
    readonly bin?: Readonly<Record<string, string>>
    readonly dependencies?: Readonly<Record<string, string>>
  }

const library = manifest("package.json")
const server = manifest("server/package.json")

const filesUnder = (dir: string): ReadonlyArray<string> =>
  readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? filesUnder(path) : /\.tsx?$/.test(name) ? [path] : []
  })

describe("packaging", () => {
  it("ships the library as dist/ only, with the server as a workspace of its own", () => {
    expect(library.files).toEqual(["dist"])
    expect(library.workspaces).toEqual(["server"])
    expect(server.name).toBe("@wallet-runtime/server")
    expect(Object.keys(server.bin ?? {})).toEqual(["wallet-runtime-server"])
  })

  it("gives a host who installs the library none of the server's own dependencies", () => {
    const libraryDependencies = Object.keys(library.dependencies ?? {})
    const serverOnly = Object.keys(server.dependencies ?? {}).filter((name) => !libraryDependencies.includes(name))
    // The database, Node's HTTP server and the server's mail and build tools are the server's alone.
    expect(serverOnly).toEqual(expect.arrayContaining(["@effect/platform-node", "@effect/sql-pg", "@electric-sql/pglite", "vite"]))
    for (const name of ["@effect/platform-node", "@effect/sql-pg", "@electric-sql/pglite", "@electric-sql/pglite-socket", "ws", "tsx"]) {
      expect(libraryDependencies).not.toContain(name)
    }
  })

  it("keeps the library's sources out of the server's: nothing under src/ imports server/ or devstack/", () => {
    const offenders = filesUnder(join(root, "src")).filter((file) => /from\s+["'](\.\.\/)+(server|devstack)\//.test(readFileSync(file, "utf8")))
    expect(filesUnder(join(root, "src")).length).toBeGreaterThan(80)
    expect(offenders).toEqual([])
  })
})
