/**
 * A session's and a pairing's life between our dapp client (the runtime's WalletConnect connector) and WalletConnect's
 * walletkit 1.2.10 (the last Apache-2.0 release, an independent implementation) through the devstack relay: the
 * wallet's wc_sessionUpdate (a second account) reaches us and is kept across a reload; its wc_sessionExtend moves the
 * session's expiry; its pairing ping is answered while the visitor has not approved yet; its pairing delete ends the
 * connect that waited on that pairing, and the QR code says so.
 */
import type { WalletKitTypes } from "@reown/walletkit"
import { buildApprovedNamespaces } from "@walletconnect/utils"
import { Effect, Exit, Option, Scope, Stream, SubscriptionRef } from "effect"
import { privateKeyToAccount } from "viem/accounts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Started } from "../../server/src/lib/Started"
import { type RelayInfo, startRelay } from "../../server/src/relay"
import { localChainA, withDefaultRpcUrls } from "../../src/domain/networks"
import { decodeOptionsSync } from "../../src/domain/Options"
import { makeWalletConnect, type PairingState } from "../../src/services/walletconnect/WalletConnect"
import type { WalletConnectSettings } from "../../src/services/walletconnect/types"
import { follow, until } from "./support/connectorContract"
import { initTestWalletKit, type TestWalletKit } from "./support/walletKit"
import { dappSettings } from "./support/wcSettings"

// Without it, walletkit's Verify waits forever for the hosted verify server (offline here).
process.env.IS_VITEST = "true"

const FIRST = privateKeyToAccount("0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80").address
const SECOND = privateKeyToAccount("0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d").address
// Named, never read: nothing here asks the chain.
const chain = withDefaultRpcUrls(localChainA, { http: ["http://127.0.0.1:9"] })
const accountOf = (address: string) => `${chain.caipNetworkId}:${address}`

let relay: Started<RelayInfo>
const cleanups: Array<() => Promise<void>> = []

beforeAll(async () => {
  relay = await startRelay()
})

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined)
  await relay?.stop()
})

/** Our side, as the runtime makes it; the same settings again stand for the same browser after a reload. */
const open = async (settings: WalletConnectSettings = dappSettings()) => {
  const options = decodeOptionsSync({
    projectId: "devstack",
    networks: [chain],
    metadata: { name: "Lifecycle dapp", description: "Our client", url: "http://127.0.0.1", icons: [] },
    endpoints: { relay: relay.info.url }
  })
  const scope = Effect.runSync(Scope.make())
  const service = await Effect.runPromise(Scope.provide(makeWalletConnect(options, settings), scope))
  const heard = await follow(service.connector!)
  const close = async () => {
    await heard.stop()
    await Effect.runPromise(Scope.close(scope, Exit.void))
  }
  cleanups.push(close)
  return { service, connector: service.connector!, events: heard.events, close, settings }
}

/** Their wallet, holding FIRST (and SECOND, shared only by an update); it approves proposals when told to. */
const theirWallet = async () => {
  const kit: TestWalletKit = await initTestWalletKit(relay.info.url, "Their wallet")
  cleanups.push(() => kit.core.relayer.transportClose().catch(() => undefined))
  const proposals: Array<WalletKitTypes.SessionProposal> = []
  const state = { approve: true }
  kit.on("session_proposal", (proposal) => {
    proposals.push(proposal)
    if (!state.approve) return
    const namespaces = buildApprovedNamespaces({
      proposal: proposal.params,
      supportedNamespaces: { eip155: { chains: [chain.caipNetworkId], methods: ["personal_sign"], events: ["accountsChanged", "chainChanged"], accounts: [accountOf(FIRST)] } }
    })
    void kit.approveSession({ id: proposal.id, namespaces })
  })
  return { kit, proposals, state }
}

/** The URI the dapp shows once it is ready. */
const readyUri = (service: Awaited<ReturnType<typeof open>>["service"]) =>
  Effect.runPromise(
    SubscriptionRef.changes(service.pairing).pipe(
      Stream.filter((s): s is Extract<PairingState, { _tag: "Ready" }> => s._tag === "Ready"),
      Stream.runHead,
      Effect.map(Option.getOrThrow)
    )
  )

