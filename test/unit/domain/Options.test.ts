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
      themeVariables: { "--wr-accent": "#47a1ff", "--wr-border-radius-master": 2 },
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
