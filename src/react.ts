/**
 * wallet-runtime/react: the provider and hooks for React hosts, our small atom bindings, and the atoms behind them
 * for hosts that compose their own views.
 */
export {
  RegistryProvider,
  type RegistryProviderProps,
  useAtom,
  useAtomMount,
  useAtomRefresh,
  useAtomSet,
  useAtomValue,
  useRegistry
} from "./ui/atom-react/hooks"
export {
  activeAccountAtom,
  connectFn,
  connectionAtom,
  connectionStateAtom,
  connectorsAtom,
  type ConnectorsByFamily,
  connectorsStateAtom,
  disconnectFn
} from "./ui/atoms/connection"
export { closeModalFn, goBackFn, modalAtom, modalStateAtom, openModalFn } from "./ui/atoms/modal"
export { activeNetworkAtom, networksStateAtom, requestedNetworksAtom, switchNetworkFn } from "./ui/atoms/networks"
export { notificationsAtom, notificationsStateAtom } from "./ui/atoms/notifications"
export { type StateResult, walletRuntimeAtom } from "./ui/atoms/runtime"
export {
  type ActionState,
  useAccount,
  type UseAccount,
  useConnectionStatus,
  useDisconnect,
  useModal,
  type UseModal,
  useNetwork,
  type UseNetwork,
  useSendTransaction,
  useSignMessage,
  useWallet,
  type UseWallet
} from "./ui/react/hooks"
export { useWalletRuntime, WalletRuntimeProvider, type WalletRuntimeProviderProps } from "./ui/react/WalletRuntimeProvider"
export { AccountButton, type AccountButtonProps } from "./ui/components/AccountButton/AccountButton"
export { ConnectButton, type ConnectButtonProps } from "./ui/components/ConnectButton/ConnectButton"
export { NetworkButton, type NetworkButtonProps } from "./ui/components/NetworkButton/NetworkButton"
export { WalletModal } from "./ui/components/Modal/WalletModal"
