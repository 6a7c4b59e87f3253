/**
 * The hooks a React host uses: the modal, the account in front, the network, the connection status, disconnect.
 * State comes from atoms; actions run on the runtime and return promises the host can await.
 */
import { Effect } from "effect"
import { useCallback, useState } from "react"
import type { AccountState, ConnectionStatus } from "../../domain/Account"
import type { ChainNamespace } from "../../domain/Caip"
import type { ConnectorInfo } from "../../domain/Wallet"
import type { CaipNetwork } from "../../domain/Network"
import type { ModalView } from "../../domain/rules"
import { Connection } from "../../services/Connection"
import { currentRoute, Modal, type RouteData } from "../../services/Modal"
import type { EvmReceipt, EvmTransactionRequest } from "../../services/eip155/Eip155Adapter"
import { Networks } from "../../services/Networks"
import { sendTransaction, signMessage, waitForTransaction } from "../../services/WalletActions"
import { useAtomValue } from "../atom-react/hooks"
import { activeAccountAtom, connectionAtom, connectorsAtom } from "../atoms/connection"
import { modalAtom } from "../atoms/modal"
import { activeNetworkAtom, requestedNetworksAtom } from "../atoms/networks"
import { useWalletRuntime } from "./WalletRuntimeProvider"

/** What {@link useModal} gives. */
export interface UseModal {
  readonly isOpen: boolean
  readonly view: ModalView | undefined
  readonly open: (request?: { readonly view?: ModalView; readonly data?: RouteData }) => Promise<void>
  readonly close: () => Promise<void>
}

/** The modal: whether it is open, its view, and open/close. */
export function useModal(): UseModal {
  const runtime = useWalletRuntime()
  const state = useAtomValue(modalAtom)
  const open = useCallback(
    (request?: { readonly view?: ModalView; readonly data?: RouteData }) =>
      runtime.run(Effect.flatMap(Modal, (modal) => modal.open(request))),
    [runtime]
  )
  const close = useCallback(() => runtime.run(Effect.flatMap(Modal, (modal) => modal.close)), [runtime])
  return {
    isOpen: state?.open ?? false,
    view: state?.open === true ? currentRoute(state).view : undefined,
    open,
    close
  }
}

/** What {@link useAccount} gives: the account state plus the family and a connected flag. */
export interface UseAccount extends AccountState {
  readonly namespace: ChainNamespace | undefined
  readonly isConnected: boolean
}

/** The account in front (the family used last). */
export function useAccount(): UseAccount {
  const account = useAtomValue(activeAccountAtom)
  return { ...account, isConnected: account.status === "connected" }
}

/** The connection status of a family, or of the family in front. */
export function useConnectionStatus(namespace?: ChainNamespace): ConnectionStatus {
  return useAtomValue(connectionAtom, (state) => {
    const family = namespace ?? state.activeNamespace
    return (family === undefined ? undefined : state.namespaces[family]?.account.status) ?? "disconnected"
  })
}

/** What {@link useNetwork} gives. */
export interface UseNetwork {
  /** The network in front; undefined only while the runtime starts. */
  readonly network: CaipNetwork | undefined
  readonly networks: ReadonlyArray<CaipNetwork>
  /** Switches by CAIP-2 id; rejects with 'Network with ID … not found', 'Chain is not supported'… */
  readonly switchNetwork: (caipNetworkId: string) => Promise<CaipNetwork>
}

/** The active network, the requested networks, and switching. */
export function useNetwork(): UseNetwork {
  const runtime = useWalletRuntime()
  const network = useAtomValue(activeNetworkAtom)
  const networks = useAtomValue(requestedNetworksAtom)
  const switchNetwork = useCallback(
    (caipNetworkId: string) => runtime.run(Effect.flatMap(Networks, (n) => n.switchNetwork(caipNetworkId))),
    [runtime]
  )
  return { network, networks, switchNetwork }
}

/** Disconnect: a family, or every connected one; rejects with 'Failed to disconnect'. */
export function useDisconnect(): (namespace?: ChainNamespace) => Promise<ReadonlyArray<ChainNamespace>> {
  const runtime = useWalletRuntime()
  return useCallback(
    (namespace?: ChainNamespace) => runtime.run(Effect.flatMap(Connection, (c) => c.disconnect(namespace))),
    [runtime]
  )
}

