/**
 * The page half of the Solana test wallet: the Wallet Standard object over a backend. It is the library's own
 * (`wallet-runtime/testing` exports it for hosts' browser tests); the devstack, the demo and the browser tests take
 * it from here.
 */
export {
  createSolanaStandardWallet as createStandardWallet,
  SOLANA_CHAINS,
  SOLANA_LOCALNET_CHAIN,
  SOLANA_TEST_WALLET_ICON,
  type SolanaChain,
  type SolanaStandardWalletOptions as StandardWalletOptions,
  type SolanaWalletBackend,
  type StandardSolanaWallet,
  type StandardSolanaWalletFeatures
} from "../../../src/services/fakes/solanaStandardWallet"
export {
  registerStandardWallet,
  type StandardChangeProperties,
  type StandardConnectFeature,
  type StandardDisconnectFeature,
  type StandardEventsFeature,
  WalletStandardError
} from "../../../src/services/fakes/standardWallet"
