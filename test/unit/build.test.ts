/**
 * The shape of the library's build, as a host's bundler receives it: what `wallet-runtime/react` loads at start is
 * React code only (shell), with no Effect; what `makeWalletRuntime` starts is one chunk (core) and the React side of
 * the runtime one more (view), both reached only through `import()`; each family's code, WalletConnect's session and
 * the bundled wallet list stay in chunks of their own that nothing loaded at start imports. A host's bundler otherwise
 * cuts code shared with the lazily loaded parts into many small files that all load at start.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { build, type Rolldown } from "vite"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

type Chunk = Rolldown.OutputChunk

const LAZY = [
  "src/services/eip155/Eip155Adapter.ts",
  "src/services/solana/SolanaAdapter.ts",
  "src/services/walletconnect/session.ts",
  "src/services/walletconnect/namespaces.ts",
  "src/services/walletconnect/protocol/dapp.ts",
  "src/services/walletconnect/protocol/engine.ts",
  "src/services/walletconnect/protocol/relay.ts",
  "src/services/walletconnect/protocol/crypto.ts",
  "src/services/walletconnect/protocol/primitives.ts",
  "src/services/walletconnect/protocol/noblePrimitives.ts",
  "src/services/walletconnect/protocol/verify.ts",
  "src/services/connectors/walletStandard.ts",
  "src/services/connectors/injectedWeb3.ts",
  "src/services/polkadot/PolkadotAdapter.ts",
  "src/services/polkadot/accounts.ts",
  "src/services/polkadot/ss58.ts",
  "src/services/connectors/bitcoin.ts",
  "src/services/bip122/BitcoinAdapter.ts",
  "src/services/bip122/psbt.ts",
  "src/domain/bitcoinAddress.ts",
  "src/services/walletCatalogFallback.ts",
  "src/services/BlockchainApiLive.ts",
  "src/services/WalletCatalogLive.ts",
  "src/services/catalogueWallets.ts",
  "src/services/analyticsCalls.ts",
  "src/services/boundedServiceClient.ts",
  "src/services/servicesApiClient.ts",
  "src/domain/Api.ts",
  "src/ui/views/Connect/Connect.tsx",
  "src/ui/views/Account/Account.tsx",
  // Swaps and on-ramp (issue 28): the forms' code, their atoms, views and the lists of their chunks come on first use.
  "src/services/formsLive.ts",
  "src/services/SwapLive.ts",
  "src/services/OnrampLive.ts",
  "src/ui/atoms/swap.ts",
  "src/ui/atoms/onramp.ts",
  "src/ui/views/accountForms.ts",
  "src/ui/views/Swap/Swap.tsx",
  "src/ui/views/Buy/Buy.tsx"
]
/**
 * Libraries that must never load before the visitor chooses a wallet of their family (@noble's curves and ciphers:
 * WalletConnect's crypto, and Bitcoin's).
 */
const HEAVY = ["viem", "@solana/kit", "@noble/curves", "@noble/ciphers", "@wallet-standard/app", "@scure/btc-signer"]

let outDir = ""
let chunks: ReadonlyArray<Chunk> = []
const root = join(import.meta.dirname, "../..")

beforeAll(async () => {
  outDir = mkdtempSync(join(tmpdir(), "wallet-runtime-build-"))
  const output = await build({
    root,
    configFile: join(root, "vite.config.ts"),
    logLevel: "silent",
    build: { outDir, write: false, sourcemap: false }
  })
  const outputs = (Array.isArray(output) ? output : [output]) as ReadonlyArray<Rolldown.RolldownOutput>
  chunks = outputs.flatMap((o) => o.output).filter((file): file is Chunk => file.type === "chunk")
}, 120_000)
afterAll(() => rmSync(outDir, { recursive: true, force: true }))

const chunkNamed = (fileName: string) => {
  const chunk = chunks.find((c) => c.fileName === fileName)
  if (!chunk) throw new Error(`no chunk ${fileName} in ${chunks.map((c) => c.fileName).join(", ")}`)
  return chunk
}
/** The chunks an entry loads at once: itself and what it imports statically, transitively. */
const loadedAtOnce = (fileName: string): ReadonlyArray<Chunk> => {
  const seen = new Map<string, Chunk>()
  const walk = (name: string) => {
    if (seen.has(name)) return
    const chunk = chunkNamed(name)
    seen.set(name, chunk)
    chunk.imports.filter((i) => !HEAVY.some((h) => i === h || i.startsWith(`${h}/`)) && i.endsWith(".js")).forEach(walk)
  }
  walk(fileName)
  return [...seen.values()]
}
const modulesOf = (list: ReadonlyArray<Chunk>) => list.flatMap((c) => c.moduleIds.map((id) => id.replace(`${root}/`, "")))

