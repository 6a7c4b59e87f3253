/**
 * The contract every ChainAdapter passes, whatever its chain family: one suite registered against one family's
 * adapter, with a real test wallet behind the session and a real local chain under it. It proves what a host relies
 * on from any family: a signature that verifies, native and token transfers that land and move balances, balances as
 * the chain holds them, and the visitor's refusal, a failed transaction, a bad receiver and raw requests each
 * reported as their own named error.
 */
import { Effect, Exit, Option } from "effect"
import { formatUnits } from "viem"
import { expect, it } from "vitest"
import type { CaipNetwork } from "../../../src/domain/Network"
import type { AccountSession, ChainAdapter, ChainBalance, SendRequest } from "../../../src/services/ChainAdapter"

/** A token of the local chain the suite sends (an ERC-20 contract, an SPL mint). */
export interface TokenUnderTest {
  /** How the test names it ("WUSD (ERC-20)"). */
  readonly label: string
  readonly address: string
  readonly symbol: string
  readonly decimals: number
}

/** What the suite needs from any family's set-up; everything is read lazily, once the stack is up. */
interface SubjectBase {
  /** The family's adapter over the product's reads; `token` is the host's token for the network (its balance is shown). */
  readonly adapter: (token?: TokenUnderTest) => ChainAdapter
  readonly network: () => CaipNetwork
  /** The test wallet, connected to the site, as a connector hands it to the adapter. */
  readonly session: () => Promise<AccountSession>
  /** How the scripted visitor answers the wallet's prompts from now on. */
  readonly setApproval: (approval: "approve" | "reject") => void
  /** Every request the wallet received, in order (by its own method or feature names). */
  readonly walletRequests: () => ReadonlyArray<string>
  readonly verifySignature: (message: string, signature: string, address: string) => Promise<boolean>
  /** A raw request in the family's method names, and how to check its answer. */
  readonly rawRequest: {
    readonly method: string
    readonly params: (session: AccountSession) => unknown
    readonly verify: (result: unknown, session: AccountSession) => Promise<boolean>
  }
  /** A method this family's wallets do not answer. */
  readonly unsupportedMethod: string
}

/** A family whose chain the product reads and sends on (eip155, solana, bip122): a local chain is under the wallet. */
export interface ChainSubject extends SubjectBase {
  readonly readsChain?: true
  /** The wallet request that signs and sends a transaction (a prompt). */
  readonly sendRequestName: string
  /** An address that never held anything. */
  readonly freshReceiver: () => Promise<string>
  /** A native amount a fresh receiver can hold (above any rent minimum), in base units. */
  readonly nativeAmount: bigint
  /** The family's tokens (none for a family without tokens, such as Bitcoin: their tests are not registered). */
  readonly tokens?: () => ReadonlyArray<TokenUnderTest>
  /** A token amount the sender holds, in base units. */
  readonly tokenAmount?: bigint
  /** A balance read straight from the chain, not through the adapter: native, or of `token`. */
  readonly chainBalance: (address: string, token?: string) => Promise<bigint>
  /**
   * Has the wallet sign and send, through the adapter, a transaction that lands but fails; its hash or signature.
   * Absent for a family whose transactions cannot land and fail (Bitcoin: a node refuses such a one instead).
   */
  readonly sendFailing?: (adapter: ChainAdapter, session: AccountSession) => Effect.Effect<string, unknown>
  /** What the failure's reason says. */
  readonly failureReason?: RegExp
  /**
   * A receiver that is not an address of the family: the error a send to it is, what its message says, and whether
   * the wallet is asked at all (or the adapter refuses first).
   */
  readonly invalidReceiver: { readonly to: string; readonly error: string; readonly says: RegExp; readonly promptsWallet: boolean }
}

/**
 * A family whose chain the product does not read (polkadot: spec 9 keeps balances to eip155 and solana, and the
 * product sends nothing there): its wallets connect and sign; sending, fees, balances and confirmations are each
 * FeatureUnavailable in words, and the wallet is asked nothing for them.
 */
