/**
 * The Connector contract for every way the product reaches a wallet: the EIP-1193 connector over the Node EVM test
 * wallet, the Wallet Standard connector over the Node Solana test wallet, the two as one multi-chain wallet, the
 * Bitcoin Wallet Standard connector over the Node Bitcoin test wallet (and the three as one wallet), and the
 * WalletConnect connector over the devstack relay with the walletkit test wallet (eip155 and solana in one session).
 * Connecting, restoring, account changes and disconnecting need no chain: nothing here reads one, so the networks
 * point at a closed port.
 */
import { getSdkError } from "@walletconnect/utils"
import { Effect, Exit, Option, Scope, Stream, SubscriptionRef } from "effect"
import { afterAll, beforeAll, describe } from "vitest"
import { devAccounts } from "../../devstack/evm/accounts"
import type { Started } from "../../server/src/lib/Started"
import { type RelayInfo, startRelay } from "../../server/src/relay"
import { devBitcoinKey } from "../../devstack/bitcoin/keys"
import { devSolanaKey } from "../../devstack/solana/keys"
import { promptedMethods } from "../../devstack/wallet/page/requests"
import { makeBitcoinTestWallet } from "../../devstack/wallet/bitcoin/testWallet"
import { makeSolanaTestWallet } from "../../devstack/wallet/solana/testWallet"
import { makeTestWallet } from "../../devstack/wallet/testWallet"
import type { ChainNamespace } from "../../src/domain/Caip"
import { type CaipNetwork } from "../../src/domain/Network"
import { bitcoinRegtest, localChainA, localChainB, localSolana, withDefaultRpcUrls } from "../../src/domain/networks"
import { decodeOptionsSync } from "../../src/domain/Options"
import { makeBitcoinStandardConnector } from "../../src/services/connectors/bitcoin"
import type { Connector } from "../../src/services/connectors/Connector"
import { multiChainConnector } from "../../src/services/connectors/Connectors"
import { makeEip1193Connector } from "../../src/services/connectors/eip6963"
import { makeWalletStandardConnector } from "../../src/services/connectors/walletStandard"
import { makeWalletConnect, type PairingState } from "../../src/services/walletconnect/WalletConnect"
import { type ConnectorHarness, connectorContract } from "./support/connectorContract"
import { dappSettings } from "./support/wcSettings"
import { startDevWalletKit } from "./support/walletKit"

// Without it, WalletConnect's Verify waits forever for the hosted verify server (offline here).
process.env.IS_VITEST = "true"

// Nothing listens on port 9: no test here reads a chain, and one that tried would fail at once.
const NOWHERE = "http://127.0.0.1:9"
const chainA = withDefaultRpcUrls(localChainA, { http: [NOWHERE] })
const chainB = withDefaultRpcUrls(localChainB, { http: [NOWHERE] })
const solanaNetwork = withDefaultRpcUrls(localSolana, { http: [NOWHERE] })
const [evm0, evm1] = devAccounts(2)
const SOL0 = devSolanaKey(0).address
const SOL1 = devSolanaKey(1).address
const bitcoinNetwork = withDefaultRpcUrls(bitcoinRegtest, { http: [NOWHERE] })

let relay: Started<RelayInfo>

beforeAll(async () => {
  relay = await startRelay()
})

afterAll(async () => {
  await relay?.stop()
})

type Approval = "approve" | "reject"

/** One family's side of an injected or registered wallet, with the visitor scripted. */
interface Side {
  readonly family: ChainNamespace
  readonly network: CaipNetwork
  readonly expected: { readonly address: string; readonly chainId: string | number }
  readonly connectorOf: () => Connector
  readonly setApproval: (approval: Approval) => void
  readonly changeAccount: () => string
  readonly revoke: () => void
  readonly prompts: () => number
  readonly authorises: () => Promise<boolean>
}

