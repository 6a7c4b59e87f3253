import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import { Alerts } from "../../../src/domain/alerts"
import { DEFAULT_SOCIALS } from "../../../src/domain/constants"
import { InvalidOptions, SiweSiwxConflict } from "../../../src/domain/errors"
import { ethereum, localChainA, solana } from "../../../src/domain/networks"
import {
  analyticsEnabled,
  DEFAULT_ENDPOINTS,
  decodeOptions,
  decodeOptionsSync,
  decodeThemeVariables,
  type DecodedOptions,
  type HostOptionsInput
} from "../../../src/domain/Options"

const minimal: HostOptionsInput = { projectId: "demo-project", networks: [ethereum] }

const decoded = (input: unknown): DecodedOptions => {
  const result = decodeOptions(input)
  if (Result.isFailure(result)) throw new Error(`expected options to decode: ${result.failure.message}`)
  return result.success
}

const invalid = (input: unknown): InvalidOptions => {
  const result = decodeOptions(input)
  if (Result.isSuccess(result)) throw new Error("expected options to be refused")
  if (!(result.failure instanceof InvalidOptions)) throw new Error(`expected InvalidOptions, got ${result.failure._tag}`)
  return result.failure
}

describe("host options: defaults", () => {
  it("fills every feature with its spec-9 default", () => {
    const { options } = decoded(minimal)
    expect(options.features).toEqual({
      swaps: true,
      onramp: true,
      receive: true,
      send: true,
      email: true,
      passkey: false,
      emailShowWallets: true,
      history: true,
      analytics: true,
      allWallets: true,
      legalCheckbox: false,
      smartSessions: false,
      collapseWallets: false,
      socials: DEFAULT_SOCIALS
    })
  })

  it("keeps the host's own choices and defaults the rest", () => {
    const { options } = decoded({ ...minimal, features: { swaps: false, socials: false, legalCheckbox: true } })
    expect(options.features.swaps).toBe(false)
    expect(options.features.socials).toBe(false)
    expect(options.features.legalCheckbox).toBe(true)
    expect(options.features.onramp).toBe(true)
  })

  it("takes the passkey login when the host turns it on (off by default), and refuses anything but a boolean", () => {
    expect(decoded({ ...minimal, features: { passkey: true } }).options.features.passkey).toBe(true)
    expect(decoded(minimal).options.features.passkey).toBe(false)
    expect(invalid({ ...minimal, features: { passkey: "yes" } }).message).toContain('["features"]["passkey"]')
  })

  it("defaults switches, wallet list, account types and the production endpoints", () => {
    const { options } = decoded(minimal)
    expect(options.allWallets).toBe("SHOW")
    expect(options.enableEIP6963).toBe(true)
    expect(options.enableNetworkSwitch).toBe(true)
    expect(options.allowUnsupportedChain).toBe(false)
    expect(options.debug).toBe(false)
    expect(options.defaultAccountTypes).toEqual({
      eip155: "smartAccount",
      solana: "eoa",
      bip122: "payment",
      polkadot: "eoa"
    })
    expect(options.endpoints).toEqual(DEFAULT_ENDPOINTS)
  })

  it("points single endpoints at the local stack and keeps the other defaults", () => {
    const { options } = decoded({ ...minimal, endpoints: { blockchainApi: "http://127.0.0.1:41234" } })
    expect(options.endpoints.blockchainApi).toBe("http://127.0.0.1:41234")
    expect(options.endpoints.relay).toBe(DEFAULT_ENDPOINTS.relay)
  })

  it("names no WalletConnect Verify server unless the host does", () => {
    expect(decoded(minimal).options.endpoints.verify).toBeUndefined()
    const { options } = decoded({ ...minimal, endpoints: { verify: "https://verify.walletconnect.org" } })
    expect(options.endpoints.verify).toBe("https://verify.walletconnect.org")
  })

  it("sends analytics only when both switches are on", () => {
    expect(analyticsEnabled(decoded(minimal).options)).toBe(true)
    expect(analyticsEnabled(decoded({ ...minimal, enableAnalytics: false }).options)).toBe(false)
    expect(analyticsEnabled(decoded({ ...minimal, features: { analytics: false } }).options)).toBe(false)
  })

  it("accepts a complete, realistic set of options", () => {
    const siwx = { required: true, createMessage: () => "msg" }
    const { options, alerts } = decoded({
      projectId: "demo-project",
      networks: [localChainA, solana],
      defaultNetwork: localChainA,
      metadata: { name: "Demo", description: "A demo", url: "http://127.0.0.1:5173", icons: [] },
      tokens: { "eip155:31337": { address: "0x5FbDB2315678afecb367f032d93F642f64180aa3" } },
      themeMode: "dark",
      themeVariables: { "--wr-accent": "#47a1ff", "--wr-border-radius-master": "2px", "--wr-z-index": 1000 },
      allWallets: "ONLY_MOBILE",
      includeWalletIds: ["a"],
      excludeWalletIds: ["b"],
      featuredWalletIds: ["c"],
      customWallets: [{ id: "mine", name: "My Wallet", mobile_link: "mywallet://" }],
      customRpcUrls: { "eip155:31337": [{ url: "http://127.0.0.1:8545" }] },
      termsConditionsUrl: "https://example.com/terms",
      privacyPolicyUrl: "https://example.com/privacy",
      enableEIP6963: false,
      enableNetworkSwitch: false,
      allowUnsupportedChain: true,
      defaultAccountTypes: { eip155: "eoa" },
      siwx
    })
    expect(alerts).toEqual([])
    expect(options.networks.map((network) => network.caipNetworkId)).toEqual([
      "eip155:31337",
      "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"
    ])
    expect(options.defaultAccountTypes.eip155).toBe("eoa")
    expect(options.defaultAccountTypes.bip122).toBe("payment")
    expect(options.customRpcUrls?.["eip155:31337"]?.[0]?.url).toBe("http://127.0.0.1:8545")
    // The host's sign-in object is passed through as is: its methods stay callable.
    expect(options.siwx).toBe(siwx)
  })
})

