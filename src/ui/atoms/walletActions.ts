/**
 * Atoms of the wallet actions hosts call through the hooks: connect, sign, send, wait, balances, raw requests. Each
 * is a family keyed by the calling hook, so two components signing at once never cancel each other.
 */
import { Effect } from "effect"
import * as Atom from "effect/reactivity/Atom"
import type { ChainNamespace } from "../../domain/Caip"
import type { SendRequest } from "../../services/ChainAdapter"
import { ConnectFlow } from "../../services/ConnectFlow"
import { WalletActions } from "../../services/WalletActions"
import { walletRuntimeAtom } from "./runtime"

/** Connects a wallet for a host, by connector id, rdns or name. */
export const connectWalletFn = Atom.family((_key: string) =>
  walletRuntimeAtom.fn((wallet: string) => Effect.flatMap(ConnectFlow, (flow) => flow.connect(wallet)))
)

/** Signs a message with the wallet in front (or of a family). */
export const signMessageFn = Atom.family((_key: string) =>
  walletRuntimeAtom.fn((request: { readonly message: string; readonly namespace?: ChainNamespace | undefined }) =>
    Effect.flatMap(WalletActions, (actions) => actions.signMessage(request.message, request.namespace))
  )
)

/** Sends a transaction; its hash (EVM) or signature (Solana) once the wallet sent it. */
export const sendFn = Atom.family((_key: string) =>
  walletRuntimeAtom.fn((request: { readonly transaction: SendRequest; readonly namespace?: ChainNamespace | undefined }) =>
    Effect.flatMap(WalletActions, (actions) => actions.send(request.transaction, request.namespace))
  )
)

/** Waits until a sent transaction is final (25 s at most). */
export const waitForTransactionFn = Atom.family((_key: string) =>
  walletRuntimeAtom.fn((request: { readonly hash: string; readonly namespace?: ChainNamespace | undefined }) =>
    Effect.flatMap(WalletActions, (actions) => actions.waitForTransaction(request.hash, request.namespace))
  )
)

/** A raw request to the wallet in front (or of a family). */
export const walletRequestFn = Atom.family((_key: string) =>
  walletRuntimeAtom.fn(
    (request: { readonly method: string; readonly params?: unknown; readonly namespace?: ChainNamespace | undefined }) =>
      Effect.flatMap(WalletActions, (actions) => actions.request(request.method, request.params, request.namespace))
  )
)
