/**
 * The server's configuration, declared once: `ServerConfig` is the Schema every value is decoded with, and each
 * setting in it carries its documentation (what it is, its type, its default, whether it is a secret) as an
 * annotation. The loader (`./load.ts`) reads the settings from the environment and the config file by the same
 * declaration, and the reference table of the guide (`./reference.ts`) is generated from it.
 *
 * Every setting has a file key (its path in the JSON file, `services.port`) and an environment variable:
 * `WALLET_RUNTIME_` and the path in CONSTANT_CASE (`WALLET_RUNTIME_SERVICES_PORT`), except `DATABASE_URL` and `REDIS_URL`.
 */
import { Effect, Result, Schema, SchemaAST } from "effect"
import { IpNetwork } from "effect/net"
import { DEFAULT_NAME_SUFFIX, NameSuffix } from "../../../src/domain/Options"
import { DEFAULT_VISITOR_LIMITS } from "../embedded/server/visitorLimits"

/** How a setting is written in an environment variable. */
export type EnvFormat =
  /** The value as it is. */
  | "text"
  /** A comma-separated list. */
  | "list"
  /** A JSON document (lists of objects, records). */
  | "json"

/** What the reference says of a setting, and how its variable is written. */
export interface SettingDoc {
  readonly description: string
  /** The type in words, as the reference shows it. */
  readonly type: string
  /** The default as the reference shows it; absent for a required or optional setting. */
  readonly default?: string
  /** A secret: decoded as `Redacted`, never logged nor shown in an error. */
  readonly secret?: boolean
  /** The variable's name when it is not the one derived from the path. */
  readonly env?: string
  readonly envFormat?: EnvFormat
}

const SETTING = "walletRuntimeSetting"

// On the key (the property's context), not the value: a value's annotations go to its last check, if it has any.
const setting = <S extends Schema.Top>(schema: S, doc: SettingDoc): S["Rebuild"] => schema.annotateKey({ [SETTING]: doc })

/** A setting with a default: `value` is used when neither the file nor the environment gives one. */
const withDefault = <S extends Schema.Top>(schema: S, value: S["Encoded"], doc: Omit<SettingDoc, "default">) =>
  setting(schema.pipe(Schema.withDecodingDefaultKey(Effect.succeed(value))), {
    ...doc,
    default: typeof value === "string" ? value : JSON.stringify(value)
  })

/** A group of settings whose keys all have defaults: an absent group is all defaults. */
const group = <F extends Schema.Struct.Fields>(fields: F) =>
  // Every field of a group has a default or is optional, which the type of `{}` cannot know of `F`.
  Schema.Struct(fields).pipe(Schema.withDecodingDefaultKey(Effect.succeed({} as Schema.Struct<F>["Encoded"])))

const parsesAs = (text: string, check: (url: URL) => boolean): boolean => {
  try {
    return check(new URL(text))
  } catch {
    return false
  }
}

const Host = Schema.String.check(Schema.isNonEmpty({ expected: "a host name or IP address" }))
const Port = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 65535 }, { expected: "a port: an integer from 0 to 65535" }))
const Millis = Schema.Int.check(Schema.isGreaterThan(0, { expected: "a positive whole number of milliseconds" }))

/** An http(s) URL without query or fragment, e.g. `https://api.example.com` or `https://example.com/wallet-runtime`. */
export const HttpUrl = Schema.String.check(
  Schema.makeFilter(
    (text: string) =>
      parsesAs(text, (url) => (url.protocol === "https:" || url.protocol === "http:") && url.search === "" && url.hash === ""),
    { expected: "an http(s) URL without query or fragment, e.g. https://api.example.com" }
  )
)

/** A ws(s) URL without query or fragment, e.g. `wss://relay.example.com`. */
export const WsUrl = Schema.String.check(
  Schema.makeFilter(
    (text: string) => parsesAs(text, (url) => (url.protocol === "wss:" || url.protocol === "ws:") && url.search === "" && url.hash === ""),
    { expected: "a ws(s) URL without query or fragment, e.g. wss://relay.example.com" }
  )
)

/** An origin: scheme, host and port only, e.g. `https://app.example`. */
export const HttpOrigin = Schema.String.check(
  Schema.makeFilter(
    (text: string) => parsesAs(text, (url) => (url.protocol === "https:" || url.protocol === "http:") && url.origin === text.replace(/\/$/, "")),
    { expected: "an origin (scheme, host and port only), e.g. https://app.example" }
  )
)

/** An upstream RPC endpoint: http(s) URL. */
const RpcUrl = Schema.String.check(
  Schema.makeFilter((text: string) => parsesAs(text, (url) => url.protocol === "https:" || url.protocol === "http:"), {
    expected: "an http(s) URL of a JSON-RPC endpoint"
  })
)

/** The CAIP-2 id of a chain the services serve: `eip155:<chain id>` or `solana:<genesis hash prefix>`. */
export const ServedChainId = Schema.String.check(
  Schema.isPattern(/^(eip155:[1-9][0-9]{0,15}|solana:[1-9A-HJ-NP-Za-km-z]{32})$/, {
    expected: "the CAIP-2 id of an eip155 or solana chain, e.g. eip155:1 or solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"
  })
)

