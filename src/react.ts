/**
 * wallet-runtime/react: the provider, the hooks, the buttons and the modal for React hosts. What a page loads at
 * start from here is React code only; the runtime's code follows once the page is idle (see WalletRuntimeProvider).
 * The atoms behind the hooks, for hosts that compose their own views, are in `wallet-runtime/atoms`.
 */
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
  useOnramp,
  type UseOnramp,
  useSendCalls,
  type UseSendCalls,
  useSendTransaction,
  type UseSendTransaction,
  useSession,
  type UseSession,
  useSignMessage,
  useSwap,
  type UseSwap,
  useTheme,
  type UseTheme,
  useWallet,
  type UseWallet,
  useWalletRequest
} from "./ui/react/hooks"
export type { SendCallsCall, SendCallsInput } from "./services/sendCalls"
export type { CallsReceipt, CallsStatus } from "./domain/callsWire"
export { useWalletRuntime, WalletRuntimeProvider, type WalletRuntimeProviderProps } from "./ui/react/WalletRuntimeProvider"
export { AccountButton } from "./ui/buttons/AccountButton/AccountButton"
export { ConnectButton } from "./ui/buttons/ConnectButton/ConnectButton"
export { NetworkButton } from "./ui/buttons/NetworkButton/NetworkButton"
export type { AccountButtonProps, ConnectButtonProps, NetworkButtonProps } from "./ui/buttons/props"
export { WalletModal } from "./ui/modal/WalletModal"
