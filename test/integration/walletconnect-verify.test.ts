/**
 * WalletConnect's Verify with our dapp client (the runtime's connector) and our wallet, through the devstack relay, with
 * a Verify server of our own on loopback (support/verifyServer.ts, real HTTP): a host that names no Verify server
 * makes no request to one (the default), and its wallet sees it unverified; a host that names one registers each
 * proposal and request there before publishing it, and the wallet, asking the same server, sees the dapp's own origin;
 * a Verify server that hangs or fails holds nothing up beyond its bound.
 */
import { Effect, Exit, Scope } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { privateKeyToAccount } from "viem/accounts"
import { approvedNamespaces, createWcWallet, type WalletEvents, type WcWallet } from "../../devstack/wallet/wcWallet"
import type { Started } from "../../server/src/lib/Started"
import { type RelayInfo, startRelay } from "../../server/src/relay"
import { localChainA, withDefaultRpcUrls } from "../../src/domain/networks"
import { decodeOptionsSync } from "../../src/domain/Options"
import type { FamilySession } from "../../src/services/connectors/Connector"
import type { Eip1193Provider } from "../../src/services/eip155/eip1193"
import { makeWalletConnect } from "../../src/services/walletconnect/WalletConnect"
import { until } from "./support/connectorContract"
import { startVerifyServer, type VerifyServer } from "./support/verifyServer"
import { dappSettings, NodeWebSocket } from "./support/wcSettings"

const ACCOUNT = privateKeyToAccount("0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80")
// The chain is named, never read: the wallet answers every request here.
const chain = withDefaultRpcUrls(localChainA, { http: ["http://127.0.0.1:9"] })
const DAPP_URL = "http://127.0.0.1:5173"

let relay: Started<RelayInfo>
let verify: VerifyServer
const cleanups: Array<() => Promise<void>> = []

beforeAll(async () => {
  ;[relay, verify] = await Promise.all([startRelay(), startVerifyServer()])
})

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined)
  await Promise.all([relay?.stop(), verify?.stop()])
})

/** The runtime's WalletConnect connector for a host naming (or not) a Verify server. */
const makeDapp = async (verifyUrl: string | undefined) => {
  const options = decodeOptionsSync({
    projectId: "devstack",
    networks: [chain],
    metadata: { name: "Verified dapp", description: "A dapp under test", url: DAPP_URL, icons: [] },
    endpoints: { relay: relay.info.url, ...(verifyUrl === undefined ? {} : { verify: verifyUrl }) }
  })
  const scope = Effect.runSync(Scope.make())
  const service = await Effect.runPromise(Scope.provide(makeWalletConnect(options, dappSettings()), scope))
  cleanups.push(() => Effect.runPromise(Scope.close(scope, Exit.void)))
  return service
}

/** Our wallet, asking the stand-in whose each proposal and request is; it approves proposals and signs at once. */
const makeWallet = async () => {
  const wallet: WcWallet = await createWcWallet({
    relayUrl: relay.info.url,
    projectId: "devstack",
    metadata: { name: "Wallet", description: "A wallet under test", url: "http://127.0.0.1", icons: [] },
    WebSocket: NodeWebSocket,
    verifyUrl: verify.url
  })
  cleanups.push(() => wallet.close())
  const proposals: Array<WalletEvents["session_proposal"]> = []
  const requests: Array<WalletEvents["session_request"]> = []
  wallet.on("session_proposal", (proposal) => {
    proposals.push(proposal)
    const namespaces = approvedNamespaces(proposal.params, {
      eip155: { chains: [chain.caipNetworkId], methods: ["personal_sign"], events: ["accountsChanged", "chainChanged"], accounts: [`${chain.caipNetworkId}:${ACCOUNT.address}`] }
    })
    void wallet.approveSession({ id: proposal.id, namespaces })
  })
  wallet.on("session_request", (request) => {
    requests.push(request)
    const [message] = request.params.request.params as [`0x${string}`]
    void ACCOUNT.signMessage({ message: { raw: message } }).then((result) =>
      wallet.respondSessionRequest({ topic: request.topic, response: { id: request.id, result } })
    )
  })
  return { wallet, proposals, requests }
}

