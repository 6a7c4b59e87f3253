/**
 * The page half of the Polkadot test wallet: the `injectedWeb3` entry over a backend. It is the library's own
 * (`wallet-runtime/testing` exports it for hosts' browser tests); the devstack and the browser tests take it from here.
 */
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
} from "../../../src/services/fakes/injectedWeb3Wallet"
