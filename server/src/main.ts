/**
 * `wallet-runtime-server` (`server/bin/wallet-runtime-server.mjs`, `npm run server` at the repository's root): reads
 * the configuration once (`--config <file.json>` or `WALLET_RUNTIME_CONFIG`, the environment over the file), starts
 * the configured components, and logs JSON lines (errors and warnings on stderr, the rest on stdout). On SIGTERM or
 * SIGINT it stops accepting, lets requests in flight finish and closes the relay's sockets (code 1001, going away)
 * within the configured drain time, then exits 0. A configuration that cannot be used, or a component that cannot
 * start, exits 1 with the reason (naming the setting) on stderr.
 */
import { NodeFileSystem, NodeRuntime } from "@effect/platform-node"
import { Cause, Config, ConfigProvider, Data, Effect, Exit, Fiber, Logger, type LogLevel, Option, References, Runtime, Scope } from "effect"
import { CONFIG_FILE_VARIABLE, type ConfigFile, loadServerConfig, readConfigFile } from "./config/load"
import type { ServerConfig } from "./config/schema"

const USAGE = `Usage: wallet-runtime-server [--config <file.json>]

Runs Wallet Runtime's hosted services: the services API, the WalletConnect relay, the embedded wallet and the
ERC-4337 bundler (with its paymaster).
Settings come from the JSON file (--config, or ${CONFIG_FILE_VARIABLE}) and from environment variables, which
override the file. The settings, their variables and defaults: "Run the services yourself" in the README.`

/** The command line was not understood. */
class UsageError extends Data.TaggedError("UsageError")<{ readonly message: string }> {}

/** What the command line asks for. */
type Arguments = { readonly help: true } | { readonly help: false; readonly config: string | undefined }

const parseArguments = (argv: ReadonlyArray<string>): Effect.Effect<Arguments, UsageError> => {
  let config: string | undefined
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? ""
    if (arg === "--help" || arg === "-h") return Effect.succeed({ help: true })
    if (arg === "--config" || arg.startsWith("--config=")) {
      const value = arg === "--config" ? argv[++i] : arg.slice("--config=".length)
      if (value === undefined || value === "") return Effect.fail(new UsageError({ message: `--config needs a file\n\n${USAGE}` }))
      config = value
      continue
    }
    return Effect.fail(new UsageError({ message: `Unknown argument ${JSON.stringify(arg)}\n\n${USAGE}` }))
  }
  return Effect.succeed({ help: false, config })
}

const LOG_LEVELS: Record<ServerConfig["log"]["level"], LogLevel.LogLevel> = {
  trace: "Trace",
  debug: "Debug",
  info: "Info",
  warn: "Warn",
  error: "Error",
  fatal: "Fatal",
  none: "None"
}

// Set when the stop overran its bound: the process then exits 1 instead of 0.
let stopOverran = false

// The components' own bounds (the drain, the relay's 1 s close handshake, the database's close) plus this margin.
const STOP_MARGIN_MS = 5_000

/** Runs the configured server until interrupted, then stops it within the drain time and the margin. */
const serve = (config: ServerConfig) =>
  Effect.gen(function* () {
    // Loaded once the configuration is good: a refused one is said without loading every component's code first.
    const { startServer } = yield* Effect.promise(() => import("./server"))
    const scope = yield* Scope.make()
    const running = yield* startServer(config).pipe(
      Scope.provide(scope),
      Effect.onError((cause) => Scope.close(scope, Exit.failCause(cause)))
    )
    yield* Effect.logInfo("started").pipe(Effect.annotateLogs({ components: running.map((component) => component.component) }))
    return yield* Effect.never.pipe(
      Effect.onInterrupt(() =>
        Effect.gen(function* () {
          yield* Effect.logInfo("stopping: draining requests in flight").pipe(Effect.annotateLogs({ drainMs: config.limits.drainMs }))
          // Closed in a fiber of its own, so that a stop that overruns its bound is abandoned rather than waited for.
          const closing = yield* Effect.forkDetach(Scope.close(scope, Exit.void))
          const done = yield* Effect.timeoutOption(Fiber.join(closing), config.limits.drainMs + STOP_MARGIN_MS)
          if (done._tag === "None") {
            stopOverran = true
            yield* Effect.logError("the stop did not finish in time; exiting anyway").pipe(
              Effect.annotateLogs({ boundMs: config.limits.drainMs + STOP_MARGIN_MS })
            )
          } else {
            yield* Effect.logInfo("stopped")
          }
        })
      )
    )
  })

const EXPECTED = new Set(["UsageError", "ConfigurationError", "CatalogueFileError", "MasterKeyError", "StartError"])

// An expected failure in its own words; anything else (a defect) with its trace.
const reasonOf = (cause: Cause.Cause<unknown>): string => {
  const error = Cause.squash(cause)
  return error instanceof Error && "_tag" in error && EXPECTED.has(String(error._tag)) ? error.message : Cause.pretty(cause)
}

const main = Effect.gen(function* () {
  const args = yield* parseArguments(process.argv.slice(2))
  if (args.help) return yield* Effect.sync(() => process.stdout.write(`${USAGE}\n`))
  const env = ConfigProvider.fromEnv()
  const path = args.config ?? Option.getOrUndefined(yield* Config.option(Config.String(CONFIG_FILE_VARIABLE)).parse(env))
  const file: ConfigFile | undefined = path === undefined ? undefined : yield* readConfigFile(path)
  const config = yield* loadServerConfig({ env, file })
  yield* serve(config).pipe(Effect.provideService(References.MinimumLogLevel, LOG_LEVELS[config.log.level]))
}).pipe(
  // What stops the start is said once, as an error line naming the setting or the component.
  Effect.tapCause((cause) => (Cause.hasInterruptsOnly(cause) ? Effect.void : Effect.logError(reasonOf(cause)))),
  Effect.provide(NodeFileSystem.layer),
  Effect.provide(Logger.layer([Logger.withLeveledConsole(Logger.formatJson)]))
)

NodeRuntime.runMain(main, {
  disableErrorReporting: true,
  // A stop by signal that drained in time is a success.
  teardown: (exit, onExit) =>
    Exit.isFailure(exit) && Cause.hasInterruptsOnly(exit.cause) ? onExit(stopOverran ? 1 : 0) : Runtime.defaultTeardown(exit, onExit)
})
