/**
 * Hostile host options, generated: well-formed options with one hostile value put in at a known place (a chain id
 * that is NaN or 2^60, a `javascript:` link, a theme value that ends its declaration, a repeated network, a getter
 * or Proxy that throws…), and shapeless input. Decoding never throws; every bad option is InvalidOptions naming its
 * path; every well-formed one decodes; nothing decoded carries a value that could run or break out.
 */
import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import fc from "fast-check"
import { CONNECT_METHOD_ORDER, CONNECTOR_ORDER, WALLET_FEATURE_ORDER } from "../../../src/domain/constants"
import { InvalidOptions, SiweSiwxConflict } from "../../../src/domain/errors"
import { decodeOptions, type HostOptions, THEME_VARIABLE_NAMES } from "../../../src/domain/Options"

type Path = ReadonlyArray<string | number>
type Json = { [key: string]: unknown }

// ---------------------------------------------------------------------------------------------------------------
// Well-formed options

const word = fc.stringMatching(/^[a-z][a-z0-9]{0,11}$/)
const label = fc.string({ minLength: 1, maxLength: 30 }).filter((text) => text.length > 0)
const httpUrl = fc.tuple(fc.constantFrom("http", "https"), word, fc.constantFrom("example", "test", "dev"), fc.constantFrom("", "/", "/rpc", "/a/b?x=1"))
  .map(([scheme, host, tld, path]) => `${scheme}://${host}.${tld}${path}`)
const wsUrl = fc.tuple(fc.constantFrom("ws", "wss"), word).map(([scheme, host]) => `${scheme}://${host}.example/ws`)
const imageUrl = fc.oneof(httpUrl, fc.stringMatching(/^[A-Za-z0-9+/]{4,40}$/).map((data) => `data:image/png;base64,${data}=`))
const walletScheme = fc.constantFrom("metamask://", "rainbow:", "trust://", "cbwallet://", "ledgerlive:", "zerion://wc")
const walletId = fc.stringMatching(/^[A-Za-z0-9._:-]{1,24}$/)

const evmNetwork = fc.record({
  id: fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }),
  name: label,
  symbol: fc.stringMatching(/^[A-Z]{1,8}$/),
  decimals: fc.integer({ min: 0, max: 36 }),
  http: fc.array(httpUrl, { minLength: 1, maxLength: 3 }),
  explorer: fc.option(httpUrl, { nil: undefined }),
  testnet: fc.boolean()
}).map(({ id, name, symbol, decimals, http, explorer, testnet }) => ({
  id,
  caipNetworkId: `eip155:${id}`,
  chainNamespace: "eip155",
  name,
  nativeCurrency: { name, symbol, decimals },
  rpcUrls: { default: { http } },
  ...(explorer === undefined ? {} : { blockExplorers: { default: { name: "Explorer", url: explorer } } }),
  testnet
}))

// Built once: an arbitrary made from a pattern is costly to build, cheap to draw from.
const REFERENCE: Record<"solana" | "bip122" | "polkadot", fc.Arbitrary<string>> = {
  solana: fc.stringMatching(/^[1-9A-HJ-NP-Za-km-z]{32}$/),
  bip122: fc.stringMatching(/^[0-9a-f]{32}$/),
  polkadot: fc.stringMatching(/^[0-9a-f]{32}$/)
}
const otherNetwork = fc.constantFrom("solana", "bip122", "polkadot").chain((namespace) =>
  fc.record({ id: REFERENCE[namespace], name: label, http: httpUrl, ws: fc.option(wsUrl, { nil: undefined }) }).map(
    ({ id, name, http, ws }) => ({
      id,
      caipNetworkId: `${namespace}:${id}`,
      chainNamespace: namespace,
      name,
      nativeCurrency: { name, symbol: "TOK", decimals: namespace === "bip122" ? 8 : 9 },
      rpcUrls: { default: { http: [http], ...(ws === undefined ? {} : { webSocket: [ws] }) } }
    })
  )
)

const networks = fc.uniqueArray(fc.oneof(evmNetwork, otherNetwork), {
  minLength: 1,
  maxLength: 4,
  selector: (network) => network.caipNetworkId
})