export interface SigningOnlySubject extends SubjectBase {
  readonly readsChain: false
  /** An address of the family to send to (the send must still be refused without a prompt). */
  readonly someReceiver: string
  /** What the refusals say. */
  readonly unavailableSays: RegExp
}

/** What the suite needs from a family's set-up. */
export type AdapterSubject = ChainSubject | SigningOnlySubject

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect)

/** The typed error `effect` fails with; the test fails if it succeeds or dies. */
const failureOf = async <A, E>(effect: Effect.Effect<A, E>): Promise<E> => {
  const exit = await Effect.runPromise(Effect.exit(effect))
  if (Exit.isSuccess(exit)) throw new Error(`expected a failure, got ${String(exit.value)}`)
  const error = Exit.findErrorOption(exit)
  if (Option.isNone(error)) throw new Error(`expected a typed failure, got ${String(exit.cause)}`)
  return error.value
}

const tagOf = (error: unknown): string | undefined =>
  typeof error === "object" && error !== null ? ((error as { _tag?: string })._tag ?? undefined) : undefined

const native = (balances: ReadonlyArray<ChainBalance>) => balances.find((balance) => balance.token === undefined)
const tokenIn = (balances: ReadonlyArray<ChainBalance>, token: string) => balances.find((balance) => balance.token === token)

/** Registers the contract tests for one family's adapter. */
export const chainAdapterContract = (subject: AdapterSubject) => {
  it("signs a message with the account's key: the signature verifies for that message only", async () => {
    const session = await subject.session()
    const message = "Sign in to Wallet Runtime\nnonce: 42 ✓"
    const signature = await run(subject.adapter().signMessage(session, message))
    expect(await subject.verifySignature(message, signature, session.address)).toBe(true)
    expect(await subject.verifySignature(`${message}!`, signature, session.address)).toBe(false)
  })

  it("passes a raw request to the wallet and gives its answer; a method the family lacks is WalletMethodUnsupported", async () => {
    const session = await subject.session()
    const adapter = subject.adapter()
    const { method, params, verify } = subject.rawRequest
    const result = await run(adapter.request(session, method, params(session)))
    expect(await verify(result, session)).toBe(true)
    expect(tagOf(await failureOf(adapter.request(session, subject.unsupportedMethod, [])))).toBe("WalletMethodUnsupported")
  })

  if (subject.readsChain === false) return signingOnlyContract(subject)
  chainContract(subject)
}

const signingOnlyContract = (subject: SigningOnlySubject) => {
  it("the visitor's refusal to sign is UserRejected", async () => {
    const session = await subject.session()
    subject.setApproval("reject")
    try {
      expect(tagOf(await failureOf(subject.adapter().signMessage(session, "refuse me")))).toBe("UserRejected")
    } finally {
      subject.setApproval("approve")
    }
  })

  it("sending, its fee, balances and confirmations are each FeatureUnavailable in words, and the wallet is asked nothing", async () => {
    const session = await subject.session()
    const adapter = subject.adapter()
    const before = subject.walletRequests().length
    const request = { to: subject.someReceiver, value: 1n } as SendRequest
    const refusals = [
      adapter.send(session, request),
      adapter.estimateFee(session.address, session.network, request),
      adapter.balances(session.address, session.network),
      adapter.waitForTransaction("0x00", session.network)
    ]
    for (const refused of refusals) {
      const error = await failureOf(refused as Effect.Effect<unknown, unknown>)
      expect(tagOf(error)).toBe("FeatureUnavailable")
      expect((error as { message: string }).message).toMatch(subject.unavailableSays)
    }
    expect(subject.walletRequests().length).toBe(before)
  })
}

