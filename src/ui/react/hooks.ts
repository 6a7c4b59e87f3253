/**
 * The hooks a React host uses: the modal, the account in front, the network, the connection status, connect and
 * disconnect, and the wallet actions of every family (sign, send, balances, raw requests). State comes from atoms;
 * actions are atom actions whose promises the host can await — a failure rejects with the typed error of the
 * catalogue (its message is what to show).
 */
import type * as AsyncResult from "effect/reactivity/AsyncResult"
import type * as Atom from "effect/reactivity/Atom"
import { useCallback, useId } from "react"
import type { AccountState, ConnectionStatus, ThemeMode } from "../../domain/Account"
import type { ChainNamespace } from "../../domain/Caip"
import type { CaipNetwork } from "../../domain/Network"
import type { ThemeVariables } from "../../domain/Options"
import type { ModalView } from "../../domain/rules"
import type { ConnectorInfo } from "../../domain/Wallet"
import type { ChainBalance, SendingNamespace, SendRequest, SendRequests, TransactionConfirmation } from "../../services/ChainAdapter"
import type { ConnectionState } from "../../services/Connection"
import type { ConnectResult } from "../../services/ConnectFlow"
import type { ModalState, Route } from "../../services/Modal"
import type { SiwxState } from "../../services/Siwx/Siwx"
import type { SiwxSession } from "../../domain/Siwx"
import { useThemeMode, useThemeState } from "../theme/useTheme"
import { type ActionState, type Core, useReady, useRestoring } from "./context"
import { IDLE, NO_ACCOUNT, NO_CONNECTORS, NO_NETWORK, NO_NETWORKS, RESTORING_ACCOUNT } from "./fallbacks"
import { useCoreAction, useCoreValue, useLazyAction, useLazyAtoms, useLazyValue } from "./useCore"
import type { SwapState } from "../../services/swapState"
import type { OnrampState } from "../../services/onrampState"
import type { SendCallsInput } from "../../services/sendCalls"
import type { CallsStatus } from "../../domain/callsWire"

export type { ActionState }

/** What {@link useModal} gives. */
export interface UseModal {
  readonly isOpen: boolean
  readonly view: ModalView | undefined
  /** Opens the modal: on the view the rules choose, or on `route` (`{ view: "Networks" }`). */
  readonly open: (route?: Route) => Promise<void>
  readonly close: () => Promise<void>
}

const pickModal = (core: Core) => core.modalAtom
const pickOpenModal = (core: Core) => core.openModalFn
const pickCloseModal = (core: Core) => core.closeModalFn
const openView = (state: ModalState | undefined, core: Core): ModalView | undefined =>
  state?.open === true ? core.currentRoute(state).view : undefined

/** The modal: whether it is open, its view, and open/close (before the runtime's code is there, open loads it). */
export function useModal(): UseModal {
  const view = useCoreValue(pickModal, undefined, openView)
  const open = useCoreAction(pickOpenModal)
  const close = useCoreAction(pickCloseModal)
  return {
    isOpen: view !== undefined,
    view,
    open: useCallback((route?: Route) => open(route), [open]),
    close: useCallback(() => close(undefined), [close])
  }
}

/** What {@link useAccount} gives: the account state plus the family and a connected flag. */
export interface UseAccount extends AccountState {
  readonly namespace: ChainNamespace | undefined
  readonly isConnected: boolean
}

const pickAccount = (core: Core) => core.activeAccountAtom
const pickConnection = (core: Core) => core.connectionAtom

/** The account in front (the family used last, or switched to). */
export function useAccount(): UseAccount {
  const known: AccountState & { readonly namespace: ChainNamespace | undefined } = useCoreValue(pickAccount, NO_ACCOUNT)
  const account = useRestoring() ? RESTORING_ACCOUNT : known
  return { ...account, isConnected: account.status === "connected" }
}

const DISCONNECTED: ConnectionStatus = "disconnected"

/** The connection status of a family, or of the family in front. */
export function useConnectionStatus(namespace?: ChainNamespace): ConnectionStatus {
  const select = useCallback(
    (state: ConnectionState): ConnectionStatus => {
      const family = namespace ?? state.activeNamespace
      return (family === undefined ? undefined : state.namespaces[family]?.account.status) ?? "disconnected"
    },
    [namespace]
  )
  const status = useCoreValue(pickConnection, DISCONNECTED, select)
  return useRestoring() ? "reconnecting" : status
}

/** What {@link useNetwork} gives. */
export interface UseNetwork {
  /** The network in front; undefined only while the runtime starts. */
  readonly network: CaipNetwork | undefined
  readonly networks: ReadonlyArray<CaipNetwork>
  /** Switches by CAIP-2 id (a network of another family puts that family in front); rejects with 'Network with ID … not found', 'Chain is not supported'… */
  readonly switchNetwork: (caipNetworkId: string) => Promise<CaipNetwork>
}

