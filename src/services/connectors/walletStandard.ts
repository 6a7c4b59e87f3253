/**
 * Solana wallets of the page as connectors, found through the Wallet Standard (`@wallet-standard/app`): every
 * registered wallet with `standard:connect` and a Solana signing feature, live as wallets register and unregister.
 * Each hands the solana adapter a SolanaProvider over its `solana:*` features. Finding them loads no chain library.
 */
import { getWallets } from "@wallet-standard/app"
import type { Wallet, WalletAccount } from "@wallet-standard/base"
import { Effect, Queue, type Scope, Stream, SubscriptionRef } from "effect"
import type { Account } from "../../domain/Account"
import { SomethingWentWrong } from "../../domain/errors"
import type { CaipNetwork } from "../../domain/Network"
import { type ConnectorInfo, walletKeyOf } from "../../domain/Wallet"
import { fromWalletError } from "../../domain/walletErrors"
import type { SolanaSendOptions } from "../../domain/Requests"
import { walletIcon } from "../generatedIcon"
import type { SolanaProvider } from "../solana/provider"
import type { Connector, FamilySession, WalletEvent } from "./Connector"
import type { ConnectorSource } from "./Connectors"

/** The id of a Wallet Standard wallet's connector (it has no rdns: its name identifies it). */
export const walletStandardConnectorId = (name: string): string => `wallet-standard:${walletKeyOf({ name })}`

type ConnectFeature = { readonly connect: (input?: { readonly silent?: boolean }) => Promise<{ readonly accounts: ReadonlyArray<WalletAccount> }> }
type DisconnectFeature = { readonly disconnect: () => Promise<void> }
type EventsFeature = { readonly on: (event: "change", listener: (properties: { readonly accounts?: ReadonlyArray<WalletAccount> }) => void) => () => void }
type SignMessageFeature = {
  readonly signMessage: (
    ...inputs: ReadonlyArray<{ readonly account: WalletAccount; readonly message: Uint8Array }>
  ) => Promise<ReadonlyArray<{ readonly signature: Uint8Array }>>
}
type SignTransactionFeature = {
  readonly signTransaction: (
    ...inputs: ReadonlyArray<{ readonly account: WalletAccount; readonly transaction: Uint8Array; readonly chain?: string }>
  ) => Promise<ReadonlyArray<{ readonly signedTransaction: Uint8Array }>>
}
type SignAndSendFeature = {
  readonly signAndSendTransaction: (
    ...inputs: ReadonlyArray<{
      readonly account: WalletAccount
      readonly transaction: Uint8Array
      readonly chain: string
      readonly options?: SolanaSendOptions
    }>
  ) => Promise<ReadonlyArray<{ readonly signature: Uint8Array }>>
}

const feature = <F>(wallet: Wallet, name: string, method: string): F | undefined => {
  const value = (wallet.features as Record<string, unknown>)[name]
  return typeof value === "object" && value !== null && typeof (value as Record<string, unknown>)[method] === "function"
    ? (value as F)
    : undefined
}

const isSolanaAccount = (account: WalletAccount): boolean =>
  typeof account.address === "string" && (!Array.isArray(account.chains) || account.chains.length === 0 || account.chains.some((chain) => chain.startsWith("solana:")))

const accountsOf = (accounts: ReadonlyArray<WalletAccount> | undefined): ReadonlyArray<Account> =>
  (accounts ?? []).filter(isSolanaAccount).map((account) => ({ address: account.address, type: "eoa" as const }))

/** Whether a registered wallet is one the solana family can use: it connects and signs Solana. */
export const isSolanaWallet = (wallet: Wallet): boolean =>
  typeof wallet.name === "string" &&
  feature<ConnectFeature>(wallet, "standard:connect", "connect") !== undefined &&
  (feature<SignMessageFeature>(wallet, "solana:signMessage", "signMessage") !== undefined ||
    feature<SignTransactionFeature>(wallet, "solana:signTransaction", "signTransaction") !== undefined)