describe("host options: errors", () => {
  it.each([
    [{ ...minimal, networks: [] }, "Expected at least one network", '["networks"]'],
    [{ projectId: "p" }, "Missing key", '["networks"]'],
    [{ ...minimal, projectId: 42 }, "Expected string", '["projectId"]'],
    [{ ...minimal, features: { swaps: "yes" } }, "Expected boolean", '["features"]["swaps"]'],
    [{ ...minimal, features: { socials: ["myspace"] } }, "Expected", '["features"]["socials"]'],
    [{ ...minimal, themeMode: "blue" }, 'Expected "light" | "dark"', '["themeMode"]'],
    [{ ...minimal, allWallets: "SOME" }, "Expected", '["allWallets"]'],
    [{ ...minimal, metadata: { name: "x", description: "y", url: "z" } }, "Missing key", '["metadata"]["icons"]'],
    [{ ...minimal, endpoints: { relay: "https://relay" } }, "Expected an absolute ws(s) URL", '["endpoints"]["relay"]'],
    [{ ...minimal, endpoints: { frame: "not a url" } }, "Expected an absolute http(s) URL", '["endpoints"]["frame"]'],
    [{ ...minimal, endpoints: { verify: "javascript:alert(1)" } }, "Expected an absolute http(s) URL", '["endpoints"]["verify"]'],
    [{ ...minimal, termsConditionsUrl: "javascript:alert(1)" }, "Expected an absolute http(s) URL", '["termsConditionsUrl"]'],
    [{ ...minimal, siwx: "yes" }, "Expected an object", '["siwx"]'],
    [{ ...minimal, siweConfig: [1] }, "Expected an object", '["siweConfig"]'],
    [{ ...minimal, defaultAccountTypes: { solana: "smart" } }, "Expected", '["defaultAccountTypes"]["solana"]'],
    [
      { ...minimal, customRpcUrls: { "cosmos:hub": [{ url: "https://x" }] } },
      "Invalid CAIP-2 network id: cosmos:hub",
      '["customRpcUrls"]["cosmos:hub"]'
    ],
    [{ ...minimal, tokens: { eip155: { address: "0x1" } } }, "Invalid CAIP-2 network id: eip155", '["tokens"]["eip155"]'],
    [
      { ...minimal, networks: [{ ...ethereum, caipNetworkId: "eip155:10" }] },
      "Expected eip155:1 (chainNamespace:id), got eip155:10",
      '["networks"][0]["caipNetworkId"]'
    ],
    [{ ...minimal, networks: [{ ...ethereum, chainNamespace: "cosmos" }] }, "Expected", '["networks"][0]["chainNamespace"]'],
    [{ ...minimal, projectID: "typo" }, 'Unknown option "projectID"', '["projectID"]'],
    [{ ...minimal, features: { swap: false } }, 'Unknown option "swap"', '["features"]["swap"]']
  ])("%j → InvalidOptions naming the path", (input, text, path) => {
    const error = invalid(input)
    expect(error.issues).toContain(text)
    expect(error.issues).toContain(`at ${path}`)
    expect(error.message).toBe(`Invalid wallet-runtime options: ${error.issues}`)
  })

  it("reports every bad option at once", () => {
    const error = invalid({ ...minimal, projectId: 1, themeMode: "blue", allWallets: "SOME" })
    expect(error.issues).toContain('at ["projectId"]')
    expect(error.issues).toContain('at ["themeMode"]')
    expect(error.issues).toContain('at ["allWallets"]')
  })

  it("refuses an unknown theme variable, naming it and the known ones", () => {
    const error = invalid({ ...minimal, themeVariables: { "--wr-accent": "red", "--w3m-accent": "blue" } })
    expect(error.issues).toContain('Unknown theme variable "--w3m-accent"; known: --wr-font-family')
    expect(error.issues).toContain('at ["themeVariables"]["--w3m-accent"]')
    expect(error.issues).not.toContain('"--wr-accent"]')
  })

  it("refuses something that is not an options object", () => {
    for (const input of [undefined, null, "options", [minimal]]) {
      expect(invalid(input).issues).toBe("Expected an options object")
    }
  })

  it("refuses siweConfig together with siwx with the exact text", () => {
    const result = decodeOptions({ ...minimal, siweConfig: {}, siwx: {} })
    if (Result.isSuccess(result)) throw new Error("expected a failure")
    expect(result.failure).toBeInstanceOf(SiweSiwxConflict)
    expect(result.failure.message).toBe("Cannot set both `siweConfig` and `siwx` options")
  })

  it("accepts either sign-in configuration alone", () => {
    expect(Result.isSuccess(decodeOptions({ ...minimal, siweConfig: {} }))).toBe(true)
    expect(Result.isSuccess(decodeOptions({ ...minimal, siwx: {} }))).toBe(true)
  })
})

