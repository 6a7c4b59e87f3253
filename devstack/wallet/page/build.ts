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

// The files of this folder that are not part of the page: it does not change with them.
const notBundled = new Set(["serve.ts", "README.md"])

// Everything the bundle is made of: this folder (with this file, which sets the build up), the test wallets it signs
// with (EVM, Polkadot), and the installed packages' versions.
const inputFiles = (): Array<string> =>
  [
    ...listFiles(pageSourceDir).filter((file) => !notBundled.has(relative(pageSourceDir, file))),
    join(repoRoot, "devstack", "wallet", "testWallet.ts"),
    ...listFiles(join(repoRoot, "devstack", "wallet", "polkadot")),
    join(repoRoot, "src", "services", "polkadot", "ss58.ts"),
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
const removeOthers = (keep: string): void => {
  for (const name of readdirSync(pageBuildRoot)) {
    if (name === keep) continue
    const tmp = /^\.tmp-(\d+)-/.exec(name)
    if (tmp !== null && isAlive(Number(tmp[1]))) continue
    rmSync(join(pageBuildRoot, name), { recursive: true, force: true })
  }
}

/** The page's folder for the inputs of `hash`, building it first (in a child process) if it is missing. */
export const ensurePageBuilt = (hash: string = pageInputsHash()): PageBuild => {
  const dir = join(pageBuildRoot, hash)
  if (existsSync(join(dir, "index.html"))) {
    return { hash, dir, ready: Promise.resolve(), built: false, stop: async () => undefined }
  }
  mkdirSync(pageBuildRoot, { recursive: true })
  const tmp = join(pageBuildRoot, `.tmp-${process.pid}-${hash}-${Date.now().toString(36)}`)
  const child = spawnGroup(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), tmp])
  let stopped = false
  const ready = child.exited.then((code) => {
    if (stopped) throw new Error("the test wallet page's build was stopped")
    if (code !== 0 || !existsSync(join(tmp, "index.html"))) {
      rmSync(tmp, { recursive: true, force: true })
      // Vite colours its report for a terminal; it is shown in a page and in errors.
      const report = child.stderr().replace(/\u001b\[[0-9;]*m/g, "").trim()
      throw new Error(`the test wallet page did not build (exit ${code}):\n${report}`)
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

/** The page as a server serves it: built when first asked for, and again whenever its sources change. */
export interface PageBuilder {
  /** The build for the sources as they are now (hashing them costs about a millisecond). */
  readonly latest: () => PageBuild
  /** Ends a build in progress; `latest` fails from then on. */
  readonly stop: () => Promise<void>
}

/** Makes the page's builder; nothing is built until `latest` is called. */
export const makePageBuilder = (): PageBuilder => {
  let current: PageBuild | undefined
  let stopped = false
  return {
    latest: () => {
      if (stopped) throw new Error("the test wallet page's server is stopped")
      const hash = pageInputsHash()
      if (current?.hash !== hash) {
        // The sources changed while the stack runs: the older build, if still going, is of no use.
        void current?.stop()
        const next = ensurePageBuilt(hash)
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
