/**
 * Builds the embedded wallet's frame page for the browser with Vite, once per version of its inputs
 * (server/src/lib/pageBuild.ts): the output goes to `<build folder>/<hash of the inputs>/`, built in a child process
 * of its own. The local stack's build folder is `.devstack/embedded-frame/` (gitignored); the server command's is its
 * `wallet.frameBuildDir`. Run alone: `npx tsx server/src/embedded/frame/build.ts`.
 */
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { listFiles, makeBuilder, type PageBuilder, type PageBuildSpec, repoRoot, runAsBuildScript } from "../../lib/pageBuild"

/** The frame page's sources (this folder). */
export const frameSourceDir = fileURLToPath(new URL("./", import.meta.url))

/** Where the local stack keeps built versions of the frame page, one folder per input hash. */
export const frameBuildRoot = process.env["DEVSTACK_EMBEDDED_FRAME_DIR"] ?? join(repoRoot, ".devstack", "embedded-frame")

// The server side of this folder: the page does not change with it.
const notBundled = new Set(["routes.ts", "README.md"])

const spec: PageBuildSpec = {
  name: "the embedded wallet's frame page",
  buildRoot: frameBuildRoot,
  buildModule: import.meta.url,
  // This folder (with this file), the contracts it shares with the host and the server, and the installed versions.
  inputFiles: () => [
    ...listFiles(frameSourceDir).filter((file) => !notBundled.has(relative(frameSourceDir, file))),
    join(repoRoot, "server", "src", "embedded", "api.ts"),
    join(repoRoot, "server", "src", "embedded", "WalletServerApi.ts"),
    join(repoRoot, "server", "src", "embedded", "sharesApi.ts"),
    // The wallet's RPC the frame signs with (frameRpc.ts), and the smart account it builds.
    ...listFiles(join(repoRoot, "server", "src", "embedded", "wallet")),
    join(repoRoot, "server", "src", "bundler", "walletAccount.ts"),
    join(repoRoot, "server", "src", "services", "projects.ts"),
    ...listFiles(join(repoRoot, "src", "domain")),
    // The accent's readable colours, shared with the modal's views.
    join(repoRoot, "src", "ui", "theme", "readableAccent.ts"),
    join(repoRoot, "server", "src", "lib", "pageBuild.ts"),
    join(repoRoot, "package-lock.json")
  ]
}

/** Bundles the frame page into `outDir` (in this process). */
export const bundleFramePage = async (outDir: string): Promise<void> => {
  const { build } = await import("vite")
  await build({
    root: frameSourceDir,
    base: "/frame/",
    // The repository's vite.config.ts is the library build; this page has its own few settings.
    configFile: false,
    logLevel: "warn",
    clearScreen: false,
    // Two pages: the hidden frame, and the passkey window (WebAuthn runs there, on the frame's origin).
    build: {
      outDir,
      emptyOutDir: true,
      reportCompressedSize: false,
      rollupOptions: { input: { frame: join(frameSourceDir, "index.html"), passkey: join(frameSourceDir, "passkey.html") } }
    }
  })
}

/** Makes the frame page's builder, building into `buildRoot` (absolute); nothing is built until `latest` is called. */
export const makeFramePageBuilder = (buildRoot: string = frameBuildRoot): PageBuilder => makeBuilder({ ...spec, buildRoot })

runAsBuildScript(spec, bundleFramePage)
