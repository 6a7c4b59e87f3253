/**
 * The WalletConnect connector against the devstack relay and a real wallet-side client (the walletkit dev wallet of
 * support/walletKit.ts, answering eip155 on two anvil chains and solana on the local Solana RPC): pairing, one
 * session for both families, the family providers it hands the real eip155 and solana adapters, the wallet's own
 * events, refusals, disconnecting from either side, a relay restart, a reload, relay refusals and URI expiry.
 */
import type { AddressInfo } from "node:net"
import { describe, expect, it } from "@effect/vitest"
import {
  address,
  createSolanaRpc,
  generateKeyPairSigner,
  getBase58Encoder,
  getPublicKeyFromAddress,
  type Rpc,
  type SignatureBytes,
  type SolanaRpcApi,
  verifySignature
} from "@solana/kit"
import { getSdkError } from "@walletconnect/utils"
import { Effect, Exit, Fiber, Layer, ManagedRuntime, Option, Scope, Stream, SubscriptionRef } from "effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import { TestClock } from "effect/testing"
import { createPublicClient, type Hex, http, verifyMessage } from "viem"
import { afterAll, beforeAll } from "vitest"
import { WebSocketServer } from "ws"
import { type EvmInfo, startEvm } from "../../devstack/evm/index"
import type { Started } from "../../server/src/lib/Started"
import { type RelayInfo, startRelay } from "../../server/src/relay"
import { type SolanaInfo, startSolana } from "../../devstack/solana"
import { devSolanaKey } from "../../devstack/solana/keys"
import type { Alert } from "../../src/domain/alerts"
import { type CaipNetwork } from "../../src/domain/Network"
import { localChainA, localChainB, localSolana, withDefaultRpcUrls } from "../../src/domain/networks"
import { decodeOptionsSync } from "../../src/domain/Options"
import type { AccountSession, ReadRpc } from "../../src/services/ChainAdapter"
import { Config } from "../../src/services/Config"
import { type FamilySession, namespaceOf } from "../../src/services/connectors/Connector"
import { makeEip155Adapter } from "../../src/services/eip155/Eip155Adapter"
import { RpcTransport } from "../../src/services/RpcTransport/RpcTransport"
import { makeSolanaAdapter } from "../../src/services/solana/SolanaAdapter"
import { makeWalletConnect, type PairingState, WALLET_CONNECT_CONNECTOR_ID } from "../../src/services/walletconnect/WalletConnect"
import { follow, until } from "./support/connectorContract"
import { type DevWalletKit, type DevWalletKitOptions, startDevWalletKit } from "./support/walletKit"
import { dappSettings, proposalAtRelay } from "./support/wcSettings"
import type { WalletConnectSettings } from "../../src/services/walletconnect/types"

// Without it, WalletConnect's Verify waits forever for the hosted verify server (offline here).
process.env.IS_VITEST = "true"

let relay: Started<RelayInfo>
let evm: Started<EvmInfo>
let solana: Started<SolanaInfo>
let transport: ManagedRuntime.ManagedRuntime<RpcTransport, never>
let reads: ReadRpc
let rpc: Rpc<SolanaRpcApi>
let chainA: CaipNetwork
let chainB: CaipNetwork
let solanaNetwork: CaipNetwork
const cleanups: Array<() => Promise<void>> = []

beforeAll(async () => {
  ;[relay, evm, solana] = await Promise.all([startRelay(), startEvm(), startSolana()])
  const [a, b] = evm.info.chains
  if (a === undefined || b === undefined) throw new Error("two chains expected")
  chainA = withDefaultRpcUrls(localChainA, { http: [a.rpcUrl] })
  chainB = withDefaultRpcUrls(localChainB, { http: [b.rpcUrl] })
  solanaNetwork = withDefaultRpcUrls(localSolana, { http: [solana.info.rpcUrl], webSocket: [solana.info.wsUrl] })
  // The adapters read through the product's transport, as in a runtime.
  transport = ManagedRuntime.make(
    RpcTransport.layer.pipe(
      Layer.provide(Config.layer(decodeOptionsSync({ networks: [chainA, chainB, solanaNetwork] }))),
      Layer.provide(FetchHttpClient.layer)
    )
  )
  const service = await transport.runPromise(Effect.service(RpcTransport))
  reads = (network, method, params) => service.request(network, { method, params })
  rpc = createSolanaRpc(solana.info.rpcUrl)
})

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined)
  await transport?.dispose()
  await Promise.all([relay?.stop(), evm?.stop(), solana?.stop()])
})

