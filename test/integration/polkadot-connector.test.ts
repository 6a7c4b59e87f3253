/**
 * The Connector contract (support/connectorContract.ts) for the `injectedWeb3` connector over the Polkadot test
 * wallet (@polkadot/keyring dev accounts, in this process): connect, refusal, restore, account changes and
 * disconnect, with the two limits of the polkadot-js extension protocol stated to the contract (no silent connect: a
 * restore asks the extension; no disconnect from the site: the extension keeps the site, the connector stops
 * hearing it).
 */
import { cryptoWaitReady } from "@polkadot/util-crypto"
import { Effect } from "effect"
import { beforeAll, describe } from "vitest"
import { POLKADOT_TEST_WALLET_KEY } from "../../devstack/wallet/polkadot/extension"
import { makePolkadotTestWallet } from "../../devstack/wallet/polkadot/testWallet"
import { westend } from "../../src/domain/networks"
import { makeInjectedWeb3List } from "../../src/services/connectors/injectedWeb3"
import type { Connector } from "../../src/services/connectors/Connector"
import { type ConnectorHarness, connectorContract } from "./support/connectorContract"

beforeAll(async () => {
  await cryptoWaitReady()
})

const polkadotHarness = async (): Promise<ConnectorHarness> => {
  let approval: "approve" | "reject" = "approve"
  let prompts = 0
  const wallet = makePolkadotTestWallet({
    approve: () => {
      prompts++
      return approval
    }
  })
  const connectorOf = (): Connector => {
    const list = makeInjectedWeb3List("Dapp under test")
    Effect.runSync(list.read({ [POLKADOT_TEST_WALLET_KEY]: wallet.extension }))
    return list.connectors()[0]!
  }
  let connector = connectorOf()
  const networks = [westend]
  return {
    get connector() {
      return connector
    },
    networks,
    // Westend writes addresses with the generic prefix 42, as the keyring gives them.
    expected: () => ({ polkadot: { address: wallet.pairs[0]!.address, chainId: westend.id } }),
    connect: () => Effect.runPromise(Effect.exit(connector.connect(networks))),
    setApproval: (next) => {
      approval = next
    },
    changeAccount: async () => {
      wallet.selectAccount(1)
      return wallet.address()
    },
    revoke: async () => wallet.revoke(),
    reload: async () => (connector = connectorOf()),
    prompts: () => prompts,
    walletAuthorises: async () => wallet.authorised,
    close: async () => undefined
  }
}

describe("injectedWeb3 connector (Node Polkadot test wallet)", () => {
  connectorContract({ families: ["polkadot"], make: polkadotHarness, limits: { askOnRestore: true, keepsSiteOnDisconnect: true } })
})
