/**
 * wallet-runtime/testing: layers and fakes for hosts' own tests — every service over memory storage, scripted
 * wallets in any family, adapters that reach no chain, and a Polkadot extension (`window.injectedWeb3`) over a
 * signer the test brings, for browser tests.
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
export { type TestEnvironment, testLayer } from "./layers/Test"
export { offlineHttpClientLayer } from "./services/serviceHttp"
