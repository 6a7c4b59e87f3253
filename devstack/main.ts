/**
 * The local stack in one command. `npm run devstack` (= `node --import tsx devstack/main.ts`, so that Ctrl-C reaches
 * this process itself) starts every part on loopback ports the OS chooses, writes `.devstack/runtime.json`, prints
 * the endpoints and stops everything on Ctrl-C; `npm start` (`--demo`) also serves the demo app. Tests import
 * {@link startDevstack} to run the stack, or some of its parts, in process.
 */
import { realpathSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { type Clock, Schema } from "effect"
import { CaipNetworkId } from "../src/domain/Caip"
import { removeRuntimeConfig, type RuntimeConfig, runtimeConfigPath, writeRuntimeConfig } from "./config"
import { type Database, type DatabaseOptions, databaseFromEnv } from "../server/src/db/index"
import { devMnemonic } from "./evm/accounts"
import type { EvmInfo } from "./evm/index"
import type { Started } from "../server/src/lib/Started"
import { within } from "../server/src/lib/within"
import type { BitcoinInfo } from "./bitcoin/index"
import type { MailInfo } from "./mail/index"
import { endpointRows } from "./status"
import { devProjectsFor } from "../server/src/services/projects"

/** The parts of the stack; `demo` serves the demo app (or the status page until it exists). */
export const DEVSTACK_PARTS = ["evm", "bundler", "solana", "bitcoin", "relay", "mail", "services", "embedded", "demo"] as const
/** One part of the stack. */
export type DevstackPart = (typeof DEVSTACK_PARTS)[number]

/**
 * What {@link startDevstack} starts, one bound each: the parts, with the services' `database` and the embedded
 * wallet's `identity` providers and Farcaster stand-ins (`farcasterRegistry`, `farcasterClient`) on their own.
 */
export type DevstackStep = DevstackPart | "database" | "identity" | "farcasterRegistry" | "farcasterClient"

/** What each step starts, in the words of its time-out. */
const STEP_NAMES: Record<DevstackStep, string> = {
  evm: "the EVM chains (anvil, and the contracts deployed on them)",
  bundler: "the bundler",
  solana: "the Solana JSON-RPC",
  bitcoin: "the Bitcoin regtest node",
  relay: "the relay",
  mail: "the SMTP sink",
  services: "the services",
  embedded: "the embedded wallet server",
  demo: "the demo",
  database: "the services' database",
  identity: "the embedded wallet's identity providers",
  farcasterRegistry: "the Farcaster id registry (deployed on the first chain)",
  farcasterClient: "the test Farcaster client"
}

/**
 * How long each part may take to start (module loading included) before {@link startDevstack} fails naming it. The
 * slowest honest start on record is a few seconds (the services with their database; the EVM part deploying its
 * contracts), on a loaded 2-core CI machine too, so a part past 45 s is stalled, not slow. And 45 s stays under the
 * test projects' hook bounds (60 s integration, 180 s browser): a stalled part fails a test file's `beforeAll` with
 * its own name instead of vitest's "Hook timed out", which names no part.
 */
export const DEVSTACK_START_BOUND_MS = 45_000

/** A part of the stack that did not start within its bound ({@link DevstackOptions.startBoundMs}). */
export class DevstackStartTimeout extends Error {
  override readonly name = "DevstackStartTimeout"
  constructor(
    readonly step: DevstackStep,
    readonly boundMs: number
  ) {
    super(`startDevstack: ${STEP_NAMES[step]} (part "${step}") did not start within ${boundMs} ms; the parts that had started are stopped`)
  }
}

/** What to start. */
export interface DevstackOptions {
  /** Parts to start (default: all but `demo`). The services serve the chains of whichever chain parts run. */
  readonly parts?: ReadonlyArray<DevstackPart>
  /** Write the runtime config: `true` for `.devstack/runtime.json`, or a path. Default: not written. */
  readonly writeConfig?: boolean | string
  /** Transactions per page of the history endpoint (default 20). */
  readonly historyPageSize?: number
  /** NFTs per page of the NFT endpoint (default `NFTS_PAGE_SIZE`, 24). */
  readonly nftPageSize?: number
  /** Build the test wallet page at start if its sources changed (the CLI does); otherwise on its first visit. */
  readonly buildTestWalletAtStart?: boolean
  /**
   * The services' database (`devstack/db`): PGlite in `dataDir`, a Postgres at `url`; default an empty PGlite in
   * memory, gone at stop. The CLI passes `DATABASE_URL` when set, else {@link devstackDataDir}.
   */
  readonly database?: DatabaseOptions
  /**
   * The embedded wallet server's master key (it seals the users' keys): the CLI keeps one beside its data directory
   * ({@link devstackMasterKeyPath}); default a new random one, right for a database gone at stop.
   */
  readonly embeddedMasterKey?: Uint8Array
  /**
   * The origins of the pages that may use the dev projects (`devProjectsFor`): the services answer them and the
   * embedded wallet's frame lets them embed it; any other page gets 'Unauthorized: origin not allowed'. More are
   * added with {@link DevstackInfo.allowAppOrigin} (the demo's, once it listens). Default none.
   */
  readonly appOrigins?: ReadonlyArray<string>
  /** The embedded wallet server's clock (default the system's): a browser test's TestClock, moved past its waits. */
  readonly embeddedClock?: Clock.Clock
  /**
   * The host name browsers reach the embedded wallet's frame by, on its server's port (default `localhost`): a name
   * under `*.localhost` (Chromium resolves those to loopback) puts the frame under a domain of its own.
   */
  readonly embeddedHost?: string
  /** The embedded wallet server's passkeys' relying party ID (`wallet.passkeyRpId`; default the frame's host name). */
  readonly embeddedPasskeyRpId?: string
  /**
   * How long a part may take to start, in ms, before the start fails with {@link DevstackStartTimeout}: one number for
   * every part, or some parts' own (`{ database: 2000 }`; the others keep the default). Default
   * {@link DEVSTACK_START_BOUND_MS}.
   */
  readonly startBoundMs?: number | Partial<Record<DevstackStep, number>>
}

/**
 * Where `npm run devstack` and `npm start` keep the services' PGlite database across restarts: `.devstack-data/pglite`
 * (gitignored), or `DEVSTACK_DATA_DIR`.
 */
export const devstackDataDir =
  process.env["DEVSTACK_DATA_DIR"] ?? fileURLToPath(new URL("../.devstack-data/pglite", import.meta.url))

/** Where the CLI keeps the embedded wallet server's master key: beside the PGlite data directory, owner-only. */
export const devstackMasterKeyPath =
  process.env["DEVSTACK_MASTER_KEY_FILE"] ?? fileURLToPath(new URL("../.devstack-data/wallet-master-key", import.meta.url))

/** A running stack: its runtime config, plus the live handles a config file cannot hold. */
export interface DevstackInfo {
  readonly config: RuntimeConfig
  /** Drops every relay connection and listens again on the same port (clients must resubscribe). */
  readonly restartRelay: (() => Promise<void>) | undefined
  /** The SMTP sink's in-process inbox (`waitForMail`), when the mail part runs. */
  readonly mail: MailInfo | undefined
  /** The EVM part with its dev accounts' private keys typed for viem, when it runs. */
  readonly evm: EvmInfo | undefined
  /** The regtest node (mine, fund, inspect in process), when the bitcoin part runs. */
  readonly bitcoin: BitcoinInfo | undefined
  /** The services' and wallet server's database, when the services part runs (tests read and seed it). */
  readonly database: Database | undefined
  /** Lets the page at `origin` (e.g. a demo served once the stack runs) use the dev projects, as `appOrigins` does. */
  readonly allowAppOrigin: (origin: string) => void
}

/**
 * `start()` within `ms`, else a {@link DevstackStartTimeout} naming `step`. A start that ends after its bound is
 * stopped (`late`) as soon as it does, so nothing it opened outlives the failed start.
 */
const bounded = <A>(step: DevstackStep, ms: number, start: () => Promise<A>, late: (value: A) => Promise<void>): Promise<A> => {
  const started = start()
  return within(started, ms, () => {
    started.then(late).catch(() => undefined)
    return new DevstackStartTimeout(step, ms)
  })
}

const stopAll = async (parts: ReadonlyArray<Started<unknown>>): Promise<void> => {
  const results = await Promise.allSettled([...parts].reverse().map((part) => part.stop()))
  const failed = results.find((result) => result.status === "rejected")
  if (failed !== undefined) throw failed.reason
}

/** Starts the chosen parts of the local stack (in parallel where they do not depend on each other). */
export const startDevstack = async (opts: DevstackOptions = {}): Promise<Started<DevstackInfo>> => {
  const began = performance.now()
  // One list shared by the dev projects of the services and of the wallet server, read at each request.
  const appOrigins: Array<string> = []
  const allowAppOrigin = (origin: string) => {
    const exact = new URL(origin).origin
    if (!appOrigins.includes(exact)) appOrigins.push(exact)
  }
  for (const origin of opts.appOrigins ?? []) allowAppOrigin(origin)
  const projects = devProjectsFor(appOrigins)
  const parts = new Set<DevstackPart>(opts.parts ?? DEVSTACK_PARTS.filter((part) => part !== "demo"))
  const running: Array<Started<unknown>> = []
  // Every start under way, settled or not: a failure waits for them all (each bounded) before stopping what runs.
  const underWay: Array<Promise<unknown>> = []
  const boundOf = (step: DevstackStep): number =>
    typeof opts.startBoundMs === "number" ? opts.startBoundMs : (opts.startBoundMs?.[step] ?? DEVSTACK_START_BOUND_MS)
  const track = <I>(step: DevstackStep, start: () => Promise<Started<I>>): Promise<Started<I>> => {
    const started = bounded(step, boundOf(step), start, (part) => part.stop()).then((part) => {
      running.push(part)
      return part
    })
    underWay.push(started.catch(() => undefined))
    return started
  }

  try {
    // Chains, relay and mail need nothing else: all start at once, and all settle before a failure is handled,
    // so none is left running unseen. Modules load only for the parts asked for.
    const settled = await Promise.allSettled([
      parts.has("evm") ? track("evm", () => import("./evm/index").then((m) => m.startEvm())) : undefined,
      parts.has("solana") ? track("solana", () => import("./solana/index").then((m) => m.startSolana())) : undefined,
      parts.has("relay") ? track("relay", () => import("../server/src/relay/index").then((m) => m.startRelay())) : undefined,
      parts.has("mail") ? track("mail", () => import("./mail/index").then((m) => m.startMail())) : undefined,
      // The services' database starts beside the chains rather than after them (PGlite takes 0.3-0.5 s).
      parts.has("services") ? track("database", () => import("../server/src/db/index").then((m) => m.startDatabase(opts.database))) : undefined,
      parts.has("bitcoin") ? track("bitcoin", () => import("./bitcoin/index").then((m) => m.startBitcoin())) : undefined,
      // The social providers' local stand-ins, for the embedded wallet's social login.
      parts.has("embedded") ? track("identity", () => import("./identity/index").then((m) => m.startIdentityProviders())) : undefined
    ] as const)
    for (const result of settled) if (result.status === "rejected") throw result.reason
    const valueOf = <T>(result: PromiseSettledResult<T>): T | undefined =>
      result.status === "fulfilled" ? result.value : undefined
    const evm = valueOf(settled[0])
    // The bundler serves the chains with the keys the EVM part funded; its paymaster pays for every operation.
    if (parts.has("bundler") && evm === undefined) throw new Error("the bundler part needs the evm part")
    // Settled (not left rejected) while the other parts start, and handled with them below.
    const bundlerSettled =
      parts.has("bundler") && evm !== undefined
        ? track("bundler", () => import("./evm/bundler").then((m) => m.startDevBundler(evm.info))).then(
            (value) => ({ ok: true as const, value }),
            (error: unknown) => ({ ok: false as const, error })
          )
        : undefined
    const solana = valueOf(settled[1])
    const relay = valueOf(settled[2])
    const mail = valueOf(settled[3])
    const database = valueOf(settled[4])
    const bitcoin = valueOf(settled[5])
    const identity = valueOf(settled[6])
    const socialProjects = identity === undefined ? undefined : (await import("./identity/index")).withSocials(identity.info, projects)
    // Farcaster's stand-in for the embedded wallet: the id registry on the first local chain, and the test client.
    const firstChain = evm?.info.chains[0]
    const farcasterModule = parts.has("embedded") && firstChain !== undefined ? await import("./farcaster/index") : undefined
    const [farcasterRegistry, farcasterClient] =
      farcasterModule === undefined || firstChain === undefined
        ? [undefined, undefined]
        : await Promise.all([
            bounded("farcasterRegistry", boundOf("farcasterRegistry"), () => farcasterModule.deployFarcasterRegistry(firstChain.chainId, firstChain.rpcUrl), async () => undefined),
            track("farcasterClient", () => farcasterModule.startFarcasterClient())
          ])
    // The Solana part names its network by its genesis hash, as CAIP-2 asks.
    const solanaCaip = solana === undefined ? undefined : Schema.decodeSync(CaipNetworkId)(solana.info.caipNetworkId)
    // The embedded wallet (wallet server and frame site) needs the mail sink and the database; it signs on the chains.
    const embeddedStarted =
      parts.has("embedded") && mail !== undefined && database !== undefined
        ? track("embedded", () =>
            // After the bundler (it starts at once): the wallet server sends the smart accounts' operations through it.
            Promise.all([import("../server/src/embedded/index"), bundlerSettled]).then(([m, bundlerStart]) =>
              m.startEmbedded({
                database: database.info,
                smtp: { host: mail.info.smtpHost, port: mail.info.smtpPort },
                chains: {
                  evm: (evm?.info.chains ?? []).map((chain) => ({
                    caipNetworkId: chain.caipNetworkId,
                    rpcUrl: chain.rpcUrl,
                    ...(bundlerStart?.ok === true
                      ? {
                          smartAccount: {
                            bundlerUrl: `${bundlerStart.value.info.url}/rpc/${chain.chainId}`,
                            entryPoint: chain.contracts.accountAbstraction.entryPoint,
                            factory: chain.contracts.accountAbstraction.walletAccountFactory
                          }
                        }
                      : {})
                  })),
                  ...(solana === undefined ? {} : { solana: { caipNetworkId: solana.info.caipNetworkId, rpcUrl: solana.info.rpcUrl } })
                },
                ...(opts.embeddedMasterKey === undefined ? {} : { masterKey: opts.embeddedMasterKey }),
                projects: socialProjects ?? projects,
                ...(farcasterRegistry === undefined ? {} : { farcaster: farcasterRegistry }),
                server: {
                  ...(opts.embeddedClock === undefined ? {} : { clock: opts.embeddedClock }),
                  ...(opts.embeddedPasskeyRpId === undefined ? {} : { passkeyRpId: opts.embeddedPasskeyRpId })
                },
                // The frame on its own host name: no other local page (all on 127.0.0.1) shares its storage.
                publicHost: opts.embeddedHost ?? "localhost",
                ...(opts.buildTestWalletAtStart === undefined ? {} : { buildFrameAtStart: opts.buildTestWalletAtStart })
              })
            )
          )
        : undefined
    if (parts.has("embedded") && embeddedStarted === undefined) {
      throw new Error("the embedded part needs the mail and services parts (the SMTP sink and the database)")
    }
    // Settled before a failure of the services is handled, so the wallet server is not left running unseen.
    const embeddedSettled = embeddedStarted?.then(
      (value) => ({ ok: true as const, value }),
      (error: unknown) => ({ ok: false as const, error })
    )
    const services = parts.has("services")
      ? await track("services", () =>
          import("./services").then((m) =>
            m.startServices({
              ...(evm === undefined ? {} : { evm: evm.info }),
              projects,
              ...(relay === undefined ? {} : { relayUrl: relay.info.url }),
              ...(opts.buildTestWalletAtStart === undefined ? {} : { buildTestWalletAtStart: opts.buildTestWalletAtStart }),
              ...(database === undefined ? {} : { database: database.info }),
              ...(solana === undefined || solanaCaip === undefined
                ? {}
                : {
                    solana: {
                      caipNetworkId: solanaCaip,
                      rpcUrl: solana.info.rpcUrl,
                      tokens: solana.info.tokens
                    }
                  }),
              ...(opts.historyPageSize === undefined ? {} : { historyPageSize: opts.historyPageSize }),
              ...(opts.nftPageSize === undefined ? {} : { nftPageSize: opts.nftPageSize })
            })
          )
        )
      : undefined

    const bundlerResult = await bundlerSettled
    const embeddedResult = await embeddedSettled
    if (bundlerResult !== undefined && !bundlerResult.ok) throw bundlerResult.error
    const bundler = bundlerResult?.value
    if (embeddedResult !== undefined && !embeddedResult.ok) throw embeddedResult.error
    const embedded = embeddedResult?.value
    if (embedded !== undefined) identity?.info.setRedirectUri(`${embedded.info.publicUrl}/social/callback`)
    if (embedded !== undefined) farcasterClient?.info.setRelayUrl(embedded.info.url)

    const configPath = opts.writeConfig === true ? runtimeConfigPath : opts.writeConfig || undefined
    let config: RuntimeConfig = {
      version: 1,
      pid: process.pid,
      startedAt: new Date().toISOString(),
      startupMs: 0,
      evm:
        evm === undefined
          ? null
          : {
              mnemonic: devMnemonic,
              accounts: evm.info.accounts,
              chains: evm.info.chains.map((chain) => ({
                chainId: chain.chainId,
                caipNetworkId: chain.caipNetworkId,
                rpcUrl: chain.rpcUrl,
                pid: chain.pid,
                tokens: chain.contracts.tokens,
                collectible: chain.contracts.collectible,
                spamCollectible: chain.contracts.spamCollectible,
                smartAccounts: chain.contracts.smartAccounts,
                uniswap: chain.contracts.uniswap,
                accountAbstraction: {
                  entryPoint: chain.contracts.accountAbstraction.entryPoint,
                  simpleAccountFactory: chain.contracts.accountAbstraction.simpleAccountFactory,
                  walletAccountFactory: chain.contracts.accountAbstraction.walletAccountFactory,
                  paymaster: chain.contracts.accountAbstraction.paymaster
                }
              }))
            },
      solana:
        solana === undefined || solanaCaip === undefined
          ? null
          : {
              caipNetworkId: solanaCaip,
              rpcUrl: solana.info.rpcUrl,
              wsUrl: solana.info.wsUrl,
              funded: solana.info.funded,
              tokens: solana.info.tokens
            },
      bitcoin:
        bitcoin === undefined
          ? null
          : {
              caipNetworkId: Schema.decodeSync(CaipNetworkId)(bitcoin.info.caipNetworkId),
              url: bitcoin.info.url,
              funded: bitcoin.info.funded
            },
      relay: relay === undefined ? null : { url: relay.info.url },
      bundler: bundler === undefined ? null : { url: bundler.info.url, chainIds: bundler.info.chainIds },
      services:
        services === undefined
          ? null
          : {
              url: services.info.url,
              rpcProxyUrl: `${services.info.url}/v1/`,
              defaultProjectId: services.info.projects[0]?.projectId ?? "",
              projects: services.info.projects,
              testWalletUrl: services.info.testWalletUrl,
              ...(services.info.onrampUrl === undefined ? {} : { onrampUrl: services.info.onrampUrl })
            },
      mail:
        mail === undefined
          ? null
          : { smtpHost: mail.info.smtpHost, smtpPort: mail.info.smtpPort, inboxUrl: mail.info.inboxUrl },
      embedded: embedded === undefined ? null : { frameUrl: embedded.info.publicUrl },
      identity:
        identity === undefined
          ? null
          : { providers: Object.values(identity.info.providers).map(({ provider, kind, issuer }) => ({ provider, kind, issuer })) },
      farcaster:
        farcasterRegistry === undefined || farcasterClient === undefined || firstChain === undefined
          ? null
          : { clientUrl: farcasterClient.info.url, idRegistry: farcasterRegistry.idRegistry, caipNetworkId: firstChain.caipNetworkId },
      demo: null
    }
    const publish = () => {
      config = { ...config, startupMs: Math.round(performance.now() - began) }
      if (configPath !== undefined) writeRuntimeConfig(config, configPath)
    }
    // The demo's Vite config reads the runtime file, so it is written before the demo starts, and again after.
    publish()
    if (parts.has("demo")) {
      const demo = await track("demo", () => import("./demo").then((m) => m.startDemo(() => config)))
      allowAppOrigin(demo.info.url)
      config = { ...config, demo: demo.info }
      publish()
    }

    let stopping: Promise<void> | undefined
    const stop = () => {
      stopping ??= stopAll(running).finally(() => {
        if (configPath !== undefined) removeRuntimeConfig(process.pid, configPath)
      })
      return stopping
    }
    return {
      info: {
        get config() {
          return config
        },
        restartRelay: relay?.info.restart,
        mail: mail?.info,
        evm: evm?.info,
        bitcoin: bitcoin?.info,
        database: database?.info,
        allowAppOrigin: (origin) => {
          allowAppOrigin(origin)
          // The runtime file lists each project's origins: written again with the new one.
          if (configPath !== undefined) writeRuntimeConfig(config, configPath)
        }
      },
      stop
    }
  } catch (error) {
    // Starts still under way (each within its bound) finish first, so that what they open is stopped too.
    await Promise.all(underWay)
    await stopAll(running).catch(() => undefined)
    throw error
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

const runCli = async (): Promise<void> => {
  const withDemo = process.argv.includes("--demo")
  const parts = DEVSTACK_PARTS.filter((part) => part !== "demo" || withDemo)
  let stack: Started<DevstackInfo> | undefined
  let exiting = false
  const shutdown = (signal: string) => {
    if (exiting) {
      // A second Ctrl-C: the process-group registry kills what is left on exit.
      process.exit(1)
    }
    exiting = true
    console.log(`\n${signal}: stopping the devstack…`)
    const stopped = stack === undefined ? Promise.resolve() : stack.stop()
    stopped.then(
      () => process.exit(0),
      (error: unknown) => {
        console.error("devstack: stop failed:", error)
        process.exit(1)
      }
    )
  }
  for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"] as const) process.on(signal, () => shutdown(signal))

  const database = databaseFromEnv(devstackDataDir)
  // Pages of your own app that may use the dev projects beside the demo, e.g. `http://localhost:5173`.
  const appOrigins = (process.env["DEVSTACK_APP_ORIGINS"] ?? "").split(",").map((origin) => origin.trim()).filter((origin) => origin !== "")
  for (const origin of appOrigins) {
    if (!URL.canParse(origin) || !/^https?:$/.test(new URL(origin).protocol)) {
      console.error(`devstack: DEVSTACK_APP_ORIGINS: ${JSON.stringify(origin)} is not an http(s) origin such as http://localhost:5173`)
      process.exit(1)
    }
  }
  try {
    const embeddedMasterKey = (await import("../server/src/embedded/index")).masterKeyFile(devstackMasterKeyPath)
    stack = await startDevstack({ parts, writeConfig: true, buildTestWalletAtStart: true, database, embeddedMasterKey, appOrigins })
  } catch (error) {
    console.error("devstack: failed to start:", error instanceof Error ? error.message : error)
    process.exit(1)
  }
  if (exiting) return
  const config = stack.info.config
  const width = Math.max(...endpointRows(config).map(([label]) => label.length))
  console.log(`wallet-runtime devstack up in ${config.startupMs} ms — runtime config: ${runtimeConfigPath}`)
  for (const [label, value] of endpointRows(config)) console.log(`  ${label.padEnd(width)}  ${value}`)
  const where = "url" in database ? "the Postgres of DATABASE_URL" : `PGlite in ${database.dataDir} (kept across restarts)`
  console.log(`  ${"database".padEnd(width)}  ${where}`)
  console.log("Ctrl-C stops everything.")
}

if (isEntryPoint()) void runCli()
