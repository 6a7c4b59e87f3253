/**
 * Reads the server's configuration once, from the environment and an optional JSON file, into one decoded
 * {@link ServerConfig}: both sources are `ConfigProvider`s, merged so that a variable overrides the file's key, and
 * the whole is decoded by `Config.schema(ServerConfig)`. Anything wrong stops here, every problem in one
 * {@link ConfigurationError} that names the variable or the file's key and says what was expected; a secret's value
 * is never shown.
 *
 * @example
 * const config = yield* loadServerConfig({ env: ConfigProvider.fromEnv(), file: yield* readConfigFile("server.json") })
 */
import { Config, ConfigProvider, Data, Effect, FileSystem, Schema, SchemaAST, SchemaIssue } from "effect"
import { type Component, type ServerConfig as ServerConfigType, type Setting, ServerConfig, serverSettings } from "./schema"

/** The configuration cannot be used: each problem names its variable or file key. */
export class ConfigurationError extends Data.TaggedError("ConfigurationError")<{
  readonly message: string
  readonly problems: ReadonlyArray<string>
}> {}

const configurationError = (problems: ReadonlyArray<string>) =>
  new ConfigurationError({ problems, message: `Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join("\n")}` })

/** A config file as read: where it is (for messages) and its JSON. */
export interface ConfigFile {
  readonly path: string
  readonly contents: unknown
}

/** Where the configuration comes from: the environment (a provider, so tests give their own) and an optional file. */
export interface ConfigSources {
  readonly env: ConfigProvider.ConfigProvider
  readonly file?: ConfigFile | undefined
}

/** The variable naming the config file when `--config` is not given. */
export const CONFIG_FILE_VARIABLE = "WALLET_RUNTIME_CONFIG"

/** Reads and parses a JSON config file; an unreadable file or bad JSON is a {@link ConfigurationError}. */
export const readConfigFile = Effect.fn("readConfigFile")(function* (path: string) {
  const fs = yield* FileSystem.FileSystem
  const text = yield* fs
    .readFileString(path)
    .pipe(Effect.mapError((error) => configurationError([`the config file ${path} cannot be read: ${error.message}`])))
  const contents = yield* Effect.try({
    try: (): unknown => JSON.parse(text),
    catch: (error) => configurationError([`the config file ${path} is not JSON: ${error instanceof Error ? error.message : String(error)}`])
  })
  if (typeof contents !== "object" || contents === null || Array.isArray(contents)) {
    return yield* configurationError([`the config file ${path} must hold a JSON object of settings`])
  }
  return { path, contents } satisfies ConfigFile
})

// -- names ---------------------------------------------------------------------------------------------------------

const keyPath = (path: ReadonlyArray<PropertyKey>): string =>
  path
    .map((segment, i) =>
      typeof segment === "number"
        ? `[${segment}]`
        : /^[A-Za-z_$][\w$]*$/.test(String(segment))
          ? `${i === 0 ? "" : "."}${String(segment)}`
          : `[${JSON.stringify(String(segment))}]`
    )
    .join("")

const isPrefix = (prefix: ReadonlyArray<PropertyKey>, path: ReadonlyArray<PropertyKey>) =>
  prefix.length <= path.length && prefix.every((segment, i) => segment === path[i])

const settingAt = (path: ReadonlyArray<PropertyKey>): Setting | undefined => serverSettings.find((setting) => isPrefix(setting.path, path))

/** A setting by its file key, e.g. `services.port`. */
const settingNamed = (key: string): Setting => {
  const found = serverSettings.find((setting) => setting.path.join(".") === key)
  if (found === undefined) throw new Error(`no setting ${key}`)
  return found
}

// -- the environment -----------------------------------------------------------------------------------------------

/** A setting given by its variable: the text, and the value as a tree for a list or JSON. */
interface EnvValue {
  readonly setting: Setting
  readonly text: string
  readonly tree: { readonly json: unknown; readonly provider: ConfigProvider.ConfigProvider } | undefined
}

const readEnv = (env: ConfigProvider.ConfigProvider) =>
  Effect.forEach(serverSettings, (setting) =>
    env.load([setting.env]).pipe(
      Effect.mapError((error) => `${setting.env} cannot be read: ${error.message}`),
      Effect.flatMap((node): Effect.Effect<ReadonlyArray<EnvValue>, string> => {
        const text = node?.value?.trim()
        if (text === undefined || text === "") return Effect.succeed([])
        const tree = (json: unknown) => ({ json, provider: ConfigProvider.fromUnknown(json) })
        switch (setting.envFormat) {
          case "text":
            return Effect.succeed([{ setting, text, tree: undefined }])
          case "list":
            return Effect.succeed([{ setting, text, tree: tree(text.split(",").map((item) => item.trim()).filter((item) => item !== "")) }])
          case "json":
            return Effect.try({
              try: () => [{ setting, text, tree: tree(JSON.parse(text)) }],
              catch: (error) => `${setting.env} is not JSON (${error instanceof Error ? error.message : String(error)}): expected ${setting.doc.type}`
            })
        }
      })
    )
  ).pipe(Effect.map((values) => values.flat()))

