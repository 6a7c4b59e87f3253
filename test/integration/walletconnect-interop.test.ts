/**
 * Interop with an independent implementation of WalletConnect v2: WalletConnect's own clients at their last
 * Apache-2.0 releases (devDependencies only). Our dapp client pairs with their wallet (walletkit 1.2.10), their dapp
 * client (sign-client 2.21.8) pairs with our wallet, each over the four namespaces (eip155, solana, bip122, polkadot)
 * on the devstack's relay and chains: requests in each family, the wallet's events, one-click sign-in, disconnecting
 * from either side, and a session restored after a reload. (The other WalletConnect files run every case against
 * both wallets too.)
 */
import { randomUUID } from "node:crypto"
import { Effect, Exit, Option, Scope, Stream, SubscriptionRef } from "effect"
import { type Hex, stringToHex, toHex, verifyMessage } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type BitcoinInfo, startBitcoin } from "../../devstack/bitcoin"
import { type EvmInfo, startEvm } from "../../devstack/evm/index"
import type { Started } from "../../server/src/lib/Started"
import { type RelayInfo, startRelay } from "../../server/src/relay"
import { type SolanaInfo, startSolana } from "../../devstack/solana"
import { devSolanaKey } from "../../devstack/solana/keys"
import { buildCacao, createWcWallet, formatAuthMessage, populateAuthPayload, sdkError } from "../../devstack/wallet/wcWallet"
import { toBase58 } from "../../src/domain/encoding"
import type { CaipNetwork } from "../../src/domain/Network"
import { bitcoinRegtest, localChainA, localSolana, westend, withDefaultRpcUrls } from "../../src/domain/networks"
import { decodeOptionsSync } from "../../src/domain/Options"
import { type FamilySession, namespaceOf } from "../../src/services/connectors/Connector"
import { makeWalletConnect, type PairingState } from "../../src/services/walletconnect/WalletConnect"
import { makeMemoryWebStorage } from "../unit/support/memoryWebStorage"
import { follow, until } from "./support/connectorContract"
import { initSignClientDapp, type SignClientDapp } from "./support/signClientDapp"
import { type DevWalletKit, startDevWalletKit } from "./support/walletKit"
import { dappSettings, NodeWebSocket } from "./support/wcSettings"

// Without it, WalletConnect's own clients wait forever for the hosted Verify server (offline here).
process.env.IS_VITEST = "true"

let relay: Started<RelayInfo>
let evm: Started<EvmInfo>
let solana: Started<SolanaInfo>
let bitcoin: Started<BitcoinInfo>
let chainA: CaipNetwork
let solanaNetwork: CaipNetwork
let regtest: CaipNetwork
const cleanups: Array<() => Promise<void>> = []

beforeAll(async () => {
  ;[relay, evm, solana, bitcoin] = await Promise.all([startRelay(), startEvm(), startSolana(), startBitcoin({ blockIntervalMs: 300 })])
  const [a] = evm.info.chains
  if (a === undefined) throw new Error("a local EVM chain expected")
  chainA = withDefaultRpcUrls(localChainA, { http: [a.rpcUrl] })
  solanaNetwork = withDefaultRpcUrls(localSolana, { http: [solana.info.rpcUrl], webSocket: [solana.info.wsUrl] })
  regtest = withDefaultRpcUrls(bitcoinRegtest, { http: [bitcoin.info.url] })
}, 120_000)

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined)
  await Promise.all([relay?.stop(), evm?.stop(), solana?.stop(), bitcoin?.stop()])
})

/** A dev wallet of the four families: ours, or WalletConnect's walletkit. */
const fourFamilyWallet = async (implementation: "ours" | "walletkit", oneClick?: "approve") => {
  const a = evm.info.chains[0]!
  const wallet = await startDevWalletKit({
    relayUrl: relay.info.url,
    implementation,
    evm: { privateKeys: [evm.info.accounts[5]!.privateKey], chains: [{ chainId: a.chainId, name: "Local A", rpcUrl: a.rpcUrl }], chainId: a.chainId },
    solana: { rpcUrl: solana.info.rpcUrl, caipNetworkId: solana.info.caipNetworkId },
    bitcoin: { apiUrl: bitcoin.info.url, caipNetworkId: bitcoinRegtest.caipNetworkId },
    polkadot: { chains: [westend.caipNetworkId] },
    ...(oneClick === undefined ? {} : { oneClick })
  })
  cleanups.push(() => wallet.close())
  return wallet
}

