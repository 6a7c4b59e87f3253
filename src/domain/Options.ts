/**
 * Options supplied by the host (spec point 3), decoded once at start: defaults are applied, a malformed option is
 * one clear error naming its path, both sign-in configurations together are refused, and a missing projectId is
 * reported as an alert (the modal still works against the local stack without one). Every option is bounded and
 * precise: URLs by where they end up (`Url.ts`), chain ids by their namespace, theme values by a CSS grammar
 * (`themeValues.ts`). Decoding never throws, whatever the host passes: a getter or Proxy that throws is an error
 * naming its path like any other.
 */
import { Effect, Result, Schema } from "effect"
import { type Alert, Alerts } from "./alerts"
import { type ChainNamespace, isCaipNetworkId, parseCaipNetworkId } from "./Caip"
import { CONNECT_METHOD_ORDER, CONNECTOR_ORDER, DEFAULT_ACCOUNT_TYPES, DEFAULT_FEATURES, DEFAULT_SOCIALS, WALLET_FEATURE_ORDER } from "./constants"
import { InvalidOptions, SiweSiwxConflict } from "./errors"
import { AccountType, SocialLogin, ThemeMode } from "./Account"
import { CaipNetwork } from "./Network"
import { isThemeVariableName, THEME_VARIABLE_KINDS, type ThemeVariableName as ThemeVariableNameOf, themeValueIssue } from "./themeValues"
import { HttpUrl, ImageUrl, WsUrl } from "./Url"
import { isEvmAddress, isSolanaAddress } from "./validation"
import { CustomWallet, WalletId } from "./Wallet"

const withDefault = <S extends Schema.Top>(value: S["Encoded"]) => Schema.withDecodingDefault<S>(Effect.succeed(value))

// Bounds of the lists and texts a host writes: far above any real set-up, low enough that nothing the modal or the
// runtime does with them (render, ping, join into a query) can be made slow.
const MAX_NETWORKS = 100
const MAX_WALLET_IDS = 1_000
const MAX_CUSTOM_WALLETS = 100
const MAX_ICONS = 16
const MAX_RPC_URLS = 16

const text = (maxLength: number) => Schema.String.pipe(Schema.check(Schema.isMaxLength(maxLength)))

// A list where an entry may appear once only; the message names the repeated entry.
const distinctBy = <A>(keyOf: (item: A) => string, what: string) =>
  Schema.makeFilter((items: ReadonlyArray<A>) => {
    const seen = new Set<string>()
    return items.flatMap((item, index) => {
      const key = keyOf(item)
      if (!seen.has(key)) {
        seen.add(key)
        return []
      }
      return [{ path: [index], issue: `Expected each ${what} once, got ${JSON.stringify(key)} again` }]
    })
  })

// A record keyed by CAIP-2 id. Effect drops record keys its key schema refuses, so keys are checked here instead:
// a mistyped network id must be an error, not a silently ignored entry.
const byCaipNetworkId = <V extends Schema.Top>(value: V) =>
  Schema.Record(Schema.String, value).pipe(
    Schema.check(
      Schema.isMaxProperties(MAX_NETWORKS),
      Schema.makeFilter((record: { readonly [key: string]: unknown }) =>
        Object.keys(record)
          .filter((key) => !isCaipNetworkId(key))
          .map((key) => ({ path: [key], issue: `Invalid CAIP-2 network id: ${key}` }))
      )
    )
  )

/** What the host app says about itself (shown to wallets during connection); its url is its http(s) origin. */
export const Metadata = Schema.Struct({
  name: text(128),
  description: text(1_024),
  url: HttpUrl,
  icons: Schema.Array(ImageUrl).pipe(Schema.check(Schema.isMaxLength(MAX_ICONS)))
})
/** What the host app says about itself. */
export type Metadata = typeof Metadata.Type

/** A social login offered by the modal: a social provider, or the decentralised social app (farcaster). */
export const SocialOption = SocialLogin
/** A social login offered by the modal. */
export type SocialOption = typeof SocialOption.Type

// An order the host gives for a fixed set: known entries, each at most once.
const orderOf = <const L extends ReadonlyArray<string>>(entries: L, what: string) =>
  Schema.Array(Schema.Literals(entries)).pipe(Schema.check(distinctBy((entry: string) => entry, what)))

