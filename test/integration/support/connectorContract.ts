/**
 * The contract every Connector passes, whichever way it reaches a wallet (EIP-1193, Wallet Standard, several of
 * them as one multi-chain wallet, WalletConnect): one suite registered against a harness that makes a fresh wallet
 * and connector per test, with a real test wallet (and, for WalletConnect, the devstack relay) behind it. It proves
 * what the Connection relies on: sessions for each family served, with the wallet's account and chain; a silent
 * restore while the wallet authorises the site and none once it does not; account changes heard as
 * `AccountsChanged` on their family; and a disconnect the wallet hears too.
 */
import { Effect, Exit, Fiber, Option, Stream } from "effect"
import { afterEach, expect, it } from "vitest"
import type { ChainNamespace } from "../../../src/domain/Caip"
import type { CaipNetwork, NetworkChainId } from "../../../src/domain/Network"
import { type ConnectError, type Connector, type FamilySession, namespaceOf, type WalletEvent } from "../../../src/services/connectors/Connector"

/** A fresh wallet and the connector over it, with what a test needs to play the visitor on the wallet's side. */
export interface ConnectorHarness {
  readonly connector: Connector
  /** The networks to connect on, one per family. */
  readonly networks: ReadonlyArray<CaipNetwork>
  /** What the wallet shares in each family it serves: its account and the chain it reports. */
  readonly expected: () => Partial<Record<ChainNamespace, { readonly address: string; readonly chainId: NetworkChainId }>>
  /** Connects `connector`, doing on the wallet's side what the visitor does (approve the prompt, scan the QR code). */
  readonly connect: () => Promise<Exit.Exit<ReadonlyArray<FamilySession>, ConnectError>>
  /** The visitor refuses every prompt from now on (or approves again). */
  readonly setApproval: (approval: "approve" | "reject") => void
  /** The visitor picks the wallet's second account in `namespace`; its address. */
  readonly changeAccount: (namespace: ChainNamespace) => Promise<string>
  /** The visitor disconnects the site in the wallet. */
  readonly revoke: () => Promise<void>
  /** The page reloads: a new connector over the same wallet and the same stored data (the old one is gone). */
  readonly reload: () => Promise<Connector>
  /** How many prompts the wallet has shown so far (connect approvals, signatures…). */
  readonly prompts: () => number
  /** Whether the wallet still authorises the site (holds a session for it). */
  readonly walletAuthorises: () => Promise<boolean>
  readonly close: () => Promise<void>
}

/** One kind of connector under the contract. */
export interface ConnectorSubject {
  /** The families the connector serves. */
  readonly families: ReadonlyArray<ChainNamespace>
  readonly make: () => Promise<ConnectorHarness>
  /**
   * What the wallet's protocol cannot do, so the contract checks what happens instead (the polkadot-js extension
   * protocol has no silent connect and no disconnect from the site): `askOnRestore` — a restore asks the wallet, so
   * one the visitor refuses restores nothing; `keepsSiteOnDisconnect` — a disconnect stops the connector hearing the
   * wallet, and the wallet keeps the site (the product forgets it: the Connection's stored session is cleared).
   */
  readonly limits?: { readonly askOnRestore?: boolean; readonly keepsSiteOnDisconnect?: boolean }
}

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect)

/** Waits (at most ~10 s, never on a timer the test depends on) until `check` holds; the test fails otherwise. */
export const until = async (check: () => boolean | Promise<boolean>, what = "the condition") => {
  for (let i = 0; i < 400; i++) {
    if (await check()) return
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
  expect(await check(), `${what} within 10 s`).toBe(true)
}

/** Lets fibers forked just now start (the Effect scheduler runs them on the next macrotasks). */
const settle = async () => {
  for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve))
}

/** Collects a connector's events from now on. */
export const follow = async (connector: Connector) => {
  const events: Array<WalletEvent> = []
  const fiber = Effect.runFork(Stream.runForEach(connector.events, (event) => Effect.sync(() => void events.push(event))))
  await settle()
  return { events, stop: () => run(Fiber.interrupt(fiber)) }
}

const byFamily = (sessions: ReadonlyArray<FamilySession>) =>
  Object.fromEntries(sessions.map((session) => [namespaceOf(session), { address: session.accounts[0]?.address, chainId: session.chainId }]))

const errorTagOf = <A, E>(exit: Exit.Exit<A, E>): string | undefined => {
  if (Exit.isSuccess(exit)) return undefined
  const error = Exit.findErrorOption(exit)
  return Option.isSome(error) ? (error.value as { _tag?: string })._tag : `defect: ${String(exit.cause)}`
}

const sessionsOf = (exit: Exit.Exit<ReadonlyArray<FamilySession>, ConnectError>): ReadonlyArray<FamilySession> => {
  if (Exit.isFailure(exit)) throw new Error(`connect failed: ${String(exit.cause)}`)
  return exit.value
}

