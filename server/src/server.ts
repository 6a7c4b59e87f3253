/**
 * The server a host runs, from its decoded configuration: the database once (shared by the services and the wallet
 * server), then the configured components — the services API, the WalletConnect relay, the embedded wallet (frame
 * site and wallet server), the ERC-4337 bundler and paymaster — each started with its module's own function and stopped, in reverse order, when the
 * scope closes. One JSON log line per component says where it listens and where browsers reach it; no secret is
 * ever in a line. A component's module loads only when it runs: a process of some components does not pay seconds of
 * start for the others' code (the embedded wallet's alone took 2.5-3.5 s to load on a loaded 2-core machine).
 *
 * @example
 * yield* Effect.scoped(Effect.andThen(startServer(config), Effect.never)) // stops everything when interrupted
 */
import { resolve } from "node:path"
import { Data, Effect, LogLevel, Redacted, References, Schema, Scope } from "effect"
import { getAddress } from "viem"
import { CaipNetworkId } from "../../src/domain/Caip"
import { type Database, startDatabase } from "./db/index"
import type { Started } from "./lib/Started"
import { type SmtpMailer, smtpMailer } from "./mail/smtp"
import type { ServerConfig } from "./config/schema"
import { envNameOf } from "./config/schema"
import type { ServicesEvmChain, ServicesOptions } from "./services/index"
import { readCatalogueFile } from "./services/catalogue"
import { fixedPrices, jsonFeedPrices } from "./services/prices"
import { type LocalOnrampAsset, localOnrampProvider } from "./services/onramp/local"
import type { DevProject } from "./services/projects"

/** A component could not start (its port taken, its database unreachable…); the message names it. */
export class StartError extends Data.TaggedError("StartError")<{ readonly component: string; readonly message: string }> {}

/** What one running component is, for the log and for callers. */
export interface RunningComponent {
  readonly component: "services" | "relay" | "wallet" | "bundler"
  /** Where it listens. */
  readonly listen: string
  /** Where browsers reach it (the configured public URL, else the listen address). */
  readonly url: string
}

// The address a component listens on, brackets around an IPv6 host.
const listenUrl = (scheme: string, host: string, port: number) => `${scheme}://${host.includes(":") ? `[${host}]` : host}:${port}`

const withoutTrailingSlash = (url: string) => url.replace(/\/+$/, "")

