/**
 * Solana wallets of the page as connectors, found through the Wallet Standard (`@wallet-standard/app`): every
 * registered wallet with `standard:connect` and a Solana signing feature, live as wallets register and unregister.
 * Each hands the solana adapter a SolanaProvider over its `solana:*` features. Finding them loads no chain library.
 */
import { getWallets } from "@wallet-standard/app"
import type { Wallet, WalletAccount } from "@wallet-standard/base"
import { Effect, type Scope, SubscriptionRef } from "effect"
import type { Account } from "../../domain/Account"
import { fromBase58 } from "../../domain/encoding"
import { SomethingWentWrong } from "../../domain/errors"
import type { CaipNetwork } from "../../domain/Network"
import { walletKeyOf } from "../../domain/Wallet"
import { fromWalletError } from "../../domain/walletErrors"
import type { SolanaSendOptions } from "../../domain/Requests"
import type { SolanaProvider } from "../solana/provider"
import type { Connector, FamilySession, WalletEvent } from "./Connector"
import type { ConnectorSource } from "./Connectors"
import {
  accountsOfAnswer,
  firstOutput,
  fromWallet,
  type GivenAccount,
  isAccountOf,
  type StandardConnect,
  standardAccountChanges,
  standardConnectorInfo,
  standardDisconnect,
  standardFeature as feature
} from "./standardWallet"

/** The id of a Wallet Standard wallet's connector (it has no rdns: its name identifies it). */
export const walletStandardConnectorId = (name: string): string => `wallet-standard:${walletKeyOf({ name })}`

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

const isSolanaAccount = isAccountOf("solana:")

/** A Solana address (spec 5): 32 to 44 base58 characters that decode to a 32-byte public key. */
export const isSolanaPublicKey = (address: string): boolean =>
  address.length >= 32 && address.length <= 44 && fromBase58(address)?.length === 32

// The Solana accounts of an answer: each address decoded by Solana's rules before it is kept ("abc", markup and
// other garbage are left out).
const accountsOf = (accounts: ReadonlyArray<GivenAccount>): ReadonlyArray<Account> =>
  accounts.filter((account) => isSolanaAccount(account) && isSolanaPublicKey(account.address)).map((account) => ({ address: account.address, type: "eoa" as const }))

/** Whether a registered wallet is one the solana family can use: it connects and signs Solana (false when its getters throw). */
export const isSolanaWallet = (wallet: Wallet): boolean =>
  fromWallet(
    wallet,
    () =>
      typeof wallet.name === "string" &&
      feature<StandardConnect>(wallet, "standard:connect", "connect") !== undefined &&
      (feature<SignMessageFeature>(wallet, "solana:signMessage", "signMessage") !== undefined ||
        feature<SignTransactionFeature>(wallet, "solana:signTransaction", "signTransaction") !== undefined)
  ) === true

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
  const first = firstOutput
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
  const info = standardConnectorInfo(wallet, walletStandardConnectorId(wallet.name), "solana")
  const provider = walletStandardProvider(wallet)
  const open = (silent: boolean, networks: ReadonlyArray<CaipNetwork>) =>
    Effect.gen(function* () {
      const connect = feature<StandardConnect>(wallet, "standard:connect", "connect")
      const network = networks.find((n) => n.chainNamespace === "solana")
      if (connect === undefined || network === undefined) return []
      const answer: unknown = yield* Effect.tryPromise({
        try: () => connect.connect(silent ? { silent: true } : undefined),
        catch: fromWalletError
      })
      const solanaAccounts = accountsOf(accountsOfAnswer(answer))
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
    disconnect: standardDisconnect(wallet).pipe(Effect.withSpan("WalletStandardConnector.disconnect")),
    events: standardAccountChanges(wallet, (accounts): WalletEvent => ({ _tag: "AccountsChanged", namespace: "solana", accounts: accountsOf(accounts) }))
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
    // Each wallet is made on its own: one whose getters throw is left out, the others are listed.
    const next = list.flatMap((wallet) => {
      const connector = made.get(wallet) ?? fromWallet(wallet, makeWalletStandardConnector)
      if (connector === undefined) return []
      made.set(wallet, connector)
      return [connector]
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
