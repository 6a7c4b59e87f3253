import { randomUUID } from "node:crypto"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import type { AddressInfo } from "node:net"
import { join } from "node:path"
import { describe, expect, it } from "@effect/vitest"
import { buildApprovedNamespaces, getSdkError } from "@walletconnect/utils"
import { Effect, Exit, Fiber, Layer, ManagedRuntime, Option, Scope, Stream, SubscriptionRef } from "effect"
import { TestClock } from "effect/testing"
import { createPublicClient, http, verifyMessage } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { afterAll, beforeAll } from "vitest"
import { WebSocketServer } from "ws"
import { startEvm } from "../../devstack/evm/index"
import type { Started } from "../../devstack/lib/Started"
import { type RelayInfo, startRelay } from "../../devstack/relay"
import { makeTestWallet, type TestWallet } from "../../devstack/wallet/testWallet"
import { type CaipNetwork, localChainA, localChainB, withDefaultRpcUrls } from "../../src/domain/Network"
import { decodeOptionsSync } from "../../src/domain/Options"
import type { AdapterEvent } from "../../src/services/ChainAdapter"
import { Config } from "../../src/services/Config"
import type { ReadRpc } from "../../src/services/eip155/Eip155Adapter"
import { makeStaticDirectory } from "../../src/services/eip155/ProviderDirectory"
import { makeEip155AdapterWithWalletConnect } from "../../src/services/walletconnect/eip155"
import { EIP155_METHODS, SESSION_EVENTS } from "../../src/services/walletconnect/namespaces"
import { type PairingState, WALLET_CONNECT_CONNECTOR_ID, WalletConnect } from "../../src/services/walletconnect/WalletConnect"
import { initTestWalletKit } from "./support/walletKit"

// Without it, WalletConnect's Verify waits forever for the hosted verify server (offline here).
process.env.IS_VITEST = "true"

let relay: Started<RelayInfo>
let stopEvm: () => Promise<void> = async () => {}
let chainA: CaipNetwork
let chainB: CaipNetwork
let privateKeys: ReadonlyArray<`0x${string}`> = []
const cleanups: Array<() => Promise<void>> = []

beforeAll(async () => {
  const [evm, started] = await Promise.all([startEvm(), startRelay()])
  relay = started
  stopEvm = evm.stop
  const [a, b] = evm.info.chains
  if (a === undefined || b === undefined) throw new Error("two chains expected")
  chainA = withDefaultRpcUrls(localChainA, { http: [a.rpcUrl] })
  chainB = withDefaultRpcUrls(localChainB, { http: [b.rpcUrl] })
  privateKeys = evm.info.accounts.slice(0, 2).map((account) => account.privateKey)
})

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined)
  await relay.stop()
  await stopEvm()
})

// Reads straight over HTTP here; the product wires RpcTransport in their place.
const reads: ReadRpc = (network, method, params) =>
  Effect.tryPromise({
    try: async () => {
      const response = await fetch(network.rpcUrls.default.http[0] ?? "", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params })
      })
      const body = (await response.json()) as { result?: unknown; error?: { message: string } }
      if (body.error !== undefined) throw new Error(body.error.message)
      return body.result
    },
    catch: (error) => error as Error
  })

