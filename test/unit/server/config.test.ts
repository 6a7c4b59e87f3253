/**
 * The server's configuration as a host writes it: the environment over the file, defaults, every problem named by
 * its variable or file key with what was expected, and secrets that stay secret. Both sources are ConfigProviders
 * built from plain records here (`fromEnv({ env })`, the file's JSON).
 */
import { readFileSync } from "node:fs"
import { inspect } from "node:util"
import { describe, expect, it } from "@effect/vitest"
import { ConfigProvider, Effect, Redacted } from "effect"
import { type ConfigFile, loadServerConfig } from "../../../server/src/config/load"
import { serverSettings } from "../../../server/src/config/schema"
import { DEFAULT_NAME_SUFFIX } from "../../../src/domain/Options"

const DB_PASSWORD = "db-Secret-4411"
const SMTP_PASSWORD = "smtp-Secret-9137"

// The least a file needs: a project, and the SMTP server the wallet component (on by default) mails through.
const minimal = {
  projects: [{ projectId: "my-app", allowedOrigins: ["https://app.example"] }],
  smtp: { host: "smtp.example.com", from: "wallet@example.com" }
}

const load = (env: Record<string, string>, contents?: unknown) =>
  loadServerConfig({
    env: ConfigProvider.fromEnv({ env }),
    file: contents === undefined ? undefined : ({ path: "server.json", contents } satisfies ConfigFile)
  })

/** The problems of a configuration that must be refused. */
const problemsOf = (env: Record<string, string>, contents?: unknown) =>
  Effect.map(Effect.flip(load(env, contents)), (error) => {
    expect(error._tag).toBe("ConfigurationError")
    return error.problems
  })

