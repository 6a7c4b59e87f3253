import { createHash } from "node:crypto"
import {
  addSignersToInstruction,
  type Address,
  appendTransactionMessageInstructions,
  type Blockhash,
  type CompiledTransactionMessage,
  type CompiledTransactionMessageWithLifetime,
  type EncodedAccount,
  createKeyPairSignerFromBytes,
  createTransactionMessage,
  getBase58Decoder,
  type Instruction,
  getCompiledTransactionMessageDecoder,
  getTransactionDecoder,
  getTransactionEncoder,
  lamports,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  type Transaction
} from "@solana/kit"
import { FailedTransactionMetadata, LiteSVM, type TransactionMetadata } from "litesvm"
import { transactionErrorJson, type TransactionErrorJson } from "./errors"
import { type DevKey, generateDevKey, transferSolInstruction } from "./keys"
import { decodeMint, decodeTokenAccount, type TokenBalanceJson, uiTokenAmount } from "./spl"
import { SYSTEM_PROGRAM, TOKEN_PROGRAM } from "./token"

/** A blockhash stays usable for this many blocks, as on Solana. */
const BLOCKHASH_VALIDITY = 150n
/** litesvm's fee per signature (it does not expose its fee structure). */
export const LAMPORTS_PER_SIGNATURE = 5000n
/** Slots per epoch, as on Solana (no warm-up here). */
export const SLOTS_PER_EPOCH = 432_000n
const FAUCET_LAMPORTS = 500_000_000n * 1_000_000_000n

/** Fixed so the network's CAIP-2 id (`solana:` + its first 32 characters) is the same on every run. */
export const GENESIS_HASH = getBase58Decoder().decode(
  createHash("sha256").update("wallet-runtime devstack solana genesis").digest()
)

/** A decoded wire transaction with what the ledger needs from it. */
export interface DecodedTransaction {
  readonly wire: Uint8Array
  readonly transaction: Transaction
  readonly message: CompiledTransactionMessage & CompiledTransactionMessageWithLifetime
  /** base58 signatures in wire order; an absent one is all zeros. */
  readonly signatures: ReadonlyArray<string>
}

/** An instruction a program called while running a top-level one (a cross-program invocation). */
export interface InnerInstructionRecord {
  readonly programIdIndex: number
  readonly accounts: ReadonlyArray<number>
  readonly data: Uint8Array
  /** 2 for a call made by a top-level instruction, 3 for one made by that call, and so on. */
  readonly stackHeight: number
}

/** A transaction that landed in a block, successful or not. */
export interface TransactionRecord {
  readonly signature: string
  readonly slot: bigint
  readonly blockTime: number
  readonly decoded: DecodedTransaction
  readonly err: TransactionErrorJson | null
  readonly fee: bigint
  readonly preBalances: ReadonlyArray<bigint>
  readonly postBalances: ReadonlyArray<bigint>
  readonly logs: ReadonlyArray<string>
  readonly computeUnits: bigint
  /** The calls made by each top-level instruction (by its index), for those that made any. */
  readonly innerInstructions: ReadonlyArray<{ readonly index: number; readonly instructions: ReadonlyArray<InnerInstructionRecord> }>
  /** SPL Token accounts among the transaction's accounts, before and after it ran. */
  readonly preTokenBalances: ReadonlyArray<TokenBalanceJson>
  readonly postTokenBalances: ReadonlyArray<TokenBalanceJson>
}

/** The outcome of a simulation. */
export interface Simulation {
  readonly err: TransactionErrorJson | null
  readonly logs: ReadonlyArray<string>
  readonly unitsConsumed: bigint
  readonly returnData: { readonly programId: string; readonly data: Uint8Array } | null
  readonly postAccounts: ReadonlyMap<string, EncodedAccount>
}

/** A transaction was refused before it could land (it is not in any block). */
export class Rejected extends Error {
  override readonly name = "Rejected"
  constructor(
    readonly err: TransactionErrorJson,
    readonly simulation: Simulation | undefined
  ) {
    super(typeof err === "string" ? err : JSON.stringify(err))
  }
}

/** Bytes that are not a transaction. */
export class MalformedTransaction extends Error {
  override readonly name = "MalformedTransaction"
}