describe("our dapp client with WalletConnect's walletkit 1.2.10", () => {
  const options = () =>
    decodeOptionsSync({
      projectId: "devstack",
      networks: [chainA, solanaNetwork, regtest, westend],
      metadata: { name: "Interop dapp", description: "Our client", url: "http://127.0.0.1", icons: [] },
      endpoints: { relay: relay.info.url }
    })

  const open = async (settings = dappSettings()) => {
    const scope = Effect.runSync(Scope.make())
    const service = await Effect.runPromise(Scope.provide(makeWalletConnect(options(), settings), scope))
    const connector = service.connector!
    const heard = await follow(connector)
    const close = async () => {
      await heard.stop()
      await Effect.runPromise(Scope.close(scope, Exit.void))
    }
    cleanups.push(close)
    return { service, connector, events: heard.events, close, settings }
  }

  const connect = async (dapp: Awaited<ReturnType<typeof open>>, wallet: DevWalletKit) => {
    const connecting = Effect.runPromise(dapp.connector.connect([chainA, solanaNetwork, regtest, westend]))
    const ready = await Effect.runPromise(
      SubscriptionRef.changes(dapp.service.pairing).pipe(
        Stream.filter((s): s is Extract<PairingState, { _tag: "Ready" }> => s._tag === "Ready"),
        Stream.runHead,
        Effect.map(Option.getOrThrow)
      )
    )
    await wallet.pair(ready.uri)
    return connecting
  }

  const of = (sessions: ReadonlyArray<FamilySession>, namespace: string) => sessions.find((s) => namespaceOf(s) === namespace)!

  it("pairs over the four namespaces; each family's request is answered; the wallet's events and disconnect reach us", async () => {
    const wallet = await fourFamilyWallet("walletkit")
    const dapp = await open()
    const sessions = await connect(dapp, wallet)
    expect(sessions.map(namespaceOf).sort()).toEqual(["bip122", "eip155", "polkadot", "solana"])
    expect(Object.keys(wallet.proposals[0]?.optionalNamespaces ?? {}).sort()).toEqual(["bip122", "eip155", "polkadot", "solana"])

    const evmSide = of(sessions, "eip155")
    const address = evmSide.accounts[0]!.address as Hex
    if (evmSide.provider.namespace !== "eip155") throw new Error("eip155 provider expected")
    const signature = (await evmSide.provider.provider.request({ method: "personal_sign", params: [stringToHex("interop"), address] })) as Hex
    expect(await verifyMessage({ address, message: "interop", signature })).toBe(true)

    const solanaSide = of(sessions, "solana")
    if (solanaSide.provider.namespace !== "solana") throw new Error("solana provider expected")
    const solanaSignature = await solanaSide.provider.provider.signMessage(devSolanaKey(0).address, new TextEncoder().encode("interop"))
    expect(solanaSignature.length).toBe(64)

    const bitcoinSide = of(sessions, "bip122")
    if (bitcoinSide.provider.namespace !== "bip122") throw new Error("bip122 provider expected")
    expect(await bitcoinSide.provider.provider.signMessage(bitcoinSide.accounts[0]!.address, "interop")).toMatch(/^[A-Za-z0-9+/]+=*$/)

    const polkadotSide = of(sessions, "polkadot")
    if (polkadotSide.provider.namespace !== "polkadot") throw new Error("polkadot provider expected")
    const signed = await polkadotSide.provider.provider.signRaw!({ address: polkadotSide.accounts[0]!.address, data: toHex("<Bytes>interop</Bytes>"), type: "bytes" })
    expect(JSON.stringify(signed)).toMatch(/0x[0-9a-f]{128}/)
    expect(wallet.requests.map((r) => r.method).sort()).toEqual(["personal_sign", "polkadot_signMessage", "signMessage", "solana_signMessage"])

    const topic = Object.keys(wallet.kit.getActiveSessions())[0]!
    const other = devSolanaKey(1).address
    await wallet.kit.emitSessionEvent({ topic, chainId: solana.info.caipNetworkId, event: { name: "accountsChanged", data: [`${solana.info.caipNetworkId}:${other}`] } })
    await until(() => dapp.events.some((e) => e._tag === "AccountsChanged" && e.namespace === "solana" && e.accounts[0]?.address === other), "AccountsChanged")

    await wallet.kit.disconnectSession({ topic, reason: sdkError("USER_DISCONNECTED") })
    await until(() => dapp.events.some((e) => e._tag === "Disconnected"), "Disconnected")
    expect(await Effect.runPromise(dapp.connector.reconnect([chainA]))).toEqual([])
  })

  it("restores the four-family session after a reload, and ends it in their wallet when we disconnect", async () => {
    const wallet = await fourFamilyWallet("walletkit")
    const dapp = await open()
    const sessions = await connect(dapp, wallet)
    await dapp.close()
    const reloaded = await open(dapp.settings)
    const restored = await Effect.runPromise(reloaded.connector.reconnect([chainA, solanaNetwork, regtest, westend]))
    expect(restored.map((s) => [namespaceOf(s), s.accounts[0]?.address])).toEqual(sessions.map((s) => [namespaceOf(s), s.accounts[0]?.address]))
    const evmSide = of(restored, "eip155")
    if (evmSide.provider.namespace !== "eip155") throw new Error("eip155 provider expected")
    const address = evmSide.accounts[0]!.address as Hex
    const signature = (await evmSide.provider.provider.request({ method: "personal_sign", params: [stringToHex("after reload"), address] })) as Hex
    expect(await verifyMessage({ address, message: "after reload", signature })).toBe(true)
    await Effect.runPromise(reloaded.connector.disconnect)
    await until(() => wallet.deleted() === 1, "their wallet hearing the disconnect")
  })
})