// A Postgres URL as it may be logged: no user, no password, no parameters.
const databaseWhere = (url: string) => {
  const parsed = new URL(url)
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}`
}

// The error's words, then its causes' (a driver's "Failed to connect" says why only further down: ECONNREFUSED…).
const messageOf = (error: unknown): string => {
  const words: Array<string> = []
  for (let at: unknown = error, depth = 0; at !== undefined && depth < 5; depth++) {
    const text = at instanceof Error ? at.message : String(at)
    if (text !== "" && !words.some((said) => said.includes(text))) words.push(text)
    at = at instanceof Error ? at.cause : undefined
  }
  return words.join(": ")
}

/** A part started by its module's function, stopped when the scope closes; a failed stop is logged, not hidden. */
const part = <I>(component: string, start: () => Promise<Started<I>>): Effect.Effect<Started<I>, StartError, Scope.Scope> =>
  Effect.acquireRelease(
    Effect.tryPromise({ try: start, catch: (error) => new StartError({ component, message: `${component}: ${messageOf(error)}` }) }),
    (started) =>
      Effect.tryPromise(started.stop).pipe(
        Effect.andThen(Effect.logDebug(`${component} stopped`)),
        Effect.catch((error) => Effect.logError(`${component} did not stop cleanly: ${messageOf(error.cause)}`))
      )
  )

/** The services' view of the configured projects. */
const projectsOf = (config: ServerConfig): ReadonlyArray<DevProject> =>
  config.projects.map((project) => ({
    projectId: project.projectId,
    description: "a project of the server's configuration",
    allowedOrigins: project.allowedOrigins === "loopback" ? "loopback" : project.allowedOrigins.map((origin) => new URL(origin).origin),
    analyticsEnabled: project.analytics,
    ...(project.socials === undefined ? {} : { socials: project.socials })
  }))

/** A configured chain's RPC URLs: the first, and the others to fail over to. */
const upstreamOf = (rpcUrls: ReadonlyArray<string>) => {
  const [rpcUrl, ...fallbackRpcUrls] = rpcUrls
  // The Schema asks for at least one URL.
  return rpcUrl === undefined ? [] : [{ rpcUrl, fallbackRpcUrls }]
}

/** The services' view of the configured chains: no dev contracts, every upstream RPC URL. */
const chainsOf = (config: ServerConfig): Pick<ServicesOptions, "evm" | "solana"> => {
  const evm: Array<ServicesEvmChain> = []
  let solana: ServicesOptions["solana"]
  for (const [id, chain] of Object.entries(config.chains)) {
    const [upstream] = upstreamOf(chain.rpcUrls)
    if (upstream === undefined) continue
    const name = chain.name === undefined ? {} : { name: chain.name }
    if (id.startsWith("eip155:")) {
      evm.push({
        chainId: Number(id.slice("eip155:".length)),
        caipNetworkId: Schema.decodeSync(CaipNetworkId)(id),
        ...upstream,
        ...name,
        history: chain.history,
        contracts: { tokens: chain.tokens.map((token) => ({ ...token, address: getAddress(token.address) })) },
        ...(chain.swap === undefined ? {} : { swap: { uniswapV2Router: getAddress(chain.swap.uniswapV2Router) } })
      })
    } else {
      solana = { caipNetworkId: id, ...upstream, tokens: chain.tokens, ...name }
    }
  }
  return { evm: { chains: evm }, ...(solana === undefined ? {} : { solana }) }
}

/** What the on-ramp sells: the coin (ETH) and the `tokens` of each eip155 chain, one entry per symbol with its networks. */
const onrampAssetsOf = (config: ServerConfig): ReadonlyArray<LocalOnrampAsset> => {
  const bySymbol = new Map<string, { symbol: string; name: string; decimals: number; networks: Array<string> }>()
  for (const [id, chain] of Object.entries(config.chains)) {
    if (!id.startsWith("eip155:")) continue
    for (const asset of [{ symbol: "ETH", name: "Ether", decimals: 18 }, ...chain.tokens]) {
      const entry = bySymbol.get(asset.symbol) ?? { symbol: asset.symbol, name: asset.name, decimals: asset.decimals, networks: [] }
      entry.networks.push(id)
      bySymbol.set(asset.symbol, entry)
    }
  }
  return [...bySymbol.values()]
}

/** The HTTP edges both HTTP components share: body limit, receive bounds, drain on stop, access log. */
const httpLimits = (config: ServerConfig) => ({
  maxBodyBytes: config.limits.maxBodyBytes,
  requestTimeoutMs: config.limits.requestTimeoutMs,
  headersTimeoutMs: config.limits.headersTimeoutMs,
  drainMs: config.limits.drainMs,
  accessLog: config.log.accessLog
})

/**
 * Starts what `config` asks for and logs where each component is; everything stops when the scope closes. A
 * component that cannot start fails the whole start (what did start is stopped again).
 */
export const startServer = Effect.fn("startServer")(function* (config: ServerConfig) {
  const runs = (component: RunningComponent["component"]) => config.components.includes(component)
  const running: Array<RunningComponent> = []
  const context = yield* Effect.context<never>()
  // The relay reports what it does as plain lines: they become debug log lines. Below the debug level nothing is
  // started for them (the relay reports every request: a fiber each would cost more than relaying the message).
  const debugOn = LogLevel.isGreaterThanOrEqualTo("Debug", yield* References.MinimumLogLevel)
  const debugLine = debugOn ? (line: string) => void Effect.runForkWith(context)(Effect.logDebug(line)) : undefined

  // Before anything listens: a catalogue file or a master key that cannot be used stops the start at once.
  const catalogue =
    runs("services") && config.catalogue.file !== undefined
      ? yield* readCatalogueFile(resolve(config.catalogue.file), `catalogue.file (${envNameOf(["catalogue", "file"])})`)
      : undefined
  const masterKey = runs("wallet")
    ? yield* (yield* Effect.promise(() => import("./masterKey"))).loadMasterKey({
        path: config.wallet.masterKeyFile,
        create: config.wallet.createMasterKey,
        setting: `wallet.masterKeyFile (${envNameOf(["wallet", "masterKeyFile"])})`
      })
    : undefined

  let database: Database | undefined
  if (runs("services") || runs("wallet")) {
    const url = config.database.url === undefined ? undefined : Redacted.value(config.database.url)
    const dataDir = resolve(config.database.dataDir)
    const where = url === undefined ? `database (PGlite in ${dataDir})` : `database (${databaseWhere(url)})`
    database = (yield* part(where, () => startDatabase(url === undefined ? { dataDir } : { url }))).info
    yield* Effect.logInfo("database ready, migrations applied").pipe(
      Effect.annotateLogs(url === undefined ? { component: "database", kind: "pglite", dataDir } : { component: "database", kind: "postgres", at: databaseWhere(url) })
    )
  }

  // Made before the wallet and closed after it: a mail of a request still draining goes out.
  let mail: { readonly mailer: SmtpMailer; readonly host: string; readonly from: string } | undefined
  if (runs("wallet")) {
    const { host, from } = config.smtp
    // The configuration requires both with the wallet; this keeps the types honest.
    if (host === undefined || from === undefined) return yield* new StartError({ component: "wallet", message: "wallet: smtp.host and smtp.from are required" })
    const mailer = yield* Effect.acquireRelease(
      Effect.sync(() =>
        smtpMailer({ host, port: config.smtp.port, security: config.smtp.security, user: config.smtp.user, password: config.smtp.password, from })
      ),
      (mailer) => Effect.sync(mailer.close)
    )
    mail = { mailer, host, from }
  }

  // The components stop together, so that their drains overlap within one drainMs; the mailer and the database after.
  const components = yield* Scope.fork(yield* Effect.scope, "parallel")
  const inComponents = Scope.provide(components)

  if (runs("services") && database !== undefined) {
    const publicUrl = config.services.publicUrl === undefined ? undefined : withoutTrailingSlash(config.services.publicUrl)
    const prices =
      config.prices.feedUrl === undefined
        ? fixedPrices(config.prices.fixed)
        : jsonFeedPrices({ url: config.prices.feedUrl, ttlMs: config.prices.feedTtlMs })
    const started = yield* inComponents(part("services", () =>
      import("./services/index").then(({ startServices }) => startServices({
        ...chainsOf(config),
        database,
        host: config.services.host,
        port: config.services.port,
        ...(publicUrl === undefined ? {} : { publicUrl }),
        projects: projectsOf(config),
        ...(catalogue === undefined ? {} : { catalogue }),
        names: { suffix: config.names.suffix, seeds: [] },
        prices,
        ...(config.onramp.pageUrl === undefined
          ? {}
          : { onrampProvider: localOnrampProvider({ pageUrl: config.onramp.pageUrl, settings: config.onramp, assets: onrampAssetsOf(config), prices }) }),
        routeTimeoutMs: config.limits.routeTimeoutMs,
        rpcAttemptTimeoutMs: config.limits.upstreamTimeoutMs,
        http: httpLimits(config)
      }))
    ))
    const listen = listenUrl("http", config.services.host, started.info.port)
    running.push({ component: "services", listen, url: publicUrl ?? listen })
  }

  if (runs("relay")) {
    const publicUrl = config.relay.publicUrl === undefined ? undefined : withoutTrailingSlash(config.relay.publicUrl)
    const started = yield* inComponents(
      part("relay", () =>
        import("./relay/index").then(({ startRelay }) => startRelay({
          host: config.relay.host,
          port: config.relay.port,
          ...(debugLine === undefined ? {} : { log: debugLine }),
          limits: {
            publishesPerSecond: config.limits.relayPublishesPerSecond,
            publishBurst: config.limits.relayPublishBurst,
            maxMessageChars: config.limits.relayMaxMessageChars,
            maxTopicsPerConnection: config.limits.relayMaxTopicsPerConnection
          },
          ...(publicUrl === undefined ? {} : { publicUrl }),
          ...(config.redis.url === undefined ? {} : { redisUrl: Redacted.value(config.redis.url) })
        }))
      )
    )
    running.push({ component: "relay", listen: started.info.url, url: publicUrl ?? started.info.url })
  }

  let bundlerUrl: string | undefined
  if (runs("bundler")) {
    const privateKey = config.bundler.privateKey
    // The configuration requires the key with the bundler; this keeps the types honest.
    if (privateKey === undefined) return yield* new StartError({ component: "bundler", message: "bundler: bundler.privateKey is required" })
    const publicUrl = config.bundler.publicUrl === undefined ? undefined : withoutTrailingSlash(config.bundler.publicUrl)
    const { paymaster } = config
    const sponsoring = paymaster.sponsor !== "none" && paymaster.address !== undefined && paymaster.signerKey !== undefined
    const started = yield* inComponents(
      part("bundler", () =>
        import("./bundler/index").then(({ startBundler }) => startBundler({
          chains: Object.entries(config.chains).flatMap(([id, chain]) =>
            id.startsWith("eip155:") ? [{ chainId: Number(id.slice("eip155:".length)), rpcUrls: chain.rpcUrls }] : []
          ),
          entryPoint: getAddress(config.bundler.entryPoint),
          privateKey: Redacted.value(privateKey) as `0x${string}`,
          maxOpsPerBundle: config.bundler.maxOpsPerBundle,
          receiptLookbackBlocks: config.bundler.receiptLookbackBlocks,
          host: config.bundler.host,
          port: config.bundler.port,
          ...(publicUrl === undefined ? {} : { publicUrl }),
          maxBodyBytes: config.limits.maxBodyBytes,
          rpcAttemptTimeoutMs: config.limits.upstreamTimeoutMs,
          log: (line, fields) => void Effect.runForkWith(context)(Effect.logInfo(line).pipe(Effect.annotateLogs({ component: "bundler", ...fields }))),
          ...(sponsoring && paymaster.address !== undefined && paymaster.signerKey !== undefined
            ? {
                paymaster: {
                  address: getAddress(paymaster.address),
                  signerKey: Redacted.value(paymaster.signerKey) as `0x${string}`,
                  policy: { sponsor: paymaster.sponsor, senders: paymaster.senders.map((sender) => getAddress(sender)), maxGasPerOp: BigInt(paymaster.maxGasPerOp) },
                  validForSeconds: paymaster.validForSeconds
                }
              }
            : {})
        }))
      )
    )
    const listen = listenUrl("http", config.bundler.host, started.info.port)
    bundlerUrl = publicUrl ?? listen
    running.push({ component: "bundler", listen, url: bundlerUrl })
  }

  if (runs("wallet") && database !== undefined && masterKey !== undefined && mail !== undefined) {
    const { mailer, host, from } = mail
    const publicUrl = config.wallet.publicUrl === undefined ? undefined : new URL(config.wallet.publicUrl).origin
    const walletDatabase = database
    // Smart accounts when the host named the factory, through its bundler (or this process's).
    const factory = config.smartAccounts.factory
    const smartBundler = config.smartAccounts.bundlerUrl === undefined ? bundlerUrl : withoutTrailingSlash(config.smartAccounts.bundlerUrl)
    const smartAccounts =
      factory === undefined || smartBundler === undefined
        ? undefined
        : { bundlerUrl: smartBundler, entryPoint: getAddress(config.bundler.entryPoint), factory: getAddress(factory) }
    const started = yield* inComponents(part("wallet", () =>
      import("./embedded/index").then(({ startEmbedded }) => startEmbedded({
        database: walletDatabase,
        smtp: { host, port: config.smtp.port },
        chains: {
          evm: Object.entries(config.chains).flatMap(([id, chain]) =>
            id.startsWith("eip155:")
              ? upstreamOf(chain.rpcUrls).map((upstream) => ({
                  caipNetworkId: id,
                  ...upstream,
                  ...(smartAccounts === undefined ? {} : { smartAccount: { ...smartAccounts, bundlerUrl: `${smartAccounts.bundlerUrl}/rpc/${id.slice("eip155:".length)}` } })
                }))
              : []
          ),
          solana: Object.entries(config.chains).flatMap(([id, chain]) =>
            id.startsWith("solana:") ? upstreamOf(chain.rpcUrls).map((upstream) => ({ caipNetworkId: id, ...upstream })) : []
          )[0],
          rpcAttemptTimeoutMs: config.limits.upstreamTimeoutMs
        },
        masterKey,
        // A visitor's first "Continue with email" should not wait for the frame page's bundling.
        buildFrameAtStart: true,
        frameBuildDir: resolve(config.wallet.frameBuildDir),
        host: config.wallet.host,
        port: config.wallet.port,
        projects: projectsOf(config),
        ...(publicUrl === undefined ? {} : { publicUrl }),
        ...(config.wallet.farcasterRpcUrl === undefined
          ? {}
          : { farcaster: { rpcUrl: config.wallet.farcasterRpcUrl, idRegistry: config.wallet.farcasterIdRegistry } }),
        server: {
          from,
          sendMail: mailer.send,
          http: { ...httpLimits(config), trustedProxies: config.wallet.trustedProxies },
          freshLoginMs: config.wallet.freshLoginMs,
          visitorLimits: {
            passkey: config.limits.walletPasskeyPerMinute,
            farcasterRelay: config.limits.walletFarcasterRelayPerMinute,
            loginStart: config.limits.walletLoginStartsPerMinute,
            keyExport: config.limits.walletKeyExportPerMinute,
            longPolls: config.limits.walletLongPollsPerAddress,
            longPollsInProcess: config.limits.walletLongPollsPerProcess
          },
          ...(config.wallet.passkeyRpId === undefined ? {} : { passkeyRpId: config.wallet.passkeyRpId })
        }
      }))
    ))
    const listen = started.info.url
    running.push({ component: "wallet", listen, url: publicUrl ?? listen })
  }

  for (const component of running) {
    yield* Effect.logInfo(`${component.component} listening`).pipe(
      Effect.annotateLogs({ component: component.component, listen: component.listen, url: component.url })
    )
  }
  return running as ReadonlyArray<RunningComponent>
})