const base58 = getBase58Decoder()
const transactionDecoder = getTransactionDecoder()
const transactionEncoder = getTransactionEncoder()
const messageDecoder = getCompiledTransactionMessageDecoder()
const ZERO_SIGNATURE = base58.decode(new Uint8Array(64))

const nowSeconds = (): number => Math.floor(Date.now() / 1000)

// litesvm reports the fee only in its debug text.
const feeOf = (meta: TransactionMetadata | FailedTransactionMetadata, signatures: number): bigint => {
  const match = /fee: (\d+)[ })]*$/.exec(meta.toString())
  return match?.[1] === undefined ? LAMPORTS_PER_SIGNATURE * BigInt(signatures) : BigInt(match[1])
}

type Listener<A> = (value: A) => void

/**
 * The chain over litesvm. Every transaction that lands makes a block: the slot advances by one and a new
 * blockhash is issued, valid for 150 blocks, so two identical transfers in a row get different signatures.
 */
export class Ledger {
  readonly svm: LiteSVM
  private slotNow = 0n
  private readonly blockhashes = new Map<string, bigint>()
  private readonly transactions = new Map<string, TransactionRecord>()
  private readonly signaturesByAddress = new Map<string, Array<string>>()
  private readonly slotListeners = new Set<Listener<bigint>>()
  private readonly landedListeners = new Set<Listener<TransactionRecord>>()
  private readonly faucet: DevKey = generateDevKey()
  private faucetSigner: ReturnType<typeof createKeyPairSignerFromBytes> | undefined

  constructor() {
    // The blockhash window is ours (150 blocks); litesvm would accept only its very latest one.
    this.svm = new LiteSVM().withDefaultPrograms().withNativeMints().withBlockhashCheck(false)
    this.svm.setAccount({
      address: this.faucet.address,
      lamports: lamports(FAUCET_LAMPORTS),
      programAddress: SYSTEM_PROGRAM,
      executable: false,
      space: 0n,
      data: new Uint8Array()
    })
    const clock = this.svm.getClock()
    clock.slot = 0n
    clock.epoch = 0n
    clock.unixTimestamp = BigInt(nowSeconds())
    clock.epochStartTimestamp = clock.unixTimestamp
    this.svm.setClock(clock)
    this.blockhashes.set(this.svm.latestBlockhash(), BLOCKHASH_VALIDITY)
  }

  /** The current slot; one block per slot, so it is also the block height. */
  get slot(): bigint {
    return this.slotNow
  }

  /** How many transactions have landed. */
  get transactionCount(): bigint {
    return BigInt(this.transactions.size)
  }

  /** The newest blockhash and the last block height at which it is still accepted. */
  latestBlockhash(): { readonly blockhash: Blockhash; readonly lastValidBlockHeight: bigint } {
    const blockhash = this.svm.latestBlockhash() as Blockhash
    return { blockhash, lastValidBlockHeight: this.blockhashes.get(blockhash) ?? this.slotNow }
  }

  /** Whether a transaction with this blockhash would still be accepted. */
  isBlockhashValid(blockhash: string): boolean {
    const lastValid = this.blockhashes.get(blockhash)
    return lastValid !== undefined && lastValid >= this.slotNow
  }

  /** The decimals of the SPL Token mint at `mint`, or undefined when there is no such mint. */
  mintDecimals(mint: Address): number | undefined {
    const account = this.svm.getAccount(mint)
    return account.exists && account.programAddress === TOKEN_PROGRAM ? decodeMint(account.data)?.decimals : undefined
  }

  /** The SPL Token accounts among `keys` (by their index) with their balances now. */
  tokenBalances(keys: ReadonlyArray<Address>): ReadonlyArray<TokenBalanceJson> {
    return keys.flatMap((key, accountIndex) => {
      const account = this.svm.getAccount(key)
      if (!account.exists || account.programAddress !== TOKEN_PROGRAM) return []
      const state = decodeTokenAccount(account.data)
      const decimals = state === undefined ? undefined : this.mintDecimals(state.mint)
      if (state === undefined || decimals === undefined) return []
      return [{ accountIndex, mint: state.mint, owner: state.owner, programId: TOKEN_PROGRAM, uiTokenAmount: uiTokenAmount(state.amount, decimals) }]
    })
  }