const THEME_VALUES: Record<string, ReadonlyArray<string | number>> = {
  "--wr-font-family": ["Inter, sans-serif", '"Segoe UI", Roboto', "'Noto Sans JP', system-ui", "-apple-system"],
  "--wr-font-size-master": ["10px", "0.625rem", "1.1em", 0, "12pt"],
  "--wr-border-radius-master": ["4px", "0", "50%", "0.25rem"],
  "--wr-accent": ["#3358d4", "#fff", "rgb(51 88 212)", "hsla(220, 60%, 50%, 0.9)", "oklch(62% 0.19 255)", "royalblue", "transparent"],
  "--wr-color-mix": ["#000000", "#00000080", "color(display-p3 1 0 0)"],
  "--wr-color-mix-strength": [0, 40, "100", "12.5"],
  "--wr-z-index": [999, "2147483647", -1, "0"],
  "--wr-qr-color": ["#000", "black", "rgba(0,0,0,1)"]
}
const themeVariables = fc
  .subarray([...THEME_VARIABLE_NAMES])
  .chain((names) => fc.tuple(...names.map((name) => fc.constantFrom(...THEME_VALUES[name]!).map((value) => [name, value] as const))))
  .map((entries) => Object.fromEntries(entries))

const customWallet = fc.record(
  {
    id: walletId,
    name: label.map((name) => name.slice(0, 60)),
    homepage: httpUrl,
    image_url: imageUrl,
    mobile_link: fc.oneof(walletScheme, httpUrl, fc.constant(null)),
    desktop_link: fc.oneof(walletScheme, fc.constant(null)),
    webapp_link: fc.oneof(httpUrl, fc.constant(null)),
    app_store: httpUrl,
    play_store: httpUrl
  },
  { requiredKeys: ["id", "name"] }
)

const projectId = fc.stringMatching(/^[0-9a-f]{32}$/)
const socials = fc.oneof(fc.constant(false as const), fc.shuffledSubarray(["google", "x", "discord", "farcaster", "github", "apple", "facebook"]))

const wellFormed = networks.chain((nets) =>
  fc.record(
    {
      projectId,
      networks: fc.constant(nets),
      defaultNetwork: fc.constantFrom(...nets),
      metadata: fc.record({ name: label, description: fc.string({ maxLength: 80 }), url: httpUrl, icons: fc.array(imageUrl, { maxLength: 3 }) }),
      features: fc.record(
        {
          swaps: fc.boolean(),
          email: fc.boolean(),
          socials,
          connectorTypeOrder: fc.shuffledSubarray([...CONNECTOR_ORDER]),
          connectMethodsOrder: fc.shuffledSubarray([...CONNECT_METHOD_ORDER]),
          walletFeaturesOrder: fc.shuffledSubarray([...WALLET_FEATURE_ORDER])
        },
        { requiredKeys: [] }
      ),
      tokens: fc.constant(
        Object.fromEntries(
          nets.filter((n) => n.chainNamespace === "eip155").map((n) => [n.caipNetworkId, { address: "0x5fbdb2315678afecb367f032d93f642f64180aa3", symbol: "TKN" }])
        )
      ),
      themeMode: fc.constantFrom("light", "dark"),
      themeVariables,
      allWallets: fc.constantFrom("SHOW", "HIDE", "ONLY_MOBILE"),
      featuredWalletIds: fc.array(walletId, { maxLength: 4 }),
      excludeWalletIds: fc.array(walletId, { maxLength: 4 }),
      customWallets: fc.uniqueArray(customWallet, { maxLength: 3, selector: (wallet) => wallet.id }),
      customRpcUrls: fc.constant(Object.fromEntries(nets.map((n) => [n.caipNetworkId, [{ url: n.rpcUrls.default.http[0] }]]))),
      termsConditionsUrl: httpUrl,
      privacyPolicyUrl: httpUrl,
      endpoints: fc.record({ rpcProxy: httpUrl, relay: wsUrl, verify: httpUrl }, { requiredKeys: [] }),
      enableNetworkSwitch: fc.boolean(),
      siwx: fc.constant({ createMessage: () => "sign in" })
    },
    { requiredKeys: ["networks"] }
  )
)

// ---------------------------------------------------------------------------------------------------------------
// Hostile values, by the kind of slot they go into

