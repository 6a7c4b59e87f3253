/**
 * wallet-runtime/testing: layers and fakes for hosts' own tests — every service over memory storage, scripted
 * wallets in any family, and adapters that reach no chain.
 */
export {
  type FakeFamily,
  type FakeWallet,
  type FakeWalletOptions,
  type FakeWalletScript,
  makeFakeChainAdapter,
  makeFakeWallet
} from "./services/fakes/FakeWallet"
export { type TestEnvironment, testLayer } from "./layers/Test"
export { offlineHttpClientLayer } from "./services/serviceHttp"