/** A real wallet-side client (WalletKit) that signs and sends with the devstack test wallet. */
const makeWallet = async () => {
  const signer: TestWallet = makeTestWallet({
    privateKeys,
    chains: [
      { chainId: 31337, name: "A", rpcUrl: chainA.rpcUrls.default.http[0] ?? "" },
      { chainId: 31338, name: "B", rpcUrl: chainB.rpcUrls.default.http[0] ?? "" }
    ],
    chainId: 31337
  })
  const kit = await initTestWalletKit(relay.info.url)
  const state = { rejectProposals: false, proposals: [] as Array<ReadonlyArray<string>>, deleted: 0 }
  kit.on("session_proposal", ({ id, params }) => {
    const respond = async () => {
      state.proposals.push(Object.values(params.optionalNamespaces).flatMap((ns) => ns.chains ?? []))
      if (state.rejectProposals) return kit.rejectSession({ id, reason: getSdkError("USER_REJECTED") })
      await signer.request({ method: "eth_requestAccounts" })
      const namespaces = buildApprovedNamespaces({
        proposal: params,
        supportedNamespaces: {
          eip155: {
            chains: ["eip155:31337", "eip155:31338"],
            methods: [...EIP155_METHODS],
            events: [...SESSION_EVENTS],
            accounts: [`eip155:31337:${signer.address()}`, `eip155:31338:${signer.address()}`]
          }
        }
      })
      await kit.approveSession({ id, namespaces })
    }
    void respond()
  })
  kit.on("session_request", ({ topic, id, params }) => {
    const respond = async () => {
      signer.moveToChain(Number(params.chainId.split(":")[1]))
      try {
        const result = await signer.request(params.request)
        await kit.respondSessionRequest({ topic, response: { id, jsonrpc: "2.0", result } })
      } catch (error) {
        const code = (error as { code?: number }).code
        const failure = code === 4001 ? getSdkError("USER_REJECTED") : { code: code ?? -32603, message: String(error) }
        await kit.respondSessionRequest({ topic, response: { id, jsonrpc: "2.0", error: failure } })
      }
    }
    void respond()
  })
  kit.on("session_delete", () => {
    state.deleted++
  })
  const close = async () => {
    await kit.core.relayer.transportClose().catch(() => undefined)
    kit.core.heartbeat.stop()
  }
  cleanups.push(close)
  return { kit, signer, state, pair: (uri: string) => kit.pair({ uri }) }
}

/** Our side: the WalletConnect service and the eip155 adapter over it, as the runtime builds them. */
const dappLayer = (storage = { prefix: `dapp-${randomUUID()}`, database: ":memory:" }, relayUrl = relay.info.url) =>
  WalletConnect.layerWith({ customStoragePrefix: storage.prefix, storageOptions: { database: storage.database } }).pipe(
    Layer.provide(
      Config.layer(
        decodeOptionsSync({
          projectId: "devstack",
          networks: [chainA, chainB],
          metadata: { name: "Dapp", description: "Dapp under test", url: "http://127.0.0.1", icons: [] },
          endpoints: { relay: relayUrl }
        })
      )
    )
  )

const makeDapp = async (storage?: { readonly prefix: string; readonly database: string }) => {
  const runtime = ManagedRuntime.make(dappLayer(storage))
  const scope = Effect.runSync(Scope.make())
  cleanups.push(async () => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    await runtime.dispose()
  })
  const directory = await Effect.runPromise(makeStaticDirectory([]))
  const adapter = await runtime.runPromise(Scope.provide(makeEip155AdapterWithWalletConnect({ directory, reads }), scope))
  const wc = await runtime.runPromise(Effect.service(WalletConnect))
  const events: Array<AdapterEvent> = []
  Effect.runFork(Stream.runForEach(adapter.events, (event) => Effect.sync(() => events.push(event))))
  const dispose = async () => {
    await Effect.runPromise(Scope.close(scope, Exit.void))
    await runtime.dispose()
  }
  return { adapter, wc, events, run: runtime.runPromise, dispose }
}

const readyUri = (pairing: SubscriptionRef.SubscriptionRef<PairingState>, not?: string) =>
  SubscriptionRef.changes(pairing).pipe(
    Stream.filter((s): s is Extract<PairingState, { _tag: "Ready" }> => s._tag === "Ready" && s.uri !== not),
    Stream.runHead,
    Effect.map(Option.getOrThrow)
  )

const until = async (check: () => boolean) => {
  for (let i = 0; i < 400 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 25))
  expect(check()).toBe(true)
}

/** Pairs a fresh dapp and wallet into a session and returns both. */
const connected = async (storage?: { readonly prefix: string; readonly database: string }) => {
  const dapp = await makeDapp(storage)
  const wallet = await makeWallet()
  const connecting = dapp.run(dapp.adapter.connect(WALLET_CONNECT_CONNECTOR_ID, chainA))
  const { uri } = await dapp.run(readyUri(dapp.wc.pairing))
  await wallet.pair(uri)
  const session = await connecting
  return { dapp, wallet, session }
}