/** A fungible token the services name: its contract (EVM, 0x + 40 hex digits) or mint (Solana, base58). */
export const TokenConfig = Schema.Struct({
  address: Schema.String.check(
    Schema.isPattern(/^(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})$/, {
      expected: "a token contract (0x and 40 hex digits) or a Solana mint (base58)"
    })
  ),
  symbol: Schema.String.check(Schema.isNonEmpty({ expected: "the token's symbol, e.g. USDC" })),
  name: Schema.String.check(Schema.isNonEmpty({ expected: "the token's name, e.g. USD Coin" })),
  decimals: Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 255 }, { expected: "the token's decimals: an integer from 0 to 255" }))
})

/** One chain the services serve. */
export const ChainConfig = Schema.Struct({
  name: Schema.optionalKey(Schema.String.check(Schema.isNonEmpty({ expected: "the chain's name, e.g. Ethereum" }))),
  rpcUrls: Schema.Array(RpcUrl).check(Schema.isMinLength(1, { expected: "at least one upstream RPC URL" })),
  tokens: Schema.Array(TokenConfig).pipe(Schema.withDecodingDefaultKey(Effect.succeed([]))),
  // A public chain's past does not fit in this server's memory: its history starts when the server does.
  history: Schema.Literals(["head", "genesis"]).pipe(Schema.withDecodingDefaultKey(Effect.succeed("head" as const))),
  // Swaps on this chain (eip155): the Uniswap v2 Router02 the local swap provider quotes and builds with.
  swap: Schema.optionalKey(
    Schema.Struct({
      uniswapV2Router: Schema.String.check(
        Schema.isPattern(/^0x[0-9a-fA-F]{40}$/, { expected: "a Uniswap v2 Router02 contract: 0x and 40 hex digits" })
      )
    })
  )
})

/**
 * One social provider of a project, as the wallet server's OpenID Connect / OAuth 2 client: `issuer` (OpenID Connect,
 * the rest by discovery, ID tokens verified against its JWKS) or the three endpoints (plain OAuth 2, the profile from
 * userinfo); the client id and secret the provider gave the host; the scopes (each provider's usual ones by default).
 */
export const SocialClientConfig = Schema.Struct({
  issuer: Schema.optionalKey(HttpUrl),
  authorizationEndpoint: Schema.optionalKey(HttpUrl),
  tokenEndpoint: Schema.optionalKey(HttpUrl),
  userinfoEndpoint: Schema.optionalKey(HttpUrl),
  clientId: Schema.String.check(Schema.isNonEmpty({ expected: "the client id the provider gave" })),
  clientSecret: Schema.Redacted(Schema.String.check(Schema.isNonEmpty({ expected: "the client secret the provider gave" }))),
  scopes: Schema.optionalKey(Schema.Array(Schema.String.check(Schema.isPattern(/^[\x21\x23-\x5B\x5D-\x7E]+$/, { expected: "a scope" }))))
}).check(
  Schema.makeFilter(
    (provider) =>
      provider.issuer !== undefined ||
      (provider.authorizationEndpoint !== undefined && provider.tokenEndpoint !== undefined && provider.userinfoEndpoint !== undefined),
    { expected: "an issuer (OpenID Connect) or authorizationEndpoint, tokenEndpoint and userinfoEndpoint (OAuth 2)" }
  )
)

const Percent = Schema.Finite.check(Schema.isBetween({ minimum: 0, maximum: 100 }, { expected: "a percentage from 0 to 100" }))

/** A range of fiat amounts (or of percentages): `min` no more than `max`. */
const rangeOf = (value: Schema.Finite["Rebuild"] | typeof Percent, words: string) =>
  Schema.Struct({ min: value, max: value }).check(
    Schema.makeFilter((range) => range.min <= range.max, { expected: `${words}: {"min": …, "max": …} with min no more than max` })
  )

const FiatAmount = Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0, { expected: "an amount of fiat money, 0 or more" }))

/** The on-ramp's payment limits per payment method, in each currency's own units. */
export const OnrampLimits = Schema.Struct({
  card: rangeOf(FiatAmount, "the card limits"),
  bankAccount: rangeOf(FiatAmount, "the bank account limits")
})

/** Spec 9's fallback: USD and EUR (EUR at a fixed 1.08 USD, as nothing real is paid on the local page). */
/** The local provider's name, as the Buy view says it. */
export const ONRAMP_DEFAULT_PROVIDER_NAME = "Local On-ramp"
/** The fiat currencies paid in by default, each with the USD one unit is worth. */
export const ONRAMP_DEFAULT_CURRENCIES = { USD: 1, EUR: 1.08 } as const
/** Spec 9's fallback limits: card 10–7500, bank account 10–25000. */
export const ONRAMP_DEFAULT_LIMITS = { card: { min: 10, max: 7500 }, bankAccount: { min: 10, max: 25000 } } as const
/** Spec 9's fallback provider fee range, in percent. */
export const ONRAMP_DEFAULT_FEE_PERCENT = { min: 1, max: 2 } as const
/** The card fee a quote takes by default, in percent (inside spec 9's 1–2 %). */
export const ONRAMP_DEFAULT_CARD_FEE_PERCENT = 1.5
/** The network fee a quote takes by default, in the currency paid. */
export const ONRAMP_DEFAULT_NETWORK_FEE = 0.1

