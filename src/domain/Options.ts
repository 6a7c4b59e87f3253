/**
 * Options supplied by the host (spec point 3), decoded once at start: defaults are applied, a malformed option is
 * one clear error naming its path, both sign-in configurations together are refused, and a missing projectId is
 * reported as an alert (the modal still works against the local stack without one).
 */
import { Effect, Result, Schema } from "effect"
import { type Alert, Alerts } from "./alerts"
import { isCaipNetworkId } from "./Caip"
import { CONNECT_METHOD_ORDER, CONNECTOR_ORDER, DEFAULT_ACCOUNT_TYPES, DEFAULT_FEATURES, DEFAULT_SOCIALS, WALLET_FEATURE_ORDER } from "./constants"
import { InvalidOptions, SiweSiwxConflict } from "./errors"
import { AccountType, SocialProvider, ThemeMode } from "./Account"
import { CaipNetwork } from "./Network"
import { CustomWallet } from "./Wallet"

const withDefault = <S extends Schema.Top>(value: S["Encoded"]) => Schema.withDecodingDefault<S>(Effect.succeed(value))

const isUrl = (value: string, protocols: ReadonlyArray<string>): boolean => {
  // `URL` is the platform's own parser: no I/O, so it keeps this module pure.
  try {
    return protocols.includes(new URL(value).protocol)
  } catch {
    return false
  }
}

const HttpUrl = Schema.String.pipe(
  Schema.check(
    Schema.makeFilter((value: string) => isUrl(value, ["http:", "https:"]), { expected: "an absolute http(s) URL" })
  )
)

const WsUrl = Schema.String.pipe(
  Schema.check(Schema.makeFilter((value: string) => isUrl(value, ["ws:", "wss:"]), { expected: "an absolute ws(s) URL" }))
)

// A record keyed by CAIP-2 id. Effect drops record keys its key schema refuses, so keys are checked here instead:
// a mistyped network id must be an error, not a silently ignored entry.
const byCaipNetworkId = <V extends Schema.Top>(value: V) =>
  Schema.Record(Schema.String, value).pipe(
    Schema.check(
      Schema.makeFilter((record: { readonly [key: string]: unknown }) =>
        Object.keys(record)
          .filter((key) => !isCaipNetworkId(key))
          .map((key) => ({ path: [key], issue: `Invalid CAIP-2 network id: ${key}` }))
      )
    )
  )

/** What the host app says about itself (shown to wallets during connection). */
export const Metadata = Schema.Struct({
  name: Schema.String,
  description: Schema.String,
  url: Schema.String,
  icons: Schema.Array(Schema.String)
})
/** What the host app says about itself. */
export type Metadata = typeof Metadata.Type

/** A social login offered by the modal: a social provider, or the decentralised social app (farcaster). */
export const SocialOption = Schema.Union([SocialProvider, Schema.Literal("farcaster")])
/** A social login offered by the modal. */
export type SocialOption = typeof SocialOption.Type

/** Feature switches, each with its spec-9 default. */
export const Features = Schema.Struct({
  swaps: Schema.Boolean.pipe(withDefault(DEFAULT_FEATURES.swaps)),
  onramp: Schema.Boolean.pipe(withDefault(DEFAULT_FEATURES.onramp)),
  receive: Schema.Boolean.pipe(withDefault(DEFAULT_FEATURES.receive)),
  send: Schema.Boolean.pipe(withDefault(DEFAULT_FEATURES.send)),
  email: Schema.Boolean.pipe(withDefault(DEFAULT_FEATURES.email)),
  emailShowWallets: Schema.Boolean.pipe(withDefault(DEFAULT_FEATURES.emailShowWallets)),
  history: Schema.Boolean.pipe(withDefault(DEFAULT_FEATURES.history)),
  analytics: Schema.Boolean.pipe(withDefault(DEFAULT_FEATURES.analytics)),
  allWallets: Schema.Boolean.pipe(withDefault(DEFAULT_FEATURES.allWallets)),
  legalCheckbox: Schema.Boolean.pipe(withDefault(DEFAULT_FEATURES.legalCheckbox)),
  smartSessions: Schema.Boolean.pipe(withDefault(DEFAULT_FEATURES.smartSessions)),
  collapseWallets: Schema.Boolean.pipe(withDefault(DEFAULT_FEATURES.collapseWallets)),
  socials: Schema.Union([Schema.Array(SocialOption), Schema.Literal(false)]).pipe(withDefault(DEFAULT_SOCIALS)),
  connectMethodsOrder: Schema.optionalKey(Schema.Array(Schema.Literals(CONNECT_METHOD_ORDER))),
  connectorTypeOrder: Schema.optionalKey(Schema.Array(Schema.Literals(CONNECTOR_ORDER))),
  walletFeaturesOrder: Schema.optionalKey(Schema.Array(Schema.Literals(WALLET_FEATURE_ORDER)))
})
/** Feature switches after defaults. */
export type Features = typeof Features.Type

/** The theme variables a host may override; every one maps onto the `wr-` theme contract. */
export const THEME_VARIABLE_NAMES = [
  "--wr-font-family",
  "--wr-font-size-master",
  "--wr-border-radius-master",
  "--wr-accent",
  "--wr-color-mix",
  "--wr-color-mix-strength",
  "--wr-z-index",
  "--wr-qr-color"
] as const