// Every `WALLET_RUNTIME_*` variable set, by walking the provider's tree of names (it splits them on "_").
const prefixedVariables = (env: ConfigProvider.ConfigProvider): Effect.Effect<ReadonlyArray<string>> => {
  const walk = (path: ReadonlyArray<string>): Effect.Effect<ReadonlyArray<string>> =>
    env.load(path).pipe(
      Effect.orElseSucceed(() => undefined),
      Effect.flatMap((node) => {
        if (node === undefined) return Effect.succeed([])
        const here = node.value === undefined || path.length <= 2 ? [] : [path.join("_")]
        if (node._tag !== "Record") return Effect.succeed(here)
        return Effect.map(Effect.forEach([...node.keys], (key) => walk([...path, key])), (below) => [...here, ...below.flat()])
      })
    )
  return walk(["WALLET", "RUNTIME"])
}

// -- the merged provider -------------------------------------------------------------------------------------------

/**
 * The file's settings with the environment's on top: a path under a setting given by its variable reads the
 * variable (a list's or a JSON document's parts below it), any other path reads the file; a group that holds a
 * setting given by its variable exists even when the file does not name it.
 */
const mergedProvider = (envValues: ReadonlyArray<EnvValue>, file: ConfigProvider.ConfigProvider): ConfigProvider.ConfigProvider =>
  ConfigProvider.make((path) => {
    const fromEnv = envValues.find((value) => isPrefix(value.setting.path, path))
    if (fromEnv !== undefined) {
      const rest = path.slice(fromEnv.setting.path.length)
      if (fromEnv.tree !== undefined) return fromEnv.tree.provider.load(rest)
      return Effect.succeed(rest.length === 0 ? ConfigProvider.makeValue(fromEnv.text) : undefined)
    }
    return Effect.map(file.load(path), (node) => {
      const below = envValues
        .filter((value) => value.setting.path.length > path.length && isPrefix(path, value.setting.path))
        .map((value) => String(value.setting.path[path.length]))
      if (below.length === 0) return node
      return ConfigProvider.makeRecord(new Set([...(node?._tag === "Record" ? node.keys : []), ...below]))
    })
  })

// -- keys nobody reads ---------------------------------------------------------------------------------------------

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

/** Keys in `value` that `ast` does not declare (a misspelt key would otherwise be ignored silently), and bad record keys. */
const strayKeys = (value: unknown, ast: SchemaAST.AST, path: ReadonlyArray<PropertyKey>): ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; problem: string }> => {
  switch (ast._tag) {
    case "Objects": {
      if (!isPlainObject(value)) return []
      const declared = new Map(ast.propertySignatures.map((property) => [String(property.name), property.type]))
      return Object.entries(value).flatMap(([key, child]) => {
        const type = declared.get(key)
        if (type !== undefined) return strayKeys(child, type, [...path, key])
        const index = ast.indexSignatures.find((signature) => Schema.is(Schema.make(signature.parameter))(key))
        if (index !== undefined) return strayKeys(child, index.type, [...path, key])
        if (ast.indexSignatures.length > 0) {
          const expected = SchemaAST.resolve(ast.indexSignatures[0]!.parameter)?.["expected"]
          return [{ path: [...path, key], problem: `is not a valid key: expected ${String(expected ?? "another key")}` }]
        }
        return [{ path: [...path, key], problem: `is not a setting (known here: ${[...declared.keys()].join(", ")})` }]
      })
    }
    case "Arrays": {
      const element = ast.rest[0]
      if (!Array.isArray(value) || element === undefined) return []
      return value.flatMap((item, i) => strayKeys(item, element, [...path, i]))
    }
    case "Union": {
      const member = ast.types.find((type) => (Array.isArray(value) ? type._tag === "Arrays" : isPlainObject(value) && type._tag === "Objects"))
      return member === undefined ? [] : strayKeys(value, member, path)
    }
    default:
      return []
  }
}

// -- messages ------------------------------------------------------------------------------------------------------

const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()

const lowerFirst = (text: string) => text.charAt(0).toLowerCase() + text.slice(1)