const SCRIPT_URLS = [
  "javascript:alert(document.domain)//",
  "JaVaScRiPt:alert(1)",
  " javascript:alert(1)",
  "java\tscript:alert(1)",
  "javascript\n:alert(1)",
  "vbscript:msgbox(1)",
  "data:text/html,<script>alert(1)</script>",
  "file:///etc/passwd"
]
const NOT_HTTP = [...SCRIPT_URLS, "", "not a url", "//evil.example/x", "ftp://example.com/x", "https://exa mple.com", "wss://relay.example", `https://x.example/${"a".repeat(2100)}`]
const BAD_IMAGES = [...NOT_HTTP.filter((url) => !url.startsWith("wss")), "data:image/svg+xml,<svg onload=alert(1)>", "data:image/png;base64,AAAA\"onerror=alert(1)"]
const BAD_WALLET_LINKS = [...SCRIPT_URLS, "blob:https://x.example/1", "about:blank", "", "metamask", "evil link://"]
const BREAKOUTS = [
  "red; background:url(//evil.example/x)",
  "red} body{display:none",
  "x}</style><script>alert(1)</script>",
  "url(//evil.example/x)",
  "expression(alert(1))",
  "red\\;",
  "inherit !important; color: red",
  "#fff\n;x:y",
  Number.NaN,
  Number.POSITIVE_INFINITY
]
const EVM_CHAIN_IDS = [Number.NaN, Number.POSITIVE_INFINITY, -1, 0, 1.5, 2 ** 60, 2 ** 53, "abc", "1", null]
const OTHER_CHAIN_IDS = ["devnet", "", "x".repeat(33), 42, "0x91b171bb158e2d3848fa23a9f1c251", "../../etc"]
const DECIMALS = [1e9, -1, 1.5, 37, Number.NaN, "18"]

interface Mutation {
  readonly path: Path
  readonly apply: (options: Json) => void
}

/** Puts `value` at `path` of a copy already made. */
const put = (path: Path, value: unknown): Mutation => ({
  path,
  apply: (options) => {
    let holder = options as Record<string | number, unknown>
    for (const key of path.slice(0, -1)) holder = holder[key] as Record<string | number, unknown>
    holder[path[path.length - 1]!] = value
  }
})

/** Replaces the value at `path` with a getter that throws. */
const throwingGetter = (path: Path): Mutation => ({
  path,
  apply: (options) => {
    let holder = options as Record<string | number, unknown>
    for (const key of path.slice(0, -1)) holder = holder[key] as Record<string | number, unknown>
    Object.defineProperty(holder, path[path.length - 1]!, { enumerable: true, get: () => { throw new Error("hostile getter") } })
  }
})

const revokedProxy = () => {
  const { proxy, revoke } = Proxy.revocable({}, {})
  revoke()
  return proxy
}
const trappingProxy = () => new Proxy({ a: 1 }, { get: () => { throw new Error("hostile trap") } })