describe("the library build", () => {
  it("keeps what a React host loads at start to React code: no Effect, no runtime", () => {
    const atStart = loadedAtOnce("react.js")
    expect(atStart.map((c) => c.name).sort()).toEqual(["react", "shell"])
    expect(atStart.flatMap((c) => c.imports).filter((i) => !i.endsWith(".js")).sort()).toEqual(
      expect.arrayContaining(["react"])
    )
    expect(atStart.flatMap((c) => c.imports).filter((i) => i === "effect" || i.startsWith("effect/"))).toEqual([])
    expect(modulesOf(atStart)).toEqual(
      expect.arrayContaining(["src/ui/react/WalletRuntimeProvider.tsx", "src/ui/react/hooks.ts", "src/ui/buttons/ConnectButton/ConnectButton.tsx"])
    )
    expect(modulesOf(atStart).filter((id) => id.startsWith("src/services/") && !id.endsWith("/paths.ts"))).toEqual([])
    // The runtime and the modal follow through import(): one chunk each, not pieces.
    const core = chunks.find((c) => c.name === "core")
    expect(modulesOf(core ? [core] : [])).toEqual(
      expect.arrayContaining(["src/runtime.ts", "src/layers/Live.ts", "src/services/Connection.ts", "src/services/ConnectFlow.ts"])
    )
    const view = chunks.find((c) => c.name === "view")
    expect(modulesOf(view ? [view] : [])).toEqual(expect.arrayContaining(["src/ui/react/core.ts", "src/ui/modal/ModalRoot.tsx"]))
    expect(atStart.flatMap((c) => c.dynamicImports)).toContain(view?.fileName)
  })

  it("gives a host naming a well-known network (or formatting an amount) plain data and functions, not the runtime", () => {
    const plain = chunkNamed(chunks.find((c) => c.name === "plain")?.fileName ?? "plain")
    expect(plain.imports).toEqual([])
    expect(modulesOf([plain]).sort()).toEqual(["src/domain/constants.ts", "src/domain/format.ts", "src/domain/networks.ts"])
    expect(chunkNamed("index.js").imports).toContain(plain.fileName)
  })

  it("loads no family's code, no WalletConnect session and no view before they are needed", () => {
    // index.js re-exports the EIP-155 adapter and the Wallet Standard connector for hosts that compose their own
    // layers (a host's bundler drops them when unused); react.js, what a React host renders, loads none of them.
    const expected: Record<string, ReadonlyArray<string>> = {
      "index.js": ["src/services/connectors/walletStandard.ts", "src/services/eip155/Eip155Adapter.ts"],
      "react.js": []
    }
    for (const [entry, reExported] of Object.entries(expected)) {
      const atStart = loadedAtOnce(entry)
      expect(modulesOf(atStart).filter((id) => LAZY.includes(id)).sort(), entry).toEqual(reExported)
      const heavy = atStart
        .filter((c) => !c.moduleIds.some((id) => reExported.some((module) => id.endsWith(module))))
        .flatMap((c) => c.imports)
        .filter((i) => HEAVY.some((h) => i === h || i.startsWith(`${h}/`)))
      expect(heavy, entry).toEqual([])
    }
    const core = chunks.find((c) => c.name === "core")
    expect(modulesOf(core ? [core] : []).filter((id) => LAZY.includes(id))).toEqual([])
    for (const lazy of LAZY) {
      const home = chunks.find((c) => c.moduleIds.some((id) => id.endsWith(lazy)))
      expect(home?.name, lazy).not.toMatch(/^(core|view|shell)$/)
      expect(loadedAtOnce("react.js").includes(home as Chunk), lazy).toBe(false)
    }
  })

  it("keeps the Swap and Buy forms out of what a React page loads before its first click: their services, atoms and views' entries", () => {
    const beforeClick = chunks.filter((c) => ["shell", "plain", "core", "view"].includes(c.name))
    const forms = [
      "src/services/Swap.ts",
      "src/services/Onramp.ts",
      "src/services/swapState.ts",
      "src/services/onrampState.ts",
      "src/ui/atoms/laterServices.ts",
      "src/ui/views/accountForms.ts",
      "src/layers/Core.ts",
      "src/walletRuntime.ts"
    ]
    expect(beforeClick.map((c) => c.name).sort()).toEqual(["core", "plain", "shell", "view"])
    expect(modulesOf(beforeClick).filter((id) => forms.includes(id))).toEqual([])
  })

  it("fetches @noble's curves for WalletConnect only where WebCrypto lacks them: the session's chunks never import them statically", () => {
    const sessionChunk = chunks.find((c) => c.moduleIds.some((id) => id.endsWith("src/services/walletconnect/session.ts")))!
    const withSession = loadedAtOnce(sessionChunk.fileName)
    const files = new Set(chunks.map((c) => c.fileName))
    const libraries = withSession.flatMap((c) => c.imports).filter((i) => !files.has(i))
    expect(libraries).toContain("@noble/ciphers/chacha.js")
    // The relay's check of a JWT (with @noble's Ed25519) is the server's: no chunk of the library has it.
    expect(modulesOf(chunks).filter((id) => id.endsWith("walletconnect/protocol/relayAuth.ts"))).toEqual([])
    // (keccak, @noble/hashes/sha3, is the core's, for EIP-55 addresses)
    expect(libraries.filter((i) => i.startsWith("@noble/curves") || /^@noble\/hashes\/(sha2|hkdf|hmac)/.test(i))).toEqual([])
    const fallback = chunks.find((c) => c.moduleIds.some((id) => id.endsWith("src/services/walletconnect/protocol/noblePrimitives.ts")))!
    expect(withSession).not.toContain(fallback)
    expect(withSession.flatMap((c) => c.dynamicImports)).toContain(fallback.fileName)
    expect(fallback.imports.filter((i) => !files.has(i))).toEqual(expect.arrayContaining(["@noble/curves/ed25519"]))
    // The wallet's side of the protocol is the devstack's and the tests': no entry of the library reaches it.
    expect(modulesOf(chunks).filter((id) => id.endsWith("walletconnect/protocol/wallet.ts"))).toEqual([])
  })

  it("keeps wallet-runtime/testing to itself: no other entry reaches its test wallets, fakes or test layer, even lazily", () => {
    const reachable = (fileName: string): ReadonlyArray<Chunk> => {
      const seen = new Map<string, Chunk>()
      const walk = (name: string) => {
        if (seen.has(name) || !name.endsWith(".js")) return
        const chunk = chunks.find((c) => c.fileName === name)
        if (chunk === undefined) return
        seen.set(name, chunk)
        ;[...chunk.imports, ...chunk.dynamicImports].forEach(walk)
      }
      walk(fileName)
      return [...seen.values()]
    }
    const testingOnly = (id: string) => id === "src/testing.ts" || id === "src/layers/Test.ts" || id.startsWith("src/services/fakes/")
    expect(modulesOf(reachable("testing.js")).filter(testingOnly)).toEqual(
      expect.arrayContaining(["src/services/fakes/eip6963Wallet.ts", "src/services/fakes/solanaStandardWallet.ts", "src/services/fakes/bitcoinStandardWallet.ts", "src/services/fakes/injectedWeb3Wallet.ts"])
    )
    for (const entry of ["index.js", "react.js", "atoms.js"]) {
      expect(modulesOf(reachable(entry)).filter(testingOnly), entry).toEqual([])
    }
  })

  it("loads btc-signer only for a PSBT: the Bitcoin discovery and adapter do not import it, the PSBT chunk does", () => {
    const homeOf = (module: string) => chunks.find((c) => c.moduleIds.some((id) => id.endsWith(module)))!
    const psbt = homeOf("src/services/bip122/psbt.ts")
    const signer = (list: ReadonlyArray<Chunk>) => list.flatMap((c) => c.imports).filter((i) => i.startsWith("@scure/btc-signer"))
    for (const module of ["src/services/connectors/bitcoin.ts", "src/services/bip122/BitcoinAdapter.ts"]) {
      const atOnce = loadedAtOnce(homeOf(module).fileName)
      expect(atOnce.includes(psbt), module).toBe(false)
      expect(signer(atOnce), module).toEqual([])
    }
    expect(signer([psbt]).length).toBeGreaterThan(0)
    expect(homeOf("src/services/bip122/BitcoinAdapter.ts").dynamicImports).toContain(psbt.fileName)
  })

  it("fetches Bitcoin's address rules with the send form only for a bip122 account: an EVM send loads none of them", () => {
    const homeOf = (module: string) => chunks.find((c) => c.moduleIds.some((id) => id.endsWith(module)))!
    const sendLive = homeOf("src/services/SendLive.ts")
    const rules = homeOf("src/domain/bitcoinAddress.ts")
    const network = homeOf("src/domain/bitcoinNetwork.ts")
    const atOnce = loadedAtOnce(sendLive.fileName)
    expect(modulesOf(atOnce)).toContain("src/domain/send.ts")
    expect(atOnce.includes(rules)).toBe(false)
    expect(atOnce.includes(network)).toBe(false)
    expect(sendLive.dynamicImports).toContain(rules.fileName)
  })

  it("fetches the services' derived clients (effect/http-api) on the first service call, not with the core, and each group's declaration on its first call", () => {
    const client = chunks.find((c) => c.moduleIds.some((id) => id.endsWith("src/services/servicesApiClient.ts")))!
    expect(modulesOf([client])).toEqual(expect.arrayContaining(["src/domain/http/servicesApiOf.ts"]))
    expect(client.imports).toContain("effect/http-api")
    // The whole API's declaration is the server's; a page builds only the groups it calls.
    expect(chunks.some((c) => c.moduleIds.some((id) => id.endsWith("src/domain/http/ServicesApi.ts")))).toBe(false)
    for (const group of ["catalogue", "blockchain", "names", "sessions"]) {
      const declared = chunks.find((c) => c.moduleIds.some((id) => id.endsWith(`src/domain/http/${group}.ts`)))!
      expect(declared, group).not.toBe(client)
      expect(client.dynamicImports, group).toContain(declared.fileName)
    }
    const calls = chunks.find((c) => c.moduleIds.some((id) => id.endsWith("src/services/serviceCalls.ts")))!
    expect(calls.dynamicImports).toContain(client.fileName)
    for (const entry of ["index.js", "react.js"]) {
      const atStart = loadedAtOnce(entry)
      expect(atStart.includes(client), entry).toBe(false)
      expect(modulesOf(atStart).filter((id) => id.startsWith("src/domain/http/")), entry).toEqual([])
      expect(atStart.flatMap((c) => c.imports).filter((i) => i.startsWith("effect/http-api")), entry).toEqual([])
    }
    const core = chunks.find((c) => c.name === "core")!
    expect(core.imports.filter((i) => i.startsWith("effect/http-api"))).toEqual([])
  })

  it("asks the catalogue's pages on the modal's first open without effect/http-api: the catalogue's code fetches no derived client, even later", () => {
    const home = chunks.find((c) => c.moduleIds.some((id) => id.endsWith("src/services/WalletCatalogLive.ts")))!
    expect(modulesOf([home])).toContain("src/services/catalogueWallets.ts")
    // The core's service calls would fetch the derived clients on the catalogue's first request.
    expect(home.code).not.toMatch(/\bmakeServiceCalls\b/)
    const atOnce = loadedAtOnce(home.fileName)
    expect(atOnce.flatMap((c) => c.imports).filter((i) => i.startsWith("effect/http-api"))).toEqual([])
    expect(modulesOf(atOnce).filter((id) => id.startsWith("src/domain/http/") || id === "src/services/servicesApiClient.ts")).toEqual([])
    // Beyond what the page has already loaded, its only later fetch is the bundled list, for when the service cannot
    // be reached.
    const fallback = chunks.find((c) => c.moduleIds.some((id) => id.endsWith("src/services/walletCatalogFallback.ts")))!
    const beforeClick = loadedAtOnce("react.js").concat(chunks.filter((c) => ["core", "view"].includes(c.name)))
    expect(atOnce.filter((c) => !beforeClick.includes(c)).flatMap((c) => c.dynamicImports)).toEqual([fallback.fileName])
  })

  it("asks analytics' config and events (MODAL_OPEN: the modal's first open) without effect/http-api: the core fetches no derived client for them", () => {
    const home = chunks.find((c) => c.moduleIds.some((id) => id.endsWith("src/services/analyticsCalls.ts")))!
    const atOnce = loadedAtOnce(home.fileName)
    expect(atOnce.flatMap((c) => c.imports).filter((i) => i.startsWith("effect/http-api"))).toEqual([])
    expect(modulesOf(atOnce).filter((id) => id.startsWith("src/domain/http/") || id === "src/services/servicesApiClient.ts")).toEqual([])
    // Analytics (the core's) fetches its calls on its first event, and the core fetches the derived clients nowhere.
    const core = chunks.find((c) => c.name === "core")!
    expect(modulesOf([core])).toContain("src/services/Analytics.ts")
    expect(core.dynamicImports).toContain(home.fileName)
    expect(core.code).not.toMatch(/\bmakeServiceCalls\b/)
    const client = chunks.find((c) => c.moduleIds.some((id) => id.endsWith("src/services/servicesApiClient.ts")))!
    expect(core.dynamicImports).not.toContain(client.fileName)
    // Beyond what the page has already loaded, the calls fetch nothing later.
    const beforeClick = loadedAtOnce("react.js").concat(chunks.filter((c) => ["core", "view"].includes(c.name)))
    expect(atOnce.filter((c) => !beforeClick.includes(c)).flatMap((c) => c.dynamicImports)).toEqual([])
  })

  it("leaves FeatureUnavailable to the adapters that fail with it: the core and what react.js loads do not carry it", () => {
    const home = chunks.find((c) => c.moduleIds.some((id) => id.endsWith("src/domain/featureUnavailable.ts")))
    expect(home?.name).not.toMatch(/^(core|view|shell)$/)
    expect(loadedAtOnce("react.js").includes(home as Chunk)).toBe(false)
  })
})
