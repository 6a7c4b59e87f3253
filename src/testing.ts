/**
 * wallet-runtime/testing: layers and fakes for hosts' own tests — every service over memory storage, scripted
 * wallets in any family, adapters that reach no chain, and for browser tests an injected wallet of each family over a
 * signer the test brings: an EIP-6963 EVM provider, Wallet Standard Solana and Bitcoin wallets, and a Polkadot
 * extension (`window.injectedWeb3`). Those are browser-safe: no `node:` imports, no keys in the page.
 */
export {
  type FakeFamily,
  type FakeWallet,
  type FakeWalletOptions,
  type FakeWalletScript,
  makeFakeChainAdapter,
  makeFakeWallet
} from "./services/fakes/FakeWallet"
export {
  createInjectedWeb3Extension,
  type InjectedAccount,
  type InjectedExtension,
  injectWeb3Extension,
  POLKADOT_TEST_WALLET_KEY,
  type PolkadotWalletBackend,
  type SignatureAnswer,
  type SignPayloadInput,
  type SignRawInput
} from "./services/fakes/injectedWeb3Wallet"
export {
  announceEip6963Provider,
  createEip1193Provider,
  type Eip1193Event,
  type Eip1193TestProvider,
  type Eip1193WalletBackend,
  type Eip6963Info
} from "./services/fakes/eip6963Wallet"
export {
  registerStandardWallet,
  type StandardChangeProperties,
  type StandardConnectFeature,
  type StandardDisconnectFeature,
  type StandardEventsFeature,
  type StandardFeatures,
  WalletStandardError
} from "./services/fakes/standardWallet"
export {
  createSolanaStandardWallet,
  SOLANA_LOCALNET_CHAIN,
  type SolanaStandardWalletOptions,
  type SolanaWalletBackend,
  type StandardSolanaWallet
} from "./services/fakes/solanaStandardWallet"
export {
  BITCOIN_REGTEST_CHAIN,
  type BitcoinStandardWalletOptions,
  type BitcoinWalletAddress,
  type BitcoinWalletBackend,
  createBitcoinStandardWallet
} from "./services/fakes/bitcoinStandardWallet"
export { type TestEnvironment, testLayer } from "./layers/Test"
export { offlineHttpClientLayer } from "./services/serviceHttp"