const mutations = (options: Json): fc.Arbitrary<Mutation> => {
  const nets = options["networks"] as ReadonlyArray<Json>
  const netIndex = fc.nat(nets.length - 1)
  const choices: Array<fc.Arbitrary<Mutation>> = [
    netIndex.chain((i) =>
      fc.constantFrom(...(nets[i]!["chainNamespace"] === "eip155" ? EVM_CHAIN_IDS : OTHER_CHAIN_IDS)).map((id) => put(["networks", i, "id"], id))
    ),
    netIndex.map((i) => put(["networks", nets.length], nets[i])),
    netIndex.chain((i) => fc.constantFrom(...DECIMALS).map((decimals) => put(["networks", i, "nativeCurrency", "decimals"], decimals))),
    netIndex.chain((i) => fc.constantFrom(...NOT_HTTP).map((url) => put(["networks", i, "rpcUrls", "default", "http", 0], url))),
    netIndex.map((i) => put(["networks", i, "rpcUrls", "default", "http"], [])),
    netIndex.chain((i) =>
      fc.constantFrom(...NOT_HTTP).map((url) => put(["networks", i, "blockExplorers"], { default: { name: "X", url } }))
    ).map((mutation) => ({ ...mutation, path: [...mutation.path, "default", "url"] })),
    netIndex.chain((i) => fc.constantFrom(...BAD_IMAGES).map((url) => put(["networks", i, "assets"], { imageUrl: url })))
      .map((mutation) => ({ ...mutation, path: [...mutation.path, "imageUrl"] })),
    fc.constantFrom(...NOT_HTTP).map((url) => put(["metadata"], { name: "x", description: "y", url, icons: [] }))
      .map((mutation) => ({ ...mutation, path: ["metadata", "url"] })),
    fc.constantFrom(...BAD_IMAGES).map((url) => put(["metadata"], { name: "x", description: "y", url: "https://x.example", icons: [url] }))
      .map((mutation) => ({ ...mutation, path: ["metadata", "icons", 0] })),
    fc.tuple(fc.constantFrom("desktop_link", "mobile_link"), fc.constantFrom(...BAD_WALLET_LINKS)).map(([key, link]) => ({
      path: ["customWallets", 0, key],
      apply: (o: Json) => put(["customWallets"], [{ id: "evil", name: "Evil", [key]: link }]).apply(o)
    })),
    fc.tuple(fc.constantFrom("webapp_link", "homepage", "app_store", "play_store"), fc.constantFrom(...NOT_HTTP)).map(([key, link]) => ({
      path: ["customWallets", 0, key],
      apply: (o: Json) => put(["customWallets"], [{ id: "evil", name: "Evil", [key]: link }]).apply(o)
    })),
    fc.constantFrom(...BAD_IMAGES).map((url) => ({
      path: ["customWallets", 0, "image_url"],
      apply: (o: Json) => put(["customWallets"], [{ id: "evil", name: "Evil", image_url: url }]).apply(o)
    })),
    fc.tuple(fc.constantFrom("termsConditionsUrl", "privacyPolicyUrl"), fc.constantFrom(...NOT_HTTP)).map(([key, url]) => put([key], url)),
    fc.tuple(fc.constantFrom("rpcProxy", "blockchainApi", "walletCatalog", "frame", "verify"), fc.constantFrom(...NOT_HTTP)).map(([key, url]) => ({
      path: ["endpoints", key],
      apply: (o: Json) => put(["endpoints"], { [key]: url }).apply(o)
    })),
    fc.tuple(fc.constantFrom(...THEME_VARIABLE_NAMES), fc.constantFrom(...BREAKOUTS)).map(([name, value]) => ({
      path: ["themeVariables", name],
      apply: (o: Json) => put(["themeVariables"], { ...(o["themeVariables"] as Json | undefined), [name]: value }).apply(o)
    })),
    fc.tuple(
      fc.constantFrom(["connectorTypeOrder", CONNECTOR_ORDER], ["connectMethodsOrder", CONNECT_METHOD_ORDER], ["walletFeaturesOrder", WALLET_FEATURE_ORDER]),
      fc.boolean()
    ).map(([[key, entries], repeat]) => ({
      path: ["features", key, 1],
      apply: (o: Json) => put(["features"], { [key]: repeat ? [entries[0], entries[0]] : [entries[0], "bridge"] }).apply(o)
    })),
    fc.constantFrom("a,b", "", "x".repeat(200), "<script>", " id").map((id) => put(["featuredWalletIds"], [id])).map((m) => ({ ...m, path: ["featuredWalletIds", 0] })),
    fc.constantFrom(...nets.map((n) => n.caipNetworkId as string)).map((id) => ({
      path: ["tokens", id, "address"],
      apply: (o: Json) => put(["tokens"], { [id]: { address: "<img src=x onerror=alert(1)>" } }).apply(o)
    })),
    fc.constantFrom<Path>(["projectId"], ["networks", 0], ["networks", 0, "name"], ["features", "swaps"], ["themeVariables"], ["siwx"]).map((path) => ({
      path,
      apply: (o: Json) => {
        if (path[0] === "features") put(["features"], { swaps: true }).apply(o)
        if (path[0] === "themeVariables" || path[0] === "siwx") put([path[0]], {}).apply(o)
        throwingGetter(path).apply(o)
      }
    })),
    fc.tuple(fc.constantFrom<Path>(["networks", 0], ["metadata"], ["features"], ["customWallets", 0]), fc.boolean()).map(([path, revoked]) => ({
      path,
      apply: (o: Json) => {
        if (path[0] === "customWallets") put(["customWallets"], [{}]).apply(o)
        put(path, revoked ? revokedProxy() : trappingProxy()).apply(o)
      }
    })),
    // The sign-in configuration is the host's own object, passed through as it is: only a revoked one is unusable.
    fc.constant(put(["siwx"], revokedProxy()))
  ]
  return fc.oneof(...choices)
}

// ---------------------------------------------------------------------------------------------------------------
// What must hold of anything decoded

const pathText = (path: Path): string => path.map((key) => `[${typeof key === "number" ? key : JSON.stringify(key)}]`).join("")

// Written independently of the decoder: what a browser would run, fetch or break out on.
const runsScript = (url: string): boolean => {
  const scheme = url.replace(/[\u0000-\u0020]/g, "").toLowerCase()
  return ["javascript:", "vbscript:", "file:"].some((bad) => scheme.startsWith(bad)) || (scheme.startsWith("data:") && !scheme.startsWith("data:image/"))
}
const URL_KEYS = new Set(["url", "http", "webSocket", "icons", "homepage", "image_url", "imageUrl", "image", "mobile_link", "desktop_link", "webapp_link", "app_store", "play_store", "termsConditionsUrl", "privacyPolicyUrl", "rpcProxy", "blockchainApi", "walletCatalog", "frame", "relay", "verify"])

