/**
 * wallet-runtime/react: the provider and hooks for React hosts, our small atom bindings, and the atoms behind them
 * for hosts that compose their own views.
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
export {
  type ActionState,
  useAccount,
  type UseAccount,
  useBalances,
  type UseBalances,
  useConnect,
  type UseConnect,
  useConnectionStatus,
  useDisconnect,
  useModal,
  type UseModal,
  useNetwork,
  type UseNetwork,
  useSendTransaction,
  type UseSendTransaction,
  useSignMessage,
  useTheme,
  type UseTheme,
  useWallet,
  type UseWallet,
  useWalletRequest
} from "./ui/react/hooks"
export { useWalletRuntime, WalletRuntimeProvider, type WalletRuntimeProviderProps } from "./ui/react/WalletRuntimeProvider"
export { AccountButton, type AccountButtonProps } from "./ui/buttons/AccountButton/AccountButton"
export { ConnectButton, type ConnectButtonProps } from "./ui/buttons/ConnectButton/ConnectButton"
export { NetworkButton, type NetworkButtonProps } from "./ui/buttons/NetworkButton/NetworkButton"
export { WalletModal } from "./ui/modal/WalletModal"
