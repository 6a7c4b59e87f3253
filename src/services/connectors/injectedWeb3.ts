/**
 * Polkadot wallets of the page as connectors, found through `window.injectedWeb3` (the polkadot-js extension
 * protocol that polkadot-js, Talisman, SubWallet and the others speak): each extension is one connector, named and
 * drawn as the wallet it is. Connecting asks the extension to `enable(appName)` (bounded in time), reads its accounts
 * with their key types and hands the polkadot adapter a PolkadotProvider over its `signer`. Finding them loads no
 * chain library and sends nothing over the network; the SS58 codec (with blake2b) comes with the first connect.
 *
 * `injectedWeb3` is any script's to write: every read of it goes through a Schema or a guard, so an entry that
 * throws when read, a promise that never settles, or accounts that make no sense are ignored (and reported once),
 * never a crash or a wait without end.
 */
import { Duration, Effect, Exit, Queue, Schema, type Scope, Stream, SubscriptionRef } from "effect"
import { SomethingWentWrong } from "../../domain/errors"
import type { CaipNetwork } from "../../domain/Network"
import type { ConnectorInfo } from "../../domain/Wallet"
import { generatedIcon } from "../generatedIcon"
import { fromPolkadotWalletError, type PolkadotKeyType, type PolkadotProvider } from "../polkadot/provider"
import type { PolkadotAccount } from "../polkadot/accounts"
import { withinWalletAnswerTime } from "../walletAnswer"
import type { Connector, FamilySession, WalletEvent } from "./Connector"
import type { ConnectorSource } from "./Connectors"

/** The id of an `injectedWeb3` extension's connector. */
export const injectedWeb3ConnectorId = (source: string): string => `injected-web3:${source.trim().toLowerCase()}`

/** The wallets known by their `injectedWeb3` key: the name they are shown with, and the rdns their EVM side announces. */
const KNOWN_EXTENSIONS: Readonly<Record<string, { readonly name: string; readonly rdns?: string }>> = {
  "polkadot-js": { name: "Polkadot{.js}" },
  talisman: { name: "Talisman", rdns: "xyz.talisman" },
  "subwallet-js": { name: "SubWallet", rdns: "app.subwallet" },
  enkrypt: { name: "Enkrypt", rdns: "com.enkrypt" },
  "fearless-wallet": { name: "Fearless Wallet" },
  polkagate: { name: "PolkaGate" },
  "aleph-zero-signer": { name: "Aleph Zero Signer" }
}

/** An unknown extension's name from its key: `my-wallet-js` is "My Wallet". */
const nameOfKey = (key: string): string =>
  key
    .replace(/-js$/i, "")
    .split(/[-_\s]+/)
    .filter((word) => word !== "")
    .map((word) => `${word.charAt(0).toUpperCase()}${word.slice(1)}`)
    .join(" ") || key

/** The most extensions listed: a script defining more is ignored past this, and reported. */
const MAX_EXTENSIONS = 50
/** A restore asks an extension that authorised the site before: it answers at once, or the site is not restored. */
export const RESTORE_ENABLE_MS = 3_000
/** How long an enabled extension may take to list its accounts (no prompt: it only reads them). */
export const ACCOUNTS_ANSWER_MS = 10_000
/** Extensions inject themselves as the page loads: `injectedWeb3` is read again this long after discovery starts. */
export const LATE_INJECTION_READS_MS: ReadonlyArray<number> = [500, 2_000]

const Fn = Schema.declare((value: unknown): value is (...args: ReadonlyArray<unknown>) => unknown => typeof value === "function")

/** An `injectedWeb3` entry: `enable` is all the protocol needs (`version` is informative). */
const Extension = Schema.Struct({ enable: Fn, version: Schema.optionalKey(Schema.Unknown) })

/** The methods of what `enable` answers, as far as they are used: an accounts reader and a signer. */
const Enabled = Schema.Struct({
  accounts: Schema.Struct({ get: Fn, subscribe: Schema.optionalKey(Fn) }),
  signer: Schema.Struct({ signRaw: Schema.optionalKey(Fn), signPayload: Schema.optionalKey(Fn) })
})


/** Reads `read()` once, through `schema`: a value that throws when read, or does not decode, is `undefined`. */
const readSafely = <S extends Schema.Codec<unknown>>(schema: S, read: () => unknown): S["Type"] | undefined => {
  try {
    const decoded = Schema.decodeUnknownExit(schema)(read())
    return Exit.isSuccess(decoded) ? decoded.value : undefined
  } catch {
    return undefined
  }
}

/** The SS58 codec and the account rules, fetched with the first connect (discovery lists wallets without them). */
type AccountsCodec = typeof import("../polkadot/accounts")

