/**
 * The hooks a React host uses: the modal, the account in front, the network, the connection status, connect and
 * disconnect, and the wallet actions of every family (sign, send, balances, raw requests). State comes from atoms;
 * actions are atom actions whose promises the host can await — a failure rejects with the typed error of the
 * catalogue (its message is what to show).
 */
import { Cause } from "effect"
import * as AsyncResult from "effect/reactivity/AsyncResult"
import { useCallback, useId } from "react"
import type { AccountState, ConnectionStatus } from "../../domain/Account"
import type { ChainNamespace } from "../../domain/Caip"
import type { CaipNetwork } from "../../domain/Network"
import type { ModalView } from "../../domain/rules"
import type { ConnectorInfo } from "../../domain/Wallet"
import type { ChainBalance, SendingNamespace, SendRequest, SendRequests, TransactionConfirmation } from "../../services/ChainAdapter"
import type { ConnectedWallet } from "../../services/Connection"
import { currentRoute, type Route } from "../../services/Modal"
import { useAtomPromise, useAtomSet, useAtomValue } from "../atom-react/hooks"
import { chainBalancesAtom } from "../atoms/account"
import { activeAccountAtom, connectionAtom, connectorsAtom, disconnectFn } from "../atoms/connection"
import { closeModalFn, modalAtom, openModalFn } from "../atoms/modal"
import { activeNetworkAtom, requestedNetworksAtom, switchNetworkFn } from "../atoms/networks"
import { connectWalletFn, sendFn, signMessageFn, waitForTransactionFn, walletRequestFn } from "../atoms/walletActions"
import * as Atom from "effect/reactivity/Atom"
import type { ThemeMode } from "../../domain/Account"
import type { ThemeVariables } from "../../domain/Options"
import { setThemeModeFn, setThemeVariablesFn } from "../atoms/theme"
import { useThemeMode, useThemeState } from "../theme/useTheme"

/** What {@link useModal} gives. */
export interface UseModal {
  readonly isOpen: boolean
  readonly view: ModalView | undefined
  /** Opens the modal: on the view the rules choose, or on `route` (`{ view: "Networks" }`). */
  readonly open: (route?: Route) => Promise<void>
  readonly close: () => Promise<void>
}

/** The modal: whether it is open, its view, and open/close. */
export function useModal(): UseModal {
  const state = useAtomValue(modalAtom)
  const open = useAtomPromise(openModalFn)
  const close = useAtomPromise(closeModalFn)
  return {
    isOpen: state?.open ?? false,
    view: state?.open === true ? currentRoute(state).view : undefined,
    open: useCallback((route?: Route) => open(route), [open]),
    close: useCallback(() => close(undefined), [close])
  }
}

/** What {@link useAccount} gives: the account state plus the family and a connected flag. */
export interface UseAccount extends AccountState {
  readonly namespace: ChainNamespace | undefined
  readonly isConnected: boolean
}

/** The account in front (the family used last, or switched to). */
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
  /** Switches by CAIP-2 id (a network of another family puts that family in front); rejects with 'Network with ID … not found', 'Chain is not supported'… */
  readonly switchNetwork: (caipNetworkId: string) => Promise<CaipNetwork>
}

/** The active network, the requested networks, and switching. */
export function useNetwork(): UseNetwork {
  const network = useAtomValue(activeNetworkAtom)
  const networks = useAtomValue(requestedNetworksAtom)
  const switchNetwork = useAtomPromise(switchNetworkFn)
  return { network, networks, switchNetwork }
}

/** Disconnect: a family (with every family its wallet serves), or every connected one; rejects with 'Failed to disconnect'. */
export function useDisconnect(): (namespace?: ChainNamespace) => Promise<ReadonlyArray<ChainNamespace>> {
  const disconnect = useAtomPromise(disconnectFn)
  return useCallback((namespace?: ChainNamespace) => disconnect(namespace), [disconnect])
}

/** The state of an action a hook runs: idle, pending, done with a value, or failed with an error. */
export type ActionState<A> =
  | { readonly status: "idle" }
  | { readonly status: "pending" }
  | { readonly status: "success"; readonly data: A }
  | { readonly status: "error"; readonly error: Error }

const stateOf = <A, E>(result: AsyncResult.AsyncResult<A, E>): ActionState<A> => {
  if (result.waiting) return { status: "pending" }
  if (AsyncResult.isSuccess(result)) return { status: "success", data: result.value }
  if (AsyncResult.isFailure(result)) {
    if (Cause.hasInterruptsOnly(result.cause)) return { status: "idle" }
    const error = Cause.squash(result.cause)
    return { status: "error", error: error instanceof Error ? error : new Error(String(error)) }
  }
  return { status: "idle" }
}

/** An action atom of this hook instance (each caller its own, so two never cancel each other) and its state. */
function useOwnAction<Arg, A, E>(family: (key: string) => Atom.AtomResultFn<Arg, A, E>) {
  const atom = family(useId())
  return { state: useAtomValue(atom, stateOf), call: useAtomPromise(atom) }
}

/** What {@link useConnect} gives. */
export type UseConnect = ActionState<ConnectedWallet> & {
  /**
   * Connects a wallet by connector id, rdns or name (`"walletConnect"` shows the QR code in the modal); resolves with
   * each family's account, rejects with the wallet's refusal, 'Provider not found.' or a cancellation.
   */
  readonly connect: (wallet: string) => Promise<ConnectedWallet>
  /** Stops a connect still waiting on the wallet. */
  readonly cancel: () => void
}