describe("server configuration", () => {
  it.effect("fills every setting a file leaves out with its default", () =>
    Effect.gen(function* () {
      const config = yield* load({}, minimal)
      expect(config.components).toEqual(["services", "relay", "wallet"])
      expect(config.database).toEqual({ dataDir: "./data/pglite" })
      expect([config.services, config.relay]).toEqual([
        { host: "127.0.0.1", port: 8080 },
        { host: "127.0.0.1", port: 8081 }
      ])
      expect(config.wallet).toEqual({
        host: "127.0.0.1",
        port: 8082,
        masterKeyFile: "./data/wallet-master-key",
        createMasterKey: false,
        frameBuildDir: "./data/frame",
        freshLoginMs: 600_000,
        trustedProxies: [],
        farcasterIdRegistry: "0x00000000Fc6c5F01Fc30151999387Bb99A9f489b"
      })
      expect(config.smtp).toEqual({ host: "smtp.example.com", from: "wallet@example.com", port: 587, security: "starttls" })
      expect(config.limits).toEqual({
        maxBodyBytes: 1_000_000,
        requestTimeoutMs: 30_000,
        headersTimeoutMs: 10_000,
        upstreamTimeoutMs: 10_000,
        routeTimeoutMs: 30_000,
        drainMs: 10_000,
        relayPublishesPerSecond: 50,
        relayPublishBurst: 200,
        relayMaxMessageChars: 1_048_576,
        relayMaxTopicsPerConnection: 1000,
        walletPasskeyPerMinute: 40,
        walletFarcasterRelayPerMinute: 20,
        walletLoginStartsPerMinute: 30,
        walletKeyExportPerMinute: 30,
        walletLongPollsPerAddress: 4,
        walletLongPollsPerProcess: 200
      })
      expect(config.log).toEqual({ level: "info", accessLog: false })
      // No price is made up: without a feed or a table, tokens are valued 0.
      expect(config.prices).toEqual({ feedTtlMs: 60_000, fixed: {} })
      expect(config.chains).toEqual({})
      expect(config.projects).toEqual([{ projectId: "my-app", allowedOrigins: ["https://app.example"], analytics: true }])
      // The library's bundled wallet list, and names under the library's default suffix (its `nameSuffix` default).
      expect(config.catalogue).toEqual({})
      expect(config.names).toEqual({ suffix: DEFAULT_NAME_SUFFIX })
      expect(DEFAULT_NAME_SUFFIX).toBe(".wallet-runtime.id")
    }))

  it.effect("takes the relay's limits from the file or their variables, and refuses a limit of 0", () =>
    Effect.gen(function* () {
      const fromEnv = yield* load({ WALLET_RUNTIME_LIMITS_RELAY_PUBLISHES_PER_SECOND: "0.5", WALLET_RUNTIME_LIMITS_RELAY_MAX_TOPICS_PER_CONNECTION: "20" }, minimal)
      expect([fromEnv.limits.relayPublishesPerSecond, fromEnv.limits.relayMaxTopicsPerConnection, fromEnv.limits.relayPublishBurst]).toEqual([0.5, 20, 200])
      const fromFile = yield* load({}, { ...minimal, limits: { relayPublishBurst: 5, relayMaxMessageChars: 4096 } })
      expect([fromFile.limits.relayPublishBurst, fromFile.limits.relayMaxMessageChars]).toEqual([5, 4096])
      expect(yield* problemsOf({ WALLET_RUNTIME_LIMITS_RELAY_PUBLISH_BURST: "0" }, minimal)).toEqual([
        expect.stringMatching(/^WALLET_RUNTIME_LIMITS_RELAY_PUBLISH_BURST is "0": .*a positive number of messages/)
      ])
    }))

  it.effect("takes a catalogue file and a names suffix from the file or their variables, and names a bad suffix", () =>
    Effect.gen(function* () {
      const fromFile = yield* load({}, { ...minimal, catalogue: { file: "./wallets.json" }, names: { suffix: ".names.example" } })
      expect([fromFile.catalogue, fromFile.names]).toEqual([{ file: "./wallets.json" }, { suffix: ".names.example" }])
      const fromEnv = yield* load({ WALLET_RUNTIME_CATALOGUE_FILE: "/etc/wr/wallets.json", WALLET_RUNTIME_NAMES_SUFFIX: ".id.example" }, minimal)
      expect([fromEnv.catalogue, fromEnv.names]).toEqual([{ file: "/etc/wr/wallets.json" }, { suffix: ".id.example" }])
      expect(yield* problemsOf({}, { ...minimal, names: { suffix: "wallet.example" } })).toEqual([
        expect.stringMatching(/^names\.suffix in server\.json is "wallet\.example": not a valid name suffix \(expected a name suffix such as \.example\.id/)
      ])
      expect(yield* problemsOf({ WALLET_RUNTIME_NAMES_SUFFIX: ".Upper.Case" }, minimal)).toEqual([
        expect.stringMatching(/^WALLET_RUNTIME_NAMES_SUFFIX is "\.Upper\.Case": not a valid name suffix/)
      ])
      expect(yield* problemsOf({}, { ...minimal, catalogue: { path: "./wallets.json" } })).toEqual([
        "catalogue.path in server.json is not a setting (known here: file)"
      ])
    }))

  it.effect("takes a variable over the file's key, and the file's key over the default", () =>
    Effect.gen(function* () {
      const config = yield* load(
        { WALLET_RUNTIME_SERVICES_PORT: "9000", WALLET_RUNTIME_LOG_LEVEL: "debug", WALLET_RUNTIME_COMPONENTS: "services, relay" },
        { ...minimal, services: { host: "127.0.0.2", port: 7000 }, relay: { port: 7001 }, log: { level: "warn", accessLog: true } }
      )
      expect(config.services).toEqual({ host: "127.0.0.2", port: 9000 })
      expect(config.relay.port).toBe(7001)
      expect(config.log).toEqual({ level: "debug", accessLog: true })
      expect(config.components).toEqual(["services", "relay"])
    }))

  it.effect("runs on the environment alone, with JSON for the structured settings", () =>
    Effect.gen(function* () {
      const config = yield* load({
        DATABASE_URL: `postgres://app:${DB_PASSWORD}@db.internal:5432/wallet`,
        WALLET_RUNTIME_COMPONENTS: "services",
        WALLET_RUNTIME_PRICES_FIXED: JSON.stringify({ USDC: 1, ETH: 2500.5 }),
        WALLET_RUNTIME_PROJECTS: JSON.stringify([{ projectId: "a", allowedOrigins: "loopback", analytics: false }]),
        WALLET_RUNTIME_CHAINS: JSON.stringify({ "eip155:10": { name: "OP Mainnet", rpcUrls: ["https://op.example/rpc", "https://op2.example/rpc"] } })
      })
      expect(config.projects).toEqual([{ projectId: "a", allowedOrigins: "loopback", analytics: false }])
      expect(config.prices.fixed).toEqual({ USDC: 1, ETH: 2500.5 })
      expect(config.chains).toEqual({
        "eip155:10": { name: "OP Mainnet", rpcUrls: ["https://op.example/rpc", "https://op2.example/rpc"], tokens: [], history: "head" }
      })
      expect(config.database.url === undefined ? undefined : Redacted.value(config.database.url)).toBe(
        `postgres://app:${DB_PASSWORD}@db.internal:5432/wallet`
      )
    }))

  it.effect("takes a chain's swap router, and names a router that is not an address", () =>
    Effect.gen(function* () {
      const router = "0xd59a1F875D8747f5a4492769ee27b10A91052b81"
      const config = yield* load(
        { WALLET_RUNTIME_CHAINS: JSON.stringify({ "eip155:10": { rpcUrls: ["https://op.example/rpc"], swap: { uniswapV2Router: router } } }) },
        minimal
      )
      expect(config.chains["eip155:10"]?.swap).toEqual({ uniswapV2Router: router })
      expect(
        yield* problemsOf({ WALLET_RUNTIME_CHAINS: JSON.stringify({ "eip155:10": { rpcUrls: ["https://op.example/rpc"], swap: { uniswapV2Router: "uniswap" } } }) }, minimal)
      ).toEqual([expect.stringMatching(/^WALLET_RUNTIME_CHAINS at \["eip155:10"\]\.swap\.uniswapV2Router is "uniswap": expected a Uniswap v2 Router02 contract/)])
    }))

  it.effect("keeps the database URL and the SMTP password Redacted: printed or serialised, they are not there", () =>
    Effect.gen(function* () {
      const config = yield* load(
        { DATABASE_URL: `postgres://app:${DB_PASSWORD}@db.internal/wallet`, WALLET_RUNTIME_SMTP_PASSWORD: SMTP_PASSWORD },
        { ...minimal, smtp: { ...minimal.smtp, user: "wallet" } }
      )
      expect(Redacted.isRedacted(config.database.url)).toBe(true)
      expect(Redacted.isRedacted(config.smtp.password)).toBe(true)
      const shown = [JSON.stringify(config), String(config.database.url), String(config.smtp.password), inspect(config, { depth: 10 })].join("\n")
      expect(shown).not.toContain(DB_PASSWORD)
      expect(shown).not.toContain(SMTP_PASSWORD)
      expect(config.smtp.password === undefined ? undefined : Redacted.value(config.smtp.password)).toBe(SMTP_PASSWORD)
    }))

  it.effect("takes a project's social providers (issuer, or the three endpoints), with each client secret Redacted", () =>
    Effect.gen(function* () {
      const SECRET = "google-Secret-5521"
      const socials = {
        google: { issuer: "https://accounts.google.com", clientId: "g-client", clientSecret: SECRET },
        github: {
          authorizationEndpoint: "https://github.com/login/oauth/authorize",
          tokenEndpoint: "https://github.com/login/oauth/access_token",
          userinfoEndpoint: "https://api.github.com/user",
          clientId: "gh-client",
          clientSecret: "gh-secret",
          scopes: ["read:user"]
        }
      }
      const config = yield* load({ WALLET_RUNTIME_PROJECTS: JSON.stringify([{ projectId: "my-app", allowedOrigins: "loopback", socials }]) }, minimal)
      const google = config.projects[0]?.socials?.google
      expect(google?.issuer).toBe("https://accounts.google.com")
      expect(google === undefined ? undefined : Redacted.value(google.clientSecret)).toBe(SECRET)
      expect([JSON.stringify(config), inspect(config, { depth: 10 })].join("\n")).not.toContain(SECRET)
      expect(config.projects[0]?.socials?.github?.scopes).toEqual(["read:user"])
      // Neither an issuer nor all three endpoints; a provider the modal does not know.
      const half = { projects: [{ projectId: "a", allowedOrigins: "loopback", socials: { x: { tokenEndpoint: "https://x.test/t", clientId: "c", clientSecret: "s" } } }] }
      expect(yield* problemsOf({}, { ...minimal, ...half })).toEqual([expect.stringContaining("an issuer (OpenID Connect) or authorizationEndpoint, tokenEndpoint and userinfoEndpoint")])
      const unknown = { projects: [{ projectId: "a", allowedOrigins: "loopback", socials: { myspace: { issuer: "https://m.test", clientId: "c", clientSecret: "s" } } }] }
      expect((yield* problemsOf({}, { ...minimal, ...unknown })).join()).toContain("myspace")
    }))

  it.effect("names the variable that holds a bad value, and what was expected", () =>
    Effect.gen(function* () {
      expect(yield* problemsOf({ WALLET_RUNTIME_SERVICES_PORT: "abc" }, minimal)).toEqual([
        expect.stringMatching(/^WALLET_RUNTIME_SERVICES_PORT is "abc": not a valid port \(0–65535\)/)
      ])
      expect(yield* problemsOf({ WALLET_RUNTIME_RELAY_PORT: "70000" }, minimal)).toEqual([
        expect.stringMatching(/^WALLET_RUNTIME_RELAY_PORT is "70000": .*an integer from 0 to 65535/)
      ])
      expect(yield* problemsOf({ WALLET_RUNTIME_COMPONENTS: "services,billing" }, minimal)).toEqual([
        expect.stringMatching(/^WALLET_RUNTIME_COMPONENTS at \[1\] is "billing": expected "services" \| "relay" \| "wallet"/)
      ])
      expect(yield* problemsOf({ WALLET_RUNTIME_PROJECTS: "[{projectId: a}]" }, minimal)).toEqual([
        expect.stringMatching(/^WALLET_RUNTIME_PROJECTS is not JSON .*: expected JSON list of projects/)
      ])
    }))

  it.effect("names the file's key that holds a bad value, inside lists and records too", () =>
    Effect.gen(function* () {
      expect(yield* problemsOf({}, { ...minimal, services: { port: "abc" } })).toEqual([
        expect.stringMatching(/^services\.port in server\.json is "abc": not a valid port/)
      ])
      expect(yield* problemsOf({}, { ...minimal, projects: [{ projectId: "a", allowedOrigins: ["https://ok.example", "not a url"] }] })).toEqual([
        'projects[0].allowedOrigins[1] in server.json is "not a url": expected an origin (scheme, host and port only), e.g. https://app.example'
      ])
      expect(yield* problemsOf({}, { ...minimal, chains: { "eip155:1": { rpcUrls: ["ftp://node.example"] } } })).toEqual([
        'chains["eip155:1"].rpcUrls[0] in server.json is "ftp://node.example": expected an http(s) URL of a JSON-RPC endpoint'
      ])
      expect(yield* problemsOf({}, { ...minimal, prices: { fixed: { USDC: -1 } } })).toEqual([
        'prices.fixed.USDC in server.json is "-1": expected a price in USD, 0 or more'
      ])
      expect(yield* problemsOf({}, { ...minimal, smtp: { ...minimal.smtp, security: "ssl" } })).toEqual([
        expect.stringMatching(/^smtp\.security in server\.json is "ssl": not a valid security \(`starttls`, `tls` or `none`\)/)
      ])
    }))

  it.effect("names a required setting that is missing, with both places it may be given", () =>
    Effect.gen(function* () {
      expect(yield* problemsOf({}, { smtp: minimal.smtp })).toEqual(["projects (or WALLET_RUNTIME_PROJECTS) is missing: expected JSON list of projects"])
      expect(yield* problemsOf({}, { ...minimal, projects: [{ allowedOrigins: "loopback" }] })).toEqual(["projects[0].projectId in server.json is missing"])
    }))

  it.effect("refuses keys and variables nobody reads, instead of ignoring a misspelt one", () =>
    Effect.gen(function* () {
      expect(
        yield* problemsOf(
          { WALLET_RUNTIME_SERVICE_PORT: "9000", WALLET_RUNTIME_PROJECTS: JSON.stringify([{ projectId: "a", allowedOrigins: "loopback", analytic: false }]) },
          { ...minimal, services: { prot: 9000 }, chains: { "bip122:000000000019d6689c085ae165831e93": { rpcUrls: ["https://btc.example"] } } }
        )
      ).toEqual([
        "WALLET_RUNTIME_SERVICE_PORT is not a setting's variable (misspelt?)",
        "services.prot in server.json is not a setting (known here: host, port, publicUrl)",
        'chains["bip122:000000000019d6689c085ae165831e93"] in server.json is not a valid key: expected the CAIP-2 id of an eip155 or solana chain, e.g. eip155:1 or solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp',
        "WALLET_RUNTIME_PROJECTS at [0].analytic is not a setting (known here: projectId, allowedOrigins, analytics, socials)"
      ])
    }))

  it.effect("never shows a secret's value in an error", () =>
    Effect.gen(function* () {
      const problems = yield* problemsOf({ DATABASE_URL: `mysql://app:${DB_PASSWORD}@db.internal/wallet` }, minimal)
      expect(problems).toEqual([expect.stringMatching(/^DATABASE_URL \(value not shown: a secret\): not a valid Postgres URL/)])
      expect(problems.join("\n")).not.toContain(DB_PASSWORD)
    }))

  it.effect("checks the rules between settings, naming each setting involved", () =>
    Effect.gen(function* () {
      expect(yield* problemsOf({}, { projects: minimal.projects })).toEqual([
        "smtp.host (or WALLET_RUNTIME_SMTP_HOST) is required with the wallet component: the SMTP server its codes go through",
        "smtp.from (or WALLET_RUNTIME_SMTP_FROM) is required with the wallet component: the sender of its mails"
      ])
      // Without the wallet, no SMTP server is needed.
      expect((yield* load({ WALLET_RUNTIME_COMPONENTS: "services,relay" }, { projects: minimal.projects })).smtp.host).toBeUndefined()
      expect(yield* problemsOf({ WALLET_RUNTIME_SMTP_PASSWORD: SMTP_PASSWORD }, minimal)).toEqual([
        "smtp.user (or WALLET_RUNTIME_SMTP_USER) and WALLET_RUNTIME_SMTP_PASSWORD go together: give both or neither"
      ])
      expect(yield* problemsOf({ WALLET_RUNTIME_SERVICES_HOST: "0.0.0.0" }, { ...minimal, relay: { port: 8080 } })).toEqual([
        "services.publicUrl (or WALLET_RUNTIME_SERVICES_PUBLIC_URL) is required when WALLET_RUNTIME_SERVICES_HOST is 0.0.0.0: browsers cannot reach a wildcard address",
        "services.port (or WALLET_RUNTIME_SERVICES_PORT) and relay.port (or WALLET_RUNTIME_RELAY_PORT) are both 8080 on 0.0.0.0: each component needs a port of its own"
      ])
      expect(
        yield* problemsOf(
          {},
          {
            ...minimal,
            projects: [...minimal.projects, { projectId: "my-app", allowedOrigins: "loopback" }],
            chains: {
              "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp": { rpcUrls: ["https://sol.example"] },
              "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1": { rpcUrls: ["https://sol-dev.example"] },
              "eip155:1": { rpcUrls: ["https://eth.example"], tokens: [{ address: "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v", symbol: "USDC", name: "USD Coin", decimals: 6 }] }
            },
            services: { publicUrl: "https://api.example" },
            wallet: { publicUrl: "https://api.example" }
          }
        )
      ).toEqual([
        'projects (or WALLET_RUNTIME_PROJECTS): the projectId "my-app" is given twice',
        "chains (or WALLET_RUNTIME_CHAINS): eip155:1's tokens[0].address EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v is not an EVM contract (0x and 40 hex digits)",
        "chains (or WALLET_RUNTIME_CHAINS): at most one solana network is served, not solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp, solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1",
        "wallet.publicUrl (or WALLET_RUNTIME_WALLET_PUBLIC_URL) must be an origin of its own, not the services' (services.publicUrl (or WALLET_RUNTIME_SERVICES_PUBLIC_URL))"
      ])
      expect(yield* problemsOf({}, { ...minimal, wallet: { publicUrl: "https://app.example/" } })).toEqual([
        "wallet.publicUrl (or WALLET_RUNTIME_WALLET_PUBLIC_URL) must be an origin of its own, not one of project my-app's origins"
      ])
    }))

  it.effect("takes a passkey RP ID that is the frame's host name or a domain it is under, and names any other", () =>
    Effect.gen(function* () {
      for (const rpId of ["wallet.host.example", "host.example"]) {
        const config = yield* load({}, { ...minimal, wallet: { publicUrl: "https://wallet.host.example", passkeyRpId: rpId } })
        expect(config.wallet.passkeyRpId).toBe(rpId)
      }
      expect(yield* problemsOf({}, { ...minimal, wallet: { publicUrl: "https://wallet.host.example", passkeyRpId: "other.example" } })).toEqual([
        "wallet.passkeyRpId (or WALLET_RUNTIME_WALLET_PASSKEY_RP_ID) must be the host name of wallet.publicUrl (or WALLET_RUNTIME_WALLET_PUBLIC_URL) (wallet.host.example) or a domain it is under"
      ])
    }))

  it.effect("takes the proxies in front of the wallet as CIDR networks, from the file or the variable, and names a bad one", () =>
    Effect.gen(function* () {
      expect((yield* load({}, { ...minimal, wallet: { trustedProxies: ["10.0.0.0/8", "fd00::/8"] } })).wallet.trustedProxies).toEqual(["10.0.0.0/8", "fd00::/8"])
      expect((yield* load({ WALLET_RUNTIME_WALLET_TRUSTED_PROXIES: "10.0.0.0/8,192.168.1.0/24" }, minimal)).wallet.trustedProxies).toEqual([
        "10.0.0.0/8",
        "192.168.1.0/24"
      ])
      const problems = yield* problemsOf({}, { ...minimal, wallet: { trustedProxies: ["10.0.0.0/33"] } })
      expect(problems.join("\n")).toMatch(/wallet\.trustedProxies.*a network in CIDR notation/)
    }))

    it.effect("takes the bundler and the paymaster, keys Redacted, and names what the bundler and a sponsoring policy need", () =>
    Effect.gen(function* () {
      const bundlerKey = `0x${"ab".repeat(32)}`
      const signerKey = `0x${"cd".repeat(32)}`
      const chains = { "eip155:31337": { rpcUrls: ["http://127.0.0.1:8545"] } }
      const config = yield* load(
        { WALLET_RUNTIME_BUNDLER_PRIVATE_KEY: bundlerKey, WALLET_RUNTIME_PAYMASTER_SIGNER_KEY: signerKey, WALLET_RUNTIME_PAYMASTER_SENDERS: "0x1111111111111111111111111111111111111111" },
        { ...minimal, components: ["bundler"], chains, paymaster: { sponsor: "allowlist", address: "0x2222222222222222222222222222222222222222" } }
      )
      expect(config.bundler.entryPoint).toBe("0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108")
      expect(config.bundler.port).toBe(8083)
      expect(config.paymaster.senders).toEqual(["0x1111111111111111111111111111111111111111"])
      expect(Redacted.value(config.bundler.privateKey!)).toBe(bundlerKey)
      expect(inspect(config)).not.toContain(bundlerKey.slice(2))
      expect(JSON.stringify(config)).not.toContain(signerKey.slice(2))

      expect(yield* problemsOf({}, { ...minimal, components: ["bundler"] })).toEqual([
        "bundler.privateKey (or WALLET_RUNTIME_BUNDLER_PRIVATE_KEY) is required with the bundler component: the funded key that submits bundles",
        "chains (or WALLET_RUNTIME_CHAINS) needs an eip155 chain for the bundler to serve"
      ])
      expect(yield* problemsOf({}, { ...minimal, paymaster: { sponsor: "allowlist" } })).toEqual([
        "paymaster.address (or WALLET_RUNTIME_PAYMASTER_ADDRESS) is required when paymaster.sponsor (or WALLET_RUNTIME_PAYMASTER_SPONSOR) is allowlist",
        "paymaster.signerKey (or WALLET_RUNTIME_PAYMASTER_SIGNER_KEY) is required when paymaster.sponsor (or WALLET_RUNTIME_PAYMASTER_SPONSOR) is allowlist",
        "paymaster.senders (or WALLET_RUNTIME_PAYMASTER_SENDERS) lists no sender: with paymaster.sponsor (or WALLET_RUNTIME_PAYMASTER_SPONSOR) allowlist nobody would be sponsored"
      ])
      expect(yield* problemsOf({}, { ...minimal, smartAccounts: { factory: "0x3333333333333333333333333333333333333333" } })).toEqual([
        "smartAccounts.bundlerUrl (or WALLET_RUNTIME_SMART_ACCOUNTS_BUNDLER_URL) is required with smartAccounts.factory (or WALLET_RUNTIME_SMART_ACCOUNTS_FACTORY) when this process runs no bundler"
      ])
      const bad = yield* problemsOf({ WALLET_RUNTIME_BUNDLER_PRIVATE_KEY: "0x1234" }, minimal)
      expect(bad).toHaveLength(1)
      expect(bad[0]).toContain("WALLET_RUNTIME_BUNDLER_PRIVATE_KEY (value not shown: a secret)")
    })
  )

  it.effect("decodes the example config file the guide points at", () =>
    Effect.gen(function* () {
      const contents: unknown = JSON.parse(readFileSync(new URL("../../../server/server.example.json", import.meta.url), "utf8"))
      const config = yield* load({}, contents)
      expect(config.components).toEqual(["services", "relay", "wallet"])
      expect(Object.keys(config.chains)).toEqual(["eip155:1"])
    }))

  it("gives every setting a variable of its own, and a description", () => {
    const variables = serverSettings.map((setting) => setting.env)
    expect(new Set(variables).size).toBe(variables.length)
    expect(variables).toContain("DATABASE_URL")
    expect(variables).toContain("WALLET_RUNTIME_SERVICES_PUBLIC_URL")
    for (const setting of serverSettings) expect(setting.doc.description.length, setting.env).toBeGreaterThan(10)
  })
})