let accountsCodec: Promise<AccountsCodec> | undefined
const loadAccountsCodec = Effect.tryPromise({
  try: () =>
    (accountsCodec ??= import("../polkadot/accounts").catch((error: unknown) => {
      accountsCodec = undefined
      throw error
    })),
  catch: (error) => new SomethingWentWrong({ reason: `The Polkadot account code could not be loaded: ${error instanceof Error ? error.message : String(error)}` })
})

/** What an extension's `enable` gave: the objects its methods are called on, and the methods read once. */
interface EnabledExtension {
  readonly accounts: object
  readonly signer: object
  readonly methods: typeof Enabled.Type
}

/** The key type of each account the extension gave, by account id. */
type KeyTypes = Map<string, PolkadotKeyType | undefined>

const providerOf = (
  enabled: EnabledExtension,
  codec: AccountsCodec,
  keyTypes: KeyTypes,
  onNetwork: (network: Pick<CaipNetwork, "id">) => void
): PolkadotProvider => {
  const { signRaw, signPayload } = enabled.methods.signer
  const call = (method: (...args: ReadonlyArray<unknown>) => unknown, input: unknown) =>
    // The signer's methods may rely on `this`; a synchronous throw becomes a rejection like any other refusal.
    new Promise<unknown>((resolve, reject) => {
      try {
        resolve(method.call(enabled.signer, input))
      } catch (error) {
        reject(error)
      }
    })
  return {
    keyTypeOf: (address) => {
      const id = codec.accountIdHexOf(address)
      return id === undefined ? undefined : keyTypes.get(id)
    },
    signRaw: signRaw === undefined ? undefined : (input) => call(signRaw, input),
    signPayload: signPayload === undefined ? undefined : (payload) => call(signPayload, payload),
    onNetwork
  }
}

/** The `accounts` and `signer` objects of an `enable` answer, each read once; `undefined` when either is no object. */
const readParts = (answer: unknown): { readonly accounts: object; readonly signer: object } | undefined => {
  try {
    const record = answer as { readonly accounts?: unknown; readonly signer?: unknown }
    const accounts = record.accounts
    const signer = record.signer
    return typeof accounts === "object" && accounts !== null && typeof signer === "object" && signer !== null ? { accounts, signer } : undefined
  } catch {
    return undefined
  }
}

/** Calls a method read from a wallet object and awaits its answer; a synchronous throw fails like a rejection. */
const ask = (target: object, method: (...args: ReadonlyArray<unknown>) => unknown, ...args: ReadonlyArray<unknown>) =>
  Effect.tryPromise({ try: async () => method.call(target, ...args), catch: fromPolkadotWalletError })

/**
 * A connector over one `injectedWeb3` extension. `appName` is what the extension shows the visitor when it asks
 * whether the site may see the accounts.
 */
