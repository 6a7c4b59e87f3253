/**
 * What every Wallet Standard test wallet shares (`wallet-runtime/testing`): the `standard:connect` / `disconnect` /
 * `events` features over the accounts a backend gives, the error with a code that wallets throw, and the page's
 * `wallet-standard:register-wallet` handshake. The Solana and Bitcoin test wallets add their family's features on
 * top. Browser-safe (no `node:` imports, nothing touches `window` at import).
 */
import type {
  IdentifierString,
  Wallet,
  WalletAccount,
  WindowAppReadyEvent,
  WindowAppReadyEventAPI,
  WindowRegisterWalletEventCallback
} from "@wallet-standard/base"

// The three `standard:` features, typed here as `@wallet-standard/features` 1.1 defines them (that package is only a
// transitive dependency, so its types are not imported).
/** `standard:connect`: `{ silent: true }` gives the accounts only if the site is already authorised, never a prompt. */
export type StandardConnectFeature = {
  readonly "standard:connect": {
    readonly version: "1.0.0"
    readonly connect: (input?: { readonly silent?: boolean }) => Promise<{ readonly accounts: ReadonlyArray<WalletAccount> }>
  }
}
/** `standard:disconnect`: the site gives up its authorisation. */
export type StandardDisconnectFeature = {
  readonly "standard:disconnect": { readonly version: "1.0.0"; readonly disconnect: () => Promise<void> }
}
/** What a `change` event of `standard:events` carries. */
export interface StandardChangeProperties {
  readonly chains?: Wallet["chains"]
  readonly features?: Wallet["features"]
  readonly accounts?: Wallet["accounts"]
}
/** `standard:events`: `on("change", listener)` returns the unsubscribe. */
export type StandardEventsFeature = {
  readonly "standard:events": {
    readonly version: "1.0.0"
    readonly on: (event: "change", listener: (properties: StandardChangeProperties) => void) => () => void
  }
}
/** The three `standard:` features together. */
export type StandardFeatures = StandardConnectFeature & StandardDisconnectFeature & StandardEventsFeature

/**
 * An error a wallet throws, with the EIP-1193 style code wallets use: 4001 the visitor refused, 4100 the account or
 * method is not authorised, -32602 bad input, -32603 anything else.
 */
export class WalletStandardError extends Error {
  override readonly name = "WalletStandardError"
  constructor(
    readonly code: number,
    message: string
  ) {
    super(message)
  }
}

/** What {@link makeStandardAccounts} needs from a family's backend: connecting and hearing account changes. */
export interface StandardAccountsBackend<Entry> {
  readonly connect: (silent: boolean) => Promise<ReadonlyArray<Entry>>
  readonly disconnect: () => Promise<void>
  readonly onAccountsChanged: (listener: (entries: ReadonlyArray<Entry>) => void) => () => void
}

/** The accounts a site sees and the `standard:` features over them, for a family's wallet to build on. */
export interface StandardAccounts<Entry> {
  readonly accounts: () => ReadonlyArray<WalletAccount>
  /** The one account object of an entry (an app comparing accounts by identity sees the same one across events). */
  readonly accountOf: (entry: Entry) => WalletAccount
  readonly setAccounts: (entries: ReadonlyArray<Entry>) => void
  /** The address of `account` if the site may use it; else a 4100. */
  readonly authorised: (account: WalletAccount) => string
  /** Throws a -32602 unless the wallet serves `chain`. */
  readonly served: (chain: string) => void
  readonly features: StandardFeatures
}