/** Pairs the dapp with the wallet by the URI it shows, then has the wallet sign a message through the session. */
const pairAndSign = async (dapp: Awaited<ReturnType<typeof makeDapp>>, wallet: WcWallet) => {
  const connecting = Effect.runPromise(dapp.connector!.connect([chain]))
  await until(async () => (await Effect.runPromise(dapp.freshUri)) !== undefined, "the pairing URI")
  await wallet.pair({ uri: (await Effect.runPromise(dapp.freshUri))! })
  const sessions: ReadonlyArray<FamilySession> = await connecting
  const provider = sessions[0]!.provider.provider as Eip1193Provider
  const signature = await provider.request({ method: "personal_sign", params: ["0x68656c6c6f", ACCOUNT.address] })
  expect(await ACCOUNT.signMessage({ message: "hello" })).toBe(signature)
}

describe("WalletConnect's Verify", () => {
  it("a host that names no Verify server registers nothing anywhere, and the wallet sees its proposal and request unverified", async () => {
    const before = verify.requests.length
    const dapp = await makeDapp(undefined)
    const { wallet, proposals, requests } = await makeWallet()
    await pairAndSign(dapp, wallet)
    const received = verify.requests.slice(before)
    // Only the wallet's own questions reached the Verify server: no registration from the dapp.
    expect(received.filter((request) => request.method !== "GET")).toEqual([])
    expect(received.length).toBeGreaterThan(0)
    expect(proposals.map((p) => p.verified?.validation)).toEqual(["UNKNOWN"])
    expect(requests.map((r) => r.verified?.validation)).toEqual(["UNKNOWN"])
  })

  it("a host that names one registers each proposal and request under its origin first; the wallet resolves them as the dapp's (VALID)", async () => {
    const before = verify.requests.length
    const dapp = await makeDapp(verify.url)
    const { wallet, proposals, requests } = await makeWallet()
    await pairAndSign(dapp, wallet)
    const registered = verify.requests.slice(before).filter((request) => request.method === "POST")
    expect(registered.map((request) => JSON.parse(request.body))).toEqual([{ origin: DAPP_URL }, { origin: DAPP_URL }])
    expect(registered.every((request) => /^\/attestation\/[0-9a-f]{64}$/.test(request.path))).toBe(true)
    expect(proposals.map((p) => p.verified)).toEqual([{ validation: "VALID", origin: DAPP_URL, isScam: null }])
    expect(requests.map((r) => r.verified)).toEqual([{ validation: "VALID", origin: DAPP_URL, isScam: null }])
    // The wallet found them under the ids it computed from the texts it opened (the SHA-256 of each): the same ids.
    for (const request of registered) expect(verify.attestations.get(request.path.split("/").pop()!)).toBe(DAPP_URL)
  })

  it("a Verify server that hangs, then one that fails, holds the pairing and the request up by its bound at most; the wallet sees them unverified", async () => {
    const dapp = await makeDapp(verify.url)
    const { wallet, proposals, requests } = await makeWallet()
    verify.behave("hold")
    try {
      const connecting = Effect.runPromise(dapp.connector!.connect([chain]))
      await until(async () => (await Effect.runPromise(dapp.freshUri)) !== undefined, "the pairing URI")
      await wallet.pair({ uri: (await Effect.runPromise(dapp.freshUri))! })
      const sessions = await connecting
      verify.behave("refuse")
      const provider = sessions[0]!.provider.provider as Eip1193Provider
      await provider.request({ method: "personal_sign", params: ["0x6869", ACCOUNT.address] })
    } finally {
      verify.behave("answer")
    }
    expect(proposals.map((p) => p.verified?.validation)).toEqual(["UNKNOWN"])
    expect(requests.map((r) => r.verified?.validation)).toEqual(["UNKNOWN"])
  })
})