/** The problems of a decoding failure, each naming where the bad value came from. */
const describeFailure = (
  error: Config.ConfigError,
  envValues: ReadonlyArray<EnvValue>,
  file: ConfigFile | undefined,
  provider: ConfigProvider.ConfigProvider
): Effect.Effect<ReadonlyArray<string>> => {
  if (error.cause._tag === "SourceError") return Effect.succeed([error.cause.message])
  const all = formatIssues(error.cause.issue).issues.map((issue) => ({
    message: issue.message,
    path: (issue.path ?? []).map((segment) => (typeof segment === "object" ? segment.key : segment)) as ReadonlyArray<string | number>
  }))
  // A union reports each member's failure; the one that went deeper is the member the value was meant for.
  const issues = all.filter((issue) => !all.some((other) => other.path.length > issue.path.length && isPrefix(issue.path, other.path)))
  return Effect.forEach(issues, ({ message, path }) => {
    const setting = settingAt(path)
    const atSetting = setting !== undefined && path.length === setting.path.length
    const fromEnv = envValues.find((value) => isPrefix(value.setting.path, path))
    const missing = message === "Missing key"
    const where =
      fromEnv !== undefined
        ? path.length === fromEnv.setting.path.length
          ? fromEnv.setting.env
          : `${fromEnv.setting.env} at ${keyPath(path.slice(fromEnv.setting.path.length)).replace(/^\./, "")}`
        : missing && atSetting
          ? `${keyPath(path)} (or ${setting.env})`
          : `${keyPath(path)}${file === undefined ? "" : ` in ${file.path}`}`
    if (missing) return Effect.succeed(`${where} is missing${atSetting ? `: expected ${setting.doc.type}` : ""}`)
    return provider.load(path).pipe(
      Effect.orElseSucceed(() => undefined),
      Effect.map((node) => {
        const shown = setting?.doc.secret === true ? " (value not shown: a secret)" : node?.value === undefined ? "" : ` is ${JSON.stringify(node.value)}`
        return atSetting
          ? `${where}${shown}: not a valid ${setting.doc.type} (${lowerFirst(message)})`
          : `${where}${shown}: ${lowerFirst(message)}`
      })
    )
  })
}

/** A setting named for a rule between settings: by its variable when that gave it, else by its file key. */
const nameFor = (key: string, envValues: ReadonlyArray<EnvValue>): string => {
  const setting = settingNamed(key)
  return envValues.some((value) => value.setting === setting) ? setting.env : `${key} (or ${setting.env})`
}

const WILDCARD_HOSTS = new Set(["0.0.0.0", "::", "[::]", ""])

