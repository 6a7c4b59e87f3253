/**
 * What a host asks of the connected wallet: sign a message with the family in front, send an EVM transaction and
 * follow it until mined. Each step shows the visitor what happens (spec 7.7: 'Transaction started'; 'Something went
 * wrong' on failure) and fails with the catalogue's errors.
 */
import { Effect, SubscriptionRef } from "effect"
import {
  AdapterForNamespaceMissing,
  CaipNetworkOrAddressUndefined,
  ProviderNotFound,
  SignMessageFailed,
  SomethingWentWrong,
  TransactionReverted,
  UserRejected
} from "../domain/errors"
import { ChainAdapters } from "./ChainAdapter"
import { Connection } from "./Connection"
import type { Eip155Adapter, EvmReceipt, EvmTransactionRequest } from "./eip155/Eip155Adapter"
import { Networks } from "./Networks"
import { Notifications } from "./Notifications"

const activeFamily = Effect.gen(function* () {
  const connection = yield* Connection
  const state = yield* SubscriptionRef.get(connection.state)
  const namespace = state.activeNamespace
  if (namespace === undefined || state.namespaces[namespace]?.account.status !== "connected") {
    return yield* new CaipNetworkOrAddressUndefined()
  }
  return namespace
})

/** Signs a message with the wallet of the family in front. */
export const signMessage = Effect.fn("WalletActions.signMessage")(function* (message: string) {
  const namespace = yield* activeFamily
  const adapter = yield* (yield* ChainAdapters).get(namespace)
  return yield* adapter.signMessage(message)
})

const isEip155 = (adapter: { readonly namespace: string }): adapter is Eip155Adapter =>
  adapter.namespace === "eip155" && "sendTransaction" in adapter

/** Sends an EVM transaction from the connected account; 'Transaction started' once the wallet sent it. */
export const sendTransaction = Effect.fn("WalletActions.sendTransaction")(function* (request: EvmTransactionRequest) {
  const adapters = yield* ChainAdapters
  const notifications = yield* Notifications
  const adapter = yield* adapters.get("eip155")
  if (!isEip155(adapter)) return yield* new AdapterForNamespaceMissing({ namespace: "eip155" })
  const connection = yield* SubscriptionRef.get((yield* Connection).state)
  if (connection.namespaces.eip155?.account.status !== "connected") return yield* new CaipNetworkOrAddressUndefined()
  const hash = yield* adapter.sendTransaction(request).pipe(
    Effect.tapError((error) =>
      error instanceof UserRejected ? Effect.void : notifications.showSnackbar("error", "Something went wrong")
    )
  )
  yield* notifications.showSnackbar("success", "Transaction started")
  return hash
})

/** Waits for an EVM transaction on the active eip155 network; a revert fails with its reason. */
export const waitForTransaction = Effect.fn("WalletActions.waitForTransaction")(function* (hash: string) {
  const adapter = yield* (yield* ChainAdapters).get("eip155")
  if (!isEip155(adapter)) return yield* new AdapterForNamespaceMissing({ namespace: "eip155" })
  const network = yield* (yield* Networks).activeNetwork("eip155")
  const receipt: EvmReceipt = yield* adapter.waitForReceipt(hash, network)
  return receipt
})

/** Every error the wallet actions can end with. */
export type WalletActionError =
  | AdapterForNamespaceMissing
  | CaipNetworkOrAddressUndefined
  | ProviderNotFound
  | SignMessageFailed
  | SomethingWentWrong
  | TransactionReverted
  | UserRejected
