/**
 * What a view of the modal is to the registry (`registry.ts`), and the views a view's own chunk registers: the Account
 * view's Swap and Buy, which only it opens, so the page's start carries neither their titles nor their loaders. Apart
 * from the registry so that the Account view registers them without importing the registry that imports it.
 */
import type { ComponentType } from "react"
import type { ModalView } from "../../domain/rules"
import { type LazyPart, lazyPart } from "../components/lazyPart"
import type { ViewProps } from "./types"

/** A view component loaded on first use: `load` fetches it once, `loaded` gives it once it is there. */
export type LazyView<V extends ModalView = ModalView> = LazyPart<ComponentType<ViewProps<V>>>

/** A view loaded by `importer` the first time it is needed (a failed load may be tried again). */
export const lazyView = <V extends ModalView>(importer: () => Promise<ComponentType<ViewProps<V>>>): LazyView<V> =>
  lazyPart(importer)

/** A view of the modal. */
export interface ViewEntry<V extends ModalView = ModalView> {
  readonly title: string
  readonly description: string
  readonly Component: LazyView<V>
}

/**
 * The views the Account view's chunk registers (`accountForms.ts`): the Swap and Buy forms, and the embedded wallet's
 * own views (SecureFrame), which the Account view opens (a recovery after a login fetches that chunk first).
 */
export type AccountFormView = "Swap" | "Buy" | "SecureFrame"

/** The views registered so far, by name. */
export const registered: { [V in ModalView]?: ViewEntry<V> } = {}

/** Adds the views a view's chunk brings to the registry (the Account view's Swap, Buy and SecureFrame). */
export const registerViews = (entries: { readonly [V in AccountFormView]: ViewEntry<V> }): void => {
  Object.assign(registered, entries)
}
