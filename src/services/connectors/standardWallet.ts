/**
 * What the Wallet Standard connectors of every family share (the Solana one in `walletStandard.ts`, the Bitcoin one
 * in `bitcoin.ts`): finding a feature on a registered wallet, its row's info, `standard:disconnect`, and the
 * `standard:events` change listener as a stream of account changes. No chain library, nothing at import.
 */
import type { Wallet, WalletAccount } from "@wallet-standard/base"
import { Effect, Queue, Stream } from "effect"
import type { ChainNamespace } from "../../domain/Caip"
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

/** The wallet's feature `name` when it has `method` (a wallet is any script's object: nothing else is trusted). */
export const standardFeature = <F>(wallet: Wallet, name: string, method: string): F | undefined => {
  const value = (wallet.features as Record<string, unknown>)[name]
  return typeof value === "object" && value !== null && typeof (value as Record<string, unknown>)[method] === "function" ? (value as F) : undefined
}

/** Whether an account is one of the family's chains (`solana:`, `bitcoin:`); an account naming no chain counts. */
export const isAccountOf = (chainPrefix: string) => (account: WalletAccount): boolean =>
  typeof account.address === "string" &&
  (!Array.isArray(account.chains) || account.chains.length === 0 || account.chains.some((chain) => chain.startsWith(chainPrefix)))

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
    return disconnect === undefined ? Effect.void : Effect.promise(() => disconnect.disconnect().catch(() => undefined))
  })

/** The wallet's account changes (`standard:events`), each made the family's event by `toEvent`, while the stream runs. */
export const standardAccountChanges = (wallet: Wallet, toEvent: (accounts: ReadonlyArray<WalletAccount>) => WalletEvent): Stream.Stream<WalletEvent> =>
  Stream.callback<WalletEvent>((queue) =>
    Effect.acquireRelease(
      Effect.sync(() => {
        const events = standardFeature<StandardEvents>(wallet, "standard:events", "on")
        return events === undefined
          ? () => undefined
          : events.on("change", (properties) => {
              // A change of chains or features alone says nothing about the accounts.
              if (properties.accounts === undefined) return
              Queue.offerUnsafe(queue, toEvent(properties.accounts))
            })
      }),
      (off) => Effect.sync(off)
    )
  )