  /** Gives `address` lamports directly, without a transaction (used for the funded dev keys at start). */
  fund(address: Address, amount: bigint): void {
    const existing = this.svm.getAccount(address)
    this.svm.setAccount(
      existing.exists
        ? { ...existing, lamports: lamports(existing.lamports + amount) }
        : {
            address,
            lamports: lamports(amount),
            programAddress: SYSTEM_PROGRAM,
            executable: false,
            space: 0n,
            data: new Uint8Array()
          }
    )
  }

  /** Reads wire bytes as a transaction, or throws MalformedTransaction. */
  decode(wire: Uint8Array): DecodedTransaction {
    try {
      const transaction = transactionDecoder.decode(wire)
      const message = messageDecoder.decode(transaction.messageBytes)
      const signatures = Object.values(transaction.signatures).map((s) => (s ? base58.decode(s) : ZERO_SIGNATURE))
      return { wire, transaction, message, signatures }
    } catch (error) {
      throw new MalformedTransaction(
        `failed to deserialize transaction: ${error instanceof Error ? error.message : String(error)}`
      )
    }
  }

  /** Runs a transaction without committing it. */
  simulate(decoded: DecodedTransaction, opts: { readonly sigVerify: boolean; readonly checkBlockhash: boolean }): Simulation {
    const refused = (err: TransactionErrorJson): Simulation => ({
      err,
      logs: [],
      unitsConsumed: 0n,
      returnData: null,
      postAccounts: new Map()
    })
    if (opts.checkBlockhash && !this.isBlockhashValid(decoded.message.lifetimeToken)) return refused("BlockhashNotFound")
    if (opts.sigVerify && decoded.signatures.includes(ZERO_SIGNATURE)) return refused("SignatureFailure")
    this.svm.withSigverify(opts.sigVerify)
    try {
      const result = this.svm.simulateTransaction(decoded.transaction)
      if (result instanceof FailedTransactionMetadata) {
        const meta = result.meta()
        return {
          err: transactionErrorJson(result.err()),
          logs: meta.logs(),
          unitsConsumed: meta.computeUnitsConsumed(),
          returnData: null,
          postAccounts: new Map()
        }
      }
      const meta = result.meta()
      const returned = meta.returnData()
      return {
        err: null,
        logs: meta.logs(),
        unitsConsumed: meta.computeUnitsConsumed(),
        returnData: returned.data().length > 0 ? { programId: base58.decode(returned.programId()), data: returned.data() } : null,
        postAccounts: new Map(result.postAccounts().map((a) => [a.address, a]))
      }
    } catch {
      // litesvm's wrapper throws (rather than reporting) for messages it cannot run, such as unknown versions.
      return refused("SanitizeFailure")
    } finally {
      this.svm.withSigverify(true)
    }
  }

  /**
   * Lands a transaction in a new block. Throws Rejected when it cannot land at all (bad blockhash, already
   * processed, missing signature, fee unpaid); a transaction that fails while executing lands with its error,
   * and its fee is charged, as on Solana.
   */
  submit(decoded: DecodedTransaction, opts: { readonly preflight: boolean }): TransactionRecord {
    const signature = decoded.signatures[0] ?? ZERO_SIGNATURE
    if (signature === ZERO_SIGNATURE || decoded.signatures.includes(ZERO_SIGNATURE)) {
      throw new Rejected("SignatureFailure", undefined)
    }
    if (this.transactions.has(signature)) throw new Rejected("AlreadyProcessed", undefined)
    if (!this.isBlockhashValid(decoded.message.lifetimeToken)) throw new Rejected("BlockhashNotFound", undefined)
    if (opts.preflight) {
      const simulation = this.simulate(decoded, { sigVerify: true, checkBlockhash: true })
      if (simulation.err !== null) throw new Rejected(simulation.err, simulation)
    }
    const accounts = decoded.message.staticAccounts
    const balances = () => accounts.map((a) => this.svm.getBalance(a) ?? 0n)
    const preBalances = balances()
    const preTokenBalances = this.tokenBalances(accounts)
    let result: TransactionMetadata | FailedTransactionMetadata
    try {
      result = this.svm.sendTransaction(decoded.transaction)
    } catch {
      throw new Rejected("SanitizeFailure", undefined)
    }
    const postBalances = balances()
    const meta = result instanceof FailedTransactionMetadata ? result.meta() : result
    const err = result instanceof FailedTransactionMetadata ? transactionErrorJson(result.err()) : null
    // Nothing charged: it never made it into a block (signature, fee-payer or sanitize failures).
    if (err !== null && preBalances.every((b, i) => b === postBalances[i])) {
      throw new Rejected(err, undefined)
    }
    const record: TransactionRecord = {
      signature,
      slot: this.slotNow,
      blockTime: nowSeconds(),
      decoded,
      err,
      fee: feeOf(result, decoded.signatures.length),
      preBalances,
      postBalances,
      logs: meta.logs(),
      computeUnits: meta.computeUnitsConsumed(),
      innerInstructions: meta.innerInstructions().flatMap((calls, index) =>
        calls.length === 0
          ? []
          : [
              {
                index,
                instructions: calls.map((call) => {
                  const compiled = call.instruction()
                  return {
                    programIdIndex: compiled.programIdIndex(),
                    accounts: [...compiled.accounts()],
                    data: new Uint8Array(compiled.data()),
                    stackHeight: call.stackHeight()
                  }
                })
              }
            ]
      ),
      preTokenBalances,
      postTokenBalances: this.tokenBalances(accounts)
    }
    this.transactions.set(signature, record)
    for (const address of new Set(accounts)) {
      const list = this.signaturesByAddress.get(address) ?? []
      list.push(signature)
      this.signaturesByAddress.set(address, list)
    }
    this.nextBlock()
    for (const listener of this.landedListeners) listener(record)
    return record
  }