export const makeInjectedWeb3Connector = (source: string, extension: typeof Extension.Type & { readonly target: object }, appName: string): Connector => {
  const known = KNOWN_EXTENSIONS[source]
  const name = known?.name ?? nameOfKey(source)
  const info: ConnectorInfo = {
    id: injectedWeb3ConnectorId(source),
    name,
    type: "ANNOUNCED",
    chain: "polkadot",
    chains: [],
    imageUrl: generatedIcon(source, name),
    ...(known?.rdns !== undefined ? { info: { rdns: known.rdns } } : {})
  }
  // What the connector knows while connected: the enabled extension, the network its addresses are written for, the
  // accounts it gave. Events follow it.
  interface Live {
    readonly enabled: EnabledExtension
    readonly codec: AccountsCodec
    readonly network: Pick<CaipNetwork, "id">
    readonly accounts: ReadonlyArray<PolkadotAccount>
    /** The accounts are said as an event (the network changed); at connect they are the session's own. */
    readonly announce: boolean
  }
  let live: Live | undefined
  const keyTypes: KeyTypes = new Map()
  const changes = Effect.runSync(SubscriptionRef.make<Live | undefined>(undefined))
  const setLive = (next: Live | undefined) => {
    live = next
    keyTypes.clear()
    for (const account of next?.accounts ?? []) keyTypes.set(next!.codec.hexOf(account.accountId), account.keyType)
    Effect.runSync(SubscriptionRef.set(changes, next))
  }

  const enable = (bound: "prompt" | "restore") =>
    Effect.gen(function* () {
      const call = ask(extension.target, extension.enable, appName)
      const answer = yield* bound === "prompt"
        ? withinWalletAnswerTime(call)
        : Effect.timeoutOrElse(call, {
            duration: Duration.millis(RESTORE_ENABLE_MS),
            orElse: () => Effect.fail(new SomethingWentWrong({ reason: `${name} did not answer within ${RESTORE_ENABLE_MS / 1000} s` }))
          })
      // Each part is read once; its methods are then called on the extension's own objects (they may rely on `this`).
      const parts = readParts(answer)
      const methods = parts === undefined ? undefined : readSafely(Enabled, () => parts)
      if (parts === undefined || methods === undefined) {
        return yield* new SomethingWentWrong({ reason: `${name} answered without accounts or a signer` })
      }
      return { ...parts, methods } satisfies EnabledExtension
    })

  const readAccounts = (enabled: EnabledExtension, codec: AccountsCodec) =>
    ask(enabled.accounts, enabled.methods.accounts.get).pipe(
      Effect.timeoutOrElse({
        duration: Duration.millis(ACCOUNTS_ANSWER_MS),
        orElse: () => Effect.fail(new SomethingWentWrong({ reason: `${name} did not list its accounts` }))
      }),
      Effect.flatMap((value) => {
        const read = codec.polkadotAccountsOf(value)
        if (read === undefined) return Effect.fail(new SomethingWentWrong({ reason: `${name} listed its accounts in a form that is not a list` }))
        return Effect.as(read.dropped > 0 ? Effect.logWarning(`injectedWeb3: ${name} listed ${read.dropped} account(s) that are not Polkadot addresses: left out`) : Effect.void, read.accounts)
      })
    )

  const open = (bound: "prompt" | "restore", networks: ReadonlyArray<CaipNetwork>) =>
    Effect.gen(function* () {
      const network = networks.find((n) => n.chainNamespace === "polkadot")
      if (network === undefined) return []
      // A restore the extension refuses (it asked the visitor, who said no) is a site it no longer lets in: nothing.
      const enabling = bound === "restore"
        ? enable(bound).pipe(
            Effect.map((enabled): EnabledExtension | undefined => enabled),
            Effect.catchIf(
              (error) => error._tag === "UserRejected" || error._tag === "WalletUnauthorized",
              () => Effect.succeed(undefined)
            )
          )
        : enable(bound)
      const [enabled, codec] = yield* Effect.all([enabling, loadAccountsCodec], { concurrency: 2 })
      if (enabled === undefined) return []
      const accounts = yield* readAccounts(enabled, codec)
      const usable = codec.accountsOn(accounts, network)
      if (usable.length === 0) {
        if (bound === "restore") return []
        return yield* new SomethingWentWrong({ reason: `${name} gave no account for ${network.name}` })
      }
      setLive({ enabled, codec, network, accounts, announce: false })
      const onNetwork = (next: Pick<CaipNetwork, "id">) => {
        if (live !== undefined && live.enabled === enabled && String(live.network.id) !== String(next.id)) setLive({ ...live, network: next, announce: true })
      }
      // A Polkadot wallet has no chain of its own: it is used on the network the visitor is on.
      const session: FamilySession = { accounts: usable, chainId: network.id, provider: { namespace: "polkadot", provider: providerOf(enabled, codec, keyTypes, onNetwork) } }
      return [session]
    })

  // While connected: the extension's account subscription, and the accounts said again in a network's address format
  // when the visitor moves to another Polkadot network.
  const eventsOf = (current: Live): Stream.Stream<WalletEvent> => {
    const said: Stream.Stream<WalletEvent> = current.announce
      ? Stream.make({ _tag: "AccountsChanged", namespace: "polkadot", accounts: current.codec.accountsOn(current.accounts, current.network) })
      : Stream.empty
    const subscribe = current.enabled.methods.accounts.subscribe
    if (subscribe === undefined) return said
    const subscribed = Stream.callback<WalletEvent>(
      (queue) =>
        Effect.acquireRelease(
          Effect.sync(() => {
            const onAccounts = (value: unknown) => {
              const read = current.codec.polkadotAccountsOf(value)
              // A list that makes no sense is not a change of accounts (and not a disconnect).
              if (read === undefined || live === undefined || live.enabled !== current.enabled) return
              live = { ...live, accounts: read.accounts }
              for (const account of read.accounts) keyTypes.set(current.codec.hexOf(account.accountId), account.keyType)
              Queue.offerUnsafe(queue, { _tag: "AccountsChanged", namespace: "polkadot", accounts: current.codec.accountsOn(read.accounts, live.network) })
            }
            try {
              const off = subscribe.call(current.enabled.accounts, onAccounts)
              return typeof off === "function" ? () => void Promise.resolve().then(() => off()).catch(() => undefined) : () => undefined
            } catch {
              return () => undefined
            }
          }),
          (off) => Effect.sync(off)
        ),
      { bufferSize: 64, strategy: "sliding" }
    )
    return Stream.concat(said, subscribed)
  }

  return {
    info,
    namespaces: ["polkadot"],
    memberIds: [],
    connect: (networks) => open("prompt", networks).pipe(Effect.withSpan("InjectedWeb3Connector.connect")),
    reconnect: (networks) => open("restore", networks).pipe(Effect.withSpan("InjectedWeb3Connector.reconnect")),
    // The protocol has no disconnect: the site stops using the extension (the visitor revokes it in the extension).
    disconnect: Effect.sync(() => setLive(undefined)).pipe(Effect.withSpan("InjectedWeb3Connector.disconnect")),
    events: SubscriptionRef.changes(changes).pipe(Stream.switchMap((current) => (current === undefined ? Stream.empty : eventsOf(current))))
  }
}