/** One project: its id, the browser origins that may use it, and whether the modal sends analytics. */
export const ProjectConfig = Schema.Struct({
  projectId: Schema.String.check(
    Schema.isPattern(/^[A-Za-z0-9._-]{1,128}$/, { expected: "a project id: 1 to 128 letters, digits, '.', '_' or '-'" })
  ),
  allowedOrigins: Schema.Union([
    Schema.Literal("loopback"),
    Schema.Array(HttpOrigin).check(Schema.isMinLength(1, { expected: "at least one origin, or \"loopback\"" }))
  ]).annotate({ expected: "\"loopback\" or a list of origins such as [\"https://app.example\"]" }),
  analytics: Schema.Boolean.pipe(Schema.withDecodingDefaultKey(Effect.succeed(true))),
  socials: Schema.optionalKey(
    Schema.Struct({
      google: Schema.optionalKey(SocialClientConfig),
      x: Schema.optionalKey(SocialClientConfig),
      discord: Schema.optionalKey(SocialClientConfig),
      github: Schema.optionalKey(SocialClientConfig),
      apple: Schema.optionalKey(SocialClientConfig),
      facebook: Schema.optionalKey(SocialClientConfig)
    })
  )
})

/** The components one process can run. */
export const Component = Schema.Literals(["services", "relay", "wallet", "bundler"])
/**
 * A component: the services API, the WalletConnect relay, the embedded wallet (frame site and wallet server), or the
 * ERC-4337 bundler (with the paymaster, when the host sponsors).
 */
export type Component = typeof Component.Type

/** The log levels, from the most to the least said. */
export const LogLevelName = Schema.Literals(["trace", "debug", "info", "warn", "error", "fatal", "none"])

const listener = (name: string, port: number, publicUrl: Schema.String, urlWords: string, more = "") =>
  group({
    host: withDefault(Host, "127.0.0.1", {
      type: "host",
      description: `Address the ${name} listens on (\`0.0.0.0\` or \`::\` for every interface).`
    }),
    port: withDefault(Port, port, { type: "port (0–65535)", description: `Port the ${name} listens on (0: one the OS chooses).` }),
    publicUrl: Schema.optionalKey(
      setting(publicUrl, {
        type: urlWords,
        description:
          `Where browsers reach the ${name}, when it is not the listen address (behind a TLS proxy).${more} Required when ` +
          "`host` is a wildcard address."
      })
    )
  })

/** An EVM address: 0x and 40 hex digits. */
const EvmAddress = Schema.String.check(Schema.isPattern(/^0x[0-9a-fA-F]{40}$/, { expected: "an address: 0x and 40 hex digits" }))
/** A secp256k1 private key: 0x and 64 hex digits. */
const PrivateKey = Schema.Redacted(
  Schema.String.check(Schema.isPattern(/^0x[0-9a-fA-F]{64}$/, { expected: "a private key: 0x and 64 hex digits" }))
)
/** EntryPoint v0.8 at its canonical address (the same on every chain that has it). */
const ENTRY_POINT_V08 = "0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108"