const pickActiveNetwork = (core: Core) => core.activeNetworkAtom
const pickNetworks = (core: Core) => core.requestedNetworksAtom
const pickSwitchNetwork = (core: Core) => core.switchNetworkFn
const pickDisconnect = (core: Core) => core.disconnectFn

/** The active network, the requested networks, and switching. */
export function useNetwork(): UseNetwork {
  const network = useCoreValue(pickActiveNetwork, NO_NETWORK)
  const networks = useCoreValue(pickNetworks, NO_NETWORKS)
  const switchNetwork = useCoreAction(pickSwitchNetwork)
  return { network, networks, switchNetwork }
}

/** Disconnect: a family (with every family its wallet serves), or every connected one; rejects with 'Failed to disconnect'. */
export function useDisconnect(): (namespace?: ChainNamespace) => Promise<ReadonlyArray<ChainNamespace>> {
  const disconnect = useCoreAction(pickDisconnect)
  return useCallback((namespace?: ChainNamespace) => disconnect(namespace), [disconnect])
}

const actionState = <A, E>(result: AsyncResult.AsyncResult<A, E>, core: Core): ActionState<A> => core.stateOf(result)

/** The action atom of one family for this hook instance (each caller its own, so two never cancel each other). */
function useOwnAtom<Arg, A, E>(family: (core: Core) => (key: string) => Atom.AtomResultFn<Arg, A, E>) {
  const id = useId()
  return useCallback((core: Core) => family(core)(id), [family, id])
}

/** An action atom of this hook instance and its state. */
function useOwnAction<Arg, A, E>(family: (core: Core) => (key: string) => Atom.AtomResultFn<Arg, A, E>) {
  const pick = useOwnAtom(family)
  const state: ActionState<A> = useCoreValue(pick, IDLE, actionState)
  return { state, call: useCoreAction(pick), pick }
}

/** What {@link useConnect} gives. */
export type UseConnect = ActionState<ConnectResult> & {
  /**
   * Connects a wallet by connector id, rdns or name (`"walletConnect"` shows the QR code in the modal); resolves with
   * each family's account, rejects with the wallet's refusal, 'Provider not found.' or a cancellation.
   */
  readonly connect: (wallet: string) => Promise<ConnectResult>
  /** Stops a connect still waiting on the wallet. */
  readonly cancel: () => void
}

const connectFamily = (core: Core) => core.connectWalletFn
const signFamily = (core: Core) => core.signMessageFn
const sendFamily = (core: Core) => core.sendFn
const waitFamily = (core: Core) => core.waitForTransactionFn
const requestFamily = (core: Core) => core.walletRequestFn

/** Connects a wallet programmatically, without the wallet list. */
export function useConnect(): UseConnect {
  const ready = useReady()
  const { state, call: connect, pick } = useOwnAction(connectFamily)
  const cancel = useCallback(() => {
    if (ready !== undefined) ready.core.interrupt(ready.runtime.registry, pick(ready.core))
  }, [ready, pick])
  return { ...state, connect, cancel }
}

/** Signs a message with the connected wallet of the family in front (or of `namespace`): 0x-hex on EVM, base58 on Solana. */
export function useSignMessage(namespace?: ChainNamespace): ActionState<string> & { readonly signMessage: (message: string) => Promise<string> } {
  const { state, call } = useOwnAction(signFamily)
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
  const send = useOwnAction(sendFamily)
  const wait = useOwnAction(waitFamily)
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
  const family = namespace ?? "front"
  const pick = useCallback((core: Core) => core.chainBalancesAtom(family), [family])
  return useCoreValue(pick, IDLE, actionState)
}

/** A raw request to the connected wallet (`eth_signTypedData_v4`, `wallet_getCapabilities`, `solana_signTransaction`…). */
export function useWalletRequest(namespace?: ChainNamespace): ActionState<unknown> & {
  readonly request: (method: string, params?: unknown) => Promise<unknown>
} {
  const { state, call } = useOwnAction(requestFamily)
  const request = useCallback((method: string, params?: unknown) => call({ method, params, namespace }), [call, namespace])
  return { ...state, request }
}

/** What {@link useSession} gives: where sign-in stands for the account in front, its session, and sign-in / sign-out. */
export interface UseSession {
  /**
   * `disabled` without `siwx`/`siweConfig`; `signedOut` with no account; `checking` while the backend is asked;
   * `needed` when the account has no session (the sign view asks); `signedIn` with one.
   */
  readonly status: "disabled" | "signedOut" | "checking" | "needed" | "signedIn"
  /** The signed message, when signed in and the backend gives it. */
  readonly session: SiwxSession | undefined
  /** Whether the host requires sign-in. */
  readonly required: boolean
  /** Opens the modal on the sign view (for an account that went on without signing). */
  readonly signIn: () => Promise<void>
  /** Revokes the session of the account in front; when sign-in is required, disconnects too. */
  readonly signOut: () => Promise<void>
}

