/** Atoms of the modal: its state and the open/close/back/push actions. */
import { Effect } from "effect"
import * as AsyncResult from "effect/reactivity/AsyncResult"
import * as Atom from "effect/reactivity/Atom"
import { Modal, type ModalState, type Route } from "../../services/Modal"
import { mapAtom, stateAtom, walletRuntimeAtom } from "./runtime"

/** The modal's state. */
export const modalStateAtom = stateAtom(Effect.map(Modal, (m) => m.state))

/** The modal's state, or closed while the runtime starts. */
export const modalAtom: Atom.Atom<ModalState | undefined> = mapAtom(modalStateAtom, (result) =>
  AsyncResult.getOrElse(result, () => undefined)
)

/** Opens the modal (on a route, optionally). */
export const openModalFn = walletRuntimeAtom.fn((route: Route | undefined) => Effect.flatMap(Modal, (modal) => modal.open(route)))

/** Closes the modal. */
export const closeModalFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(Modal, (modal) => modal.close))

/** Goes back one view (closing from the first). */
export const goBackFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(Modal, (modal) => modal.goBack))

/** Goes to a view, keeping the current one in history (Account → Networks, Connect → All wallets). */
export const pushRouteFn = walletRuntimeAtom.fn((route: Route) => Effect.flatMap(Modal, (modal) => modal.push(route)))

/** Starts the history again from a view (Account without a wallet → Connect). */
export const resetRouteFn = walletRuntimeAtom.fn((route: Route) => Effect.flatMap(Modal, (modal) => modal.reset(route)))

/**
 * Whether the visitor ticked "I agree to the Terms and Privacy Policy" (the host's `features.legalCheckbox`): kept
 * for the page's life, so going to All wallets and back does not ask again; a new visit asks again.
 */
export const legalAgreedAtom: Atom.Writable<boolean> = Atom.make(false).pipe(Atom.keepAlive)