const evmSide = (): Side => {
  let approval: Approval = "approve"
  let prompts = 0
  const wallet = makeTestWallet({
    privateKeys: [evm0!.privateKey, evm1!.privateKey],
    chains: [{ chainId: 31337, name: "Local Chain A", rpcUrl: NOWHERE }],
    chainId: 31337,
    approve: () => {
      prompts++
      return approval
    }
  })
  const info = { id: wallet.identity.rdns, name: "Dev Test Wallet", type: "ANNOUNCED", chain: "eip155", chains: [], info: { rdns: wallet.identity.rdns } } as const
  return {
    family: "eip155",
    network: chainA,
    expected: { address: evm0!.address, chainId: 31337 },
    connectorOf: () => makeEip1193Connector(info, wallet),
    setApproval: (next) => {
      approval = next
    },
    changeAccount: () => {
      wallet.selectAccount(1)
      return wallet.address()
    },
    revoke: () => wallet.revoke(),
    prompts: () => prompts,
    authorises: async () => ((await wallet.request({ method: "eth_accounts" })) as ReadonlyArray<string>).length > 0
  }
}

const solanaSide = (): Side => {
  let approval: Approval = "approve"
  let prompts = 0
  const testWallet = makeSolanaTestWallet({
    rpcUrl: NOWHERE,
    name: "Dev Test Wallet",
    approve: () => {
      prompts++
      return approval
    }
  })
  return {
    family: "solana",
    network: solanaNetwork,
    expected: { address: SOL0, chainId: solanaNetwork.id },
    connectorOf: () => makeWalletStandardConnector(testWallet.wallet),
    setApproval: (next) => {
      approval = next
    },
    changeAccount: () => {
      testWallet.selectAccount(1)
      return testWallet.address()
    },
    revoke: () => testWallet.revoke(),
    prompts: () => prompts,
    authorises: async () => testWallet.authorised
  }
}

const bitcoinSide = (): Side => {
  let approval: Approval = "approve"
  let prompts = 0
  const testWallet = makeBitcoinTestWallet({
    apiUrl: NOWHERE,
    name: "Dev Test Wallet",
    approve: () => {
      prompts++
      return approval
    }
  })
  return {
    family: "bip122",
    network: bitcoinNetwork,
    expected: { address: devBitcoinKey(0).paymentAddress, chainId: bitcoinNetwork.id },
    connectorOf: () => makeBitcoinStandardConnector(testWallet.wallet),
    setApproval: (next) => {
      approval = next
    },
    changeAccount: () => {
      testWallet.selectKey(1)
      return testWallet.key.paymentAddress
    },
    revoke: () => testWallet.revoke(),
    prompts: () => prompts,
    authorises: async () => testWallet.authorised
  }
}

/** A harness over the sides of one wallet: one side alone, or several as one multi-chain wallet. */
const harnessOf = (sides: ReadonlyArray<Side>, connectorOf: () => Connector): ConnectorHarness => {
  let connector = connectorOf()
  const networks = sides.map((side) => side.network)
  return {
    get connector() {
      return connector
    },
    networks,
    expected: () => Object.fromEntries(sides.map((side) => [side.family, side.expected])),
    connect: () => Effect.runPromise(Effect.exit(connector.connect(networks))),
    setApproval: (approval) => sides.forEach((side) => side.setApproval(approval)),
    changeAccount: async (family) => sides.find((side) => side.family === family)!.changeAccount(),
    revoke: async () => sides.forEach((side) => side.revoke()),
    reload: async () => (connector = connectorOf()),
    prompts: () => sides.reduce((sum, side) => sum + side.prompts(), 0),
    walletAuthorises: async () => (await Promise.all(sides.map((side) => side.authorises()))).some(Boolean),
    close: async () => undefined
  }
}