const net = (over: Record<string, unknown>) => ({ ...minimal, networks: [{ ...ethereum, ...over }] })
const wallet = (over: Record<string, unknown>) => ({ ...minimal, customWallets: [{ id: "mine", name: "Mine", ...over }] })

describe("host options: hostile values are refused, naming the option", () => {
  it.each([
    ["the same network twice", { ...minimal, networks: [ethereum, ethereum] }, 'Expected each network once, got "eip155:1" again', '["networks"][1]'],
    ["chain id NaN", net({ id: Number.NaN }), "Expected a chain id: a whole number from 1", '["networks"][0]["id"]'],
    ["chain id Infinity", net({ id: Number.POSITIVE_INFINITY }), "Expected a chain id", '["networks"][0]["id"]'],
    ["chain id -1", net({ id: -1, caipNetworkId: "eip155:-1" }), "Expected a chain id", '["networks"][0]["id"]'],
    ["chain id 0", net({ id: 0, caipNetworkId: "eip155:0" }), "Expected a chain id", '["networks"][0]["id"]'],
    ["chain id 2^60", net({ id: 2 ** 60, caipNetworkId: `eip155:${2 ** 60}` }), "Expected a chain id", '["networks"][0]["id"]'],
    [
      'chain id "abc" on eip155',
      net({ id: "abc" }),
      'Expected a number from 1 to 9007199254740991 as the eip155 chain id, got "abc"',
      '["networks"][0]["id"]'
    ],
    [
      "decimals 1e9",
      net({ nativeCurrency: { ...ethereum.nativeCurrency, decimals: 1e9 } }),
      "Expected a whole number of decimals from 0 to 36",
      '["networks"][0]["nativeCurrency"]["decimals"]'
    ],
    [
      "a javascript: RPC URL",
      net({ rpcUrls: { default: { http: ["javascript:alert(1)"] } } }),
      "Expected an absolute http(s) URL",
      '["networks"][0]["rpcUrls"]["default"]["http"][0]'
    ],
    [
      "an RPC URL that is no URL",
      net({ rpcUrls: { default: { http: ["rpc.example"] } } }),
      "Expected an absolute http(s) URL",
      '["networks"][0]["rpcUrls"]["default"]["http"][0]'
    ],
    ["an empty RPC URL", net({ rpcUrls: { default: { http: [""] } } }), "Expected an absolute http(s) URL", '["networks"][0]["rpcUrls"]["default"]["http"][0]'],
    ["no RPC URL", net({ rpcUrls: { default: { http: [] } } }), "Expected a value with a length of at least 1", '["networks"][0]["rpcUrls"]["default"]["http"]'],
    [
      "a javascript: block explorer",
      net({ blockExplorers: { default: { name: "X", url: "javascript:alert(1)" } } }),
      "Expected an absolute http(s) URL",
      '["networks"][0]["blockExplorers"]["default"]["url"]'
    ],
    [
      "a javascript: metadata url",
      { ...minimal, metadata: { name: "x", description: "y", url: "javascript:alert(1)", icons: [] } },
      "Expected an absolute http(s) URL",
      '["metadata"]["url"]'
    ],
    [
      "a tab-split javascript: terms link",
      { ...minimal, termsConditionsUrl: "java\tscript:alert(1)" },
      "Expected an absolute http(s) URL",
      '["termsConditionsUrl"]'
    ],
    ["a custom wallet's javascript: desktop link", wallet({ desktop_link: "javascript:alert(document.domain)//" }), "a wallet's own scheme", '["customWallets"][0]["desktop_link"]'],
    ["a custom wallet's data: phone link", wallet({ mobile_link: "data:text/html,<script>alert(1)</script>" }), "a wallet's own scheme", '["customWallets"][0]["mobile_link"]'],
    ["a custom wallet's vbscript: phone link", wallet({ mobile_link: "VBScript:msgbox(1)" }), "a wallet's own scheme", '["customWallets"][0]["mobile_link"]'],
    ["a custom wallet's file: desktop link", wallet({ desktop_link: "file:///etc/passwd" }), "a wallet's own scheme", '["customWallets"][0]["desktop_link"]'],
    ["a custom wallet's javascript: web app", wallet({ webapp_link: "javascript:alert(1)" }), "Expected an absolute http(s) URL", '["customWallets"][0]["webapp_link"]'],
    ["a custom wallet's javascript: homepage", wallet({ homepage: "javascript:alert(1)" }), "Expected an absolute http(s) URL", '["customWallets"][0]["homepage"]'],
    ["a custom wallet's javascript: image", wallet({ image_url: "javascript:alert(1)" }), "Expected an http(s) or data:image/… URL", '["customWallets"][0]["image_url"]'],
    ["a custom wallet's data:text/html image", wallet({ image_url: "data:text/html,<b>x</b>" }), "Expected an http(s) or data:image/… URL", '["customWallets"][0]["image_url"]'],
    [
      "a theme value that adds a declaration",
      { ...minimal, themeVariables: { "--wr-accent": "red; background:url(//evil.example/x)" } },
      "Expected a colour",
      '["themeVariables"]["--wr-accent"]'
    ],
    [
      "a theme value that closes the rule",
      { ...minimal, themeVariables: { "--wr-font-family": "red} body{display:none" } },
      "Expected a font list",
      '["themeVariables"]["--wr-font-family"]'
    ],
    [
      "a theme value that closes the style element",
      { ...minimal, themeVariables: { "--wr-border-radius-master": "x}</style><script>alert(1)</script>" } },
      "Expected a length",
      '["themeVariables"]["--wr-border-radius-master"]'
    ],
    [
      "a connector type twice",
      { ...minimal, features: { connectorTypeOrder: ["injected", "walletConnect", "injected"] } },
      'Expected each connector type once, got "injected" again',
      '["features"]["connectorTypeOrder"][2]'
    ],
    [
      "a connect method twice",
      { ...minimal, features: { connectMethodsOrder: ["wallet", "wallet"] } },
      'Expected each connect method once, got "wallet" again',
      '["features"]["connectMethodsOrder"][1]'
    ],
    [
      "an unknown wallet feature",
      { ...minimal, features: { walletFeaturesOrder: ["send", "bridge"] } },
      'Expected "onramp" | "swaps" | "receive" | "send"',
      '["features"]["walletFeaturesOrder"][1]'
    ],
    ["a wallet id that would split the catalogue's query", { ...minimal, featuredWalletIds: ["a,b"] }, "Expected a wallet id", '["featuredWalletIds"][0]'],
    [
      "an EVM token whose address is not one",
      { ...minimal, tokens: { "eip155:1": { address: "<script>" } } },
      'Expected a token address for eip155, got "<script>"',
      '["tokens"]["eip155:1"]["address"]'
    ]
  ])("%s", (_label, input, text, path) => {
    const error = invalid(input)
    expect(error.issues).toContain(text)
    expect(error.issues).toContain(`at ${path}`)
  })

  it("accepts what those options are for: http(s) endpoints, wallet schemes, data:image icons and CSS values", () => {
    const { options } = decoded({
      ...minimal,
      networks: [{ ...ethereum, assets: { imageId: "eth-1", imageUrl: "data:image/png;base64,iVBORw0KGgo=" } }],
      customWallets: [
        { id: "mine", name: "Mine", mobile_link: "mine://", desktop_link: "mine-desktop:", webapp_link: "https://app.mine.example", image_url: "https://mine.example/i.png" }
      ],
      themeVariables: {
        "--wr-font-family": 'Inter, "Segoe UI", -apple-system, sans-serif',
        "--wr-font-size-master": "0.625rem",
        "--wr-border-radius-master": 0,
        "--wr-accent": "oklch(62% 0.19 255 / 90%)",
        "--wr-color-mix": "#00000080",
        "--wr-color-mix-strength": 40,
        "--wr-z-index": "2147483647",
        "--wr-qr-color": "rebeccapurple"
      },
      features: { connectorTypeOrder: ["injected", "walletConnect"] }
    })
    expect(options.customWallets?.[0]?.desktop_link).toBe("mine-desktop:")
    expect(options.themeVariables?.["--wr-accent"]).toBe("oklch(62% 0.19 255 / 90%)")
    expect(options.features.connectorTypeOrder).toEqual(["injected", "walletConnect"])
  })

  it("a throwing getter, a throwing Proxy or a revoked Proxy is InvalidOptions naming where, never a throw", () => {
    const throwing = { ...minimal, get projectId(): string { throw new Error("boom") } }
    expect(invalid(throwing).issues).toBe('Expected a value that can be read, but reading threw (a getter or a Proxy)\n  at ["projectId"]')

    const trap = new Proxy({ swaps: true }, { get: () => { throw new Error("trap") } })
    expect(invalid({ ...minimal, features: trap }).issues).toContain('at ["features"]["swaps"]')
    const keysTrap = new Proxy({}, { ownKeys: () => { throw new Error("trap") } })
    expect(invalid(keysTrap).issues).toBe("Expected options that can be read, but reading threw (a getter or a Proxy)")

    const revoked = Proxy.revocable({}, {})
    revoked.revoke()
    expect(invalid(revoked.proxy).issues).toBe("Expected options that can be read, but reading threw (a getter or a Proxy)")
    expect(invalid({ ...minimal, networks: [revoked.proxy] }).issues).toContain('at ["networks"][0]')
    expect(invalid({ ...minimal, siwx: revoked.proxy }).issues).toContain('at ["siwx"]')
  })

  it("reads each option once: a getter cannot show the checks one value and the runtime another", () => {
    let reads = 0
    const input = {
      ...minimal,
      get termsConditionsUrl() {
        reads += 1
        return reads === 1 ? "https://example.com/terms" : "javascript:alert(1)"
      }
    }
    expect(decoded(input).options.termsConditionsUrl).toBe("https://example.com/terms")
    expect(reads).toBe(1)
  })

  it("refuses input too deep, too long or cyclic before walking it", () => {
    const cyclic: Record<string, unknown> = { name: "x" }
    cyclic["self"] = cyclic
    expect(invalid({ ...minimal, metadata: cyclic }).issues).toContain("Expected at most 16 levels of nesting")
    expect(invalid({ ...minimal, featuredWalletIds: new Array(2 ** 31) }).issues).toBe(
      'Expected at most 10000 items, got 2147483648\n  at ["featuredWalletIds"]'
    )
    expect(invalid(JSON.parse(`{"networks":[],"__proto__":{"polluted":true}}`)).issues).toContain('Unknown option "__proto__"')
    expect(({} as Record<string, unknown>)["polluted"]).toBeUndefined()
  })
})