/** The state of an action a hook runs: idle, pending, done with a value, or failed with an error. */
export type ActionState<A> =
  | { readonly status: "idle" }
  | { readonly status: "pending" }
  | { readonly status: "success"; readonly data: A }
  | { readonly status: "error"; readonly error: Error }

const useAction = <Args extends ReadonlyArray<unknown>, A>(
  run: (...args: Args) => Promise<A>
): readonly [ActionState<A>, (...args: Args) => Promise<A>] => {
  const [state, setState] = useState<ActionState<A>>({ status: "idle" })
  const start = useCallback(
    async (...args: Args) => {
      setState({ status: "pending" })
      try {
        const data = await run(...args)
        setState({ status: "success", data })
        return data
      } catch (error) {
        setState({ status: "error", error: error instanceof Error ? error : new Error(String(error)) })
        throw error
      }
    },
    [run]
  )
  return [state, start]
}

/** Signs a message with the connected wallet; rejects with 'User rejected the request.', 'Sign message failed'… */
export function useSignMessage(): ActionState<string> & { readonly signMessage: (message: string) => Promise<string> } {
  const runtime = useWalletRuntime()
  const run = useCallback((message: string) => runtime.run(signMessage(message)), [runtime])
  const [state, start] = useAction(run)
  return { ...state, signMessage: start }
}

/**
 * Sends an EVM transaction and waits until it is mined: `hash` as soon as the wallet sent it, then the receipt;
 * a revert rejects with its decoded reason (or 'unknown reason').
 */
export function useSendTransaction(): ActionState<EvmReceipt> & {
  readonly hash: string | undefined
  readonly sendTransaction: (request: EvmTransactionRequest) => Promise<EvmReceipt>
} {
  const runtime = useWalletRuntime()
  const [hash, setHash] = useState<string | undefined>(undefined)
  const run = useCallback(
    async (request: EvmTransactionRequest) => {
      setHash(undefined)
      const sent = await runtime.run(sendTransaction(request))
      setHash(sent)
      return runtime.run(waitForTransaction(sent))
    },
    [runtime]
  )
  const [state, start] = useAction(run)
  return { ...state, hash, sendTransaction: start }
}

/** What {@link useWallet} gives: the connected wallet with its account and network, and the actions on it. */
export interface UseWallet {
  readonly status: ConnectionStatus
  readonly isConnected: boolean
  /** The wallet in use (name, icon, type), while connected. */
  readonly wallet: Pick<ConnectorInfo, "id" | "name" | "type" | "imageUrl"> | undefined
  readonly account: UseAccount
  readonly network: CaipNetwork | undefined
  /** Opens the modal on the right view (Connect, or Account when connected). */
  readonly open: () => Promise<void>
  readonly disconnect: () => Promise<ReadonlyArray<ChainNamespace>>
}

/** Everything about the wallet in front in one hook, for hosts that build their own wallet UI. */
export function useWallet(): UseWallet {
  const account = useAccount()
  const { open } = useModal()
  const { network } = useNetwork()
  const disconnect = useDisconnect()
  const connection = useAtomValue(connectionAtom, (state) =>
    state.activeNamespace === undefined ? undefined : state.namespaces[state.activeNamespace]?.connector
  )
  const connectors = useAtomValue(connectorsAtom)
  const known = connection === undefined ? undefined : connectors.find((c) => c.id === connection.id)
  const wallet =
    account.isConnected && connection !== undefined
      ? {
          id: connection.id,
          type: connection.type,
          ...(known?.name !== undefined ? { name: known.name } : {}),
          ...(known?.imageUrl !== undefined ? { imageUrl: known.imageUrl } : {})
        }
      : undefined
  return {
    status: account.status,
    isConnected: account.isConnected,
    wallet,
    account,
    network,
    open: useCallback(() => open(), [open]),
    disconnect: useCallback(() => disconnect(), [disconnect])
  }
}