/** Connects a wallet programmatically, without the wallet list. */
export function useConnect(): UseConnect {
  const atom = connectWalletFn(useId())
  const state = useAtomValue(atom, stateOf)
  const connect = useAtomPromise(atom)
  const set = useAtomSet(atom)
  const cancel = useCallback(() => set(Atom.Interrupt), [set])
  return { ...state, connect, cancel }
}

/** Signs a message with the connected wallet of the family in front (or of `namespace`): 0x-hex on EVM, base58 on Solana. */
export function useSignMessage(namespace?: ChainNamespace): ActionState<string> & { readonly signMessage: (message: string) => Promise<string> } {
  const { state, call } = useOwnAction(signMessageFn)
  const signMessage = useCallback((message: string) => call({ message, namespace }), [call, namespace])
  return { ...state, signMessage }
}

/** What {@link useSendTransaction} gives, for the requests of family `N`. */
export type UseSendTransaction<R> = ActionState<TransactionConfirmation> & {
  /** The transaction hash (EVM) or signature (Solana) as soon as the wallet sent it. */
  readonly hash: string | undefined
  /** Sends, then waits until the transaction is final; a failed one rejects with its reason. */
  readonly sendTransaction: (request: R) => Promise<TransactionConfirmation>
}

/**
 * Sends from the connected wallet of the family in front — or of `namespace`, typed for that family: EVM
 * `{ to, value?, data?, gas?, token? }`, Solana `{ to, value, token? }` (lamports; `token` an SPL mint) — and
 * waits until the transaction is final.
 * @example const { sendTransaction } = useSendTransaction("solana"); await sendTransaction({ to, value: 1_000_000n })
 */
export function useSendTransaction(): UseSendTransaction<SendRequest>
export function useSendTransaction<N extends SendingNamespace>(namespace: N): UseSendTransaction<SendRequests[N]>
export function useSendTransaction(namespace?: SendingNamespace): UseSendTransaction<SendRequest> {
  const send = useOwnAction(sendFn)
  const wait = useOwnAction(waitForTransactionFn)
  const sendTransaction = useCallback(
    (transaction: SendRequest) => send.call({ transaction, namespace }).then((hash) => wait.call({ hash, namespace })),
    [send.call, wait.call, namespace]
  )
  const hash = send.state.status === "success" ? send.state.data : undefined
  const state: ActionState<TransactionConfirmation> =
    send.state.status === "pending" || send.state.status === "error" ? send.state : wait.state
  return { ...state, hash, sendTransaction }
}

/** What {@link useBalances} gives. */
export type UseBalances = ActionState<ReadonlyArray<ChainBalance>>

/**
 * The native and token balances of the account in front (or of `namespace`), read from its chain (EVM: the native
 * currency and the host's `tokens`; Solana: SOL and every SPL token); read again after the visitor's own
 * transactions and when the account or network changes.
 */
export function useBalances(namespace?: ChainNamespace): UseBalances {
  return useAtomValue(chainBalancesAtom(namespace ?? "front"), stateOf)
}

/** A raw request to the connected wallet (`eth_signTypedData_v4`, `wallet_getCapabilities`, `solana_signTransaction`…). */
export function useWalletRequest(namespace?: ChainNamespace): ActionState<unknown> & {
  readonly request: (method: string, params?: unknown) => Promise<unknown>
} {
  const { state, call } = useOwnAction(walletRequestFn)
  const request = useCallback((method: string, params?: unknown) => call({ method, params, namespace }), [call, namespace])
  return { ...state, request }
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

/** What {@link useTheme} gives. */
export interface UseTheme {
  /** The mode the modal shows now: the host's, or the visitor's system preference when the host set none. */
  readonly themeMode: ThemeMode
  /** The mode the host set; `undefined` while following the system preference. */
  readonly requestedThemeMode: ThemeMode | undefined
  readonly themeVariables: ThemeVariables | undefined
  /** Sets the mode; `undefined` follows the visitor's system preference again. */
  readonly setThemeMode: (themeMode: ThemeMode | undefined) => Promise<void>
  /** Replaces the `--wr-*` overrides; rejects with `InvalidOptions` for an unknown name (and changes nothing). */
  readonly setThemeVariables: (themeVariables: ThemeVariables) => Promise<void>
}

/**
 * The modal's theme, for a host's own theme toggle: the modal and the host buttons follow at once.
 * @example const { themeMode, setThemeMode } = useTheme(); setThemeMode(themeMode === "dark" ? "light" : "dark")
 */
export function useTheme(): UseTheme {
  const theme = useThemeState()
  const themeMode = useThemeMode(theme.themeMode)
  const setMode = useAtomPromise(setThemeModeFn)
  const setVariables = useAtomPromise(setThemeVariablesFn)
  return {
    themeMode,
    requestedThemeMode: theme.themeMode,
    themeVariables: theme.themeVariables,
    setThemeMode: useCallback((mode: ThemeMode | undefined) => setMode(mode), [setMode]),
    setThemeVariables: useCallback((variables: ThemeVariables) => setVariables(variables), [setVariables])
  }
}
