/**
 * The wallet runtime's code as the React binding loads it: with `import()`, once the page is idle, when the visitor
 * first shows intent, or at once when a stored session waits to be restored. Everything that needs Effect is reached
 * from here, so the provider, the hooks and the Connect button render before it arrives.
 */
import { Cause, Equal } from "effect"
import * as AsyncResult from "effect/reactivity/AsyncResult"
import * as Atom from "effect/reactivity/Atom"
import { makeWalletRuntime } from "../../runtime"
import { currentRoute } from "../../services/Modal"
import { exitValue, runAtomExit, storeOf } from "../atom-react/hooks"
import { chainBalancesAtom } from "../atoms/account"
import { activeAccountAtom, connectionAtom, connectorsAtom, disconnectFn } from "../atoms/connection"
import { closeModalFn, modalAtom, openModalFn } from "../atoms/modal"
import { activeNetworkAtom, requestedNetworksAtom, switchNetworkFn } from "../atoms/networks"
import { signOutFn, siwxAtom } from "../atoms/siwx"
import { onrampAtom, openOnrampFn } from "../atoms/onramp"
import { approveSwapFn, chooseSwapTokenFn, makeSwapFn, openSwapFn, setSwapAmountFn, swapAtom } from "../atoms/swap"
import { setThemeModeFn, setThemeVariablesFn, themeAtom } from "../atoms/theme"
import { connectWalletFn, sendFn, signMessageFn, waitForTransactionFn, walletRequestFn } from "../atoms/walletActions"
import { AccountButtonView, AccountName } from "../buttons/AccountButton/AccountButtonView"
import { NetworkButtonView } from "../buttons/NetworkButton/NetworkButtonView"
import { HostSnackbar } from "../components/Snackbar/HostSnackbar"
import { ModalRoot } from "../modal/ModalRoot"
import type { ActionState, Core } from "./context"

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

/** The core the light part of the React binding runs with. */
export const core: Core = {
  makeWalletRuntime,
  currentRoute,
  storeOf,
  equals: Equal.equals,
  call: (registry, atom, value) => runAtomExit(registry, atom, value).then(exitValue),
  interrupt: (registry, atom) => registry.set(atom, Atom.Interrupt),
  stateOf,
  modalAtom,
  openModalFn,
  closeModalFn,
  activeAccountAtom,
  connectionAtom,
  connectorsAtom,
  disconnectFn,
  activeNetworkAtom,
  requestedNetworksAtom,
  switchNetworkFn,
  chainBalancesAtom,
  connectWalletFn,
  signMessageFn,
  sendFn,
  waitForTransactionFn,
  walletRequestFn,
  siwxAtom,
  signOutFn,
  themeAtom,
  setThemeModeFn,
  setThemeVariablesFn,
  swapAtom,
  openSwapFn,
  chooseSwapTokenFn,
  setSwapAmountFn,
  approveSwapFn,
  makeSwapFn,
  onrampAtom,
  openOnrampFn,
  WalletModal: ModalRoot,
  Notifications: HostSnackbar,
  AccountButton: AccountButtonView,
  NetworkButton: NetworkButtonView,
  AccountName
}