/** Feature switches, each with its spec-9 default. */
export const Features = Schema.Struct({
  swaps: Schema.Boolean.pipe(withDefault(DEFAULT_FEATURES.swaps)),
  onramp: Schema.Boolean.pipe(withDefault(DEFAULT_FEATURES.onramp)),
  receive: Schema.Boolean.pipe(withDefault(DEFAULT_FEATURES.receive)),
  send: Schema.Boolean.pipe(withDefault(DEFAULT_FEATURES.send)),
  email: Schema.Boolean.pipe(withDefault(DEFAULT_FEATURES.email)),
  /**
   * "Continue with a passkey" beside email (off unless the host turns it on): the embedded wallet's login by a
   * passkey of the frame's relying party, in the email method's place of the connect-method order.
   */
  passkey: Schema.Boolean.pipe(withDefault(DEFAULT_FEATURES.passkey)),
  emailShowWallets: Schema.Boolean.pipe(withDefault(DEFAULT_FEATURES.emailShowWallets)),
  history: Schema.Boolean.pipe(withDefault(DEFAULT_FEATURES.history)),
  analytics: Schema.Boolean.pipe(withDefault(DEFAULT_FEATURES.analytics)),
  allWallets: Schema.Boolean.pipe(withDefault(DEFAULT_FEATURES.allWallets)),
  legalCheckbox: Schema.Boolean.pipe(withDefault(DEFAULT_FEATURES.legalCheckbox)),
  smartSessions: Schema.Boolean.pipe(withDefault(DEFAULT_FEATURES.smartSessions)),
  collapseWallets: Schema.Boolean.pipe(withDefault(DEFAULT_FEATURES.collapseWallets)),
  socials: Schema.Union([
    Schema.Array(SocialOption).pipe(Schema.check(distinctBy((social: string) => social, "social login"))),
    Schema.Literal(false)
  ]).pipe(withDefault(DEFAULT_SOCIALS)),
  /**
   * The order of the connect methods (email, social, wallet), each at most once; those left out follow in the
   * default order. Checked now, it takes effect when the email and social logins land (the modal has wallets only).
   */
  connectMethodsOrder: Schema.optionalKey(orderOf(CONNECT_METHOD_ORDER, "connect method")),
  /**
   * The order of the Connect view's groups (walletConnect, recent, injected, featured, custom, external,
   * recommended), each at most once; those left out follow in spec 9's order.
   */
  connectorTypeOrder: Schema.optionalKey(orderOf(CONNECTOR_ORDER, "connector type")),
  /**
   * The order of the Account view's wallet features (onramp, swaps, receive, send), each at most once; those left
   * out follow in the default order. Checked now, it takes effect when those features land.
   */
  walletFeaturesOrder: Schema.optionalKey(orderOf(WALLET_FEATURE_ORDER, "wallet feature"))
})
/** Feature switches after defaults. */
export type Features = typeof Features.Type

/** The theme variables a host may override; every one maps onto the `wr-` theme contract. */
export const THEME_VARIABLE_NAMES = Object.keys(THEME_VARIABLE_KINDS) as ReadonlyArray<ThemeVariableNameOf>

/** A theme variable a host may override. */
export type ThemeVariableName = ThemeVariableNameOf

/**
 * Host overrides of theme variables: known `--wr-*` names to a CSS value of the variable's kind (a colour, a
 * length, a font list, a number); an unknown name, or a value that could end its declaration, is refused.
 */
export const ThemeVariables = Schema.Record(Schema.String, Schema.Union([Schema.String, Schema.Finite])).pipe(
  Schema.check(
    Schema.makeFilter((variables: { readonly [name: string]: string | number }) =>
      Object.entries(variables).flatMap(([name, value]) => {
        if (!isThemeVariableName(name)) {
          return [{ path: [name], issue: `Unknown theme variable "${name}"; known: ${THEME_VARIABLE_NAMES.join(", ")}` }]
        }
        const issue = themeValueIssue(name, value)
        return issue === undefined ? [] : [{ path: [name], issue }]
      })
    )
  )
)
/** Host overrides of theme variables. */
export type ThemeVariables = typeof ThemeVariables.Type

/** Which wallets the "all wallets" entry lists. */
export const AllWalletsOption = Schema.Literals(["SHOW", "HIDE", "ONLY_MOBILE"])
/** Which wallets the "all wallets" entry lists. */
export type AllWalletsOption = typeof AllWalletsOption.Type