/** The rules between settings that one setting's Schema cannot state. */
const crossChecks = (config: ServerConfigType, envValues: ReadonlyArray<EnvValue>): ReadonlyArray<string> => {
  const problems: Array<string> = []
  const name = (key: string) => nameFor(key, envValues)
  const runs = (component: Component) => config.components.includes(component)
  if (runs("wallet")) {
    if (config.smtp.host === undefined) problems.push(`${name("smtp.host")} is required with the wallet component: the SMTP server its codes go through`)
    if (config.smtp.from === undefined) problems.push(`${name("smtp.from")} is required with the wallet component: the sender of its mails`)
  }
  if ((config.smtp.user === undefined) !== (config.smtp.password === undefined)) {
    problems.push(`${name("smtp.user")} and ${name("smtp.password")} go together: give both or neither`)
  }
  if (runs("bundler")) {
    if (config.bundler.privateKey === undefined) problems.push(`${name("bundler.privateKey")} is required with the bundler component: the funded key that submits bundles`)
    if (!Object.keys(config.chains).some((id) => id.startsWith("eip155:"))) problems.push(`${name("chains")} needs an eip155 chain for the bundler to serve`)
  }
  if (runs("wallet") && config.smartAccounts.factory !== undefined && config.smartAccounts.bundlerUrl === undefined && !runs("bundler")) {
    problems.push(`${name("smartAccounts.bundlerUrl")} is required with ${name("smartAccounts.factory")} when this process runs no bundler`)
  }
  if (config.paymaster.sponsor !== "none") {
    if (config.paymaster.address === undefined) problems.push(`${name("paymaster.address")} is required when ${name("paymaster.sponsor")} is ${config.paymaster.sponsor}`)
    if (config.paymaster.signerKey === undefined) problems.push(`${name("paymaster.signerKey")} is required when ${name("paymaster.sponsor")} is ${config.paymaster.sponsor}`)
    if (config.paymaster.sponsor === "allowlist" && config.paymaster.senders.length === 0) {
      problems.push(`${name("paymaster.senders")} lists no sender: with ${name("paymaster.sponsor")} allowlist nobody would be sponsored`)
    }
  }
  const listeners = (["services", "relay", "wallet", "bundler"] as const).filter(runs)
  for (const component of listeners) {
    if (WILDCARD_HOSTS.has(config[component].host) && config[component].publicUrl === undefined) {
      problems.push(
        `${name(`${component}.publicUrl`)} is required when ${name(`${component}.host`)} is ${config[component].host}: browsers cannot reach a wildcard address`
      )
    }
  }
  for (const [i, a] of listeners.entries()) {
    for (const b of listeners.slice(i + 1)) {
      const sameAddress = config[a].host === config[b].host || WILDCARD_HOSTS.has(config[a].host) || WILDCARD_HOSTS.has(config[b].host)
      if (config[a].port !== 0 && config[a].port === config[b].port && sameAddress) {
        problems.push(`${name(`${a}.port`)} and ${name(`${b}.port`)} are both ${config[a].port} on ${config[a].host}: each component needs a port of its own`)
      }
    }
  }
  const ids = config.projects.map((project) => project.projectId)
  for (const [i, id] of ids.entries()) {
    if (ids.indexOf(id) !== i) problems.push(`${name("projects")}: the projectId ${JSON.stringify(id)} is given twice`)
  }
  for (const [id, chain] of Object.entries(config.chains)) {
    const evm = id.startsWith("eip155:")
    for (const [i, token] of chain.tokens.entries()) {
      if (evm !== token.address.startsWith("0x")) {
        problems.push(
          `${name("chains")}: ${id}'s tokens[${i}].address ${token.address} is not ${evm ? "an EVM contract (0x and 40 hex digits)" : "a Solana mint (base58)"}`
        )
      }
    }
  }
  const solana = Object.keys(config.chains).filter((id) => id.startsWith("solana:"))
  if (solana.length > 1) problems.push(`${name("chains")}: at most one solana network is served, not ${solana.join(", ")}`)
  if (runs("wallet") && config.wallet.publicUrl !== undefined && config.wallet.passkeyRpId !== undefined) {
    const frameHost = new URL(config.wallet.publicUrl).hostname
    const rpId = config.wallet.passkeyRpId
    if (frameHost !== rpId && !frameHost.endsWith(`.${rpId}`)) {
      problems.push(`${name("wallet.passkeyRpId")} must be the host name of ${name("wallet.publicUrl")} (${frameHost}) or a domain it is under`)
    }
  }
  if (runs("wallet") && config.wallet.publicUrl !== undefined) {
    const frame = new URL(config.wallet.publicUrl).origin
    if (config.services.publicUrl !== undefined && new URL(config.services.publicUrl).origin === frame) {
      problems.push(`${name("wallet.publicUrl")} must be an origin of its own, not the services' (${name("services.publicUrl")})`)
    }
    const app = config.projects.find((project) => project.allowedOrigins !== "loopback" && project.allowedOrigins.some((origin) => new URL(origin).origin === frame))
    if (app !== undefined) problems.push(`${name("wallet.publicUrl")} must be an origin of its own, not one of project ${app.projectId}'s origins`)
  }
  return problems
}

// -- loading -------------------------------------------------------------------------------------------------------

/**
 * Reads and decodes the configuration: the environment over the file, every setting checked, every problem reported
 * at once where it can be (a bad value, a missing one, a key or variable nobody reads, a rule between settings).
 */
export const loadServerConfig = Effect.fn("loadServerConfig")(function* (sources: ConfigSources) {
  const envValues = yield* readEnv(sources.env).pipe(Effect.mapError((problem) => configurationError([problem])))
  const known = new Set([...serverSettings.map((setting) => setting.env), CONFIG_FILE_VARIABLE])
  const strays = [
    ...(yield* prefixedVariables(sources.env))
      .filter((variable) => !known.has(variable))
      .map((variable) => `${variable} is not a setting's variable (misspelt?)`),
    ...(sources.file === undefined
      ? []
      : strayKeys(sources.file.contents, ServerConfig.ast, []).map(({ path, problem }) => `${keyPath(path)} in ${sources.file?.path} ${problem}`)),
    ...envValues.flatMap((value) =>
      value.tree === undefined || value.setting.envFormat !== "json"
        ? []
        : strayKeys(value.tree.json, value.setting.ast, []).map(
            ({ path, problem }) => `${value.setting.env} at ${keyPath(path).replace(/^\./, "")} ${problem}`
          )
    )
  ]
  if (strays.length > 0) return yield* configurationError(strays)
  const provider = mergedProvider(envValues, ConfigProvider.fromUnknown(sources.file?.contents ?? {}))
  const config = yield* Config.schema(ServerConfig)
    .parse(provider)
    .pipe(
      Effect.catch((error) =>
        Effect.flatMap(describeFailure(error, envValues, sources.file, provider), (problems) => Effect.fail(configurationError(problems)))
      )
    )
  const problems = crossChecks(config, envValues)
  if (problems.length > 0) return yield* configurationError(problems)
  return config
})