/** The WalletConnect connector of a dapp (its own stored data) and the walletkit wallet serving eip155 and solana. */
const walletConnectHarness = async (): Promise<ConnectorHarness> => {
  const wallet = await startDevWalletKit({
    relayUrl: relay.info.url,
    evm: {
      privateKeys: [evm0!.privateKey, evm1!.privateKey],
      chains: [
        { chainId: 31337, name: "Local Chain A", rpcUrl: NOWHERE },
        { chainId: 31338, name: "Local Chain B", rpcUrl: NOWHERE }
      ],
      chainId: 31337
    },
    solana: { rpcUrl: NOWHERE, caipNetworkId: solanaNetwork.caipNetworkId }
  })
  const options = decodeOptionsSync({
    projectId: "devstack",
    networks: [chainA, chainB, solanaNetwork],
    metadata: { name: "Dapp", description: "Dapp under test", url: "http://127.0.0.1", icons: [] },
    endpoints: { relay: relay.info.url }
  })
  // Kept on disk, so a reload (a new client on the same storage) finds the session.
  const settings = dappSettings()
  const open = async () => {
    const scope = Effect.runSync(Scope.make())
    const service = await Effect.runPromise(Scope.provide(makeWalletConnect(options, settings), scope))
    if (service.connector === undefined) throw new Error("WalletConnect is configured: a connector was expected")
    return { service, connector: service.connector, close: () => Effect.runPromise(Scope.close(scope, Exit.void)) }
  }
  let dapp = await open()
  const networks = [chainA, solanaNetwork]
  const topic = () => Object.keys(wallet.kit.getActiveSessions())[0] ?? ""
  return {
    get connector() {
      return dapp.connector
    },
    networks,
    expected: () => ({ eip155: { address: evm0!.address, chainId: 31337 }, solana: { address: SOL0, chainId: solanaNetwork.id } }),
    connect: async () => {
      const connecting = Effect.runPromise(Effect.exit(dapp.connector.connect(networks)))
      const ready = Effect.runPromise(
        Stream.runHead(
          Stream.filter(SubscriptionRef.changes(dapp.service.pairing), (state): state is Extract<PairingState, { _tag: "Ready" }> => state._tag === "Ready")
        ).pipe(Effect.timeoutOption("20 seconds"), Effect.map(Option.flatten))
      )
      const uri = await Promise.race([ready, connecting.then(() => Option.none())])
      if (Option.isSome(uri)) await wallet.pair(uri.value.uri)
      return connecting
    },
    setApproval: (approval) => {
      wallet.setProposalApproval(approval)
      wallet.setApproval(approval)
    },
    changeAccount: async (family) => {
      const [chainId, address] = family === "eip155" ? ["eip155:31337", evm1!.address] : [solanaNetwork.caipNetworkId, SOL1]
      await wallet.kit.emitSessionEvent({ topic: topic(), chainId, event: { name: "accountsChanged", data: [`${chainId}:${address}`] } })
      return address
    },
    revoke: () => wallet.kit.disconnectSession({ topic: topic(), reason: getSdkError("USER_DISCONNECTED") }),
    reload: async () => {
      await dapp.close()
      dapp = await open()
      return dapp.connector
    },
    prompts: () => wallet.proposals.length + wallet.requests.filter((request) => promptedMethods.has(request.method)).length,
    walletAuthorises: async () => Object.keys(wallet.kit.getActiveSessions()).length > 0,
    close: async () => {
      await dapp.close()
      await wallet.close()
    }
  }
}

describe("EIP-1193 connector (Node EVM test wallet)", () => {
  connectorContract({
    families: ["eip155"],
    make: async () => {
      const side = evmSide()
      return harnessOf([side], side.connectorOf)
    }
  })
})

describe("Wallet Standard connector (Node Solana test wallet)", () => {
  connectorContract({
    families: ["solana"],
    make: async () => {
      const side = solanaSide()
      return harnessOf([side], side.connectorOf)
    }
  })
})

describe("Wallet Standard Bitcoin connector (Node Bitcoin test wallet)", () => {
  connectorContract({
    families: ["bip122"],
    make: async () => {
      const side = bitcoinSide()
      return harnessOf([side], side.connectorOf)
    }
  })
})

describe("multi-chain connector (the EVM, Solana and Bitcoin test wallets as one wallet)", () => {
  connectorContract({
    families: ["eip155", "solana", "bip122"],
    make: async () => {
      const sides = [evmSide(), solanaSide(), bitcoinSide()]
      return harnessOf(sides, () => multiChainConnector(sides.map((side) => side.connectorOf())))
    }
  })
})

describe("multi-chain connector (the EVM and the Solana test wallet as one wallet)", () => {
  connectorContract({
    families: ["eip155", "solana"],
    make: async () => {
      const sides = [evmSide(), solanaSide()]
      return harnessOf(sides, () => multiChainConnector(sides.map((side) => side.connectorOf())))
    }
  })
})

describe("WalletConnect connector (devstack relay, walletkit wallet serving eip155 and solana)", () => {
  connectorContract({ families: ["eip155", "solana"], make: walletConnectHarness })
})