const eip155 = () => makeEip155Adapter({ reads })
const solanaAdapter = () => makeSolanaAdapter({ reads })

/**
 * The wallets on the other side: ours, and WalletConnect's walletkit 1.2.10 (the last Apache-2.0 release), an
 * independent implementation of the same protocol.
 */
const WALLETS = ["ours", "walletkit"] as const
let peer: (typeof WALLETS)[number] = "ours"

/** The dev wallet: EVM dev accounts 0 and 1 on both anvil chains, Solana dev key 0 on the local network. */
const makeWallet = async (families: { readonly evm?: boolean; readonly solana?: boolean } = { evm: true, solana: true }) => {
  const options: DevWalletKitOptions = {
    relayUrl: relay.info.url,
    ...(families.evm === true
      ? {
          evm: {
            privateKeys: evm.info.accounts.slice(0, 2).map((account) => account.privateKey),
            chains: evm.info.chains.map((chain) => ({ chainId: chain.chainId, name: `Local ${chain.chainId}`, rpcUrl: chain.rpcUrl })),
            chainId: 31337
          }
        }
      : {}),
    ...(families.solana === true ? { solana: { rpcUrl: solana.info.rpcUrl, caipNetworkId: solana.info.caipNetworkId } } : {})
  }
  const wallet = await startDevWalletKit({ ...options, implementation: peer })
  cleanups.push(() => wallet.close())
  return wallet
}

/** Settings of the dapp's WalletConnect client; the same ones again stand for the same browser after a reload. */
type DappStorage = WalletConnectSettings
const memoryStorage = (): DappStorage => dappSettings()
const diskStorage = memoryStorage

const dappOptions = (relayUrl: string) =>
  decodeOptionsSync({
    projectId: "devstack",
    networks: [chainA, chainB, solanaNetwork],
    metadata: { name: "Dapp", description: "Dapp under test", url: "http://127.0.0.1", icons: [] },
    endpoints: { relay: relayUrl }
  })

