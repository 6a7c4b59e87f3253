/**
 * What the light part of the React binding (the provider, the hooks, the Connect button) and the core it loads later
 * share: the shape of that core, the provider's context, and the hooks that find the runtime in it. React only: no
 * Effect code runs from here, so a host's page shows its buttons before the wallet runtime's code has arrived.
 */
import type * as AtomRegistry from "effect/reactivity/AtomRegistry"
import type * as AsyncResult from "effect/reactivity/AsyncResult"
import type * as Atom from "effect/reactivity/Atom"
import { type ComponentType, createContext, use, useContext, useSyncExternalStore } from "react"
import type { ThemeMode } from "../../domain/Account"
import type { ChainNamespace } from "../../domain/Caip"
import type { ThemeVariables } from "../../domain/Options"
import type { makeWalletRuntime, WalletRuntime } from "../../runtime"
import type { BaseServices } from "../../runtimeAtoms"
import type { currentRoute } from "../../services/Modal"
import type { AtomStore } from "../atom-react/store"
import type { chainBalancesAtom } from "../atoms/account"
import type { activeAccountAtom, connectionAtom, connectorsAtom, disconnectFn } from "../atoms/connection"
import type { closeModalFn, modalAtom, openModalFn } from "../atoms/modal"
import type { activeNetworkAtom, requestedNetworksAtom, switchNetworkFn } from "../atoms/networks"
import type { signOutFn, siwxAtom } from "../atoms/siwx"
import type { setThemeModeFn, setThemeVariablesFn, themeAtom } from "../atoms/theme"
import type { connectWalletFn, sendFn, signMessageFn, waitForTransactionFn, walletRequestFn } from "../atoms/walletActions"
import type { AccountButtonProps, NetworkButtonProps } from "../buttons/props"

/** The state of an action a hook runs: idle, pending, done with a value, or failed with an error. */
export type ActionState<A> =
  | { readonly status: "idle" }
  | { readonly status: "pending" }
  | { readonly status: "success"; readonly data: A }
  | { readonly status: "error"; readonly error: Error }

/**
 * The wallet runtime's code as the light part uses it, once loaded (`./core.ts`): the atoms the hooks read, how to
 * read and run them, and the components that render only with a runtime.
 */
export interface Core {
  readonly makeWalletRuntime: typeof makeWalletRuntime
  readonly currentRoute: typeof currentRoute
  /** A subscribable view of one atom in one registry (the same object for the same pair). */
  readonly storeOf: <A>(registry: AtomRegistry.AtomRegistry, atom: Atom.Atom<A>) => AtomStore<A>
  /** Structural equality, so a selector may build a new object each time without re-rendering. */
  readonly equals: (self: unknown, that: unknown) => boolean
  /** Runs an action atom with `value`: its value, or a rejection with the typed error (or what was thrown). */
  readonly call: <W, A, E>(registry: AtomRegistry.AtomRegistry, atom: Atom.Writable<AsyncResult.AsyncResult<A, E>, W>, value: W) => Promise<A>
  /** Stops an action atom still running. */
  readonly interrupt: <Arg, A, E>(registry: AtomRegistry.AtomRegistry, atom: Atom.AtomResultFn<Arg, A, E>) => void
  /** An action's result as a hook shows it. */
  readonly stateOf: <A, E>(result: AsyncResult.AsyncResult<A, E>) => ActionState<A>
  readonly modalAtom: typeof modalAtom
  readonly openModalFn: typeof openModalFn
  readonly closeModalFn: typeof closeModalFn
  readonly activeAccountAtom: typeof activeAccountAtom
  readonly connectionAtom: typeof connectionAtom
  readonly connectorsAtom: typeof connectorsAtom
  readonly disconnectFn: typeof disconnectFn
  readonly activeNetworkAtom: typeof activeNetworkAtom
  readonly requestedNetworksAtom: typeof requestedNetworksAtom
  readonly switchNetworkFn: typeof switchNetworkFn
  readonly chainBalancesAtom: typeof chainBalancesAtom
  readonly connectWalletFn: typeof connectWalletFn
  readonly signMessageFn: typeof signMessageFn
  readonly sendFn: typeof sendFn
  readonly waitForTransactionFn: typeof waitForTransactionFn
  readonly walletRequestFn: typeof walletRequestFn
  readonly siwxAtom: typeof siwxAtom
  readonly signOutFn: typeof signOutFn
  readonly themeAtom: typeof themeAtom
  readonly setThemeModeFn: typeof setThemeModeFn
  readonly setThemeVariablesFn: typeof setThemeVariablesFn
  readonly WalletModal: ComponentType
  /** The snackbar region of the page while the modal is closed. */
  readonly Notifications: ComponentType
  readonly AccountButton: ComponentType<AccountButtonProps>
  readonly NetworkButton: ComponentType<NetworkButtonProps>
  readonly AccountName: ComponentType<{ readonly address: string }>
}