describe("theme variables set after start", () => {
  it("decode like the option, and refuse a breaking value or a hostile object with InvalidOptions", () => {
    expect(decodeThemeVariables({ "--wr-accent": "#00aa55" })).toEqual(Result.succeed({ "--wr-accent": "#00aa55" }))
    const breaking = decodeThemeVariables({ "--wr-qr-color": "red;}</style>" })
    expect(Result.isFailure(breaking) && breaking.failure.issues).toContain('at ["themeVariables"]["--wr-qr-color"]')
    const revoked = Proxy.revocable({}, {})
    revoked.revoke()
    const unreadable = decodeThemeVariables(revoked.proxy)
    expect(Result.isFailure(unreadable) && unreadable.failure).toBeInstanceOf(InvalidOptions)
  })
})

describe("host options: projectId", () => {
  it.each([["missing", undefined], ["empty", ""], ["blank", "   "]])(
    "%s projectId still decodes, with the Project ID Not Configured alert",
    (_label, projectId) => {
      const input = projectId === undefined ? { networks: [ethereum] } : { networks: [ethereum], projectId }
      const { options, alerts } = decoded(input)
      expect(alerts).toEqual([Alerts.PROJECT_ID_NOT_CONFIGURED])
      expect(options.networks).toHaveLength(1)
    }
  )

  it("a projectId raises no alert", () => {
    expect(decoded(minimal).alerts).toEqual([])
  })
})

describe("decodeOptionsSync", () => {
  it("returns the decoded options", () => {
    expect(decodeOptionsSync(minimal).features.swaps).toBe(true)
  })

  it("throws the typed error for bad options", () => {
    expect(() => decodeOptionsSync({ ...minimal, siweConfig: {}, siwx: {} })).toThrow(
      "Cannot set both `siweConfig` and `siwx` options"
    )
    expect(() => decodeOptionsSync({ ...minimal, themeMode: 1 })).toThrow(/^Invalid wallet-runtime options: /)
  })
})