/** Connects through their wallet; gives the session's topic as their wallet knows it. */
const connected = async (dapp: Awaited<ReturnType<typeof open>>, wallet: Awaited<ReturnType<typeof theirWallet>>) => {
  const connecting = Effect.runPromise(dapp.connector.connect([chain]))
  await wallet.kit.pair({ uri: (await readyUri(dapp.service)).uri })
  const sessions = await connecting
  expect(sessions[0]?.accounts.map((a) => a.address)).toEqual([FIRST])
  return Object.keys(wallet.kit.getActiveSessions())[0]!
}

/** The session our client keeps in its store (what a reload restores). */
const stored = async (settings: WalletConnectSettings) => {
  const text = await Effect.runPromise(settings.storage!.get(`${settings.customStoragePrefix}wc@2:session`))
  return JSON.parse(text ?? "null") as { readonly expiry: number; readonly namespaces: Record<string, { readonly accounts: ReadonlyArray<string> }> } | null
}

describe("our dapp client through a session's life with walletkit 1.2.10", () => {
  it("their wc_sessionUpdate sharing a second account reaches us, is acknowledged, and is kept across a reload", async () => {
    const wallet = await theirWallet()
    const dapp = await open()
    const topic = await connected(dapp, wallet)
    const namespaces = { eip155: { chains: [chain.caipNetworkId], methods: ["personal_sign"], events: ["accountsChanged", "chainChanged"], accounts: [accountOf(FIRST), accountOf(SECOND)] } }
    const { acknowledged } = await wallet.kit.updateSession({ topic, namespaces })
    await acknowledged()
    await until(() => dapp.events.some((e) => e._tag === "AccountsChanged" && e.accounts.map((a) => a.address).join() === `${FIRST},${SECOND}`), "the update's accounts")
    expect((await stored(dapp.settings))?.namespaces["eip155"]?.accounts).toEqual([accountOf(FIRST), accountOf(SECOND)])
    await dapp.close()
    const reloaded = await open(dapp.settings)
    const restored = await Effect.runPromise(reloaded.connector.reconnect([chain]))
    expect(restored[0]?.accounts.map((a) => a.address)).toEqual([FIRST, SECOND])
  })

  it("their wc_sessionExtend is acknowledged and moves the session's expiry", async () => {
    const wallet = await theirWallet()
    const dapp = await open()
    const topic = await connected(dapp, wallet)
    const before = (await stored(dapp.settings))!.expiry
    // A later expiry than the settled one: the wallet's clock (in seconds) must have moved on.
    await until(() => Math.floor(Date.now() / 1000) > before - 7 * 86_400, "the next second")
    const { acknowledged } = await wallet.kit.extendSession({ topic })
    await acknowledged()
    const after = (await stored(dapp.settings))!.expiry
    // Their extension names no expiry (sign-client 2.21 counts seven days on each side): ours counts from its clock.
    expect(after).toBeGreaterThan(before)
    expect(Math.abs(after - wallet.kit.getActiveSessions()[topic]!.expiry)).toBeLessThanOrEqual(1)
  })

  it("their pairing ping is answered while the visitor has not approved; their pairing delete ends the connect waiting on it", async () => {
    const wallet = await theirWallet()
    wallet.state.approve = false
    const dapp = await open()
    const connecting = Effect.runPromise(Effect.exit(dapp.connector.connect([chain])))
    const { uri } = await readyUri(dapp.service)
    await wallet.kit.pair({ uri })
    const topic = /^wc:([0-9a-f]{64})@2/.exec(uri)![1]!
    await until(() => wallet.proposals.length === 1, "their wallet receiving the proposal")
    await wallet.kit.core.pairing.ping({ topic })
    await wallet.kit.core.pairing.disconnect({ topic })
    const exit = await connecting
    expect(Exit.isFailure(exit)).toBe(true)
    await until(async () => (await Effect.runPromise(SubscriptionRef.get(dapp.service.pairing)))._tag === "Failed", "the QR code's failure")
    expect(await Effect.runPromise(SubscriptionRef.get(dapp.service.pairing))).toMatchObject({ _tag: "Failed", message: expect.stringContaining("disconnected") })
  })
})
