/**
 * The ChainAdapter contract (support/chainAdapterContract.ts) for the polkadot family, over the `injectedWeb3`
 * connector and the Polkadot test wallet (@polkadot/keyring dev accounts, in this process). Polkadot is a family the
 * product signs with but reads no chain of (spec 9): signatures verify with @polkadot/util-crypto for the signed
 * message only, a refusal is UserRejected, raw requests pass through, and sending, fees, balances and confirmations
 * are each FeatureUnavailable without a prompt.
 */
import { u8aWrapBytes } from "@polkadot/util"
import { cryptoWaitReady, signatureVerify } from "@polkadot/util-crypto"
import { Effect } from "effect"
import { beforeAll, describe } from "vitest"
import { POLKADOT_TEST_WALLET_KEY } from "../../devstack/wallet/polkadot/extension"
import { makePolkadotTestWallet } from "../../devstack/wallet/polkadot/testWallet"
import { westend } from "../../src/domain/networks"
import type { AccountSession } from "../../src/services/ChainAdapter"
import { makeInjectedWeb3List } from "../../src/services/connectors/injectedWeb3"
import { makePolkadotAdapter } from "../../src/services/polkadot/PolkadotAdapter"
import { chainAdapterContract } from "./support/chainAdapterContract"

beforeAll(async () => {
  await cryptoWaitReady()
})

const verify = (message: string, signature: string, address: string) => {
  const wrapped = u8aWrapBytes(message)
  return signatureVerify(wrapped, signature, address).isValid
}

describe("polkadot ChainAdapter (Node Polkadot test wallet)", () => {
  let approval: "approve" | "reject" = "approve"
  const wallet = makePolkadotTestWallet({ approve: () => approval })
  let session: AccountSession | undefined
  const connected = async (): Promise<AccountSession> => {
    if (session !== undefined) return session
    const list = makeInjectedWeb3List("Dapp under test")
    Effect.runSync(list.read({ [POLKADOT_TEST_WALLET_KEY]: wallet.extension }))
    const connector = list.connectors()[0]
    if (connector === undefined) throw new Error("no Polkadot connector")
    const [family] = await Effect.runPromise(connector.connect([westend]))
    if (family === undefined) throw new Error("the wallet gave no Polkadot session")
    session = { provider: family.provider, address: family.accounts[0]?.address ?? "", network: westend, walletName: "Polkadot Test Wallet" }
    return session
  }
  chainAdapterContract({
    readsChain: false,
    adapter: () => makePolkadotAdapter(),
    network: () => westend,
    session: connected,
    setApproval: (next) => {
      approval = next
    },
    walletRequests: () => wallet.requests,
    verifySignature: async (message, signature, address) => verify(message, signature, address),
    rawRequest: {
      method: "polkadot_signMessage",
      params: (s) => ({ address: s.address, message: "raw request from the contract" }),
      verify: async (result, s) =>
        typeof result === "object" &&
        result !== null &&
        typeof (result as { signature?: unknown }).signature === "string" &&
        verify("raw request from the contract", (result as { signature: string }).signature, s.address)
    },
    unsupportedMethod: "eth_sendTransaction",
    someReceiver: wallet.pairs[1]?.address ?? "",
    unavailableSays: /not available|does not read/i
  })
})
