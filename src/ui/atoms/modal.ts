/** Atoms of the modal: its state and the open/close/back actions. */
import { Effect } from "effect"
import * as AsyncResult from "effect/reactivity/AsyncResult"
import * as Atom from "effect/reactivity/Atom"
import type { ModalView } from "../../domain/rules"
import { Modal, type ModalState, type RouteData } from "../../services/Modal"
import { mapAtom, stateAtom, walletRuntimeAtom } from "./runtime"

/** The modal's state. */
export const modalStateAtom = stateAtom(Effect.map(Modal, (m) => m.state))

/** The modal's state, or closed while the runtime starts. */
export const modalAtom: Atom.Atom<ModalState | undefined> = mapAtom(modalStateAtom, (result) =>
  AsyncResult.getOrElse(result, () => undefined)
)

/** Opens the modal (on a view, optionally). */
export const openModalFn = walletRuntimeAtom.fn((request: { readonly view?: ModalView; readonly data?: RouteData } | undefined) =>
  Effect.flatMap(Modal, (modal) => modal.open(request))
)

/** Closes the modal. */
export const closeModalFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(Modal, (modal) => modal.close))

/** Goes back one view (closing from the first). */
export const goBackFn = walletRuntimeAtom.fn((_: void) => Effect.flatMap(Modal, (modal) => modal.goBack))