/** The server's whole configuration, decoded. */
export const ServerConfig = Schema.Struct({
  components: withDefault(
    Schema.Array(Component).check(
      Schema.isMinLength(1, { expected: "at least one of services, relay, wallet, bundler" }),
      Schema.isUnique({ expected: "each component once" })
    ),
    ["services", "relay", "wallet"],
    {
      type: "list of components (`services`, `relay`, `wallet`, `bundler`)",
      description:
        "The components this process runs (comma-separated in the variable). `bundler` is not in the default: it needs " +
        "`bundler.privateKey`, a funded key.",
      envFormat: "list"
    }
  ),
  database: group({
    url: Schema.optionalKey(
      setting(
        Schema.Redacted(
          Schema.String.check(
            Schema.isPattern(/^postgres(ql)?:\/\/[^\s]+$/, { expected: "a Postgres URL: postgres://user:password@host:port/database" })
          )
        ),
        {
          env: "DATABASE_URL",
          secret: true,
          type: "Postgres URL",
          description: "The Postgres to keep the state in, `postgres://user:password@host:port/database`. Without it, PGlite in `dataDir`."
        }
      )
    ),
    dataDir: withDefault(Schema.String.check(Schema.isNonEmpty({ expected: "a directory" })), "./data/pglite", {
      type: "path",
      description: "The embedded PGlite's data directory, when `url` is not set (one process only: it is locked)."
    })
  }),
  redis: group({
    url: Schema.optionalKey(
      setting(
        Schema.Redacted(
          Schema.String.check(
            Schema.isPattern(/^rediss?:\/\/[^\s]+$/, { expected: "a Redis URL: redis://[user:password@]host:port (rediss:// for TLS)" })
          )
        ),
        {
          env: "REDIS_URL",
          secret: true,
          type: "Redis URL",
          description:
            "A Redis 7 shared by every relay node, `redis://[user:password@]host:port`: messages cross nodes by sharded " +
            "pub/sub and each topic's mailbox (with each message's TTL) lives there, so a client reconnecting to any node " +
            "gets what it missed. Without it, the relay keeps everything in its process (one node)."
        }
      )
    )
  }),
  services: listener("services API", 8080, HttpUrl, "http(s) URL"),
  relay: listener("WalletConnect relay", 8081, WsUrl, "ws(s) URL", " Clients sign their auth JWT for it (`aud`)."),
  wallet: group({
    host: withDefault(Host, "127.0.0.1", {
      type: "host",
      description: "Address the embedded wallet (frame site and wallet server) listens on."
    }),
    port: withDefault(Port, 8082, { type: "port (0–65535)", description: "Port the embedded wallet listens on (0: one the OS chooses)." }),
    publicUrl: Schema.optionalKey(
      setting(HttpOrigin, {
        type: "origin",
        description:
          "The frame origin: where browsers load the frame (the library's `endpoints.frame`) and where mailed links " +
          "point. An origin of its own, not the app's nor the services'. Required when `host` is a wildcard address."
      })
    ),
    masterKeyFile: withDefault(Schema.String.check(Schema.isNonEmpty({ expected: "a file path" })), "./data/wallet-master-key", {
      type: "path",
      description:
        "The file holding the master key that seals the users' keys (64 hex digits), readable by its owner only " +
        "(mode 0600). Keep it with the database's backups: without it the keys cannot be opened."
    }),
    createMasterKey: withDefault(Schema.Boolean, false, {
      type: "boolean",
      description: "Make the master-key file (mode 0600) when it does not exist. Off: a missing file stops the start."
    }),
    frameBuildDir: withDefault(Schema.String.check(Schema.isNonEmpty({ expected: "a directory" })), "./data/frame", {
      type: "path",
      description:
        "A writable folder the frame page is built into at start (with Vite, one folder per version of its sources; " +
        "a start with the same version finds it built). Only the latest version is kept."
    }),
    passkeyRpId: Schema.optionalKey(
      setting(
        Schema.String.check(
          Schema.isPattern(/^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/, { expected: "a host name in lower case" })
        ),
        {
          type: "host name",
          description:
            "The passkeys' relying party ID: the host name of `publicUrl` or a domain it is under (`example.com` for " +
            "`https://wallet.example.com`). Unset: the host name of `publicUrl`. Passkeys belong to it: a host that serves " +
            "the frame from its own domain and sets it here keeps its users' passkeys if it moves the frame elsewhere under " +
            "that domain, away from any vendor. Changing it later strands every passkey made before."
        }
      )
    ),
    farcasterRpcUrl: Schema.optionalKey(
      setting(HttpUrl, {
        type: "http(s) URL",
        description:
          "Log in with Farcaster (Sign In With Farcaster): the JSON-RPC URL of the chain of Farcaster's id registry " +
          "(OP mainnet, chain 10), where the wallet server reads each fid's custody address. Unset: no Farcaster login."
      })
    ),
    freshLoginMs: withDefault(Millis, 600_000, {
      type: "milliseconds",
      description:
        "How recent a login must be for the wallet server to give out a user's recovery envelope or keep a new split of " +
        "their key: an older session is asked to log in again (the server share goes to any valid session, to sign with)."
    }),
    trustedProxies: withDefault(
      Schema.Array(Schema.String.check(Schema.makeFilter((network) => Result.isSuccess(IpNetwork.fromString(network)), { expected: "a network in CIDR notation (10.0.0.0/8, fd00::/8)" }))),
      [],
      {
        type: "list of networks (CIDR)",
        description:
          "The proxies and load balancers in front of the wallet server (comma-separated in the variable), e.g. " +
          "`10.0.0.0/8`: from them, `X-Forwarded-For` names the visitor's address, which the limits per visitor count " +
          "(`limits.walletPasskeyPerMinute`, `limits.walletFarcasterRelayPerMinute`, `limits.walletLoginStartsPerMinute`, " +
          "`limits.walletKeyExportPerMinute`, `limits.walletLongPollsPerAddress`). Empty: the connection's address, " +
          "so behind a proxy every visitor shares the proxy's.",
        envFormat: "list"
      }
    ),
    farcasterIdRegistry: withDefault(
      Schema.String.check(Schema.isPattern(/^0x[0-9a-fA-F]{40}$/, { expected: "an EVM address (0x and 40 hex digits)" })),
      "0x00000000Fc6c5F01Fc30151999387Bb99A9f489b",
      {
        type: "EVM address",
        description: "The Farcaster id registry (`idOf(address) → fid`) on the chain of `farcasterRpcUrl`: Farcaster's own by default."
      }
    )
  }),
  bundler: group({
    host: withDefault(Host, "127.0.0.1", { type: "host", description: "Address the ERC-4337 bundler listens on." }),
    port: withDefault(Port, 8083, { type: "port (0–65535)", description: "Port the bundler listens on (0: one the OS chooses)." }),
    publicUrl: Schema.optionalKey(
      setting(HttpUrl, {
        type: "http(s) URL",
        description:
          "Where wallets reach the bundler, when it is not the listen address; a chain's endpoint is " +
          "`{publicUrl}/rpc/{chainId}`. Required when `host` is a wildcard address."
      })
    ),
    privateKey: Schema.optionalKey(
      setting(PrivateKey, {
        type: "private key (0x and 64 hex digits)",
        secret: true,
        description:
          "The key that submits bundles (`handleOps`) on every eip155 chain of `chains`: it pays their gas and is " +
          "paid back by the operations. Keep it funded on each chain. Required when `bundler` runs."
      })
    ),
    entryPoint: withDefault(EvmAddress, ENTRY_POINT_V08, {
      type: "address",
      description: "The ERC-4337 EntryPoint (v0.8) served, at the same address on every chain."
    }),
    maxOpsPerBundle: withDefault(Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 100 }, { expected: "an integer from 1 to 100" })), 8, {
      type: "number",
      description: "The most user operations one `handleOps` transaction carries."
    }),
    receiptLookbackBlocks: withDefault(Schema.Int.check(Schema.isGreaterThan(0, { expected: "a positive number of blocks" })), 10_000, {
      type: "number of blocks",
      description:
        "How far back the bundler looks in the EntryPoint's logs for an operation it does not remember (one " +
        "submitted before a restart, or by another bundler process)."
    })
  }),
  smartAccounts: group({
    factory: Schema.optionalKey(
      setting(EvmAddress, {
        type: "address",
        description:
          "The WalletAccountFactory (`devstack/contracts/WalletAccount.sol`: SimpleAccount of EntryPoint v0.8 with " +
          "ERC-1271 by ERC-7739) at the same address on every eip155 chain: with it, each embedded-wallet user has a " +
          "smart account (their key's WalletAccount) beside their EOA, sent from as user operations through the " +
          "bundler and signing messages by ERC-1271 (ERC-6492 before it is deployed)."
      })
    ),
    bundlerUrl: Schema.optionalKey(
      setting(HttpUrl, {
        type: "http(s) URL",
        description:
          "The bundler the wallet server sends the smart accounts' operations to (its base URL; a chain's endpoint is " +
          "`{bundlerUrl}/rpc/{chainId}`). Default: the bundler of this process, when it runs one."
      })
    )
  }),
  paymaster: group({
    address: Schema.optionalKey(
      setting(EvmAddress, {
        type: "address",
        description:
          "The verifying paymaster contract (`devstack/contracts/VerifyingPaymaster.sol`), with a deposit in the " +
          "EntryPoint, at the same address on every chain the bundler serves. Required unless `sponsor` is `none`."
      })
    ),
    signerKey: Schema.optionalKey(
      setting(PrivateKey, {
        type: "private key (0x and 64 hex digits)",
        secret: true,
        description: "The key the paymaster contract trusts (its `signer`): it signs the approvals of sponsored operations. Required unless `sponsor` is `none`."
      })
    ),
    sponsor: withDefault(Schema.Literals(["none", "all", "allowlist"]), "none", {
      type: "`none`, `all` or `allowlist`",
      description:
        "Whose gas the host pays (`pm_getPaymasterStubData` / `pm_getPaymasterData` on the bundler's endpoint): " +
        "nobody's, every operation's, or the operations of the `senders` listed."
    }),
    senders: withDefault(Schema.Array(EvmAddress), [], {
      type: "list of addresses",
      description: "With `sponsor` `allowlist`: the smart accounts whose operations the host pays for (comma-separated in the variable).",
      envFormat: "list"
    }),
    maxGasPerOp: withDefault(Schema.Int.check(Schema.isGreaterThan(0, { expected: "a positive amount of gas" })), 2_000_000, {
      type: "amount of gas",
      description: "The most gas (all of an operation's gas limits together) the host pays for in one operation; more is refused."
    }),
    validForSeconds: withDefault(Schema.Int.check(Schema.isGreaterThan(0, { expected: "a positive number of seconds" })), 600, {
      type: "seconds",
      description: "How long a paymaster approval stays good: the operation must be included within it."
    })
  }),
  chains: withDefault(Schema.Record(ServedChainId, ChainConfig), {}, {
    type: "JSON object of chains by CAIP-2 id",
    description:
      "The chains served, e.g. `{\"eip155:1\": {\"name\": \"Ethereum\", \"rpcUrls\": [\"https://…\"], \"tokens\": " +
      "[{\"address\": \"0x…\", \"symbol\": \"USDC\", \"name\": \"USD Coin\", \"decimals\": 6}]}}`: upstream RPC URLs " +
      "of the same chain, in order (the services and the wallet server ask one at a time: one that is unreachable, does " +
      "not answer within `limits.upstreamTimeoutMs` or answers HTTP 5xx or 429 is left for the next, starting from the " +
      "last that answered; the node's JSON-RPC errors are answers, passed on as they are), the chain's name, the " +
      "tokens the services name and price, and (eip155) where the activity history starts: `\"head\"` (the default: " +
      "what happens from when the services first indexed the chain in this database) or `\"genesis\"` (the whole " +
      "chain, indexed block by block into the database: a small chain only). " +
      "An eip155 chain with `\"swap\": {\"uniswapV2Router\": \"0x…\"}` offers swaps (`/v1/convert/*`) of its coin and " +
      "`tokens` through that Uniswap v2 Router02; any other network gets 'Network not supported for Swaps'. " +
      "eip155 chains, and at most one solana network.",
    envFormat: "json"
  }),
  projects: setting(Schema.Array(ProjectConfig).check(Schema.isMinLength(1, { expected: "at least one project" })), {
    type: "JSON list of projects",
    description:
      "The projects, e.g. `[{\"projectId\": \"my-app\", \"allowedOrigins\": [\"https://my.app\"], \"analytics\": true}]`: " +
      "the origins whose pages may use each (`\"loopback\"`: any page on this machine), whether its modal sends " +
      "analytics (default true), and its social login providers (`socials`: by provider `google`, `x`, `discord`, " +
      "`github`, `apple`, `facebook`, `{\"issuer\": \"https://accounts.google.com\", \"clientId\": \"…\", " +
      "\"clientSecret\": \"…\"}` for OpenID Connect, or `authorizationEndpoint`, `tokenEndpoint` and " +
      "`userinfoEndpoint` instead of `issuer` for plain OAuth 2; `scopes` optional; the redirect URI to register with " +
      "the provider is `{wallet.publicUrl}/social/callback`; the secrets stay on the server). Required.",
    envFormat: "json"
  }),
  catalogue: group({
    file: Schema.optionalKey(
      setting(Schema.String.check(Schema.isNonEmpty({ expected: "a file path" })), {
        type: "path",
        description:
          "A JSON list of wallet catalogue entries served by `/getWallets` instead of the library's bundled list of " +
          "well-known wallets: each has `id`, `name`, `image_id` and `chains` (CAIP-2 ids), and may have `rdns`, " +
          "`image_url` (http(s) or data:image), `homepage`, `mobile_link`, `desktop_link`, `webapp_link`, `app_store`, " +
          "`play_store` and `certified` (listed by `badge_type=certified`). Read once at start: a bad entry stops it, " +
          "named. The server holds no logos: `/getWalletImage/{image_id}` draws the wallet's initials, so give " +
          "`image_url` for its own picture."
      })
    )
  }),
  names: group({
    suffix: withDefault(NameSuffix, DEFAULT_NAME_SUFFIX, {
      type: "name suffix",
      description:
        "The suffix of the account names the services register and look up, e.g. `.wallet-runtime.id` (then " +
        "suggestions take `?zone=wallet-runtime.id`). The modal's `nameSuffix` option must be the same: its default is " +
        "this one. Names are kept with their suffix: after a change, names registered under the old one are not found."
    })
  }),
  prices: group({
    feedUrl: Schema.optionalKey(
      setting(HttpUrl, {
        type: "http(s) URL",
        description:
          "A JSON price feed answering `{\"ETH\": 3012.5, …}` (USD by token symbol), read at most once per `feedTtlMs`; " +
          "while it is down the last prices read stay in use. Without it, `fixed`."
      })
    ),
    feedTtlMs: withDefault(Millis, 60_000, { type: "milliseconds", description: "How long prices read from the feed are used." }),
    fixed: withDefault(
      Schema.Record(
        Schema.String.check(Schema.isPattern(/^[A-Za-z0-9._-]{1,32}$/, { expected: "a token symbol, e.g. USDC" })),
        Schema.Finite.check(Schema.isGreaterThanOrEqualTo(0, { expected: "a price in USD, 0 or more" }))
      ),
      {},
      {
        type: "JSON object of USD prices by symbol",
        description:
          "Fixed USD prices by token symbol when there is no feed, e.g. `{\"USDC\": 1}`. A token without a price is " +
          "valued 0: the server makes none up.",
        envFormat: "json"
      }
    )
  }),
  onramp: group({
    pageUrl: Schema.optionalKey(
      setting(HttpUrl, {
        type: "http(s) URL",
        description:
          "The on-ramp provider's page, where the visitor pays (opened in a new window with the order in its query: " +
          "`address`, `network`, `asset`, `partnerUserId`, `fiat`). With it the services answer `/v1/onramp/options`, " +
          "`/v1/onramp/quote` and `/v1/generators/onrampurl`, selling the coin and `tokens` of each eip155 chain; " +
          "without it, those answer 501."
      })
    ),
    providerName: withDefault(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(60)), ONRAMP_DEFAULT_PROVIDER_NAME, {
      type: "text (1–60 characters)",
      description: "The provider's name as the Buy view says it to the visitor ('Buy with …')."
    }),
    depositors: withDefault(
      Schema.Array(
        Schema.String.check(
          Schema.isPattern(/^(0x[0-9a-fA-F]{40}|[1-9A-HJ-NP-Za-km-z]{32,44})$/, { expected: "an account: 0x and 40 hex digits, or a Solana address" })
        )
      ),
      [],
      {
        type: "list of accounts",
        description:
          "The accounts the provider delivers from (EVM or Solana): what one of them sends shows in the history as an " +
          "on-ramp deposit, and alone with `?onramp=`.",
        envFormat: "list"
      }
    ),
    currencies: withDefault(
      Schema.Record(
        Schema.String.check(Schema.isPattern(/^[A-Z]{3}$/, { expected: "an ISO 4217 currency code, e.g. USD" })),
        Schema.Finite.check(Schema.isGreaterThan(0, { expected: "the USD one unit of the currency is worth, more than 0" }))
      ).check(Schema.makeFilter((record) => Object.keys(record).length > 0, { expected: "at least one currency" })),
      ONRAMP_DEFAULT_CURRENCIES,
      {
        type: "JSON object of USD rates by currency code",
        description:
          "The fiat currencies the visitor may pay in, in the order offered, each with the USD one unit is worth (what " +
          "a quote converts at), e.g. `{\"USD\": 1, \"EUR\": 1.08}`.",
        envFormat: "json"
      }
    ),
    limits: withDefault(OnrampLimits, ONRAMP_DEFAULT_LIMITS, {
      type: "JSON object of limits by payment method",
      description:
        "The smallest and largest payment by `card` and by `bankAccount`, in the currency paid, e.g. " +
        "`{\"card\": {\"min\": 10, \"max\": 7500}, \"bankAccount\": {\"min\": 10, \"max\": 25000}}` (spec 9's fallback). " +
        "A quote outside the card limits is refused.",
      envFormat: "json"
    }),
    feePercent: withDefault(rangeOf(Percent, "the fee range"), ONRAMP_DEFAULT_FEE_PERCENT, {
      type: "JSON object `{\"min\": …, \"max\": …}` of percentages",
      description: "The provider's fee range shown to the visitor before a quote, in percent.",
      envFormat: "json"
    }),
    cardFeePercent: withDefault(Percent, ONRAMP_DEFAULT_CARD_FEE_PERCENT, {
      type: "percentage",
      description: "The fee a quote takes out of a card payment, in percent (inside `feePercent`)."
    }),
    networkFee: withDefault(FiatAmount, ONRAMP_DEFAULT_NETWORK_FEE, {
      type: "amount of fiat",
      description: "The network fee a quote takes out of each purchase, in the currency paid."
    })
  }),
  smtp: group({
    host: Schema.optionalKey(setting(Host, { type: "host", description: "The SMTP server the wallet's codes are mailed through. Required when `wallet` runs." })),
    port: withDefault(Port, 587, { type: "port (0–65535)", description: "The SMTP server's port." }),
    security: withDefault(Schema.Literals(["starttls", "tls", "none"]), "starttls", {
      type: "security (`starttls`, `tls` or `none`)",
      description: "`starttls`: upgrade the connection, refuse to send without; `tls`: TLS from the start (port 465); `none`: plain (a local sink only)."
    }),
    user: Schema.optionalKey(setting(Schema.String, { type: "text", description: "The SMTP user name, when the server asks for one." })),
    password: Schema.optionalKey(
      setting(Schema.Redacted(Schema.String), { type: "text", secret: true, description: "The SMTP password, with `user`." })
    ),
    from: Schema.optionalKey(
      setting(Schema.String.check(Schema.isPattern(/^[^\s@<>]+@[^\s@<>]+$/, { expected: "an email address" })), {
        type: "email address",
        description: "The sender of the wallet's mails. Required when `wallet` runs."
      })
    )
  }),
  limits: group({
    maxBodyBytes: withDefault(Schema.Int.check(Schema.isGreaterThan(0, { expected: "a positive number of bytes" })), 1_000_000, {
      type: "number of bytes",
      description: "The largest request body the services API and the wallet server take (413 above)."
    }),
    requestTimeoutMs: withDefault(Millis, 30_000, {
      type: "milliseconds",
      description: "Bound on receiving a whole request (services API, wallet server): a client that stalls is cut off."
    }),
    headersTimeoutMs: withDefault(Millis, 10_000, { type: "milliseconds", description: "Bound on receiving a request's headers (services API, wallet server)." }),
    upstreamTimeoutMs: withDefault(Millis, 10_000, {
      type: "milliseconds",
      description: "Bound on one request to one of a chain's RPC URLs (services API, wallet server): past it, the next URL is tried."
    }),
    routeTimeoutMs: withDefault(Millis, 30_000, {
      type: "milliseconds",
      description: "Bound on a declared route's answer (services API): past it, 503 with `Retry-After`."
    }),
    drainMs: withDefault(Schema.Int.check(Schema.isGreaterThanOrEqualTo(0, { expected: "a whole number of milliseconds" })), 10_000, {
      type: "milliseconds",
      description: "On SIGTERM or SIGINT: how long requests in flight may take to finish before the process exits."
    }),
    relayPublishesPerSecond: withDefault(Schema.Finite.check(Schema.isGreaterThan(0, { expected: "a positive rate" })), 50, {
      type: "messages per second",
      description:
        "Relay: messages one client (its id, over all its connections to a node) may publish per second on average; " +
        "past it and its burst, a publish is refused with JSON-RPC error -32005."
    }),
    relayPublishBurst: withDefault(Schema.Int.check(Schema.isGreaterThan(0, { expected: "a positive number of messages" })), 200, {
      type: "number of messages",
      description: "Relay: messages a client may publish at once beyond its rate."
    }),
    relayMaxMessageChars: withDefault(Schema.Int.check(Schema.isGreaterThan(0, { expected: "a positive number of characters" })), 1_048_576, {
      type: "number of characters",
      description: "Relay: the longest message a client may publish (longer ones are refused with -32602)."
    }),
    relayMaxTopicsPerConnection: withDefault(Schema.Int.check(Schema.isGreaterThan(0, { expected: "a positive number of topics" })), 1000, {
      type: "number of topics",
      description: "Relay: the topics one connection may follow at once (more are refused with -32005)."
    }),
    walletPasskeyPerMinute: withDefault(Schema.Int.check(Schema.isGreaterThan(0, { expected: "a positive number of requests" })), DEFAULT_VISITOR_LIMITS.passkey, {
      type: "requests per minute",
      description:
        "Wallet server: requests one network address may make per minute on the passkey routes (`/api/passkey/start`, " +
        "`/options`, `/verify`, `/finish` together; a login takes one of each); past it, 429 `rate_limited` with `Retry-After`."
    }),
    walletFarcasterRelayPerMinute: withDefault(Schema.Int.check(Schema.isGreaterThan(0, { expected: "a positive number of requests" })), DEFAULT_VISITOR_LIMITS.farcasterRelay, {
      type: "requests per minute",
      description:
        "Wallet server: messages one network address may post per minute to Farcaster's channel relay " +
        "(`/v1/channel/authenticate`); past it, 429 `rate_limited` with `Retry-After`."
    }),
    walletLoginStartsPerMinute: withDefault(Schema.Int.check(Schema.isGreaterThan(0, { expected: "a positive number of requests" })), DEFAULT_VISITOR_LIMITS.loginStart, {
      type: "requests per minute",
      description:
        "Wallet server: social and Farcaster logins one network address may start per minute (`/api/social/start` and " +
        "`/api/farcaster/channel` together); past it, 429 `rate_limited` with `Retry-After`."
    }),
    walletKeyExportPerMinute: withDefault(Schema.Int.check(Schema.isGreaterThan(0, { expected: "a positive number of requests" })), DEFAULT_VISITOR_LIMITS.keyExport, {
      type: "requests per minute",
      description:
        "Wallet server: requests one network address may make per minute on the routes that confirm and give out a key's " +
        "export (`/api/keys/export/start`, `/confirm`, `/share` together); past it, 429 `rate_limited` with `Retry-After`."
    }),
    walletLongPollsPerAddress: withDefault(Schema.Int.check(Schema.isGreaterThan(0, { expected: "a positive number of requests" })), DEFAULT_VISITOR_LIMITS.longPolls, {
      type: "requests at once",
      description:
        "Wallet server: long-polls one network address may hold waiting at once on each of `/api/login/device` (the " +
        "device link's wait) and `/api/farcaster/status` (a login waits on one); past it, 429 `rate_limited` with " +
        "`Retry-After` (when the first of its waits ends). Counted in each process, not shared: a wait holds that process's connection."
    }),
    walletLongPollsPerProcess: withDefault(Schema.Int.check(Schema.isGreaterThan(0, { expected: "a positive number of requests" })), DEFAULT_VISITOR_LIMITS.longPollsInProcess, {
      type: "requests at once",
      description:
        "Wallet server: long-polls one process holds waiting at once, every address and both routes together (each reads " +
        "the database every second or less); past it, 429 `rate_limited` with `Retry-After`."
    })
  }),
  log: group({
    level: withDefault(LogLevelName, "info", {
      type: "level (`trace`, `debug`, `info`, `warn`, `error`, `fatal` or `none`)",
      description: "The least level logged (JSON lines: errors and warnings on stderr, the rest on stdout)."
    }),
    accessLog: withDefault(Schema.Boolean, false, { type: "boolean", description: "One JSON line per request to the services API and the wallet server." })
  })
})