const pickSiwx = (core: Core) => core.siwxAtom
const pickSignOut = (core: Core) => core.signOutFn
const SIGNED_OUT_SESSION = { status: "disabled", session: undefined, required: false } as const
const sessionView = (state: SiwxState | undefined): Pick<UseSession, "status" | "session" | "required"> => {
  if (state === undefined) return SIGNED_OUT_SESSION
  const step = state.step
  const status = step._tag === "Disabled" ? "disabled" : step._tag === "SignedOut" ? "signedOut" : step._tag === "Checking" ? "checking" : step._tag === "Needed" ? "needed" : "signedIn"
  return { status, session: step._tag === "SignedIn" ? step.session : undefined, required: state.required }
}

/** Sign-in with the wallet for the account in front (spec point 4): its status and session, sign-in and sign-out. */
export function useSession(): UseSession {
  const state = useCoreValue(pickSiwx, undefined, (value: SiwxState | undefined) => value)
  const view = sessionView(state)
  const open = useCoreAction(pickOpenModal)
  const signOut = useCoreAction(pickSignOut)
  return {
    ...view,
    signIn: useCallback(() => open({ view: "SIWXSignMessage" }), [open]),
    signOut: useCallback(() => signOut(undefined), [signOut])
  }
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

const pickConnectors = (core: Core) => core.connectorsAtom
const connectorInFront = (state: ConnectionState) =>
  state.activeNamespace === undefined ? undefined : state.namespaces[state.activeNamespace]?.connector

/** Everything about the wallet in front in one hook, for hosts that build their own wallet UI. */
export function useWallet(): UseWallet {
  const account = useAccount()
  const { open } = useModal()
  const { network } = useNetwork()
  const disconnect = useDisconnect()
  const connection = useCoreValue(pickConnection, undefined, connectorInFront)
  const connectors = useCoreValue(pickConnectors, NO_CONNECTORS)
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

const pickSetThemeMode = (core: Core) => core.setThemeModeFn
const pickSetThemeVariables = (core: Core) => core.setThemeVariablesFn

/**
 * The modal's theme, for a host's own theme toggle: the modal and the host buttons follow at once.
 * @example const { themeMode, setThemeMode } = useTheme(); setThemeMode(themeMode === "dark" ? "light" : "dark")
 */
export function useTheme(): UseTheme {
  const theme = useThemeState()
  const themeMode = useThemeMode(theme.themeMode)
  const setMode = useCoreAction(pickSetThemeMode)
  const setVariables = useCoreAction(pickSetThemeVariables)
  return {
    themeMode,
    requestedThemeMode: theme.themeMode,
    themeVariables: theme.themeVariables,
    setThemeMode: useCallback((mode: ThemeMode | undefined) => setMode(mode), [setMode]),
    setThemeVariables: useCallback((variables: ThemeVariables) => setVariables(variables), [setVariables])
  }
}

/** What {@link useSwap} gives: the swap form of the account in front, and its actions. */
export interface UseSwap {
  /** The form (tokens, amount, quote, step), or `undefined` until the runtime has loaded. */
  readonly state: SwapState | undefined
  /** Opens the modal on a fresh swap form. */
  readonly open: () => Promise<void>
  /** Chooses the token sold or bought (CAIP-10 address, as in `state.choices`). */
  readonly choose: (side: "from" | "to", address: string) => Promise<void>
  /** The amount to sell, as a visitor types it: checked at once, quoted after 300 ms. */
  readonly setAmount: (text: string) => Promise<void>
  /** Lets the swap spend the token sold (when `state.quote.approved` is false). */
  readonly approve: () => Promise<void>
  /** Makes the swap quoted; `state.step` follows it to its end (`Done` with the hash, or `Failed` with a typed error). */
  readonly swap: () => Promise<void>
}

// The swap form's atoms come with its code, fetched on first use: the first click does not carry them.
const loadSwap = () => import("../atoms/swap")
type SwapAtoms = Awaited<ReturnType<typeof loadSwap>>
const pickOpenSwap = (atoms: SwapAtoms) => atoms.openSwapFn
const pickChooseSwap = (atoms: SwapAtoms) => atoms.chooseSwapTokenFn
const pickSwapAmount = (atoms: SwapAtoms) => atoms.setSwapAmountFn
const pickApproveSwap = (atoms: SwapAtoms) => atoms.approveSwapFn
const pickMakeSwap = (atoms: SwapAtoms) => atoms.makeSwapFn

/**
 * The swap form (spec 1 "swap tokens"): the same state and actions as the modal's Swap view, for a host's own swap UI.
 * @example const { state, open } = useSwap(); <button onClick={open}>Swap</button>
 */
export function useSwap(): UseSwap {
  const atoms = useLazyAtoms(loadSwap)
  const state = useLazyValue(atoms?.swapAtom, undefined)
  const open = useLazyAction(loadSwap, atoms, pickOpenSwap)
  const choose = useLazyAction(loadSwap, atoms, pickChooseSwap)
  const setAmount = useLazyAction(loadSwap, atoms, pickSwapAmount)
  const approve = useLazyAction(loadSwap, atoms, pickApproveSwap)
  const swap = useLazyAction(loadSwap, atoms, pickMakeSwap)
  return {
    state,
    open: useCallback(() => open(undefined), [open]),
    choose: useCallback((side: "from" | "to", address: string) => choose({ side, address }), [choose]),
    setAmount,
    approve: useCallback(() => approve(undefined), [approve]),
    swap: useCallback(() => swap(undefined), [swap])
  }
}

/** What {@link useOnramp} gives: the Buy form of the account in front. */
export interface UseOnramp {
  /** The form (options, asset, amount, quote with the provider's URL, the purchase awaited), or `undefined` until loaded. */
  readonly state: OnrampState | undefined
  /** Opens the modal on a fresh Buy form. */
  readonly open: () => Promise<void>
}

// As the swap form's: the Buy form's atoms come with its code.
const loadOnramp = () => import("../atoms/onramp")
const pickOpenOnramp = (atoms: Awaited<ReturnType<typeof loadOnramp>>) => atoms.openOnrampFn

/**
 * The Buy form (spec 1 "buy crypto through an on-ramp"): its state, and opening it in the modal.
 * @example const { open } = useOnramp(); <button onClick={open}>Buy</button>
 */
export function useOnramp(): UseOnramp {
  const atoms = useLazyAtoms(loadOnramp)
  const state = useLazyValue(atoms?.onrampAtom, undefined)
  const open = useLazyAction(loadOnramp, atoms, pickOpenOnramp)
  return { state, open: useCallback(() => open(undefined), [open]) }
}

/** What {@link useSendCalls} gives. */
export type UseSendCalls = ActionState<CallsStatus> & {
  /** The batch's id as soon as the wallet took it. */
  readonly id: string | undefined
  /**
   * Sends the calls (EIP-5792 `wallet_sendCalls` from the EVM account in front), then follows their status until
   * final: resolves with it (receipts included), rejects with the wallet's refusal, `CallsFailed` or `CallsTimedOut`.
   */
  readonly sendCalls: (input: SendCallsInput) => Promise<CallsStatus>
}

// The batch atoms come with their code, fetched on first use: the first click does not carry them.
const loadCalls = () => import("../atoms/calls")
type CallsAtoms = Awaited<ReturnType<typeof loadCalls>>

/**
 * Batched calls (EIP-5792) from the EVM wallet in front: one transaction for all of them where the wallet can (the
 * embedded wallet's smart account, a wallet with EIP-7702), followed to their final status by the runtime.
 * @example const { sendCalls, status } = useSendCalls(); await sendCalls({ calls: [{ to, data }, { to, value: 1n }] })
 */
export function useSendCalls(): UseSendCalls {
  const key = useId()
  const ready = useReady()
  const atoms = useLazyAtoms(loadCalls)
  const pickSend = useCallback((loaded: CallsAtoms) => loaded.sendCallsFn(key), [key])
  const pickWait = useCallback((loaded: CallsAtoms) => loaded.waitForCallsFn(key), [key])
  const send = useLazyAction(loadCalls, atoms, pickSend)
  const wait = useLazyAction(loadCalls, atoms, pickWait)
  const sent = useLazyValue(atoms === undefined ? undefined : pickSend(atoms), undefined)
  const followed = useLazyValue(atoms === undefined ? undefined : pickWait(atoms), undefined)
  const sendState: ActionState<string> = ready === undefined || sent === undefined ? IDLE : ready.core.stateOf(sent)
  const waitState: ActionState<CallsStatus> = ready === undefined || followed === undefined ? IDLE : ready.core.stateOf(followed)
  const sendCalls = useCallback((input: SendCallsInput) => send(input).then((id) => wait(id)), [send, wait])
  const state = sendState.status === "pending" || sendState.status === "error" ? sendState : waitState
  return { ...state, id: sendState.status === "success" ? sendState.data : undefined, sendCalls }
}
