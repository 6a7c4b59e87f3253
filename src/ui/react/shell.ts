/**
 * How a provider reaches its runtime: the runtime's code is fetched with `import()` (once per page) and the runtime
 * made from the host's options when it arrives. Until then the hooks give their constant fallbacks and the Connect
 * button renders; a visitor's action waits for the code instead of failing.
 */
import type { ThemeMode } from "../../domain/Account"
import type { ChainNamespace } from "../../domain/Caip"
import type { ThemeVariables } from "../../domain/Options"
import { readSafely } from "../../domain/readSafely"
import type { WalletRuntime, WalletRuntimeSettings } from "../../runtime"
import { hasStoredConnection } from "../../services/Storage/paths"
import { openingViews, preloadViews } from "../views/registry"
import type { Core, Ready, Shell, ThemeOptions } from "./context"

let loaded: Core | undefined
let loading: Promise<Core> | undefined

/** Fetches the runtime's code, once per page (again after a failed fetch: offline, or a deploy replaced the files). */
export const loadCore = (): Promise<Core> => {
  loading ??= import("./core").then(
    (module) => {
      loaded = module.core
      return module.core
    },
    (error: unknown) => {
      loading = undefined
      throw error
    }
  )
  return loading
}

/**
 * A promise that says whether it has settled, as React's `use` reads it: a component asking for a runtime that is
 * already there renders at once instead of suspending for a tick.
 */
type Tracked<A> = Promise<A> & { status?: "pending" | "fulfilled" | "rejected"; value?: A; reason?: unknown }

const fulfilled = <A>(value: A): Tracked<A> => Object.assign(Promise.resolve(value), { status: "fulfilled" as const, value })

/** Where a provider's runtime comes from: the host's options, or a runtime the host made. */
export type RuntimeSource =
  | { readonly options: unknown; readonly settings?: WalletRuntimeSettings | undefined; readonly runtime?: undefined }
  | { readonly runtime: WalletRuntime; readonly options?: undefined; readonly settings?: undefined }

/** A shell and what its provider does with it. */
export interface OwnedShell extends Shell {
  /** Why the options cannot make a runtime (thrown by the provider, as a bad option throws at start). */
  readonly failure: () => unknown
  /** The provider is mounted (again). */
  readonly retain: () => void
  /** The provider unmounted: unless it mounts again at once (StrictMode), the runtime it made is released. */
  readonly release: () => void
}

const THEME_MODES: ReadonlyArray<string> = ["light", "dark"] satisfies ReadonlyArray<ThemeMode>

// A value that could end its declaration, or the style attribute a server render writes it into, is left out until
// the options are decoded; names are checked then too.
const SAFE_THEME_VALUE = /^[^;{}<>\\]*$/

// The host's options are read as given before the runtime decodes them: a read that throws (a throwing getter, a
// revoked Proxy) gives way to the fallback, so the provider renders whatever it was handed.
/** The host's theme as given, read without decoding (decoding is the runtime's): shown until the runtime is there. */
const themeOf = (options: unknown): ThemeOptions => readSafely(() => themeAsGiven(options), { themeMode: undefined, themeVariables: undefined })

const themeAsGiven = (options: unknown): ThemeOptions => {
  const { themeMode, themeVariables } = (typeof options === "object" && options !== null ? options : {}) as {
    readonly themeMode?: unknown
    readonly themeVariables?: unknown
  }
  const variables =
    typeof themeVariables === "object" && themeVariables !== null
      ? Object.fromEntries(
          Object.entries(themeVariables).filter(
            ([name, value]) =>
              name.startsWith("--wr-") &&
              ((typeof value === "number" && Number.isFinite(value)) || (typeof value === "string" && SAFE_THEME_VALUE.test(value)))
          )
        )
      : undefined
  return {
    themeMode: typeof themeMode === "string" && THEME_MODES.includes(themeMode) ? (themeMode as ThemeMode) : undefined,
    themeVariables: variables as ThemeVariables | undefined
  }
}

const NAMESPACES: ReadonlyArray<string> = ["eip155", "solana", "bip122", "polkadot"] satisfies ReadonlyArray<ChainNamespace>

/** The network the runtime starts on when nothing is stored: the host's default, else its first (read as given). */
const firstNetworkOf = (options: unknown): Shell["firstNetwork"] => readSafely(() => firstNetworkAsGiven(options), undefined)

const firstNetworkAsGiven = (options: unknown): Shell["firstNetwork"] => {
  const { defaultNetwork, networks } = (typeof options === "object" && options !== null ? options : {}) as {
    readonly defaultNetwork?: unknown
    readonly networks?: unknown
  }
  const network = (defaultNetwork ?? (Array.isArray(networks) ? networks[0] : undefined)) as
    | { readonly name?: unknown; readonly chainNamespace?: unknown }
    | undefined
  if (typeof network !== "object" || network === null) return undefined
  const { name, chainNamespace } = network
  return typeof name === "string" && typeof chainNamespace === "string" && NAMESPACES.includes(chainNamespace)
    ? { name, chainNamespace: chainNamespace as ChainNamespace }
    : undefined
}

/**
 * A provider's shell. When the runtime's code is already on the page (a second provider, a test), the runtime is
 * made at once, and bad options throw right here, as before any code was lazy.
 */
export const makeShell = (source: RuntimeSource): OwnedShell => {
  const listeners = new Set<() => void>()
  const notify = () => listeners.forEach((listener) => listener())
  const make = (core: Core): Ready => ({ core, runtime: source.runtime ?? core.makeWalletRuntime(source.options, source.settings) })
  let ready: Ready | undefined = loaded === undefined ? undefined : make(loaded)
  let current: Tracked<Ready> | undefined = ready === undefined ? undefined : fulfilled(ready)
  let failure: unknown
  let released = false
  let releasing = false
  const dispose = () => {
    released = true
    if (source.runtime === undefined && ready !== undefined) void ready.runtime.dispose()
  }
  const load = (): Promise<Ready> => {
    if (current !== undefined) return current
    // The views the modal opens with are fetched beside the runtime, not after it: a click that comes before the
    // page is idle waits for one round of fetches, not two.
    preloadViews(openingViews(hasStoredConnection()))
    const attempt: Tracked<Ready> = loadCore().then((core) => {
      if (released) throw new Error("wallet-runtime: the provider was unmounted")
      return Promise.resolve(core)
        .then(make)
        .catch((error: unknown) => {
          // The options cannot make a runtime: the provider throws it, as a bad option throws at start.
          failure = error
          throw error
        })
    })
    attempt.status = "pending"
    attempt.then(
      (made) => {
        ready = made
        Object.assign(attempt, { status: "fulfilled", value: made })
        notify()
      },
      (error: unknown) => {
        Object.assign(attempt, { status: "rejected", reason: error })
        // A fetch that failed (offline, files replaced by a deploy) is tried again on the next intent.
        if (failure === undefined) current = undefined
        notify()
      }
    )
    current = attempt
    return attempt
  }
  return {
    ready: () => ready,
    failure: () => failure,
    subscribe: (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    load,
    theme:
      source.runtime === undefined
        ? themeOf(source.options)
        : { themeMode: source.runtime.options.themeMode, themeVariables: source.runtime.options.themeVariables },
    restoring: hasStoredConnection(),
    firstNetwork: firstNetworkOf(source.runtime?.options ?? source.options),
    retain: () => {
      releasing = false
    },
    release: () => {
      releasing = true
      queueMicrotask(() => {
        if (releasing) dispose()
      })
    }
  }
}