const chainContract = (subject: ChainSubject) => {
  it("the visitor's refusal to sign or to send is UserRejected, and nothing moves", async () => {
    const session = await subject.session()
    const adapter = subject.adapter()
    const receiver = await subject.freshReceiver()
    subject.setApproval("reject")
    try {
      expect(tagOf(await failureOf(adapter.signMessage(session, "refuse me")))).toBe("UserRejected")
      expect(tagOf(await failureOf(adapter.send(session, { to: receiver, value: subject.nativeAmount })))).toBe("UserRejected")
    } finally {
      subject.setApproval("approve")
    }
    expect(await subject.chainBalance(receiver)).toBe(0n)
  })

  it("sends a native transfer: final after waitForTransaction, and the receiver's balance moved by the amount", async () => {
    const session = await subject.session()
    const adapter = subject.adapter()
    const receiver = await subject.freshReceiver()
    const hash = await run(adapter.send(session, { to: receiver, value: subject.nativeAmount }))
    const confirmation = await run(adapter.waitForTransaction(hash, session.network))
    expect(confirmation).toMatchObject({ namespace: session.network.chainNamespace, hash, status: "success" })
    expect(confirmation.blockNumber > 0n).toBe(true)
    expect(await subject.chainBalance(receiver)).toBe(subject.nativeAmount)
    expect(native(await run(adapter.balances(receiver, session.network)))?.value).toBe(subject.nativeAmount)
  })

  const tokensOf = subject.tokens
  const tokenAmount = subject.tokenAmount ?? 0n
  if (tokensOf !== undefined) it("sends each token to a fresh receiver, which then holds exactly the amount sent", async () => {
    const session = await subject.session()
    const tokens = tokensOf()
    expect(tokens.length).toBeGreaterThan(0)
    for (const token of tokens) {
      const adapter = subject.adapter(token)
      const receiver = await subject.freshReceiver()
      const before = await subject.chainBalance(session.address, token.address)
      const hash = await run(adapter.send(session, { to: receiver, value: tokenAmount, token: token.address } as SendRequest))
      await run(adapter.waitForTransaction(hash, session.network))
      expect([token.label, await subject.chainBalance(receiver, token.address)]).toEqual([token.label, tokenAmount])
      expect([token.label, await subject.chainBalance(session.address, token.address)]).toEqual([token.label, before - tokenAmount])
      expect(tokenIn(await run(adapter.balances(receiver, session.network)), token.address)).toMatchObject({
        symbol: token.symbol,
        decimals: token.decimals,
        value: tokenAmount
      })
    }
  })

  it("reads the native (and token) balances the chain holds", async () => {
    const session = await subject.session()
    const token = tokensOf?.()[0]
    const balances = await run(subject.adapter(token).balances(session.address, session.network))
    const nativeOnChain = await subject.chainBalance(session.address)
    expect(nativeOnChain > 0n).toBe(true)
    expect(native(balances)).toMatchObject({
      symbol: session.network.nativeCurrency.symbol,
      decimals: session.network.nativeCurrency.decimals,
      value: nativeOnChain
    })
    if (token === undefined) return expect(balances).toHaveLength(1)
    const tokenOnChain = await subject.chainBalance(session.address, token.address)
    expect(tokenOnChain > 0n).toBe(true)
    const held = tokenIn(balances, token.address)
    expect(held).toMatchObject({ symbol: token.symbol, decimals: token.decimals, value: tokenOnChain })
    expect(held?.formatted).toBe(formatUnits(tokenOnChain, token.decimals))
  })

  const { sendFailing, failureReason } = subject
  if (sendFailing !== undefined && failureReason !== undefined) it("a transaction that lands but fails is TransactionReverted, with the chain's reason", async () => {
    const session = await subject.session()
    const adapter = subject.adapter()
    const hash = await run(sendFailing(adapter, session))
    const error = await failureOf(adapter.waitForTransaction(hash, session.network))
    expect(tagOf(error)).toBe("TransactionReverted")
    expect(error).toMatchObject({ hash })
    expect((error as { message: string }).message).toMatch(failureReason)
  })

  it("a receiver that is not an address is refused with its named error, and nothing is sent", async () => {
    const session = await subject.session()
    const adapter = subject.adapter()
    const prompted = () => subject.walletRequests().filter((name) => name === subject.sendRequestName).length
    const before = prompted()
    const error = await failureOf(adapter.send(session, { to: subject.invalidReceiver.to, value: subject.nativeAmount }))
    expect(tagOf(error)).toBe(subject.invalidReceiver.error)
    expect((error as { message: string }).message).toMatch(subject.invalidReceiver.says)
    expect(prompted() - before).toBe(subject.invalidReceiver.promptsWallet ? 1 : 0)
  })
}
