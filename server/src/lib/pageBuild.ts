/**
 * Builds a devstack browser page with Vite once per version of its inputs: the output goes to
 * `<buildRoot>/<hash of the inputs>/` (gitignored under `.devstack/`), so a start with unchanged sources only hashes
 * a few files. The build runs in a child process of its own (the page's build module, run as a script with the
 * output folder as its argument), so the stack's servers stay responsive meanwhile and a stop can end it. The test
 * wallet page and the embedded wallet's frame site are built so.
 */
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync } from "node:fs"
import { createRequire } from "node:module"
import { join, relative } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { spawnGroup } from "./processGroup"

/** The repository's root folder. */
export const repoRoot = fileURLToPath(new URL("../../../", import.meta.url))

/** What a page is built from, and where its builds go. */
export interface PageBuildSpec {
  /** The page's name in errors, e.g. "the test wallet page". */
  readonly name: string
  /** Where built versions are kept, one folder per input hash. */
  readonly buildRoot: string
  /** Every file the bundle is made of (sources, the build module itself, the lockfile). */
  readonly inputFiles: () => ReadonlyArray<string>
  /** The module (file URL) that bundles into the folder given as its first argument when run as a script. */
  readonly buildModule: string
}

/** Every file under `dir`, recursively. */
export const listFiles = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(join(dir, entry.name)) : [join(dir, entry.name)]
  )

/** A hash of the page's inputs: the name of the folder its build goes to. */
export const inputsHash = (spec: PageBuildSpec): string => {
  const hash = createHash("sha256")
  const files = spec.inputFiles().filter((file) => existsSync(file)).sort()
  for (const file of files) {
    hash.update(relative(repoRoot, file))
    hash.update("\0")
    hash.update(readFileSync(file))
    hash.update("\0")
  }
  return hash.digest("hex").slice(0, 16)
}

/** A version of a page on its way, or built. */
export interface PageBuild {
  /** The hash of the inputs it is built from. */
  readonly hash: string
  /** The folder holding `index.html` and `assets/` once `ready` resolves. */
  readonly dir: string
  /** Resolves when the page is built; rejects with the build's errors. */
  readonly ready: Promise<void>
  /** Whether this call had to build (false: the inputs were built before). */
  readonly built: boolean
  /** Ends a build in progress (nothing to do otherwise). */
  readonly stop: () => Promise<void>
}

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

// Older versions and the leftovers of builds whose process died go; a build of a running process stays.
const removeOthers = (buildRoot: string, keep: string): void => {
  for (const name of readdirSync(buildRoot)) {
    if (name === keep) continue
    const tmp = /^\.tmp-(\d+)-/.exec(name)
    if (tmp !== null && isAlive(Number(tmp[1]))) continue
    rmSync(join(buildRoot, name), { recursive: true, force: true })
  }
}

// tsx's loader by its path: a bare `--import tsx` is resolved from the working directory, which for a host's server
// command is wherever it was started, not this repository.
const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href

/** The page's folder for the inputs of `hash`, building it first (in a child process) if it is missing. */
export const ensureBuilt = (spec: PageBuildSpec, hash: string = inputsHash(spec)): PageBuild => {
  const dir = join(spec.buildRoot, hash)
  if (existsSync(join(dir, "index.html"))) {
    return { hash, dir, ready: Promise.resolve(), built: false, stop: async () => undefined }
  }
  mkdirSync(spec.buildRoot, { recursive: true })
  const tmp = join(spec.buildRoot, `.tmp-${process.pid}-${hash}-${Date.now().toString(36)}`)
  const child = spawnGroup(process.execPath, ["--import", tsxLoader, fileURLToPath(spec.buildModule), tmp])
  let stopped = false
  const ready = child.exited.then((code) => {
    if (stopped) throw new Error(`${spec.name}'s build was stopped`)
    if (code !== 0 || !existsSync(join(tmp, "index.html"))) {
      rmSync(tmp, { recursive: true, force: true })
      // Vite colours its report for a terminal; it is shown in a page and in errors.
      const report = child.stderr().replace(/\u001b\[[0-9;]*m/g, "").trim()
      throw new Error(`${spec.name} did not build (exit ${code}):\n${report}`)
    }
    if (existsSync(join(dir, "index.html"))) {
      // Another stack built the same inputs meanwhile.
      rmSync(tmp, { recursive: true, force: true })
    } else {
      rmSync(dir, { recursive: true, force: true })
      renameSync(tmp, dir)
    }
    removeOthers(spec.buildRoot, hash)
  })
  // A failure is reported to whoever waits for the page; an unobserved one must not crash the stack.
  ready.catch(() => undefined)
  return {
    hash,
    dir,
    ready,
    built: true,
    stop: async () => {
      if (child.child.exitCode !== null || child.child.signalCode !== null) return
      stopped = true
      await child.stop()
      rmSync(tmp, { recursive: true, force: true })
    }
  }
}

/** A page as a server serves it: built when first asked for, and again whenever its sources change. */
export interface PageBuilder {
  /** The build for the sources as they are now (hashing them costs about a millisecond). */
  readonly latest: () => PageBuild
  /** Ends a build in progress; `latest` fails from then on. */
  readonly stop: () => Promise<void>
}

/** Makes a page's builder; nothing is built until `latest` is called. */
export const makeBuilder = (spec: PageBuildSpec): PageBuilder => {
  let current: PageBuild | undefined
  let stopped = false
  return {
    latest: () => {
      if (stopped) throw new Error(`${spec.name}'s server is stopped`)
      const hash = inputsHash(spec)
      if (current?.hash !== hash) {
        // The sources changed while the stack runs: the older build, if still going, is of no use.
        void current?.stop()
        const next = ensureBuilt(spec, hash)
        // A failed build is tried again on the next call.
        next.ready.catch(() => {
          if (current === next) current = undefined
        })
        current = next
      }
      return current
    },
    stop: async () => {
      stopped = true
      await current?.stop()
    }
  }
}

const isEntryPoint = (moduleUrl: string): boolean => {
  const entry = process.argv[1]
  if (entry === undefined) return false
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(moduleUrl))
  } catch {
    return false
  }
}

/**
 * The script part of a build module (call it at its top level with its `import.meta.url`): run with an output folder
 * (the child of `ensureBuilt`), it bundles there; run alone, it builds the page if needed and prints where it is.
 */
export const runAsBuildScript = (spec: PageBuildSpec, bundle: (outDir: string) => Promise<void>): void => {
  if (!isEntryPoint(spec.buildModule)) return
  const outDir = process.argv[2]
  if (outDir !== undefined) {
    bundle(outDir).then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error instanceof Error ? (error.stack ?? error.message) : String(error))
        process.exit(1)
      }
    )
    return
  }
  const began = performance.now()
  const page = ensureBuilt(spec)
  page.ready.then(
    () => {
      const size = statSync(join(page.dir, "index.html")).size
      console.log(`${page.built ? "built" : "up to date"} in ${Math.round(performance.now() - began)} ms: ${page.dir} (index.html ${size} bytes)`)
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : String(error))
      process.exit(1)
    }
  )
}
