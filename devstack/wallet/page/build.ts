/**
 * Builds the test wallet page for the browser with Vite, once per version of its inputs (server/src/lib/pageBuild.ts):
 * the output goes to `.devstack/test-wallet/<hash of the inputs>/` (gitignored), built in a child process of its own.
 * Run alone: `npx tsx devstack/wallet/page/build.ts` (prints where the page is).
 */
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import {
  ensureBuilt,
  inputsHash,
  listFiles,
  makeBuilder,
  type PageBuild,
  type PageBuilder,
  type PageBuildSpec,
  repoRoot,
  runAsBuildScript
} from "../../../server/src/lib/pageBuild"

export type { PageBuild, PageBuilder }

/** The page's sources (this folder). */
export const pageSourceDir = fileURLToPath(new URL("./", import.meta.url))

/** Where built versions of the page are kept, one folder per input hash. */
export const pageBuildRoot = process.env["DEVSTACK_TEST_WALLET_DIR"] ?? join(repoRoot, ".devstack", "test-wallet")

// The files of this folder that are not part of the page: it does not change with them.
const notBundled = new Set(["serve.ts", "README.md"])

const spec: PageBuildSpec = {
  name: "the test wallet page",
  buildRoot: pageBuildRoot,
  buildModule: import.meta.url,
  // Everything the bundle is made of: this folder (with this file, which sets the build up), our WalletConnect wallet
  // and the protocol code under it, the test wallets it signs with (EVM, Polkadot), the domain code they read
  // (networks, encodings), the dev chains and keys, the builder, and the installed packages' versions. A file left out
  // here would leave a page built before its change in use.
  inputFiles: () => [
    ...listFiles(pageSourceDir).filter((file) => !notBundled.has(relative(pageSourceDir, file))),
    join(repoRoot, "devstack", "wallet", "wcWallet.ts"),
    ...listFiles(join(repoRoot, "src", "services", "walletconnect")),
    join(repoRoot, "devstack", "wallet", "testWallet.ts"),
    ...listFiles(join(repoRoot, "devstack", "wallet", "polkadot")),
    join(repoRoot, "src", "services", "polkadot", "ss58.ts"),
    join(repoRoot, "src", "services", "fakes", "injectedWeb3Wallet.ts"),
    ...listFiles(join(repoRoot, "src", "domain")),
    join(repoRoot, "devstack", "evm", "chains.ts"),
    join(repoRoot, "devstack", "solana", "keys.ts"),
    join(repoRoot, "server", "src", "lib", "pageBuild.ts"),
    join(repoRoot, "package-lock.json")
  ]
}

/** A hash of the page's inputs: the name of the folder its build goes to. */
export const pageInputsHash = (): string => inputsHash(spec)

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
    // Node's `global`, for dependencies that still read it in a browser.
    define: { global: "globalThis" },
    build: { outDir, emptyOutDir: true, reportCompressedSize: false, chunkSizeWarningLimit: 4096 }
  })
}

/** The page's folder for the inputs of `hash`, building it first (in a child process) if it is missing. */
export const ensurePageBuilt = (hash: string = pageInputsHash()): PageBuild => ensureBuilt(spec, hash)

/** Makes the page's builder; nothing is built until `latest` is called. */
export const makePageBuilder = (): PageBuilder => makeBuilder(spec)

runAsBuildScript(spec, bundlePage)