describe("WalletConnect's sign-client 2.21.8 with our wallet", () => {
  const dappFor = async () => {
    const dapp = await initSignClientDapp({ relayUrl: relay.info.url, name: "Their dapp" })
    cleanups.push(() => dapp.close())
    return dapp
  }
  const fourNamespaces = () => ({
    eip155: { chains: ["eip155:31337"], methods: ["personal_sign", "eth_sendTransaction"], events: ["accountsChanged", "chainChanged"] },
    solana: { chains: [solana.info.caipNetworkId], methods: ["solana_signMessage"], events: ["accountsChanged"] },
    bip122: { chains: [bitcoinRegtest.caipNetworkId], methods: ["signMessage", "getAccountAddresses"], events: ["accountsChanged"] },
    polkadot: { chains: [westend.caipNetworkId], methods: ["polkadot_signMessage"], events: ["accountsChanged"] }
  })
  const connectTo = async (dapp: SignClientDapp, wallet: DevWalletKit) => {
    // The wallet's pairing is awaited with the session: a pairing that failed fails the test, never unseen.
    let paired: Promise<unknown> = Promise.resolve()
    dapp.once("display_uri", (uri) => void (paired = wallet.pair(uri)))
    const session = await dapp.connect({ optionalNamespaces: fourNamespaces() })
    await paired
    return session
  }

  it("pairs over the four namespaces; each family's request is answered; our wallet's events and disconnect reach them", async () => {
    const wallet = await fourFamilyWallet("ours")
    const dapp = await dappFor()
    const session = await connectTo(dapp, wallet)
    expect(Object.keys(session.namespaces).sort()).toEqual(["bip122", "eip155", "polkadot", "solana"])
    const address = session.namespaces["eip155"]!.accounts[0]!.split(":")[2] as Hex
    const signature = await dapp.request<Hex>({ method: "personal_sign", params: [stringToHex("their dapp"), address] }, "eip155:31337")
    expect(await verifyMessage({ address, message: "their dapp", signature })).toBe(true)
    const solanaAnswer = await dapp.request<{ signature: string }>(
      { method: "solana_signMessage", params: { message: toBase58(new TextEncoder().encode("their dapp")), pubkey: devSolanaKey(0).address } },
      solana.info.caipNetworkId
    )
    expect(solanaAnswer.signature.length).toBeGreaterThan(80)
    const payment = session.namespaces["bip122"]!.accounts[0]!.split(":")[2]!
    const bitcoinAnswer = await dapp.request<{ signature: string }>(
      { method: "signMessage", params: { account: payment, address: payment, message: "their dapp", protocol: "bip322" } },
      bitcoinRegtest.caipNetworkId
    )
    expect(bitcoinAnswer.signature).toMatch(/^[A-Za-z0-9+/]+=*$/)
    const dot = session.namespaces["polkadot"]!.accounts[0]!.split(":")[2]!
    const polkadotAnswer = await dapp.request<{ signature: string }>(
      { method: "polkadot_signMessage", params: { address: dot, message: toHex("<Bytes>their dapp</Bytes>") } },
      westend.caipNetworkId
    )
    expect(polkadotAnswer.signature).toMatch(/^0x[0-9a-f]{128}$/)

    const heard = new Promise<{ name: string; data: unknown }>((resolve) => dapp.client.once("session_event", ({ params }) => resolve(params.event)))
    const other = evm.info.accounts[6]!.address
    await wallet.kit.emitSessionEvent({ topic: session.topic, chainId: "eip155:31337", event: { name: "accountsChanged", data: [`eip155:31337:${other}`] } })
    expect(await heard).toEqual({ name: "accountsChanged", data: [`eip155:31337:${other}`] })

    const deleted = new Promise<void>((resolve) => dapp.client.once("session_delete", () => resolve()))
    await wallet.kit.disconnectSession({ topic: session.topic, reason: sdkError("USER_DISCONNECTED") })
    await deleted
    expect(Object.keys(wallet.kit.getActiveSessions())).toEqual([])
  })

  it("their disconnect ends the session in our wallet", async () => {
    const wallet = await fourFamilyWallet("ours")
    const dapp = await dappFor()
    await connectTo(dapp, wallet)
    await dapp.disconnect()
    await until(() => wallet.deleted() === 1, "our wallet hearing the disconnect")
    expect(Object.keys(wallet.kit.getActiveSessions())).toEqual([])
  })

  it("one-click: their authenticate gets our CACAOs, which they check against their own text of the message", async () => {
    const wallet = await fourFamilyWallet("ours", "approve")
    const dapp = await dappFor()
    const { uri, response } = await dapp.client.authenticate({
      chains: ["eip155:31337"],
      domain: "127.0.0.1",
      uri: "http://127.0.0.1",
      nonce: "interop1234",
      statement: "Sign in to the interop dapp",
      methods: ["personal_sign"]
    })
    await wallet.pair(uri)
    const { auths, session } = await response()
    expect(wallet.authRequests).toEqual([{ chains: ["eip155:31337"] }])
    expect(auths?.length).toBe(1)
    expect(session?.namespaces["eip155"]?.accounts).toEqual([`eip155:31337:${wallet.evm!.address()}`])
    const signature = await dapp.client.request<Hex>({
      topic: session!.topic,
      chainId: "eip155:31337",
      request: { method: "personal_sign", params: [stringToHex("after one click"), wallet.evm!.address()] }
    })
    expect(await verifyMessage({ address: wallet.evm!.address() as Hex, message: "after one click", signature })).toBe(true)
  })

  it("our wallet restores its sessions after a reload of its page and answers their requests", async () => {
    const storage = makeMemoryWebStorage()
    const prefix = `wallet-${randomUUID()}`
    const account = privateKeyToAccount(evm.info.accounts[7]!.privateKey as Hex)
    const metadata = { name: "Our wallet", description: "Restored", url: "http://127.0.0.1", icons: [] }
    const answers: Array<Promise<unknown>> = []
    const start = async () => {
      const wallet = await createWcWallet({ relayUrl: relay.info.url, projectId: "devstack", metadata, storage, storagePrefix: prefix, WebSocket: NodeWebSocket })
      wallet.on("session_proposal", ({ id }) =>
        answers.push(wallet.approveSession({
          id,
          namespaces: { eip155: { chains: ["eip155:31337"], methods: ["personal_sign"], events: ["accountsChanged"], accounts: [`eip155:31337:${account.address}`] } }
        }))
      )
      wallet.on("session_request", ({ topic, id, params }) => {
        const [message] = params.request.params as [Hex]
        answers.push(account.signMessage({ message: { raw: message } }).then((result) => wallet.respondSessionRequest({ topic, response: { id, result } })))
      })
      return wallet
    }
    const first = await start()
    const dapp = await dappFor()
    dapp.once("display_uri", (uri) => void answers.push(first.pair({ uri })))
    const session = await dapp.connect({ optionalNamespaces: { eip155: { chains: ["eip155:31337"], methods: ["personal_sign"], events: ["accountsChanged"] } } })
    await Promise.all(answers)
    await first.close()
    const second = await start()
    cleanups.push(second.close)
    expect(Object.keys(second.getActiveSessions())).toEqual([session.topic])
    const signature = await dapp.request<Hex>({ method: "personal_sign", params: [stringToHex("after the wallet's reload"), account.address] }, "eip155:31337")
    expect(await verifyMessage({ address: account.address, message: "after the wallet's reload", signature })).toBe(true)
  })

  it("our one-click helpers make the text and CACAO WalletConnect's own formatter and checker accept", async () => {
    const { formatMessage, validateSignedCacao } = await import("@walletconnect/utils")
    const account = privateKeyToAccount(evm.info.accounts[8]!.privateKey as Hex)
    const payload = populateAuthPayload(
      {
        type: "caip122",
        chains: ["eip155:31337", "eip155:1"],
        aud: "http://127.0.0.1",
        domain: "127.0.0.1",
        version: "1",
        nonce: "abcd1234",
        iat: "2030-01-01T00:00:00.000Z",
        statement: "Sign in",
        resources: ["urn:recap:eyJhdHQiOnsiZWlwMTU1Ijp7InJlcXVlc3QvcGVyc29uYWxfc2lnbiI6W3t9XSwicmVxdWVzdC9ldGhfc2lnblR5cGVkRGF0YV92NCI6W3t9XX19fQ"]
      },
      { chains: ["eip155:31337"], methods: ["personal_sign"] }
    )
    const iss = `did:pkh:eip155:31337:${account.address}`
    const text = formatAuthMessage(payload, iss)
    const cacao = buildCacao(payload, { t: "eip191", s: await account.signMessage({ message: text }) }, iss)
    expect(text).toBe(formatMessage(cacao.p as unknown as Parameters<typeof formatMessage>[0], iss))
    expect(await validateSignedCacao({ cacao: cacao as unknown as Parameters<typeof validateSignedCacao>[0]["cacao"], projectId: "devstack" })).toBe(true)
  })
})