/** Registers the contract tests for one kind of connector. */
export const connectorContract = (subject: ConnectorSubject) => {
  const open: Array<ConnectorHarness> = []
  const make = async () => {
    const harness = await subject.make()
    open.push(harness)
    return harness
  }
  afterEach(async () => {
    for (const harness of open.splice(0)) await harness.close()
  })

  it("connects: one session per family it serves, with the wallet's account, chain and provider", async () => {
    const harness = await make()
    expect([...harness.connector.namespaces].sort()).toEqual([...subject.families].sort())
    const sessions = sessionsOf(await harness.connect())
    expect(byFamily(sessions)).toEqual(harness.expected())
    expect(Object.keys(harness.expected()).sort()).toEqual([...subject.families].sort())
    for (const session of sessions) expect(session.provider.namespace).toBe(namespaceOf(session))
  })

  it("a refused connect is UserRejected, and the wallet authorises nothing", async () => {
    const harness = await make()
    harness.setApproval("reject")
    expect(errorTagOf(await harness.connect())).toBe("UserRejected")
    expect(await harness.walletAuthorises()).toBe(false)
    // A wallet that is asked on restore is refused again; one restored silently gives nothing without being asked.
    if (subject.limits?.askOnRestore !== true) harness.setApproval("approve")
    expect(await run(harness.connector.reconnect(harness.networks))).toEqual([])
    harness.setApproval("approve")
  })

  it("restores silently while the wallet authorises the site, and restores nothing when it never did or no longer does", async () => {
    const harness = await make()
    const askOnRestore = subject.limits?.askOnRestore === true
    // A wallet that cannot be asked silently is asked: the visitor's refusal restores nothing.
    if (askOnRestore) harness.setApproval("reject")
    expect(await run(harness.connector.reconnect(harness.networks))).toEqual([])
    if (askOnRestore) harness.setApproval("approve")
    const promptedBefore = harness.prompts()
    if (!askOnRestore) expect(promptedBefore).toBe(0)

    const connected = byFamily(sessionsOf(await harness.connect()))
    const prompted = harness.prompts()
    expect(prompted).toBeGreaterThan(promptedBefore)
    // A prompt now would be refused: a restore that asks the visitor would fail.
    harness.setApproval("reject")
    const reloaded = await harness.reload()
    expect(byFamily(await run(reloaded.reconnect(harness.networks)))).toEqual(connected)
    expect(harness.prompts()).toBe(prompted)
    harness.setApproval("approve")

    const heard = await follow(reloaded)
    await harness.revoke()
    const ended = (family: ChainNamespace) =>
      heard.events.some(
        (event) =>
          (event._tag === "AccountsChanged" && event.namespace === family && event.accounts.length === 0) ||
          (event._tag === "Disconnected" && (event.namespace === undefined || event.namespace === family))
      )
    await until(() => subject.families.every(ended), "the wallet's revocation heard in every family")
    await heard.stop()
    if (askOnRestore) harness.setApproval("reject")
    expect(await run((await harness.reload()).reconnect(harness.networks))).toEqual([])
    harness.setApproval("approve")
  })

  it("reports the wallet's account changes as AccountsChanged on their family", async () => {
    const harness = await make()
    sessionsOf(await harness.connect())
    const heard = await follow(harness.connector)
    for (const family of subject.families) {
      const address = await harness.changeAccount(family)
      expect(address).not.toBe(harness.expected()[family]?.address)
      await until(
        () => heard.events.some((event) => event._tag === "AccountsChanged" && event.namespace === family && event.accounts[0]?.address === address),
        `AccountsChanged on ${family}`
      )
    }
    // No family hears another's change.
    const changed = heard.events.filter((event) => event._tag === "AccountsChanged")
    expect(new Set(changed.map((event) => event.namespace))).toEqual(new Set(subject.families))
    await heard.stop()
  })

  it("disconnect ends it: the wallet no longer authorises the site, and a reload restores nothing", async () => {
    const harness = await make()
    sessionsOf(await harness.connect())
    expect(await harness.walletAuthorises()).toBe(true)
    if (subject.limits?.keepsSiteOnDisconnect === true) {
      const heard = await follow(harness.connector)
      await run(harness.connector.disconnect)
      await harness.changeAccount(subject.families[0]!)
      await settle()
      expect(heard.events.filter((event) => event._tag === "AccountsChanged")).toEqual([])
      await heard.stop()
      return
    }
    await run(harness.connector.disconnect)
    await until(async () => !(await harness.walletAuthorises()), "the wallet forgetting the site")
    expect(await run((await harness.reload()).reconnect(harness.networks))).toEqual([])
  })
}