/** Account type per chain family, each with its default. */
export const DefaultAccountTypes = Schema.Struct({
  eip155: AccountType.pipe(withDefault(DEFAULT_ACCOUNT_TYPES.eip155)),
  solana: AccountType.pipe(withDefault(DEFAULT_ACCOUNT_TYPES.solana)),
  bip122: AccountType.pipe(withDefault(DEFAULT_ACCOUNT_TYPES.bip122)),
  polkadot: AccountType.pipe(withDefault(DEFAULT_ACCOUNT_TYPES.polkadot))
})
/** Account type per chain family. */
export type DefaultAccountTypes = typeof DefaultAccountTypes.Type

/** Production addresses of the hosted services; the devstack and tests point these at loopback. */
export const DEFAULT_ENDPOINTS = {
  rpcProxy: "https://rpc.wallet-runtime.dev",
  blockchainApi: "https://api.wallet-runtime.dev",
  walletCatalog: "https://catalog.wallet-runtime.dev",
  frame: "https://secure.wallet-runtime.dev",
  relay: "wss://relay.wallet-runtime.dev"
} as const

/**
 * Where the hosted services live: RPC proxy, blockchain API, wallet catalogue, embedded-wallet frame, relay; and,
 * only when named, a WalletConnect Verify server (`https://verify.walletconnect.org` for WalletConnect's own): its
 * attestations let wallets tell visitors that this site is the one it claims to be. Unnamed, nothing asks it.
 */
export const Endpoints = Schema.Struct({
  rpcProxy: HttpUrl.pipe(withDefault(DEFAULT_ENDPOINTS.rpcProxy)),
  blockchainApi: HttpUrl.pipe(withDefault(DEFAULT_ENDPOINTS.blockchainApi)),
  walletCatalog: HttpUrl.pipe(withDefault(DEFAULT_ENDPOINTS.walletCatalog)),
  frame: HttpUrl.pipe(withDefault(DEFAULT_ENDPOINTS.frame)),
  relay: WsUrl.pipe(withDefault(DEFAULT_ENDPOINTS.relay)),
  verify: Schema.optionalKey(HttpUrl)
})
/** Where the hosted services live. */
export type Endpoints = typeof Endpoints.Type

/** The suffix of the account names the hosted blockchain service registers (a host's own names service may use another). */
export const DEFAULT_NAME_SUFFIX = ".wallet-runtime.id"

/**
 * The suffix of account names (our extension to spec 3): a dot and one or more lower-case labels of letters, digits
 * and hyphens, at most 64 characters. It is shown after the name the visitor types, registered with it, and its
 * labels are the `zone` of name suggestions. It must be the suffix of the names service at `endpoints.blockchainApi`.
 */
export const NameSuffix = Schema.String.pipe(
  Schema.check(
    Schema.isMaxLength(64),
    Schema.isPattern(/^(\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)+$/, { expected: "a name suffix such as .example.id" })
  )
)

/**
 * A token the host wants shown for a network: its contract (EVM) or mint (Solana) address, an optional picture and
 * (our addition) an optional symbol, shown where the chain itself does not name the token (an SPL mint).
 */
export const TokenOption = Schema.Struct({
  address: text(128).pipe(Schema.check(Schema.isNonEmpty())),
  image: Schema.optionalKey(ImageUrl),
  symbol: Schema.optionalKey(text(16).pipe(Schema.check(Schema.isNonEmpty())))
})
/** A token the host wants shown for a network. */
export type TokenOption = typeof TokenOption.Type

// A token's address is checked by its network's family: an EVM contract, a Solana mint, else an asset id of
// letters, digits, `.`, `_`, `:` and `-`.
const isTokenAddressOf = (namespace: ChainNamespace, address: string): boolean =>
  namespace === "eip155"
    ? isEvmAddress(address)
    : namespace === "solana"
      ? isSolanaAddress(address)
      : /^[A-Za-z0-9._:-]{1,128}$/.test(address)

const tokenAddressIssues = Schema.makeFilter((tokens: { readonly [caipNetworkId: string]: TokenOption }) =>
  Object.entries(tokens).flatMap(([caipNetworkId, token]) => {
    const parts = parseCaipNetworkId(caipNetworkId)
    if (Result.isFailure(parts)) return []
    const namespace = parts.success.namespace
    const valid = isTokenAddressOf(namespace, token.address)
    return valid
      ? []
      : [{ path: [caipNetworkId, "address"], issue: `Expected a token address for ${namespace}, got ${JSON.stringify(token.address)}` }]
  })
)

/** An RPC endpoint the host supplies for a network. */
export const CustomRpcUrl = Schema.Struct({
  url: HttpUrl,
  config: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown))
})
/** An RPC endpoint the host supplies for a network. */
export type CustomRpcUrl = typeof CustomRpcUrl.Type

