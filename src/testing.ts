/**
 * wallet-runtime/testing: layers and fakes for hosts' own tests — every service over memory storage, and chain
 * adapters whose wallet is scripted.
 */
export {
  type FakeChainAdapter,
  type FakeWalletScript,
  makeFakeChainAdapter
} from "./services/ChainAdapter"
export { testLayer } from "./layers/Test"
export { offlineHttpClientLayer } from "./services/serviceHttp"