/** Our side: the WalletConnect service as the runtime makes it, living in its own scope. */
const makeDapp = async (storage: DappStorage = memoryStorage(), relayUrl = relay.info.url) => {
  const scope = Effect.runSync(Scope.make())
  const service = await Effect.runPromise(
    Scope.provide(makeWalletConnect(dappOptions(relayUrl), storage), scope)
  )
  const connector = service.connector
  if (connector === undefined) throw new Error("a projectId is configured: WalletConnect was expected")
  const heard = await follow(connector)
  let closed = false
  const dispose = async () => {
    if (closed) return
    closed = true
    await heard.stop()
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
  cleanups.push(dispose)
  return { service, connector, events: heard.events, dispose }
}
type Dapp = Awaited<ReturnType<typeof makeDapp>>

const readyUri = (pairing: SubscriptionRef.SubscriptionRef<PairingState>, not?: string) =>
  SubscriptionRef.changes(pairing).pipe(
    Stream.filter((s): s is Extract<PairingState, { _tag: "Ready" }> => s._tag === "Ready" && s.uri !== not),
    Stream.runHead,
    Effect.map(Option.getOrThrow)
  )

/** Connects on chain A (and the local Solana network) unless told: the wallet scans the URI the dapp shows. */
const connectThrough = async (dapp: Dapp, wallet: DevWalletKit, networks: ReadonlyArray<CaipNetwork> = [chainA, solanaNetwork]) => {
  const connecting = Effect.runPromise(Effect.exit(dapp.connector.connect(networks)))
  const shown = Effect.runPromise(readyUri(dapp.service.pairing).pipe(Effect.timeoutOption("20 seconds")))
  const ready = await Promise.race([shown, connecting.then(() => Option.none())])
  if (Option.isSome(ready)) {
    expect(ready.value.uri.startsWith("wc:")).toBe(true)
    await wallet.pair(ready.value.uri)
  }
  return connecting
}

const familySession = (sessions: ReadonlyArray<FamilySession>, namespace: "eip155" | "solana", network: CaipNetwork): AccountSession => {
  const session = sessions.find((s) => namespaceOf(s) === namespace)
  if (session === undefined) throw new Error(`no ${namespace} session`)
  return { provider: session.provider, address: session.accounts[0]!.address, network, walletName: "WalletConnect" }
}

/** Pairs a fresh dapp and wallet into a session; the sessions of both families, ready for the adapters. */
const connected = async (storage?: DappStorage) => {
  const dapp = await makeDapp(storage)
  const wallet = await makeWallet()
  const exit = await connectThrough(dapp, wallet)
  if (Exit.isFailure(exit)) throw new Error(`connect failed: ${String(exit.cause)}`)
  const sessions = exit.value
  return { dapp, wallet, sessions, evmSession: familySession(sessions, "eip155", chainA), solanaSession: familySession(sessions, "solana", solanaNetwork) }
}

const errorOf = <A, E>(exit: Exit.Exit<A, E>): E => {
  const error = Exit.isFailure(exit) ? Exit.findErrorOption(exit) : Option.none()
  if (Option.isNone(error)) throw new Error(`expected a typed failure, got ${JSON.stringify(exit)}`)
  return error.value
}

const verifiesSolana = async (message: string, signature: string, signer: string) =>
  verifySignature(await getPublicKeyFromAddress(address(signer)), getBase58Encoder().encode(signature) as SignatureBytes, new TextEncoder().encode(message))

describe.each(WALLETS)("WalletConnect connector against the devstack relay and a real wallet (wallet: %s)", (implementation) => {
  beforeAll(() => {
    peer = implementation
  })

  it("is listed for every configured family it serves, and loads the universal provider only when used", async () => {
    const dapp = await makeDapp()
    expect(dapp.connector.info).toMatchObject({ id: WALLET_CONNECT_CONNECTOR_ID, type: "WALLET_CONNECT", name: "WalletConnect" })
    expect(dapp.connector.namespaces).toEqual(["eip155", "solana"])
    expect(dapp.connector.info.chains).toEqual(["eip155:31337", "eip155:31338", solanaNetwork.caipNetworkId])
    expect(await Effect.runPromise(dapp.service.loaded)).toBe(false)
    expect(await Effect.runPromise(dapp.service.freshUri)).toBeUndefined()
  })

  it("pairs through a wc: URI into a session on 31337 and 31338, and the wallet signs", async () => {
    const { dapp, wallet, sessions, evmSession } = await connected()
    const evmSide = sessions.find((s) => namespaceOf(s) === "eip155")
    expect(evmSide).toMatchObject({ chainId: 31337, accounts: [{ address: wallet.evm!.address() }] })
    expect(wallet.proposals).toHaveLength(1)
    expect(wallet.proposals[0]?.optionalNamespaces["eip155"]?.chains).toEqual(["eip155:31337", "eip155:31338"])
    expect(await Effect.runPromise(dapp.service.loaded)).toBe(true)

    const signature = await Effect.runPromise(eip155().signMessage(evmSession, "hello over WalletConnect"))
    expect(await verifyMessage({ address: wallet.evm!.address(), message: "hello over WalletConnect", signature: signature as Hex })).toBe(true)
    expect(wallet.requests).toContainEqual({ method: "personal_sign", chainId: "eip155:31337" })
    expect(await Effect.runPromise(SubscriptionRef.get(dapp.service.pairing))).toEqual({ _tag: "Idle" })
  })

  it("starts the wallet on the network the visitor is on (31338), and signs there", async () => {
    const dapp = await makeDapp()
    const wallet = await makeWallet()
    const exit = await connectThrough(dapp, wallet, [chainB, solanaNetwork])
    if (Exit.isFailure(exit)) throw new Error(`connect failed: ${String(exit.cause)}`)
    expect(wallet.proposals[0]?.optionalNamespaces["eip155"]?.chains).toEqual(["eip155:31338", "eip155:31337"])
    expect(exit.value.find((s) => namespaceOf(s) === "eip155")?.chainId).toBe(31338)
    const signature = await Effect.runPromise(eip155().signMessage(familySession(exit.value, "eip155", chainB), "on chain B"))
    expect(await verifyMessage({ address: wallet.evm!.address(), message: "on chain B", signature: signature as Hex })).toBe(true)
    expect(wallet.requests).toContainEqual({ method: "personal_sign", chainId: "eip155:31338" })
  })

  it("switches to 31338 inside the session and sends a transaction mined there", async () => {
    const { dapp, wallet, evmSession } = await connected()
    await Effect.runPromise(eip155().switchNetwork(evmSession, chainB))
    await until(() => dapp.events.some((e) => e._tag === "ChainChanged" && e.namespace === "eip155" && e.chainId === 31338), "ChainChanged to 31338")

    const to = "0x000000000000000000000000000000000000dEaD"
    const client = createPublicClient({ transport: http(chainB.rpcUrls.default.http[0]) })
    const before = await client.getBalance({ address: to })
    const onB = { ...evmSession, network: chainB }
    const hash = await Effect.runPromise(eip155().send(onB, { to, value: 12345n }))
    const confirmation = await Effect.runPromise(eip155().waitForTransaction(hash, chainB))
    expect(confirmation).toMatchObject({ hash, status: "success" })
    expect(await client.getBalance({ address: to })).toBe(before + 12345n)
    expect(wallet.requests).toContainEqual({ method: "eth_sendTransaction", chainId: "eip155:31338" })
  })

  it("follows the wallet's own chain and account changes", async () => {
    const { dapp, wallet } = await connected()
    const topic = Object.keys(wallet.kit.getActiveSessions())[0] ?? ""
    await wallet.kit.emitSessionEvent({ topic, chainId: "eip155:31338", event: { name: "chainChanged", data: 31338 } })
    await until(() => dapp.events.some((e) => e._tag === "ChainChanged" && e.chainId === 31338), "ChainChanged to 31338")

    const other = evm.info.accounts[1]!.address
    await wallet.kit.emitSessionEvent({ topic, chainId: "eip155:31338", event: { name: "accountsChanged", data: [`eip155:31338:${other}`] } })
    await until(
      () => dapp.events.some((e) => e._tag === "AccountsChanged" && e.namespace === "eip155" && e.accounts[0]?.address === other),
      "AccountsChanged on eip155"
    )
  })

  it("brings the wallet's refusal as UserRejected (5000), in either family", async () => {
    const { wallet, evmSession, solanaSession } = await connected()
    wallet.setApproval("reject")
    const refusedEvm = errorOf(await Effect.runPromise(Effect.exit(eip155().signMessage(evmSession, "refuse me"))))
    expect(refusedEvm).toMatchObject({ _tag: "UserRejected", code: 5000 })
    const refusedSolana = errorOf(await Effect.runPromise(Effect.exit(solanaAdapter().signMessage(solanaSession, "refuse me"))))
    expect(refusedSolana).toMatchObject({ _tag: "UserRejected", code: 5000 })
  })

  it("a refused proposal fails the connect as UserRejected", async () => {
    const dapp = await makeDapp()
    const wallet = await makeWallet()
    wallet.setProposalApproval("reject")
    const refused = errorOf(await connectThrough(dapp, wallet))
    expect(refused).toMatchObject({ _tag: "UserRejected", code: 5000 })
    expect(Object.keys(wallet.kit.getActiveSessions())).toEqual([])
  })

  it("a wallet without Solana approves eip155 alone: the session serves that family only", async () => {
    const dapp = await makeDapp()
    const wallet = await makeWallet({ evm: true })
    const exit = await connectThrough(dapp, wallet)
    expect(Exit.isSuccess(exit) && exit.value.map(namespaceOf)).toEqual(["eip155"])
    expect(Object.keys(wallet.proposals[0]?.optionalNamespaces ?? {}).sort()).toEqual(["eip155", "solana"])
  })

  it("the wallet disconnecting ends the session on our side", async () => {
    const { dapp, wallet } = await connected()
    const topic = Object.keys(wallet.kit.getActiveSessions())[0] ?? ""
    await wallet.kit.disconnectSession({ topic, reason: getSdkError("USER_DISCONNECTED") })
    await until(() => dapp.events.some((e) => e._tag === "Disconnected" && e.namespace === undefined), "Disconnected")
    expect(await Effect.runPromise(dapp.connector.reconnect([chainA, solanaNetwork]))).toEqual([])
  })

  it("disconnecting on our side ends the session in the wallet", async () => {
    const { dapp, wallet } = await connected()
    await Effect.runPromise(dapp.connector.disconnect)
    await until(() => wallet.deleted() === 1, "the wallet hearing the disconnect")
    expect(Object.keys(wallet.kit.getActiveSessions())).toEqual([])
    expect(await Effect.runPromise(dapp.connector.reconnect([chainA, solanaNetwork]))).toEqual([])
  })

  it("keeps the session through a relay restart", async () => {
    const { wallet, evmSession, solanaSession } = await connected()
    await relay.info.restart()
    const signature = await Effect.runPromise(eip155().signMessage(evmSession, "after the restart"))
    expect(await verifyMessage({ address: wallet.evm!.address(), message: "after the restart", signature: signature as Hex })).toBe(true)
    const solanaSignature = await Effect.runPromise(solanaAdapter().signMessage(solanaSession, "after the restart"))
    expect(await verifiesSolana("after the restart", solanaSignature, solanaSession.address)).toBe(true)
  })

  it("restores the session after a reload, without a new pairing, and signs with it", async () => {
    const storage = diskStorage()
    const { dapp, wallet, sessions } = await connected(storage)
    await dapp.dispose()

    const reloaded = await makeDapp(storage)
    const restored = await Effect.runPromise(reloaded.connector.reconnect([chainA, solanaNetwork]))
    expect(restored.map((s) => [namespaceOf(s), s.accounts[0]?.address, s.chainId])).toEqual(
      sessions.map((s) => [namespaceOf(s), s.accounts[0]?.address, s.chainId])
    )
    expect(wallet.proposals).toHaveLength(1)
    const evmSession = familySession(restored, "eip155", chainA)
    const signature = await Effect.runPromise(eip155().signMessage(evmSession, "after the reload"))
    expect(await verifyMessage({ address: wallet.evm!.address(), message: "after the reload", signature: signature as Hex })).toBe(true)
  })

  it("restores nothing when no session was stored", async () => {
    const dapp = await makeDapp()
    expect(await Effect.runPromise(dapp.connector.reconnect([chainA, solanaNetwork]))).toEqual([])
  })

  it.each([
    ["Unauthorized: invalid key", "INVALID_PROJECT_ID"],
    ["Unauthorized: origin not allowed", "INVALID_APP_CONFIGURATION"]
  ])("a relay closing with '%s' fails the pairing and raises %s once", async (reason, alertId) => {
    const refusing = new WebSocketServer({ host: "127.0.0.1", port: 0 })
    refusing.on("connection", (socket) => socket.close(3000, reason))
    await new Promise((resolve) => refusing.once("listening", resolve))
    cleanups.push(() => new Promise((resolve) => refusing.close(() => resolve())))
    const dapp = await makeDapp(memoryStorage(), `ws://127.0.0.1:${(refusing.address() as AddressInfo).port}`)
    const alerts: Array<Alert> = []
    const listening = Effect.runFork(Stream.runForEach(dapp.service.alerts, (alert) => Effect.sync(() => void alerts.push(alert))))
    cleanups.push(() => Effect.runPromise(Fiber.interrupt(listening)))
    const exit = await Effect.runPromise(Effect.exit(dapp.connector.connect([chainA])))
    expect(errorOf(exit).message).toContain(reason)
    await until(() => alerts.length > 0, "the alert")
    expect(alerts.map((alert) => alert.id)).toEqual([alertId])
    expect(await Effect.runPromise(SubscriptionRef.get(dapp.service.pairing))).toMatchObject({ _tag: "Failed" })
  })

  it.effect("replaces the pairing URI 10 s before its 4 minutes are up, and pairs with the new one", () =>
    Effect.gen(function* () {
      // The test's clock starts at the wall clock's time: the URI carries its expiry as a date, and the wallet,
      // another program, reads it with its own clock.
      const start = Math.floor(Date.now() / 1000) * 1000
      yield* TestClock.setTime(start)
      const storage = memoryStorage()
      const service = yield* makeWalletConnect(dappOptions(relay.info.url), storage)
      const connector = service.connector!
      const wallet = yield* Effect.promise(() => makeWallet())
      const connecting = yield* Effect.forkChild(connector.connect([chainA, solanaNetwork]))
      const first = yield* readyUri(service.pairing)
      expect(first.expiresAt).toBe(start + 4 * 60_000 - 10_000)
      // The URI shows at once, its proposal follows: the clock moves once the relay has it.
      yield* Effect.promise(() => proposalAtRelay(relay.info.url, first.uri))
      yield* TestClock.adjust("229 seconds")
      expect(yield* service.freshUri).toBe(first.uri)
      yield* TestClock.adjust("1 second")
      const second = yield* readyUri(service.pairing, first.uri)
      expect(second.uri).not.toBe(first.uri)
      expect(second.expiresAt).toBe(start + 230_000 + 230_000)
      expect(yield* service.freshUri).toBe(second.uri)
      yield* Effect.promise(() => proposalAtRelay(relay.info.url, second.uri))
      yield* Effect.promise(() => wallet.pair(second.uri))
      const sessions = yield* Fiber.join(connecting)
      expect(sessions.map((s) => [namespaceOf(s), s.accounts[0]?.address])).toEqual([
        ["eip155", wallet.evm!.address()],
        ["solana", devSolanaKey(0).address]
      ])
      expect(wallet.proposals).toHaveLength(1)
      yield* connector.disconnect
    }).pipe(Effect.scoped)
  )
})

describe.each(WALLETS)("one WalletConnect session serving eip155 and solana (wallet: %s)", (implementation) => {
  beforeAll(() => {
    peer = implementation
  })

  it("gives both accounts; a Solana message signed and verified; SOL and WSUSD sent that land", async () => {
    const { wallet, sessions, solanaSession } = await connected()
    expect(sessions.map((s) => [namespaceOf(s), s.accounts.map((a) => a.address), s.chainId])).toEqual([
      ["eip155", [wallet.evm!.address()], 31337],
      ["solana", [devSolanaKey(0).address], solanaNetwork.id]
    ])
    expect(wallet.proposals[0]?.optionalNamespaces["solana"]?.chains).toEqual([solana.info.caipNetworkId])

    const message = "Sign in with Solana over WalletConnect, nonce 9"
    const signature = await Effect.runPromise(solanaAdapter().signMessage(solanaSession, message))
    expect(await verifiesSolana(message, signature, solanaSession.address)).toBe(true)
    expect(await verifiesSolana(`${message}!`, signature, solanaSession.address)).toBe(false)

    const receiver = (await generateKeyPairSigner()).address
    const sent = await Effect.runPromise(solanaAdapter().send(solanaSession, { to: receiver, value: 20_000_000n }))
    const confirmation = await Effect.runPromise(solanaAdapter().waitForTransaction(sent, solanaNetwork))
    expect(confirmation).toMatchObject({ namespace: "solana", hash: sent, status: "success" })
    expect((await rpc.getBalance(receiver).send()).value).toBe(20_000_000n)

    const mint = solana.info.tokens[0]!.address
    const tokens = await Effect.runPromise(solanaAdapter().send(solanaSession, { to: receiver, value: 4_000_000n, token: mint }))
    await Effect.runPromise(solanaAdapter().waitForTransaction(tokens, solanaNetwork))
    const held = await rpc.getTokenAccountsByOwner(receiver, { mint: address(mint) }, { encoding: "jsonParsed" }).send()
    expect(held.value.map((entry) => entry.account.data.parsed.info.tokenAmount.amount)).toEqual(["4000000"])
    expect(wallet.requests.filter((r) => r.method === "solana_signAndSendTransaction")).toEqual([
      { method: "solana_signAndSendTransaction", chainId: solana.info.caipNetworkId },
      { method: "solana_signAndSendTransaction", chainId: solana.info.caipNetworkId }
    ])
  })

  it("reports an account change on the Solana side as AccountsChanged on solana", async () => {
    const { dapp, wallet } = await connected()
    const topic = Object.keys(wallet.kit.getActiveSessions())[0] ?? ""
    const other = devSolanaKey(1).address
    await wallet.kit.emitSessionEvent({
      topic,
      chainId: solana.info.caipNetworkId,
      event: { name: "accountsChanged", data: [`${solana.info.caipNetworkId}:${other}`] }
    })
    await until(
      () => dapp.events.some((e) => e._tag === "AccountsChanged" && e.namespace === "solana" && e.accounts[0]?.address === other),
      "AccountsChanged on solana"
    )
    expect(dapp.events.some((e) => e._tag === "AccountsChanged" && e.namespace === "eip155")).toBe(false)
  })
})