// Sign-in configurations are the host's own objects with methods (and maybe a class prototype): they are checked
// to be objects and passed through untouched, never rebuilt by decoding.
const HostObject = Schema.declare(
  (value: unknown): value is object => typeof value === "object" && value !== null && !Array.isArray(value),
  { expected: "an object" }
)

const walletIds = Schema.Array(WalletId).pipe(Schema.check(Schema.isMaxLength(MAX_WALLET_IDS)))

/** The host options: what the host writes is `HostOptionsInput`, what the runtime reads is `HostOptions`. */
/** The log levels a host may choose (`none`: nothing is logged). */
export const LogLevelOption = Schema.Literals(["trace", "debug", "info", "warn", "error", "fatal", "none"])
/** A log level a host may choose. */
export type LogLevelOption = typeof LogLevelOption.Type

export const HostOptions = Schema.Struct({
  projectId: Schema.optionalKey(text(128)),
  networks: Schema.Array(CaipNetwork).pipe(
    Schema.check(Schema.isMaxLength(MAX_NETWORKS), distinctBy((network: CaipNetwork) => network.caipNetworkId, "network")),
    Schema.refine((networks): networks is readonly [CaipNetwork, ...Array<CaipNetwork>] => networks.length > 0, {
      message: "Expected at least one network"
    })
  ),
  defaultNetwork: Schema.optionalKey(CaipNetwork),
  metadata: Schema.optionalKey(Metadata),
  features: Features.pipe(withDefault({})),
  tokens: Schema.optionalKey(byCaipNetworkId(TokenOption).pipe(Schema.check(tokenAddressIssues))),
  themeMode: Schema.optionalKey(ThemeMode),
  themeVariables: Schema.optionalKey(ThemeVariables),
  allWallets: AllWalletsOption.pipe(withDefault("SHOW")),
  includeWalletIds: Schema.optionalKey(walletIds),
  excludeWalletIds: Schema.optionalKey(walletIds),
  featuredWalletIds: Schema.optionalKey(walletIds),
  customWallets: Schema.optionalKey(
    Schema.Array(CustomWallet).pipe(
      Schema.check(Schema.isMaxLength(MAX_CUSTOM_WALLETS), distinctBy((wallet: CustomWallet) => wallet.id, "custom wallet id"))
    )
  ),
  customRpcUrls: Schema.optionalKey(byCaipNetworkId(Schema.Array(CustomRpcUrl).pipe(Schema.check(Schema.isMaxLength(MAX_RPC_URLS))))),
  termsConditionsUrl: Schema.optionalKey(HttpUrl),
  privacyPolicyUrl: Schema.optionalKey(HttpUrl),
  enableEIP6963: Schema.Boolean.pipe(withDefault(true)),
  enableNetworkSwitch: Schema.Boolean.pipe(withDefault(true)),
  allowUnsupportedChain: Schema.Boolean.pipe(withDefault(false)),
  defaultAccountTypes: DefaultAccountTypes.pipe(withDefault({})),
  siweConfig: Schema.optionalKey(HostObject),
  siwx: Schema.optionalKey(HostObject),
  enableEmbedded: Schema.Boolean.pipe(withDefault(false)),
  disableAppend: Schema.Boolean.pipe(withDefault(false)),
  basic: Schema.Boolean.pipe(withDefault(false)),
  endpoints: Endpoints.pipe(withDefault({})),
  /** The suffix of account names; {@link DEFAULT_NAME_SUFFIX} (the hosted service's) unless the host names its own. */
  nameSuffix: NameSuffix.pipe(withDefault(DEFAULT_NAME_SUFFIX)),
  enableAnalytics: Schema.Boolean.pipe(withDefault(true)),
  debug: Schema.Boolean.pipe(withDefault(false)),
  /**
   * Runs as a messenger mini-app on this OS whatever the page looks like (absent: detected from the page): social
   * login then goes by redirect and comes back with `result_uri`, and the social list is filtered by the OS.
   */
  miniApp: Schema.optionalKey(Schema.Literals(["ios", "android", "mac", "other"])),
  /**
   * The least level the runtime logs through Effect's Logger: `error` by default (spec 9), nothing in a production
   * build unless the host sets it.
   */
  logLevel: Schema.optionalKey(LogLevelOption)
})
/** Host options after decoding, every default applied. */
export type HostOptions = typeof HostOptions.Type
/** Host options as the host writes them. */
export type HostOptionsInput = typeof HostOptions.Encoded

