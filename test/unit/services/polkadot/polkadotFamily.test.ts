// @vitest-environment happy-dom
/**
 * The polkadot family end to end in the runtime's services, with the Polkadot test wallet (@polkadot/keyring dev
 * accounts in this process) as the page's `injectedWeb3` extension, the real discovery, connection, networks and
 * adapter: connect on Westend (the account in Westend's format), sign (sr25519, verified), move to Polkadot (the same
 * account written with prefix 0), the visitor picks the ed25519 account (the signature verifies as ed25519), the
 * account view's balances are said to be unavailable, and revoking the site in the wallet disconnects it.
 */
import { describe, expect, it } from "@effect/vitest"
import { signatureVerify } from "@polkadot/util-crypto"
import { Effect, Layer, SubscriptionRef } from "effect"
import { TestClock } from "effect/testing"
import type { HostOptions } from "../../../../src/domain/Options"
import { polkadot, westend } from "../../../../src/domain/networks"
import { coreLayer } from "../../../../src/layers/Core"
import { ChainAdapters } from "../../../../src/services/ChainAdapter"
import { Config } from "../../../../src/services/Config"
import { Connection, type ConnectionState } from "../../../../src/services/Connection"
import { Connectors } from "../../../../src/services/connectors/Connectors"
import { makeInjectedWeb3List } from "../../../../src/services/connectors/injectedWeb3"
import { Networks } from "../../../../src/services/Networks"
import { Platform } from "../../../../src/services/Platform"
import { makePolkadotAdapter } from "../../../../src/services/polkadot/PolkadotAdapter"
import { encodeSs58, decodeSs58 } from "../../../../src/services/polkadot/ss58"
import { RpcTransport } from "../../../../src/services/RpcTransport/RpcTransport"
import { offlineHttpClientLayer } from "../../../../src/services/serviceHttp"
import { Storage } from "../../../../src/services/Storage/Storage"
import { WalletActions } from "../../../../src/services/WalletActions"
import { SomethingWentWrong } from "../../../../src/domain/errors"
import { createPolkadotTestWallet } from "../../../../devstack/wallet/polkadot/testWallet"
import { POLKADOT_TEST_WALLET_KEY } from "../../../../devstack/wallet/polkadot/extension"
import { decodeOptionsSync } from "../../../../src/domain/Options"

const onPrefix = (address: string, prefix: number) => {
  const decoded = decodeSs58(address)
  if (typeof decoded === "string") throw new Error(decoded)
  return encodeSs58(decoded.accountId, prefix)
}

/** Waits until the connection state satisfies `condition` (wallet events are applied once the wallet is quiet). */
const until = (condition: (state: ConnectionState) => boolean) =>
  Effect.gen(function* () {
    const connection = yield* Connection
    for (let turn = 0; turn < 20; turn++) {
      if (condition(yield* SubscriptionRef.get(connection.state))) return
      for (let i = 0; i < 10; i++) yield* Effect.yieldNow
      yield* TestClock.adjust("50 millis")
    }
    throw new Error(`the connection never reached the state: ${JSON.stringify((yield* SubscriptionRef.get(connection.state)).namespaces.polkadot)}`)
  })

const accountOf = Effect.flatMap(Connection, (connection) => Effect.map(SubscriptionRef.get(connection.state), (state) => state.namespaces.polkadot?.account))

describe("a Polkadot wallet in the runtime", () => {
  it.effect("connects, signs, follows the network's format and the visitor's choices, and says what is not available", () =>
    Effect.gen(function* () {
      const wallet = yield* Effect.promise(() => createPolkadotTestWallet())
      const list = makeInjectedWeb3List("Demo Dapp")
      yield* list.read({ [POLKADOT_TEST_WALLET_KEY]: wallet.extension })
      const options: HostOptions = decodeOptionsSync({ networks: [westend, polkadot], metadata: { name: "Demo Dapp", description: "A test", url: "http://127.0.0.1/", icons: [] } })
      const layer = coreLayer(
        Layer.mergeAll(
          Storage.layerMemory,
          Platform.layerFixed({}),
          Config.layer(options),
          Connectors.layer(list.connectors()),
          ChainAdapters.layer([makePolkadotAdapter()]),
          offlineHttpClientLayer,
          RpcTransport.layerTest(() => Effect.fail(new SomethingWentWrong({ reason: "no RPC" })))
        ),
        []
      )
      yield* Effect.gen(function* () {
        const connection = yield* Connection
        const actions = yield* WalletActions
        const networks = yield* Networks
        const [alice, , charlie] = wallet.pairs
        const connected = yield* connection.connect({ connectorId: "injected-web3:polkadot-test-wallet", networks: [westend] })
        expect(wallet.appNames).toEqual(["Demo Dapp"])
        expect(connected.accounts.polkadot?.address).toBe(alice!.address)
        expect((yield* accountOf)?.caipAddress).toBe(`polkadot:${westend.id}:${alice!.address}`)

        const message = "Hello from the Wallet Runtime demo"
        const signature = yield* actions.signMessage(message)
        const checked = signatureVerify(message, signature, alice!.address)
        expect([checked.isValid, checked.crypto, checked.isWrapped]).toEqual([true, "sr25519", false])
        expect(signatureVerify(new TextEncoder().encode(`<Bytes>${message}</Bytes>`), signature, alice!.address).isValid).toBe(true)

        yield* networks.switchNetwork(polkadot.caipNetworkId)
        yield* until((state) => state.namespaces.polkadot?.account.address === onPrefix(alice!.address, 0))
        expect((yield* accountOf)?.caipAddress).toBe(`polkadot:${polkadot.id}:${onPrefix(alice!.address, 0)}`)

        wallet.selectAccount(2)
        yield* until((state) => state.namespaces.polkadot?.account.address === onPrefix(charlie!.address, 0))
        const edSignature = yield* actions.signMessage(message)
        const edChecked = signatureVerify(message, edSignature, charlie!.address)
        expect([edChecked.isValid, edChecked.crypto]).toEqual([true, "ed25519"])

        const balances = yield* Effect.flip(actions.balances())
        expect([balances._tag, balances.message]).toEqual([
          "FeatureUnavailable",
          "Balances are not available for Polkadot accounts: this site does not read the Polkadot chain."
        ])

        wallet.setApproval("reject")
        const refused = yield* Effect.flip(actions.signMessage(message))
        expect([refused._tag, refused.message]).toEqual(["UserRejected", "User rejected the request."])

        wallet.revoke()
        yield* until((state) => state.namespaces.polkadot?.account.status === "disconnected")
      }).pipe(Effect.provide(layer))
    })
  )
})
