/** The page's EVM test wallet of the component tests, apart from their host page (which loads the runtime's code). */
import { Effect } from "effect"
import { type FakeWallet, type FakeWalletOptions, makeFakeWallet } from "../../../../src/services/fakes/FakeWallet"

export const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
export const ALICE_SHORT = "0xf3…b92266"

/** The EIP-6963 wallet of the page: "Test Wallet", Alice on Local Chain A. */
export const testWallet = (over: Partial<FakeWalletOptions> = {}): FakeWallet =>
  Effect.runSync(
    makeFakeWallet({
      id: "test-wallet",
      name: "Test Wallet",
      type: "ANNOUNCED",
      rdns: "dev.wallet-runtime.test",
      families: { eip155: { accounts: [{ address: ALICE, type: "eoa" }], chainId: 31337 } },
      ...over
    })
  )