/** Decoded options and the alerts the host must see about them. */
export interface DecodedOptions {
  readonly options: HostOptions
  readonly alerts: ReadonlyArray<Alert>
}

/** True when analytics may be sent: both switches on (the service's own config is checked later). */
export const analyticsEnabled = (options: Pick<HostOptions, "enableAnalytics" | "features">): boolean =>
  options.enableAnalytics && options.features.analytics

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> =>
  typeof value === "object" && value !== null && !Array.isArray(value)

const pathText = (path: ReadonlyArray<PropertyKey>): string =>
  path.map((key) => `[${typeof key === "number" ? key : JSON.stringify(String(key))}]`).join("")

const issueAt = (issue: string, path: ReadonlyArray<PropertyKey>): string =>
  path.length === 0 ? issue : `${issue}\n  at ${pathText(path)}`

// Bounds of what decoding reads of the host's value, checked before walking it: deeper nesting (or a cycle), longer
// lists, longer keys or more values in all are refused, so no input can make decoding slow or exhaust memory.
const MAX_DEPTH = 16
const MAX_ITEMS = 10_000
const MAX_KEY_LENGTH = 256
const MAX_VALUES = 100_000

// The sign-in configurations are the host's own objects with methods (and maybe a class prototype): they are kept
// as given, never copied.
const HOST_OBJECT_KEYS: ReadonlyArray<string> = ["siweConfig", "siwx"]

// A revoked Proxy throws even when asked whether it is an array.
const isInspectable = (value: unknown): boolean => {
  try {
    Array.isArray(value)
    return true
  } catch {
    return false
  }
}

// A plain copy of the host's value, each property read once: a getter that throws, a Proxy whose trap throws or a
// revoked Proxy becomes an issue at its path instead of an exception, and a getter cannot answer one thing to the
// checks and another to the runtime. Functions (a chain's formatters) are kept as they are.
const readPlain = (input: unknown): Result.Result<unknown, ReadonlyArray<string>> => {
  const issues: Array<string> = []
  let budget = MAX_VALUES
  const unreadable = (path: ReadonlyArray<PropertyKey>) =>
    issues.push(
      issueAt(`Expected ${path.length === 0 ? "options" : "a value"} that can be read, but reading threw (a getter or a Proxy)`, path)
    )

  const copy = (value: unknown, path: ReadonlyArray<PropertyKey>): unknown => {
    if (typeof value !== "object" || value === null) return value
    if (path.length > MAX_DEPTH) {
      issues.push(issueAt(`Expected at most ${MAX_DEPTH} levels of nesting (is there a cycle?)`, path))
      return undefined
    }
    if (--budget < 0) {
      if (budget === -1) issues.push(issueAt(`Expected at most ${MAX_VALUES} values in all`, path))
      return undefined
    }
    let keys: ReadonlyArray<string>
    let isArray: boolean
    try {
      isArray = Array.isArray(value)
      const length = isArray ? (value as ReadonlyArray<unknown>).length : 0
      if (length > MAX_ITEMS) {
        issues.push(issueAt(`Expected at most ${MAX_ITEMS} items, got ${length}`, path))
        return undefined
      }
      keys = isArray ? Array.from({ length }, (_, index) => String(index)) : Object.keys(value)
    } catch {
      unreadable(path)
      return undefined
    }
    if (keys.length > MAX_ITEMS) {
      issues.push(issueAt(`Expected at most ${MAX_ITEMS} keys, got ${keys.length}`, path))
      return undefined
    }
    const out: Record<string, unknown> | Array<unknown> = isArray ? [] : {}
    for (const key of keys) {
      const at = [...path, isArray ? Number(key) : key]
      if (key.length > MAX_KEY_LENGTH || key === "__proto__") {
        issues.push(issueAt(`Unknown option "${key.slice(0, 60)}"`, path))
        continue
      }
      let item: unknown
      try {
        item = (value as Record<string, unknown>)[key]
      } catch {
        unreadable(at)
        continue
      }
      const keep = path.length === 0 && HOST_OBJECT_KEYS.includes(key)
      if (keep && !isInspectable(item)) {
        unreadable(at)
        continue
      }
      // Defined rather than assigned, so no key of the host's can reach a prototype.
      Object.defineProperty(out, key, {
        value: keep ? item : copy(item, at),
        enumerable: true,
        writable: true,
        configurable: true
      })
    }
    return out
  }
  const value = copy(input, [])
  return issues.length > 0 ? Result.fail(issues) : Result.succeed(value)
}