/**
 * The rules of the extension list, one read of `injectedWeb3` at a time: each key is one extension, listed the first
 * time it is read well-formed (an entry with an `enable` function) and kept as it was then (a script replacing it
 * later cannot take its row); at most MAX_EXTENSIONS; a key longer than 100 characters, an entry that throws when read
 * or has no `enable`, and an `injectedWeb3` whose keys cannot be listed are ignored and reported once.
 */
export const makeInjectedWeb3List = (appName: string) => {
  const listed = new Map<string, Connector>()
  const reported = new Set<string>()
  const report = (key: string, message: string) =>
    Effect.suspend(() => {
      if (reported.has(key)) return Effect.void
      reported.add(key)
      return Effect.logWarning(`injectedWeb3: ${message}`)
    })

  /** Reads the page's `injectedWeb3` (as given); succeeds with whether the list changed. */
  const read = (injectedWeb3: unknown): Effect.Effect<boolean> =>
    Effect.gen(function* () {
      if (injectedWeb3 === undefined || injectedWeb3 === null) return false
      let keys: ReadonlyArray<string>
      try {
        if (typeof injectedWeb3 !== "object") throw new TypeError("not an object")
        keys = Object.keys(injectedWeb3)
      } catch {
        yield* report("unreadable", "window.injectedWeb3 cannot be read: no Polkadot wallet listed from it")
        return false
      }
      let changed = false
      for (const key of keys) {
        if (listed.has(key)) continue
        if (key.trim() === "" || key.length > 100) {
          yield* report("name", "ignored an extension whose name is empty or longer than 100 characters")
          continue
        }
        if (listed.size >= MAX_EXTENSIONS) {
          yield* report("full", `ignored extensions past ${MAX_EXTENSIONS}`)
          break
        }
        let target: unknown
        try {
          target = (injectedWeb3 as Record<string, unknown>)[key]
        } catch {
          target = undefined
        }
        const extension = typeof target === "object" && target !== null ? readSafely(Extension, () => target) : undefined
        if (extension === undefined || typeof target !== "object" || target === null) {
          yield* report(`malformed:${key}`, `ignored ${key.slice(0, 100)}: it is not an extension (no enable function)`)
          continue
        }
        listed.set(key, makeInjectedWeb3Connector(key, { ...extension, target }, appName))
        changed = true
      }
      return changed
    })

  return {
    read,
    /** The listed extensions' connectors, in the order they were first read. */
    connectors: (): ReadonlyArray<Connector> => [...listed.values()]
  }
}

/**
 * The page's Polkadot wallets: `window.injectedWeb3` read now, again when the page has loaded, and again
 * LATE_INJECTION_READS_MS after (extensions inject their script as the page loads), for as long as the scope lives.
 * Off the browser it is empty.
 */
export const browserPolkadotSource = (options: { readonly appName: string }): Effect.Effect<ConnectorSource, never, Scope.Scope> =>
  Effect.gen(function* () {
    const connectors = yield* SubscriptionRef.make<ReadonlyArray<Connector>>([])
    if (typeof window === "undefined") return connectors
    const list = makeInjectedWeb3List(options.appName)
    const readPage = Effect.suspend(() => {
      let injectedWeb3: unknown
      try {
        injectedWeb3 = (window as { injectedWeb3?: unknown }).injectedWeb3
      } catch {
        injectedWeb3 = null
      }
      return list.read(injectedWeb3)
    }).pipe(Effect.flatMap((changed) => (changed ? SubscriptionRef.set(connectors, list.connectors()) : Effect.void)))
    yield* readPage
    const loaded = Effect.callback<void>((resume) => {
      if (document.readyState === "complete") return resume(Effect.void)
      const onLoad = () => resume(Effect.void)
      window.addEventListener("load", onLoad, { once: true })
      return Effect.sync(() => window.removeEventListener("load", onLoad))
    })
    yield* Effect.forkScoped(
      Effect.gen(function* () {
        yield* loaded
        yield* readPage
        let waited = 0
        for (const at of LATE_INJECTION_READS_MS) {
          yield* Effect.sleep(Duration.millis(at - waited))
          waited = at
          yield* readPage
        }
      })
    )
    return connectors
  })