/** The wallet's `solana:*` features as a SolanaProvider. */
export const walletStandardProvider = (wallet: Wallet): SolanaProvider => {
  const accountOf = (address: string): WalletAccount => {
    const account = wallet.accounts.find((a) => a.address === address)
    if (account === undefined) throw new Error(`The wallet no longer has the account ${address}`)
    return account
  }
  const signMessage = feature<SignMessageFeature>(wallet, "solana:signMessage", "signMessage")
  const signTransaction = feature<SignTransactionFeature>(wallet, "solana:signTransaction", "signTransaction")
  const signAndSend = feature<SignAndSendFeature>(wallet, "solana:signAndSendTransaction", "signAndSendTransaction")
  const first = <A>(outputs: ReadonlyArray<A>): A => {
    const output = outputs[0]
    if (output === undefined) throw new Error("The wallet answered nothing")
    return output
  }
  return {
    signMessage: async (address, message) => {
      if (signMessage === undefined) throw Object.assign(new Error("This wallet cannot sign messages"), { code: 4200 })
      return first(await signMessage.signMessage({ account: accountOf(address), message })).signature
    },
    signTransaction:
      signTransaction === undefined
        ? undefined
        : async (address, transaction, chain) =>
            first(await signTransaction.signTransaction({ account: accountOf(address), transaction, chain })).signedTransaction,
    signAndSendTransaction:
      signAndSend === undefined
        ? undefined
        : async (address, transaction, chain, options) =>
            first(
              await signAndSend.signAndSendTransaction({
                account: accountOf(address),
                transaction,
                chain,
                ...(options !== undefined ? { options } : {})
              })
            ).signature,
    signAllTransactions:
      signTransaction === undefined
        ? undefined
        : async (address, transactions, chain) =>
            (
              await signTransaction.signTransaction(
                ...transactions.map((transaction) => ({ account: accountOf(address), transaction, chain }))
              )
            ).map((output) => output.signedTransaction)
  }
}

/** A connector over one Wallet Standard wallet's Solana side. */
export const makeWalletStandardConnector = (wallet: Wallet): Connector => {
  const info: ConnectorInfo = {
    id: walletStandardConnectorId(wallet.name),
    name: wallet.name,
    type: "ANNOUNCED",
    chain: "solana",
    chains: [],
    ...(typeof wallet.icon === "string" ? { imageUrl: walletIcon(wallet.icon, wallet.name, wallet.name) } : {})
  }
  const provider = walletStandardProvider(wallet)
  const open = (silent: boolean, networks: ReadonlyArray<CaipNetwork>) =>
    Effect.gen(function* () {
      const connect = feature<ConnectFeature>(wallet, "standard:connect", "connect")
      const network = networks.find((n) => n.chainNamespace === "solana")
      if (connect === undefined || network === undefined) return []
      const { accounts } = yield* Effect.tryPromise({
        try: () => connect.connect(silent ? { silent: true } : undefined),
        catch: fromWalletError
      })
      const solanaAccounts = accountsOf(accounts)
      if (solanaAccounts.length === 0) {
        if (silent) return []
        return yield* new SomethingWentWrong({ reason: "The wallet gave no Solana account" })
      }
      // A Solana wallet has no chain of its own: it is used on the network the visitor is on.
      const session: FamilySession = { accounts: solanaAccounts, chainId: network.id, provider: { namespace: "solana", provider } }
      return [session]
    })
  return {
    info,
    namespaces: ["solana"],
    memberIds: [],
    connect: (networks) => open(false, networks).pipe(Effect.withSpan("WalletStandardConnector.connect")),
    reconnect: (networks) => open(true, networks).pipe(Effect.withSpan("WalletStandardConnector.reconnect")),
    disconnect: Effect.suspend(() => {
      const disconnect = feature<DisconnectFeature>(wallet, "standard:disconnect", "disconnect")
      return disconnect === undefined ? Effect.void : Effect.promise(() => disconnect.disconnect().catch(() => undefined))
    }).pipe(Effect.withSpan("WalletStandardConnector.disconnect")),
    events: Stream.callback<WalletEvent>((queue) =>
      Effect.acquireRelease(
        Effect.sync(() => {
          const events = feature<EventsFeature>(wallet, "standard:events", "on")
          return events === undefined
            ? () => undefined
            : events.on("change", (properties) => {
                // A change of chains or features alone says nothing about the accounts.
                if (properties.accounts === undefined) return
                Queue.offerUnsafe(queue, { _tag: "AccountsChanged", namespace: "solana", accounts: accountsOf(properties.accounts) })
              })
        }),
        (off) => Effect.sync(off)
      )
    )
  }
}

/** The page's Solana wallets, live for as long as the scope lives; empty off the browser. */
export const browserSolanaSource: Effect.Effect<ConnectorSource, never, Scope.Scope> = Effect.gen(function* () {
  const connectors = yield* SubscriptionRef.make<ReadonlyArray<Connector>>([])
  if (typeof window === "undefined") return connectors
  const wallets = getWallets()
  const made = new Map<Wallet, Connector>()
  const publish = () => {
    const list = wallets.get().filter(isSolanaWallet)
    for (const wallet of made.keys()) if (!list.includes(wallet)) made.delete(wallet)
    const next = list.map((wallet) => {
      const existing = made.get(wallet)
      if (existing !== undefined) return existing
      const connector = makeWalletStandardConnector(wallet)
      made.set(wallet, connector)
      return connector
    })
    Effect.runSync(SubscriptionRef.set(connectors, next))
  }
  yield* Effect.acquireRelease(
    Effect.sync(() => [wallets.on("register", publish), wallets.on("unregister", publish)]),
    (offs) => Effect.sync(() => offs.forEach((off) => off()))
  )
  publish()
  return connectors
})