// Decoding strips unknown keys; a misspelt option ("projectID", features.swap) would then vanish silently, so the
// objects the host writes by hand are checked for unknown keys first.
const unknownKeyIssues = (input: Readonly<Record<string, unknown>>): ReadonlyArray<string> => {
  const issues: Array<string> = []
  const check = (value: unknown, known: ReadonlyArray<string>, path: ReadonlyArray<string>) => {
    if (!isRecord(value)) return
    for (const key of Object.keys(value)) {
      if (!known.includes(key)) issues.push(issueAt(`Unknown option "${key}"`, [...path, key]))
    }
  }
  check(input, Object.keys(HostOptions.fields), [])
  check(input["features"], Object.keys(Features.fields), ["features"])
  check(input["endpoints"], Object.keys(Endpoints.fields), ["endpoints"])
  return issues
}

const isMissing = (value: unknown): boolean => value === undefined || value === null

// Reading the host's value is guarded property by property; this last guard turns anything still unforeseen into
// the same typed error, because a host must get an error it can show, never an exception from inside decoding.
const neverThrows = <A, E>(decode: () => Result.Result<A, E>, issues: string): Result.Result<A, E | InvalidOptions> =>
  Result.try({ try: decode, catch: () => new InvalidOptions({ issues }) }).pipe(Result.flatMap((result) => result))

const decodeRead = (input: unknown): Result.Result<DecodedOptions, InvalidOptions | SiweSiwxConflict> => {
  const read = readPlain(input)
  if (Result.isFailure(read)) return Result.fail(new InvalidOptions({ issues: read.failure.join("\n") }))
  const plain = read.success
  if (!isRecord(plain)) return Result.fail(new InvalidOptions({ issues: "Expected an options object" }))
  if (!isMissing(plain["siweConfig"]) && !isMissing(plain["siwx"])) return Result.fail(new SiweSiwxConflict())
  const unknownKeys = unknownKeyIssues(plain)
  if (unknownKeys.length > 0) return Result.fail(new InvalidOptions({ issues: unknownKeys.join("\n") }))
  const decoded = Schema.decodeUnknownResult(HostOptions)(plain, { errors: "all" })
  if (Result.isFailure(decoded)) return Result.fail(new InvalidOptions({ issues: decoded.failure.message }))
  const options = decoded.success
  const alerts: Array<Alert> = []
  if (options.projectId === undefined || options.projectId.trim() === "") alerts.push(Alerts.PROJECT_ID_NOT_CONFIGURED)
  return Result.succeed({ options, alerts })
}

/**
 * Decodes host options: defaults applied; a bad option fails with InvalidOptions naming every bad path; both
 * `siweConfig` and `siwx` fail with SiweSiwxConflict; a missing or blank projectId adds the
 * PROJECT_ID_NOT_CONFIGURED alert. It never throws, whatever the host passes.
 */
export const decodeOptions = (input: unknown): Result.Result<DecodedOptions, InvalidOptions | SiweSiwxConflict> =>
  neverThrows(() => decodeRead(input), "Expected options that can be read")

const ThemeVariablesOption = Schema.Struct({ themeVariables: ThemeVariables })

/**
 * Decodes theme variables the host sets after start (`setThemeVariables`) as the `themeVariables` option: an
 * unknown name or a value outside its grammar fails with InvalidOptions naming it; it never throws.
 */
export const decodeThemeVariables = (input: unknown): Result.Result<ThemeVariables, InvalidOptions> => {
  const decode = (): Result.Result<ThemeVariables, InvalidOptions> => {
    const read = readPlain({ themeVariables: input })
    if (Result.isFailure(read)) return Result.fail(new InvalidOptions({ issues: read.failure.join("\n") }))
    const decoded = Schema.decodeUnknownResult(ThemeVariablesOption)(read.success, { errors: "all" })
    return Result.isFailure(decoded)
      ? Result.fail(new InvalidOptions({ issues: decoded.failure.message }))
      : Result.succeed(decoded.success.themeVariables)
  }
  return neverThrows(decode, "Expected theme variables that can be read")
}

/**
 * Decodes host options or throws the InvalidOptions / SiweSiwxConflict error; alerts are left to the runtime,
 * which decodes again and shows them.
 * @example decodeOptionsSync({ networks: [ethereum], projectId: "my-project" }).features.swaps // true
 */
export const decodeOptionsSync = (input: unknown): HostOptions => {
  const result = decodeOptions(input)
  if (Result.isFailure(result)) throw result.failure
  return result.success.options
}
