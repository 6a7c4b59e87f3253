/**
 * Builds the test wallet page for the browser with Vite, once per version of its inputs: the output goes to
 * `.devstack/test-wallet/<hash of the inputs>/` (gitignored), so a start with unchanged sources only hashes a few
 * files. The build runs in a child process of its own, so the stack's relay and servers stay responsive meanwhile
 * and a stop can end it. Run alone: `npx tsx devstack/wallet/page/build.ts` (prints where the page is).
 */
import { createHash } from "node:crypto"
import { existsSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { spawnGroup } from "../../lib/processGroup"

/** The page's sources (this folder). */
export const pageSourceDir = fileURLToPath(new URL("./", import.meta.url))
const repoRoot = fileURLToPath(new URL("../../../", import.meta.url))

/** Where built versions of the page are kept, one folder per input hash. */
export const pageBuildRoot = process.env["DEVSTACK_TEST_WALLET_DIR"] ?? join(repoRoot, ".devstack", "test-wallet")

const listFiles = (dir: string): Array<string> =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? listFiles(join(dir, entry.name)) : [join(dir, entry.name)]
  )

// The files of this folder that run in Node only; the page does not change with them.
const nodeOnly = new Set(["serve.ts"])

// Everything the bundle is made of: this folder (with this file, which sets the build up), the test wallet it signs
// with, and the installed packages' versions.
const inputFiles = (): Array<string> =>
  [
    ...listFiles(pageSourceDir).filter((file) => !nodeOnly.has(relative(pageSourceDir, file))),
    join(repoRoot, "devstack", "wallet", "testWallet.ts"),
    join(repoRoot, "package-lock.json")
  ]
    .filter((file) => existsSync(file))
    .sort()

/** A hash of the page's inputs: the name of the folder its build goes to. */
export const pageInputsHash = (): string => {
  const hash = createHash("sha256")
  for (const file of inputFiles()) {
    hash.update(relative(repoRoot, file))
    hash.update("\0")
    hash.update(readFileSync(file))
    hash.update("\0")
  }
  return hash.digest("hex").slice(0, 16)
}

/** Bundles the page into `outDir` (in this process). */
export const bundlePage = async (outDir: string): Promise<void> => {
  const { build } = await import("vite")
  await build({
    root: pageSourceDir,
    base: "/test-wallet/",
    // The repository's vite.config.ts is the library build; this page has its own few settings.
    configFile: false,
    logLevel: "warn",
    clearScreen: false,
    // The offline switch of WalletConnect's core (see skipVerifyOffline in wallet.ts), and the `global` its sign
    // client then reads.
    define: { "process.env.IS_VITEST": JSON.stringify("true"), global: "globalThis" },
    build: { outDir, emptyOutDir: true, reportCompressedSize: false, chunkSizeWarningLimit: 4096 }
  })
}

/** A version of the page on its way, or built. */
export interface PageBuild {
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
const removeOthers = (keep: string): void => {
  for (const name of readdirSync(pageBuildRoot)) {
    if (name === keep) continue
    const tmp = /^\.tmp-(\d+)-/.exec(name)
    if (tmp !== null && isAlive(Number(tmp[1]))) continue
    rmSync(join(pageBuildRoot, name), { recursive: true, force: true })
  }
}

/** The page's folder for the current inputs, building it first (in a child process) if it is missing. */
export const ensurePageBuilt = (): PageBuild => {
  const hash = pageInputsHash()
  const dir = join(pageBuildRoot, hash)
  if (existsSync(join(dir, "index.html"))) {
    return { dir, ready: Promise.resolve(), built: false, stop: async () => undefined }
  }
  mkdirSync(pageBuildRoot, { recursive: true })
  const tmp = join(pageBuildRoot, `.tmp-${process.pid}-${hash}-${Date.now().toString(36)}`)
  const child = spawnGroup(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), tmp])
  let stopped = false
  const ready = child.exited.then((code) => {
    if (stopped) throw new Error("the test wallet page's build was stopped")
    if (code !== 0 || !existsSync(join(tmp, "index.html"))) {
      rmSync(tmp, { recursive: true, force: true })
      throw new Error(`the test wallet page did not build (exit ${code}):\n${child.stderr().trim()}`)
    }
    if (existsSync(join(dir, "index.html"))) {
      // Another stack built the same inputs meanwhile.
      rmSync(tmp, { recursive: true, force: true })
    } else {
      rmSync(dir, { recursive: true, force: true })
      renameSync(tmp, dir)
    }
    removeOthers(hash)
  })
  // A failure is reported to whoever waits for the page; an unobserved one must not crash the stack.
  ready.catch(() => undefined)
  return {
    dir,
    ready,
    built: true,
    stop: async () => {
      stopped = true
      await child.stop()
      rmSync(tmp, { recursive: true, force: true })
    }
  }
}

const isEntryPoint = (): boolean => {
  const entry = process.argv[1]
  if (entry === undefined) return false
  try {
    return realpathSync(entry) === realpathSync(fileURLToPath(import.meta.url))
  } catch {
    return false
  }
}

if (isEntryPoint()) {
  const outDir = process.argv[2]
  if (outDir !== undefined) {
    // The child of ensurePageBuilt: bundle into the folder it names.
    bundlePage(outDir).then(
      () => process.exit(0),
      (error: unknown) => {
        console.error(error instanceof Error ? (error.stack ?? error.message) : String(error))
        process.exit(1)
      }
    )
  } else {
    const began = performance.now()
    const page = ensurePageBuilt()
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
}
