/**
 * The contract every ChainAdapter passes, whatever its chain family: a suite registered against one adapter with a
 * real wallet behind it (a test wallet on a local chain). Later families (Solana, Bitcoin, Polkadot) run it too.
 */
import { Effect, Exit, Fiber, Option, Stream } from "effect"
import { expect, it } from "vitest"
import type { CaipNetwork } from "../../../src/domain/Network"
import type { AdapterEvent, ChainAdapter } from "../../../src/services/ChainAdapter"

/** What the suite needs from a family's set-up. */
export interface ContractSubject {
  readonly adapter: () => ChainAdapter & {
    readonly signMessage?: (message: string) => Effect.Effect<string, { readonly _tag: string }>
  }
  readonly connectorId: string
  /** A network the wallet knows, and one it must be asked to add (or undefined for families that cannot switch). */
  readonly home: CaipNetwork
  readonly unknownToWallet: CaipNetwork | undefined
  readonly wallet: {
    readonly reject: (on: boolean) => void
    readonly selectAccount: (index: number) => void
    readonly moveToChain: ((chainId: number) => void) | undefined
    readonly revoke: () => void
    readonly address: () => string
    readonly chainId: () => string | number
  }
  readonly verifySignature: (message: string, signature: string, address: string) => Promise<boolean>
  /** The balance of the wallet's address on `home`, in base units, read straight from the chain. */
  readonly chainBalance: (address: string) => Promise<bigint>
  readonly balanceOf?: (address: string, network: CaipNetwork) => Effect.Effect<{ readonly value: bigint }, unknown>
}

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect)
const exitOf = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(Effect.exit(effect))

const nextEvent = (adapter: ChainAdapter) =>
  Effect.runFork(adapter.events.pipe(Stream.take(1), Stream.runCollect, Effect.map((events) => [...events][0] as AdapterEvent)))

/** Registers the contract tests for one adapter. */
export const chainAdapterContract = (subject: ContractSubject) => {
  it("connects and gives the wallet's address and chain", async () => {
    const adapter = subject.adapter()
    const session = await run(adapter.connect(subject.connectorId, subject.home))
    expect(session.address.toLowerCase()).toBe(subject.wallet.address().toLowerCase())
    expect(String(session.chainId)).toBe(String(subject.wallet.chainId()))
    expect(session.connector.id).toBe(subject.connectorId)
  })

  it("reports a refused connect as the visitor's rejection", async () => {
    subject.wallet.revoke()
    subject.wallet.reject(true)
    const exit = await exitOf(subject.adapter().connect(subject.connectorId, subject.home))
    subject.wallet.reject(false)
    expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toContain("UserRejected")
  })

  it("restores without a prompt, and gives nothing once the wallet revoked the site", async () => {
    const adapter = subject.adapter()
    await run(adapter.connect(subject.connectorId, subject.home))
    subject.wallet.reject(true)
    const restored = await run(subject.adapter().reconnect(subject.connectorId, subject.home))
    subject.wallet.reject(false)
    expect(Option.isSome(restored) && restored.value.address.toLowerCase()).toBe(subject.wallet.address().toLowerCase())
    subject.wallet.revoke()
    expect(Option.isNone(await run(subject.adapter().reconnect(subject.connectorId, subject.home)))).toBe(true)
  })

  it("follows the wallet changing account", async () => {
    const adapter = subject.adapter()
    await run(adapter.connect(subject.connectorId, subject.home))
    const event = nextEvent(adapter)
    await new Promise((resolve) => setTimeout(resolve, 0))
    subject.wallet.selectAccount(1)
    const received = await run(Fiber.join(event))
    subject.wallet.selectAccount(0)
    expect(received._tag).toBe("AccountsChanged")
    expect(received._tag === "AccountsChanged" && received.accounts[0]?.address).toBeTruthy()
  })

  it("signs a message the visitor approves, verifiably; a refusal is a rejection", async () => {
    const adapter = subject.adapter()
    if (adapter.signMessage === undefined) return
    await run(adapter.connect(subject.connectorId, subject.home))
    const message = "Sign in to Wallet Runtime\nnonce: 42"
    const signature = await run(adapter.signMessage(message))
    expect(await subject.verifySignature(message, signature, subject.wallet.address())).toBe(true)
    subject.wallet.reject(true)
    const exit = await exitOf(adapter.signMessage(message))
    subject.wallet.reject(false)
    expect(Exit.isFailure(exit) && JSON.stringify(exit.cause)).toContain("UserRejected")
  })

  it("reads the native balance the chain holds", async () => {
    const adapter = subject.adapter()
    if (subject.balanceOf === undefined) return
    const address = subject.wallet.address()
    const balance = await run(subject.balanceOf(address, subject.home))
    expect(balance.value).toBe(await subject.chainBalance(address))
    expect(adapter.namespace).toBe(subject.home.chainNamespace)
  })

  it("switches to a known chain, and adds a chain the wallet does not know", async () => {
    const moveToChain = subject.wallet.moveToChain
    const unknown = subject.unknownToWallet
    if (moveToChain === undefined || unknown === undefined) return
    const adapter = subject.adapter()
    await run(adapter.connect(subject.connectorId, subject.home))
    const changed = nextEvent(adapter)
    await new Promise((resolve) => setTimeout(resolve, 0))
    await run(adapter.switchNetwork(unknown))
    expect(String(subject.wallet.chainId())).toBe(String(unknown.id))
    const event = await run(Fiber.join(changed))
    expect(event).toEqual({ _tag: "ChainChanged", chainId: unknown.id })
    await run(adapter.switchNetwork(subject.home))
    expect(String(subject.wallet.chainId())).toBe(String(subject.home.id))
  })

  it("disconnects: the wallet forgets the site and events stop", async () => {
    const adapter = subject.adapter()
    await run(adapter.connect(subject.connectorId, subject.home))
    await run(adapter.disconnect)
    expect(Option.isNone(await run(subject.adapter().reconnect(subject.connectorId, subject.home)))).toBe(true)
  })
}