/** The accounts state and `standard:` features of a wallet serving `chains`, whose entries become accounts through `toAccount`. */
export const makeStandardAccounts = <Entry>(
  backend: StandardAccountsBackend<Entry>,
  chains: ReadonlyArray<IdentifierString>,
  keyOf: (entry: Entry) => string,
  toAccount: (entry: Entry) => WalletAccount
): StandardAccounts<Entry> => {
  const listeners = new Set<(properties: StandardChangeProperties) => void>()
  const accountObjects = new Map<string, WalletAccount>()
  let accounts: ReadonlyArray<WalletAccount> = []

  const accountOf = (entry: Entry): WalletAccount => {
    const key = keyOf(entry)
    let account = accountObjects.get(key)
    if (account === undefined) {
      account = Object.freeze(toAccount(entry))
      accountObjects.set(key, account)
    }
    return account
  }
  const setAccounts = (entries: ReadonlyArray<Entry>): void => {
    const next = entries.map(accountOf)
    if (next.length === accounts.length && next.every((account, i) => account === accounts[i])) return
    accounts = next
    for (const listener of [...listeners]) listener({ accounts })
  }
  backend.onAccountsChanged(setAccounts)

  return {
    accounts: () => accounts,
    accountOf,
    setAccounts,
    authorised: (account) => {
      if (!accounts.some((a) => a.address === account.address)) {
        throw new WalletStandardError(4100, `The account ${account.address} is not connected to this site.`)
      }
      return account.address
    },
    served: (chain) => {
      if (!chains.includes(chain as IdentifierString)) {
        throw new WalletStandardError(-32602, `The wallet does not serve ${chain}; it serves ${chains.join(", ")}.`)
      }
    },
    features: {
      "standard:connect": {
        version: "1.0.0",
        connect: async (input) => {
          setAccounts(await backend.connect(input?.silent === true))
          return { accounts }
        }
      },
      "standard:disconnect": {
        version: "1.0.0",
        disconnect: async () => {
          await backend.disconnect()
          setAccounts([])
        }
      },
      "standard:events": {
        version: "1.0.0",
        on: (_event, listener) => {
          listeners.add(listener)
          return () => {
            listeners.delete(listener)
          }
        }
      }
    }
  }
}

/** Runs a Wallet Standard method's inputs one after the other: each is its own prompt. */
export const eachInput = async <I, O>(inputs: ReadonlyArray<I>, run: (input: I) => Promise<O>): Promise<ReadonlyArray<O>> => {
  const outputs: Array<O> = []
  for (const input of inputs) outputs.push(await run(input))
  return outputs
}

// The event a wallet dispatches to announce itself; like the app's `app-ready`, it cannot be stopped or cancelled,
// so every app on the page hears it.
class RegisterWalletEvent extends Event {
  readonly #callback: WindowRegisterWalletEventCallback
  constructor(callback: WindowRegisterWalletEventCallback) {
    super("wallet-standard:register-wallet", { bubbles: false, cancelable: false, composed: false })
    this.#callback = callback
  }
  get detail(): WindowRegisterWalletEventCallback {
    return this.#callback
  }
  override get type(): "wallet-standard:register-wallet" {
    return "wallet-standard:register-wallet"
  }
  override preventDefault(): never {
    throw new Error("preventDefault cannot be called")
  }
  override stopImmediatePropagation(): never {
    throw new Error("stopImmediatePropagation cannot be called")
  }
  override stopPropagation(): never {
    throw new Error("stopPropagation cannot be called")
  }
}

/**
 * Registers `wallet` with every Wallet Standard app of the page, whether the app loaded before (it hears
 * `wallet-standard:register-wallet`) or loads after (the wallet answers its `wallet-standard:app-ready`), as
 * `@wallet-standard/wallet`'s `registerWallet` does. Returns a function that unregisters it from every app.
 */
export const registerStandardWallet = (wallet: Wallet): (() => void) => {
  const unregister = new Set<() => void>()
  const callback: WindowRegisterWalletEventCallback = (api: WindowAppReadyEventAPI) => {
    unregister.add(api.register(wallet))
  }
  const onAppReady = (event: Event) => callback((event as WindowAppReadyEvent).detail)
  try {
    window.dispatchEvent(new RegisterWalletEvent(callback))
  } catch (error) {
    console.error("wallet-standard:register-wallet event could not be dispatched\n", error)
  }
  try {
    window.addEventListener("wallet-standard:app-ready", onAppReady)
  } catch (error) {
    console.error("wallet-standard:app-ready event listener could not be added\n", error)
  }
  return () => {
    window.removeEventListener("wallet-standard:app-ready", onAppReady)
    for (const off of unregister) off()
    unregister.clear()
  }
}