  /** Sends `amount` lamports from the faucet to `to` in a real transaction, so it shows in the history. */
  async airdrop(to: Address, amount: bigint): Promise<TransactionRecord> {
    return this.execute((faucet) => [transferSolInstruction(faucet, to, amount)], [])
  }

  /**
   * Lands one transaction of the stack's own, paid by the faucet: the instructions (given the faucet's address) signed
   * by the faucet and `signers`. Throws Rejected when it fails, like a preflight.
   */
  async execute(
    instructions: (faucet: Address) => ReadonlyArray<Instruction>,
    signers: ReadonlyArray<DevKey>
  ): Promise<TransactionRecord> {
    this.faucetSigner ??= createKeyPairSignerFromBytes(this.faucet.bytes)
    const faucet = await this.faucetSigner
    const extra = await Promise.all(signers.map((key) => createKeyPairSignerFromBytes(key.bytes)))
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayerSigner(faucet, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(this.latestBlockhash(), m),
      (m) =>
        appendTransactionMessageInstructions(
          instructions(faucet.address).map((ix) => addSignersToInstruction(extra, ix)),
          m
        )
    )
    const signed = await signTransactionMessageWithSigners(message)
    return this.submit(this.decode(new Uint8Array(transactionEncoder.encode(signed))), { preflight: true })
  }

  /** A landed transaction by signature. */
  transaction(signature: string): TransactionRecord | undefined {
    return this.transactions.get(signature)
  }

  /** Signatures of landed transactions that loaded `address`, newest first. */
  signaturesFor(address: string): ReadonlyArray<string> {
    return [...(this.signaturesByAddress.get(address) ?? [])].reverse()
  }

  /** Calls `listener` with each new slot; returns the unsubscribe. */
  onSlot(listener: Listener<bigint>): () => void {
    this.slotListeners.add(listener)
    return () => this.slotListeners.delete(listener)
  }

  /** Calls `listener` with each landed transaction; returns the unsubscribe. */
  onLanded(listener: Listener<TransactionRecord>): () => void {
    this.landedListeners.add(listener)
    return () => this.landedListeners.delete(listener)
  }

  private nextBlock(): void {
    this.slotNow += 1n
    const clock = this.svm.getClock()
    clock.slot = this.slotNow
    clock.epoch = this.slotNow / SLOTS_PER_EPOCH
    clock.unixTimestamp = BigInt(nowSeconds())
    this.svm.setClock(clock)
    this.svm.expireBlockhash()
    this.blockhashes.set(this.svm.latestBlockhash(), this.slotNow + BLOCKHASH_VALIDITY)
    for (const [hash, lastValid] of this.blockhashes) if (lastValid < this.slotNow) this.blockhashes.delete(hash)
    for (const listener of this.slotListeners) listener(this.slotNow)
  }
}