const expectNothingHostile = (options: HostOptions) => {
  const walk = (value: unknown, key: string) => {
    if (typeof value === "string" && URL_KEYS.has(key)) expect(runsScript(value), `${key}: ${value}`).toBe(false)
    if (Array.isArray(value)) value.forEach((item) => walk(item, key))
    else if (typeof value === "object" && value !== null && key !== "siwx" && key !== "siweConfig") {
      for (const [child, item] of Object.entries(value)) walk(item, child)
    }
  }
  walk(options, "")
  for (const value of Object.values(options.themeVariables ?? {})) {
    expect(String(value)).not.toMatch(/[;{}<>\\]|url\(|expression\(/i)
    expect(String(value)).not.toMatch(/^(NaN|-?Infinity)$/)
  }
  const ids = options.networks.map((network) => network.caipNetworkId)
  expect(new Set(ids).size).toBe(ids.length)
  for (const network of options.networks) {
    if (network.chainNamespace === "eip155") expect(Number.isSafeInteger(network.id) && (network.id as number) >= 1).toBe(true)
    expect(Number.isInteger(network.nativeCurrency.decimals) && network.nativeCurrency.decimals <= 36).toBe(true)
    expect(network.rpcUrls.default.http.length).toBeGreaterThan(0)
  }
}

const decodeWithoutThrowing = (input: unknown) => {
  try {
    return decodeOptions(input)
  } catch (error) {
    throw new Error(`decodeOptions threw: ${String(error)}`)
  }
}

// ---------------------------------------------------------------------------------------------------------------

const BAD_OPTIONS_RUNS = 10_000
const WELL_FORMED_RUNS = 1_000
const SHAPELESS_RUNS = 2_000

describe("generated host options", () => {
  it(`${BAD_OPTIONS_RUNS} options with one hostile value: InvalidOptions naming where it is, never a throw`, () => {
    const hostile = wellFormed.chain((options) => mutations(options).map((mutation) => ({ options, mutation })))
    let refused = 0
    fc.assert(
      fc.property(hostile, ({ options, mutation }) => {
        const input = structuredClone({ ...options, siwx: undefined }) as Json
        if (options["siwx"] !== undefined) input["siwx"] = options["siwx"]
        else delete input["siwx"]
        mutation.apply(input)
        const result = decodeWithoutThrowing(input)
        expect(Result.isFailure(result), `accepted ${pathText(mutation.path)}`).toBe(true)
        if (Result.isSuccess(result)) return
        expect(result.failure).toBeInstanceOf(InvalidOptions)
        expect((result.failure as InvalidOptions).issues).toContain(`at ${pathText(mutation.path)}`)
        refused += 1
      }),
      { numRuns: BAD_OPTIONS_RUNS }
    )
    expect(refused).toBe(BAD_OPTIONS_RUNS)
  }, 120_000)

  it(`${WELL_FORMED_RUNS} well-formed options decode, keeping what the host wrote`, () => {
    fc.assert(
      fc.property(wellFormed, (options) => {
        const result = decodeWithoutThrowing(options)
        if (Result.isFailure(result)) throw new Error(result.failure.message)
        const decoded = result.success.options
        expect(decoded.networks.map((network) => network.caipNetworkId)).toEqual((options["networks"] as ReadonlyArray<Json>).map((n) => n["caipNetworkId"]))
        expect(decoded.themeVariables).toEqual(options["themeVariables"])
        expect(decoded.customWallets).toEqual(options["customWallets"])
        expectNothingHostile(decoded)
      }),
      { numRuns: WELL_FORMED_RUNS }
    )
  }, 120_000)

  it(`${SHAPELESS_RUNS} shapeless inputs: a typed error or options with nothing hostile, never a throw`, () => {
    const anyValue = fc.oneof(fc.anything({ maxDepth: 3 }), fc.constantFrom(...NOT_HTTP, ...BREAKOUTS, ...EVM_CHAIN_IDS))
    const shapeless = fc.oneof(
      fc.anything({ maxDepth: 4 }),
      fc.dictionary(fc.constantFrom("networks", "metadata", "themeVariables", "customWallets", "features", "tokens", "siwx", "siweConfig"), anyValue),
      wellFormed.chain((options) =>
        fc.dictionary(fc.constantFrom(...Object.keys(options)), anyValue, { maxKeys: 2 }).map((noise) => ({ ...options, ...noise }))
      )
    )
    fc.assert(
      fc.property(shapeless, (input) => {
        const result = decodeWithoutThrowing(input)
        if (Result.isSuccess(result)) expectNothingHostile(result.success.options)
        else expect(result.failure instanceof InvalidOptions || result.failure instanceof SiweSiwxConflict).toBe(true)
      }),
      { numRuns: SHAPELESS_RUNS }
    )
  }, 120_000)
})