/** A theme variable a host may override. */
export type ThemeVariableName = (typeof THEME_VARIABLE_NAMES)[number]

/** Host overrides of theme variables: known `--wr-*` names to a CSS value; an unknown name is refused. */
export const ThemeVariables = Schema.Record(Schema.String, Schema.Union([Schema.String, Schema.Finite])).pipe(
  Schema.check(
    Schema.makeFilter((variables: { readonly [name: string]: string | number }) =>
      Object.keys(variables)
        .filter((name) => !(THEME_VARIABLE_NAMES as ReadonlyArray<string>).includes(name))
        .map((name) => ({
          path: [name],
          issue: `Unknown theme variable "${name}"; known: ${THEME_VARIABLE_NAMES.join(", ")}`
        }))
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

/**
 * A token the host wants shown for a network: its contract (EVM) or mint (Solana) address, an optional image and
 * (our addition) an optional symbol, shown where the chain itself does not name the token (an SPL mint).
 */
export const TokenOption = Schema.Struct({
  address: Schema.String,
  image: Schema.optionalKey(Schema.String),
  symbol: Schema.optionalKey(Schema.String)
})
/** A token the host wants shown for a network. */
export type TokenOption = typeof TokenOption.Type

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

/** The host options: what the host writes is `HostOptionsInput`, what the runtime reads is `HostOptions`. */
export const HostOptions = Schema.Struct({
  projectId: Schema.optionalKey(Schema.String),
  networks: Schema.Array(CaipNetwork).pipe(
    Schema.refine((networks): networks is readonly [CaipNetwork, ...Array<CaipNetwork>] => networks.length > 0, {
      message: "Expected at least one network"
    })
  ),
  defaultNetwork: Schema.optionalKey(CaipNetwork),
  metadata: Schema.optionalKey(Metadata),
  features: Features.pipe(withDefault({})),
  tokens: Schema.optionalKey(byCaipNetworkId(TokenOption)),
  themeMode: Schema.optionalKey(ThemeMode),
  themeVariables: Schema.optionalKey(ThemeVariables),
  allWallets: AllWalletsOption.pipe(withDefault("SHOW")),
  includeWalletIds: Schema.optionalKey(Schema.Array(Schema.String)),
  excludeWalletIds: Schema.optionalKey(Schema.Array(Schema.String)),
  featuredWalletIds: Schema.optionalKey(Schema.Array(Schema.String)),
  customWallets: Schema.optionalKey(Schema.Array(CustomWallet)),
  customRpcUrls: Schema.optionalKey(byCaipNetworkId(Schema.Array(CustomRpcUrl))),
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
  enableAnalytics: Schema.Boolean.pipe(withDefault(true)),
  debug: Schema.Boolean.pipe(withDefault(false))
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

const pathText = (path: ReadonlyArray<string>): string => path.map((key) => `[${JSON.stringify(key)}]`).join("")

// Decoding strips unknown keys; a misspelt option ("projectID", features.swap) would then vanish silently, so the
// objects the host writes by hand are checked for unknown keys first.
const unknownKeyIssues = (input: Readonly<Record<string, unknown>>): ReadonlyArray<string> => {
  const issues: Array<string> = []
  const check = (value: unknown, known: ReadonlyArray<string>, path: ReadonlyArray<string>) => {
    if (!isRecord(value)) return
    for (const key of Object.keys(value)) {
      if (!known.includes(key)) issues.push(`Unknown option "${key}"\n  at ${pathText([...path, key])}`)
    }
  }
  check(input, Object.keys(HostOptions.fields), [])
  check(input["features"], Object.keys(Features.fields), ["features"])
  check(input["endpoints"], Object.keys(Endpoints.fields), ["endpoints"])
  return issues
}

const isMissing = (value: unknown): boolean => value === undefined || value === null

/**
 * Decodes host options: defaults applied; a bad option fails with InvalidOptions naming every bad path; both
 * `siweConfig` and `siwx` fail with SiweSiwxConflict; a missing or blank projectId adds the
 * PROJECT_ID_NOT_CONFIGURED alert.
 */
export const decodeOptions = (input: unknown): Result.Result<DecodedOptions, InvalidOptions | SiweSiwxConflict> => {
  if (!isRecord(input)) return Result.fail(new InvalidOptions({ issues: "Expected an options object" }))
  if (!isMissing(input["siweConfig"]) && !isMissing(input["siwx"])) return Result.fail(new SiweSiwxConflict())
  const unknownKeys = unknownKeyIssues(input)
  if (unknownKeys.length > 0) return Result.fail(new InvalidOptions({ issues: unknownKeys.join("\n") }))
  const decoded = Schema.decodeUnknownResult(HostOptions)(input, { errors: "all" })
  if (Result.isFailure(decoded)) return Result.fail(new InvalidOptions({ issues: decoded.failure.message }))
  const options = decoded.success
  const alerts: Array<Alert> = []
  if (options.projectId === undefined || options.projectId.trim() === "") alerts.push(Alerts.PROJECT_ID_NOT_CONFIGURED)
  return Result.succeed({ options, alerts })
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
