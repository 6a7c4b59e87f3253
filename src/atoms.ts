/**
 * wallet-runtime/atoms: the atoms behind the React hooks and our small React bindings for them, for hosts that
 * compose their own views. Importing them brings the runtime's code into the page at start; under a
 * `WalletRuntimeProvider` the atom hooks read its runtime's registry (and suspend while its code loads).
 */
export {
  RegistryProvider,
  type RegistryProviderProps,
  useAtom,
  useAtomMount,
  useAtomPromise,
  useAtomPromiseExit,
  useAtomRefresh,
  useAtomSet,
  useAtomValue,
  useRegistry
} from "./ui/atom-react/hooks"
export {
  activeAccountAtom,
  chooseWalletFn,
  connectionAtom,
  connectionStateAtom,
  connectorsAtom,
  connectorsStateAtom,
  type ConnectorView,
  connectProgressAtom,
  disconnectFn
} from "./ui/atoms/connection"
export { closeModalFn, goBackFn, modalAtom, modalStateAtom, openModalFn, pushRouteFn } from "./ui/atoms/modal"
export { activeNetworkAtom, networksStateAtom, requestedNetworksAtom, switchNetworkFn } from "./ui/atoms/networks"
export { notificationsAtom, notificationsStateAtom } from "./ui/atoms/notifications"
export { type StateResult, walletRuntimeAtom } from "./ui/atoms/runtime"
export { setThemeModeFn, setThemeVariablesFn, themeAtom, themeStateAtom } from "./ui/atoms/theme"
