/**
 * What the Wallet Standard connectors of every family share (the Solana one in `walletStandard.ts`, the Bitcoin one
 * in `bitcoin.ts`): finding a feature on a registered wallet, its row's info, `standard:disconnect`, and the
 * `standard:events` change listener as a stream of account changes. No chain library, nothing at import.
 */
import type { Wallet, WalletAccount } from "@wallet-standard/base"
import { Effect, Queue, Stream } from "effect"
import type { ChainNamespace } from "../../domain/Caip"
import { readSafely } from "../../domain/readSafely"
import type { ConnectorInfo } from "../../domain/Wallet"
import { walletIcon } from "../generatedIcon"
import type { WalletEvent } from "./Connector"

/** `standard:connect` as the connectors call it. */
export type StandardConnect = {
  readonly connect: (input?: { readonly silent?: boolean }) => Promise<{ readonly accounts: ReadonlyArray<WalletAccount> }>
}
type StandardDisconnect = { readonly disconnect: () => Promise<void> }
type StandardEvents = {
  readonly on: (event: "change", listener: (properties: { readonly accounts?: ReadonlyArray<WalletAccount> }) => void) => () => void
}

/**
 * The wallet's feature `name` when it has `method` (a wallet is any script's object: nothing else is trusted); none
 * when reading it throws.
 */
export const standardFeature = <F>(wallet: Wallet, name: string, method: string): F | undefined =>
  readSafely(() => {
    const value = (wallet.features as Record<string, unknown>)[name]
    return typeof value === "object" && value !== null && typeof (value as Record<string, unknown>)[method] === "function" ? (value as F) : undefined
  }, undefined)

/** An account a wallet gave, read once: its address, chains and public key as they were then. */
export interface GivenAccount {
  readonly address: string
  readonly chains: ReadonlyArray<string>
  readonly publicKey: Uint8Array | undefined
}

// At most this many accounts of one answer are read: a wallet answering a million is not waited on.
const MAX_ACCOUNTS = 100

/**
 * The accounts of a wallet's answer (the `accounts` of `standard:connect`, of a change, or `wallet.accounts`), read
 * defensively: anything but a list gives none, and an account that is not an object with a string address, or whose
 * reads throw, is left out. The family then checks each address by its own rules.
 */
export const givenAccounts = (read: () => unknown): ReadonlyArray<GivenAccount> =>
  readSafely(() => {
    const list = read()
    if (!Array.isArray(list)) return []
    return list.slice(0, MAX_ACCOUNTS).flatMap((account: unknown): ReadonlyArray<GivenAccount> => {
      const given = readSafely((): GivenAccount | undefined => {
        if (typeof account !== "object" || account === null) return undefined
        const { address, chains, publicKey } = account as Record<string, unknown>
        if (typeof address !== "string") return undefined
        return {
          address,
          chains: Array.isArray(chains) ? chains.filter((chain): chain is string => typeof chain === "string") : [],
          publicKey: publicKey instanceof Uint8Array ? publicKey : undefined
        }
      }, undefined)
      return given === undefined ? [] : [given]
    })
  }, [])

/** The accounts a wallet answered `standard:connect` (or another call) with, read as {@link givenAccounts}. */
export const accountsOfAnswer = (answer: unknown): ReadonlyArray<GivenAccount> =>
  givenAccounts(() => (typeof answer === "object" && answer !== null ? (answer as Record<string, unknown>)["accounts"] : undefined))

/** Whether an account is one of the family's chains (`solana:`, `bitcoin:`); an account naming no chain counts. */
export const isAccountOf = (chainPrefix: string) => (account: GivenAccount): boolean =>
  account.chains.length === 0 || account.chains.some((chain) => chain.startsWith(chainPrefix))

/**
 * Makes what `make` makes of a wallet, or nothing when the wallet's getters throw: one hostile wallet is left out and
 * every other is still listed.
 */
export const fromWallet = <A>(wallet: Wallet, make: (wallet: Wallet) => A | undefined): A | undefined => readSafely(() => make(wallet), undefined)

/** The first output of a Wallet Standard method (each takes several inputs; the connectors send one). */
export const firstOutput = <A>(outputs: ReadonlyArray<A>): A => {
  const output = outputs[0]
  if (output === undefined) throw new Error("The wallet answered nothing")
  return output
}

/** The row of a Wallet Standard wallet's connector in a family. */
export const standardConnectorInfo = (wallet: Wallet, id: string, chain: ChainNamespace): ConnectorInfo => ({
  id,
  name: wallet.name,
  type: "ANNOUNCED",
  chain,
  chains: [],
  ...(typeof wallet.icon === "string" ? { imageUrl: walletIcon(wallet.icon, wallet.name, wallet.name) } : {})
})

/** `standard:disconnect` when the wallet has it; a wallet that fails to disconnect is left as it is. */
export const standardDisconnect = (wallet: Wallet): Effect.Effect<void> =>
  Effect.suspend(() => {
    const disconnect = standardFeature<StandardDisconnect>(wallet, "standard:disconnect", "disconnect")
    return disconnect === undefined ? Effect.void : Effect.ignore(Effect.tryPromise(() => disconnect.disconnect()))
  })

/** The wallet's account changes (`standard:events`), each made the family's event by `toEvent`, while the stream runs. */
export const standardAccountChanges = (wallet: Wallet, toEvent: (accounts: ReadonlyArray<GivenAccount>) => WalletEvent): Stream.Stream<WalletEvent> =>
  Stream.callback<WalletEvent>((queue) =>
    Effect.acquireRelease(
      Effect.sync(() => {
        const events = standardFeature<StandardEvents>(wallet, "standard:events", "on")
        const none = () => undefined
        if (events === undefined) return none
        const off = readSafely(
          () =>
            events.on("change", (properties) => {
              // A change of chains or features alone says nothing about the accounts.
              if (readSafely(() => properties.accounts === undefined, true)) return
              Queue.offerUnsafe(queue, toEvent(givenAccounts(() => properties.accounts)))
            }),
          none
        )
        return typeof off === "function" ? off : none
      }),
      (off) => Effect.sync(() => readSafely(off, undefined))
    )
  )