/** A provider's runtime and the core code it runs with. */
export interface Ready {
  readonly core: Core
  readonly runtime: WalletRuntime<BaseServices>
}

/** The theme a provider shows while its runtime's code loads: the host's, read from the options as given. */
export interface ThemeOptions {
  readonly themeMode: ThemeMode | undefined
  readonly themeVariables: ThemeVariables | undefined
}

/**
 * One provider's way to its runtime: ready at once when the core's code is already there, else once `load` has
 * fetched it (at idle, on the visitor's first intent, or at once when a stored session waits to be restored).
 */
export interface Shell {
  /** The runtime and core, once loaded. */
  readonly ready: () => Ready | undefined
  readonly subscribe: (onChange: () => void) => () => void
  /**
   * Loads the core and makes the runtime (once): the same promise until it settles, readable by React's `use` (it
   * says when it has settled, so a runtime already there does not suspend).
   */
  readonly load: () => Promise<Ready>
  /** The theme to show before the runtime is there. */
  readonly theme: ThemeOptions
  /** A stored session waits to be restored: before the runtime is there, the Connect button says "Reconnecting…". */
  readonly restoring: boolean
  /** The network the runtime starts on when nothing is stored (the host's default, or its first), for the network button meanwhile. */
  readonly firstNetwork: { readonly name: string; readonly chainNamespace: ChainNamespace } | undefined
}

/** The shell of the nearest `WalletRuntimeProvider`. */
export const ShellContext = createContext<Shell | undefined>(undefined)

/** The nearest provider's shell; a clear error outside one. */
export function useShell(): Shell {
  const shell = useContext(ShellContext)
  if (shell === undefined) throw new Error("wallet-runtime: wrap your app in <WalletRuntimeProvider options={…}>")
  return shell
}

const notReady = (): Ready | undefined => undefined

/**
 * The runtime and core once loaded, re-rendering when they arrive; `undefined` before, on the server and while
 * hydrating (so the server's HTML and the client's first render agree).
 */
export function useReady(): Ready | undefined {
  const shell = useShell()
  return useSyncExternalStore(shell.subscribe, shell.ready, notReady)
}

const notRestoring = () => false

/** Whether a stored session waits to be restored while the runtime's code loads (false on the server and while hydrating). */
export function useRestoring(): boolean {
  const shell = useShell()
  return useSyncExternalStore(shell.subscribe, () => shell.restoring && shell.ready() === undefined, notRestoring)
}

/**
 * The wallet runtime of the nearest `WalletRuntimeProvider`. While its code is still loading, the component suspends
 * (and loading starts at once): put it under a `<Suspense>` when it may render before the runtime is there. A
 * runtime the provider made from options runs the services built at start: the Swap and Buy forms come with
 * `useSwap` and `useOnramp`, or give the provider a runtime made with `wallet-runtime`'s `makeWalletRuntime`.
 */
export function useWalletRuntime(): WalletRuntime<BaseServices> {
  return use(useShell().load()).runtime
}