/** The server's configuration, decoded. */
export type ServerConfig = typeof ServerConfig.Type

/** The on-ramp's settings (the `onramp` group), as the local on-ramp provider takes them. */
export type OnrampSettings = ServerConfig["onramp"]

/** The `onramp` group's defaults (spec 9's fallback), without a page. */
export const ONRAMP_DEFAULT_SETTINGS: OnrampSettings = {
  providerName: ONRAMP_DEFAULT_PROVIDER_NAME,
  depositors: [],
  currencies: ONRAMP_DEFAULT_CURRENCIES,
  limits: ONRAMP_DEFAULT_LIMITS,
  feePercent: ONRAMP_DEFAULT_FEE_PERCENT,
  cardFeePercent: ONRAMP_DEFAULT_CARD_FEE_PERCENT,
  networkFee: ONRAMP_DEFAULT_NETWORK_FEE
}

/** One setting: where it sits in the file, its variable, how the variable is written, and its documentation. */
export interface Setting {
  readonly path: ReadonlyArray<string>
  readonly env: string
  readonly envFormat: EnvFormat
  readonly doc: SettingDoc
  /** The setting's Schema node, to check the keys of a structured value. */
  readonly ast: SchemaAST.AST
  readonly optional: boolean
}

/** The variable of a setting at `path`: `WALLET_RUNTIME_` and the path in CONSTANT_CASE. */
export const envNameOf = (path: ReadonlyArray<string>): string =>
  ["WALLET_RUNTIME", ...path.map((segment) => segment.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase())].join("_")

/** The setting documentation on a Schema node, if it is a setting. */
export const settingDocOf = (ast: SchemaAST.AST): SettingDoc | undefined => ast.context?.annotations?.[SETTING] as SettingDoc | undefined

/** Every setting of a configuration Schema, in declaration order. */
export const settingsOf = (ast: SchemaAST.AST, path: ReadonlyArray<string> = []): ReadonlyArray<Setting> => {
  const doc = settingDocOf(ast)
  if (doc !== undefined) {
    return [
      {
        path,
        env: doc.env ?? envNameOf(path),
        envFormat: doc.envFormat ?? "text",
        doc,
        ast,
        optional: ast.context?.isOptional === true
      }
    ]
  }
  if (ast._tag !== "Objects") throw new Error(`The configuration's ${path.join(".") || "root"} is neither a group nor a documented setting`)
  return ast.propertySignatures.flatMap((property) => settingsOf(property.type, [...path, String(property.name)]))
}

/** The settings of {@link ServerConfig}. */
export const serverSettings: ReadonlyArray<Setting> = settingsOf(ServerConfig.ast)
