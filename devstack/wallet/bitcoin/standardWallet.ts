/**
 * The page half of the Bitcoin test wallet: the Wallet Standard object over a backend. It is the library's own
 * (`wallet-runtime/testing` exports it for hosts' browser tests); the devstack and the browser tests take it from here.
 */
export {
  BITCOIN_REGTEST_CHAIN,
  BITCOIN_TEST_WALLET_ICON,
  type BitcoinStandardWalletOptions,
  type BitcoinWalletAddress,
  type BitcoinWalletBackend,
  createBitcoinStandardWallet
} from "../../../src/services/fakes/bitcoinStandardWallet"
export { registerStandardWallet, WalletStandardError } from "../../../src/services/fakes/standardWallet"