describe("WalletConnect connector against the devstack relay and a real wallet", () => {
  it("lists WalletConnect and loads the universal provider only when it is chosen", async () => {
    const dapp = await makeDapp()
    const connectors = await dapp.run(SubscriptionRef.get(dapp.adapter.connectors))
    expect(connectors.map((c) => [c.id, c.type])).toEqual([[WALLET_CONNECT_CONNECTOR_ID, "WALLET_CONNECT"]])
    expect(await dapp.run(dapp.wc.loaded)).toBe(false)
  })

  it("pairs through a wc: URI into a session on 31337 and 31338, and the wallet signs", async () => {
    const { dapp, wallet, session } = await connected()
    expect(session.address).toBe(wallet.signer.address())
    expect(session.chainId).toBe(31337)
    expect(session.connector.type).toBe("WALLET_CONNECT")
    expect(wallet.state.proposals[0]).toEqual(["eip155:31337", "eip155:31338"])

    const signature = await dapp.run(dapp.adapter.signMessage("hello over WalletConnect"))
    expect(await verifyMessage({ address: wallet.signer.address(), message: "hello over WalletConnect", signature: signature as `0x${string}` })).toBe(true)
    expect(await dapp.run(SubscriptionRef.get(dapp.wc.pairing))).toEqual({ _tag: "Idle" })
  })

  it("switches to 31338 inside the session and sends a transaction mined there", async () => {
    const { dapp, wallet } = await connected()
    await dapp.run(dapp.adapter.switchNetwork(chainB))
    await until(() => dapp.events.some((e) => e._tag === "ChainChanged" && e.chainId === 31338))

    const to = "0x000000000000000000000000000000000000dEaD"
    const client = createPublicClient({ transport: http(chainB.rpcUrls.default.http[0]) })
    const before = await client.getBalance({ address: to })
    const hash = await dapp.run(dapp.adapter.sendTransaction({ to, value: 12345n }))
    const receipt = await dapp.run(dapp.adapter.waitForReceipt(hash, chainB))
    expect(receipt.status).toBe("success")
    expect(await client.getBalance({ address: to })).toBe(before + 12345n)
    expect(wallet.signer.requests).toContain("eth_sendTransaction")
  })

  it("follows the wallet's own chain and account changes", async () => {
    const { dapp, wallet } = await connected()
    const topic = Object.keys(wallet.kit.getActiveSessions())[0] ?? ""
    await wallet.kit.emitSessionEvent({ topic, chainId: "eip155:31338", event: { name: "chainChanged", data: 31338 } })
    await until(() => dapp.events.some((e) => e._tag === "ChainChanged" && e.chainId === 31338))

    const other = privateKeyToAccount(privateKeys[1] ?? "0x").address
    await wallet.kit.emitSessionEvent({ topic, chainId: "eip155:31338", event: { name: "accountsChanged", data: [other] } })
    await until(() => dapp.events.some((e) => e._tag === "AccountsChanged" && e.accounts[0]?.address === other))
  })

  it("brings the wallet's refusal as UserRejected (5000)", async () => {
    const { dapp, wallet } = await connected()
    wallet.signer.setApproval("reject")
    const exit = await dapp.run(Effect.exit(dapp.adapter.signMessage("refuse me")))
    expect(exit).toMatchObject({ _tag: "Failure" })
    expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toContain("UserRejected")
    expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toContain("5000")
  })

  it("a refused proposal fails the connect as UserRejected", async () => {
    const dapp = await makeDapp()
    const wallet = await makeWallet()
    wallet.state.rejectProposals = true
    const connecting = dapp.run(Effect.exit(dapp.adapter.connect(WALLET_CONNECT_CONNECTOR_ID, chainA)))
    const { uri } = await dapp.run(readyUri(dapp.wc.pairing))
    await wallet.pair(uri)
    const exit = await connecting
    expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toContain("UserRejected")
  })

  it("the wallet disconnecting ends the session on our side", async () => {
    const { dapp, wallet } = await connected()
    const topic = Object.keys(wallet.kit.getActiveSessions())[0] ?? ""
    await wallet.kit.disconnectSession({ topic, reason: getSdkError("USER_DISCONNECTED") })
    await until(() => dapp.events.some((e) => e._tag === "Disconnected"))
    const exit = await dapp.run(Effect.exit(dapp.adapter.reconnect(WALLET_CONNECT_CONNECTOR_ID, chainA)))
    expect(exit).toEqual(Exit.succeed(Option.none()))
  })

  it("disconnecting on our side ends the session in the wallet", async () => {
    const { dapp, wallet } = await connected()
    await dapp.run(dapp.adapter.disconnect)
    await until(() => wallet.state.deleted === 1)
    expect(Object.keys(wallet.kit.getActiveSessions())).toEqual([])
  })

  it("keeps the session through a relay restart", async () => {
    const { dapp, wallet } = await connected()
    await relay.info.restart()
    const signature = await dapp.run(dapp.adapter.signMessage("after the restart"))
    expect(await verifyMessage({ address: wallet.signer.address(), message: "after the restart", signature: signature as `0x${string}` })).toBe(true)
  })

  it("restores the session after a reload, without a new pairing, and signs with it", async () => {
    const storage = { prefix: `dapp-${randomUUID()}`, database: join(mkdtempSync(join(tmpdir(), "wc-")), "wc.db") }
    const { dapp, wallet } = await connected(storage)
    await dapp.dispose()

    const reloaded = await makeDapp(storage)
    const restored = await reloaded.run(reloaded.adapter.reconnect(WALLET_CONNECT_CONNECTOR_ID, chainA))
    expect(Option.map(restored, (session) => session.address)).toEqual(Option.some(wallet.signer.address()))
    expect(wallet.state.proposals).toHaveLength(1)
    const signature = await reloaded.run(reloaded.adapter.signMessage("after the reload"))
    expect(await verifyMessage({ address: wallet.signer.address(), message: "after the reload", signature: signature as `0x${string}` })).toBe(true)
  })

  it("restores nothing when no session was stored", async () => {
    const dapp = await makeDapp()
    expect(await dapp.run(dapp.adapter.reconnect(WALLET_CONNECT_CONNECTOR_ID, chainA))).toEqual(Option.none())
  })

  it.each([
    ["Unauthorized: invalid key", "INVALID_PROJECT_ID"],
    ["Unauthorized: origin not allowed", "INVALID_APP_CONFIGURATION"]
  ])("a relay closing with '%s' fails the pairing and raises %s once", async (reason, alertId) => {
    const refusing = new WebSocketServer({ host: "127.0.0.1", port: 0 })
    refusing.on("connection", (socket) => socket.close(3000, reason))
    await new Promise((resolve) => refusing.once("listening", resolve))
    cleanups.push(() => new Promise((resolve) => refusing.close(() => resolve())))
    const url = `ws://127.0.0.1:${(refusing.address() as AddressInfo).port}`
    const runtime = ManagedRuntime.make(dappLayer(undefined, url))
    cleanups.push(() => runtime.dispose())
    const wc = await runtime.runPromise(Effect.service(WalletConnect))
    const alerts = runtime.runPromise(Stream.runCollect(Stream.take(wc.alerts, 1)))
    const exit = await runtime.runPromise(Effect.exit(wc.pair()))
    expect(exit).toMatchObject({ _tag: "Failure" })
    expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toContain(reason)
    expect((await alerts).map((alert) => alert.id)).toEqual([alertId])
    expect(await runtime.runPromise(SubscriptionRef.get(wc.pairing))).toMatchObject({ _tag: "Failed" })
  })

  it.effect("replaces the pairing URI 10 s before its 4 minutes are up, and pairs with the new one", () =>
    Effect.gen(function* () {
      const wc = yield* WalletConnect
      const wallet = yield* Effect.promise(() => makeWallet())
      const pairing = yield* Effect.forkChild(wc.pair())
      const first = yield* readyUri(wc.pairing)
      expect(first.expiresAt).toBe(4 * 60_000 - 10_000)
      yield* TestClock.adjust("229 seconds")
      expect(yield* wc.freshUri).toBe(first.uri)
      yield* TestClock.adjust("1 second")
      const second = yield* readyUri(wc.pairing, first.uri)
      expect(second.uri).not.toBe(first.uri)
      expect(second.expiresAt).toBe(230_000 + 230_000)
      expect(yield* wc.freshUri).toBe(second.uri)
      yield* Effect.promise(() => wallet.pair(second.uri))
      const accounts = yield* Fiber.join(pairing)
      expect(accounts).toEqual([wallet.signer.address()])
      yield* wc.disconnect
    }).pipe(Effect.provide(dappLayer()))
  )
})
