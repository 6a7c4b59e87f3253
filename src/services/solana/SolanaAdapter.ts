/**
 * The solana chain adapter: builds SOL and SPL transfers with @solana/kit (creating the receiver's token account
 * when it has none), estimates their fee, has the wallet sign (and send) them, follows them until confirmed, signs messages (ed25519,
 * base58) and reads SOL and SPL balances — every read through the product's RPC transport. This module is loaded
 * the first time a Solana wallet is used, with kit.
 */
import {
  AccountRole,
  type Address,
  address,
  appendTransactionMessageInstructions,
  type Blockhash,
  compileTransaction,
  createTransactionMessage,
  getAddressEncoder,
  getProgramDerivedAddress,
  getTransactionDecoder,
  getTransactionEncoder,
  type Instruction,
  isAddress,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash
} from "@solana/kit"
import { Duration, Effect, Schedule, Schema } from "effect"
import { TRANSACTION_CONFIRMATION_MS } from "../../domain/constants"
import { fromBase58, fromBase64, toBase58, toBase64 } from "../../domain/encoding"
import { GasEstimationFailed, SendFormInvalid, SignMessageFailed, SomethingWentWrong, TransactionReverted } from "../../domain/errors"
import { formatUnits } from "../../domain/format"
import type { CaipNetwork } from "../../domain/Network"
import type { TokenOption } from "../../domain/Options"
import { fromWalletError, InvalidWalletParams, WalletError, WalletMethodUnsupported } from "../../domain/walletErrors"
import type { AccountSession, ChainAdapter, ChainBalance, ReadRpc, SendRequest, TransactionConfirmation } from "../ChainAdapter"
import {
  type SolanaSendOptions,
  SolanaSignAllTransactionsRequest,
  SolanaSignAndSendTransactionRequest,
  SolanaSignMessageRequest,
  SolanaSignTransactionRequest
} from "../../domain/Requests"
import { type SolanaProvider, walletStandardChainOf } from "./provider"

/** The System Program. */
export const SYSTEM_PROGRAM = address("11111111111111111111111111111111")
/** The SPL Token program. */
export const TOKEN_PROGRAM = address("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA")
/** The SPL Token-2022 program. */
export const TOKEN_2022_PROGRAM = address("TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb")
/** The Associated Token Account program. */
export const ASSOCIATED_TOKEN_PROGRAM = address("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL")

/** What the solana adapter is made with. */
export interface SolanaAdapterOptions {
  readonly reads: ReadRpc
  /** The host's token for a network (`tokens` option): its symbol is shown for that mint. */
  readonly tokenOf?: ((network: CaipNetwork) => TokenOption | undefined) | undefined
}

const STATUS_POLL_MS = 400

const u64 = (value: bigint): Uint8Array => {
  const bytes = new Uint8Array(8)
  new DataView(bytes.buffer).setBigUint64(0, value, true)
  return bytes
}

/** A System Program transfer of `lamports`. */
export const transferSolInstruction = (from: Address, to: Address, lamports: bigint): Instruction => ({
  programAddress: SYSTEM_PROGRAM,
  accounts: [
    { address: from, role: AccountRole.WRITABLE_SIGNER },
    { address: to, role: AccountRole.WRITABLE }
  ],
  data: new Uint8Array([2, 0, 0, 0, ...u64(lamports)])
})

/** The associated token account of `owner` for `mint` under `tokenProgram`. */
export const associatedTokenAddress = async (owner: Address, mint: Address, tokenProgram: Address): Promise<Address> => {
  const encoder = getAddressEncoder()
  const [found] = await getProgramDerivedAddress({
    programAddress: ASSOCIATED_TOKEN_PROGRAM,
    seeds: [encoder.encode(owner), encoder.encode(tokenProgram), encoder.encode(mint)]
  })
  return found
}

/** Creates `owner`'s token account for `mint` unless it exists (the ATA program's CreateIdempotent). */
export const createAssociatedTokenAccountIdempotent = (
  payer: Address,
  account: Address,
  owner: Address,
  mint: Address,
  tokenProgram: Address
): Instruction => ({
  programAddress: ASSOCIATED_TOKEN_PROGRAM,
  accounts: [
    { address: payer, role: AccountRole.WRITABLE_SIGNER },
    { address: account, role: AccountRole.WRITABLE },
    { address: owner, role: AccountRole.READONLY },
    { address: mint, role: AccountRole.READONLY },
    { address: SYSTEM_PROGRAM, role: AccountRole.READONLY },
    { address: tokenProgram, role: AccountRole.READONLY }
  ],
  data: new Uint8Array([1])
})

/** An SPL TransferChecked of `amount` base units (the mint's `decimals` are checked by the program). */
export const transferCheckedInstruction = (
  source: Address,
  mint: Address,
  destination: Address,
  owner: Address,
  amount: bigint,
  decimals: number,
  tokenProgram: Address
): Instruction => ({
  programAddress: tokenProgram,
  accounts: [
    { address: source, role: AccountRole.WRITABLE },
    { address: mint, role: AccountRole.READONLY },
    { address: destination, role: AccountRole.WRITABLE },
    { address: owner, role: AccountRole.READONLY_SIGNER }
  ],
  data: new Uint8Array([12, ...u64(amount), decimals])
})

const providerOf = (session: AccountSession): Effect.Effect<SolanaProvider, SomethingWentWrong> =>
  session.provider.namespace === "solana"
    ? Effect.succeed(session.provider.provider)
    : Effect.fail(new SomethingWentWrong({ reason: `A ${session.provider.namespace} wallet was given to the solana adapter` }))

const ask = <A>(run: () => Promise<A>) => Effect.tryPromise({ try: run, catch: fromWalletError })

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null

/** Makes the solana adapter over the product's reads. */
export const makeSolanaAdapter = (options: SolanaAdapterOptions): ChainAdapter => {
  const read = (network: CaipNetwork, method: string, params: ReadonlyArray<unknown>) =>
    options.reads(network, method, params).pipe(Effect.mapError((error) => new SomethingWentWrong({ reason: error.message })))

  const signMessage = (session: AccountSession, message: string) =>
    Effect.gen(function* () {
      const provider = yield* providerOf(session).pipe(Effect.mapError((e) => new SignMessageFailed({ reason: e.reason ?? "" })))
      const signature = yield* ask(() => provider.signMessage(session.address, new TextEncoder().encode(message))).pipe(
        Effect.mapError((error) => (error instanceof WalletError ? new SignMessageFailed({ reason: error.details }) : error))
      )
      if (!(signature instanceof Uint8Array) || signature.length !== 64) {
        return yield* new SignMessageFailed({ reason: "The wallet returned no signature" })
      }
      return toBase58(signature)
    }).pipe(Effect.withSpan("SolanaAdapter.signMessage"))

  const mintOf = (network: CaipNetwork, mint: Address) =>
    Effect.gen(function* () {
      const answer = yield* read(network, "getAccountInfo", [mint, { encoding: "base64" }])
      const value = isRecord(answer) ? answer["value"] : undefined
      const data = isRecord(value) && Array.isArray(value["data"]) ? fromBase64(String(value["data"][0])) : undefined
      const owner = isRecord(value) ? value["owner"] : undefined
      // A mint's decimals are its 45th byte, after the mint authority (36 bytes) and the supply (8).
      if (data === undefined || data.length < 45 || (owner !== TOKEN_PROGRAM && owner !== TOKEN_2022_PROGRAM)) {
        return yield* new SendFormInvalid()
      }
      return { decimals: data[44]!, program: owner as Address }
    })

  const exists = (network: CaipNetwork, account: Address) =>
    Effect.map(read(network, "getAccountInfo", [account, { encoding: "base64" }]), (answer) => isRecord(answer) && answer["value"] !== null)

  const instructionsFor = (network: CaipNetwork, from: Address, request: SendRequest) =>
    Effect.gen(function* () {
      const value = request.value ?? 0n
      if (!isAddress(request.to) || value <= 0n) return yield* new SendFormInvalid()
      const to = address(request.to)
      if (request.token === undefined) return [transferSolInstruction(from, to, value)]
      if (!isAddress(request.token)) return yield* new SendFormInvalid()
      const mint = address(request.token)
      const { decimals, program } = yield* mintOf(network, mint)
      const [source, destination] = yield* Effect.promise(() =>
        Promise.all([associatedTokenAddress(from, mint, program), associatedTokenAddress(to, mint, program)])
      )
      const create = (yield* exists(network, destination))
        ? []
        : [createAssociatedTokenAccountIdempotent(from, destination, to, mint, program)]
      return [...create, transferCheckedInstruction(source, mint, destination, from, value, decimals, program)]
    })

  const latestBlockhash = (network: CaipNetwork) =>
    Effect.gen(function* () {
      const answer = yield* read(network, "getLatestBlockhash", [{ commitment: "confirmed" }])
      const value = isRecord(answer) ? answer["value"] : undefined
      if (!isRecord(value) || typeof value["blockhash"] !== "string") {
        return yield* new SomethingWentWrong({ reason: "The node answered no blockhash" })
      }
      return { blockhash: value["blockhash"] as Blockhash, lastValidBlockHeight: BigInt(String(value["lastValidBlockHeight"] ?? 0)) }
    })

  /** Sends a wire transaction through the wallet: sign-and-send when it can, else sign and send it ourselves. */
  const sendWire = (session: AccountSession, provider: SolanaProvider, wire: Uint8Array, sendOptions?: SolanaSendOptions) =>
    Effect.gen(function* () {
      const chain = walletStandardChainOf(session.network)
      const signAndSend = provider.signAndSendTransaction
      if (signAndSend !== undefined) {
        return toBase58(yield* ask(() => signAndSend(session.address, wire, chain, sendOptions)))
      }
      const signTransaction = provider.signTransaction
      if (signTransaction === undefined) return yield* new WalletMethodUnsupported({ details: "This wallet cannot sign transactions." })
      const signed = yield* ask(() => signTransaction(session.address, wire, chain))
      const signature = yield* read(session.network, "sendTransaction", [
        toBase64(signed),
        { encoding: "base64", ...(sendOptions ?? {}) }
      ]).pipe(Effect.mapError((error) => fromWalletError({ message: error.reason ?? error.message })))
      if (typeof signature !== "string") return yield* new SomethingWentWrong({ reason: "The node answered no signature" })
      return signature
    })

  /** The transfer `from` sends for a request, compiled against the latest blockhash. */
  const compiledTransfer = (network: CaipNetwork, from: Address, request: SendRequest) =>
    Effect.gen(function* () {
      const instructions = yield* instructionsFor(network, from, request)
      const blockhash = yield* latestBlockhash(network)
      const message = pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayer(from, m),
        (m) => setTransactionMessageLifetimeUsingBlockhash(blockhash, m),
        (m) => appendTransactionMessageInstructions(instructions, m)
      )
      return compileTransaction(message)
    })

  const send = (session: AccountSession, request: SendRequest) =>
    Effect.gen(function* () {
      const provider = yield* providerOf(session)
      const extra = request as { readonly data?: unknown; readonly gas?: unknown; readonly nft?: unknown }
      if (extra.data !== undefined || extra.gas !== undefined || extra.nft !== undefined) {
        return yield* new InvalidWalletParams({ details: "A Solana transfer has no call data, gas or NFT: send `to`, `value` and optionally `token`." })
      }
      const transaction = yield* compiledTransfer(session.network, address(session.address), request)
      const wire = new Uint8Array(getTransactionEncoder().encode(transaction))
      return yield* sendWire(session, provider, wire)
    }).pipe(Effect.withSpan("SolanaAdapter.send"))

  const estimateFee = (from: string, network: CaipNetwork, request: SendRequest) =>
    Effect.gen(function* () {
      if (!isAddress(from)) return yield* new SendFormInvalid()
      const transaction = yield* compiledTransfer(network, address(from), request).pipe(
        Effect.mapError((error) => (error._tag === "SendFormInvalid" ? error : new GasEstimationFailed({ reason: error.reason ?? error.message })))
      )
      const answer = yield* read(network, "getFeeForMessage", [toBase64(new Uint8Array(transaction.messageBytes)), { commitment: "confirmed" }]).pipe(
        Effect.mapError((error) => new GasEstimationFailed({ reason: error.reason ?? error.message }))
      )
      const value = isRecord(answer) ? answer["value"] : undefined
      if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
        return yield* new GasEstimationFailed({ reason: "The node answered no fee" })
      }
      return BigInt(value)
    }).pipe(Effect.withSpan("SolanaAdapter.estimateFee"))

  const waitForTransaction = (signature: string, network: CaipNetwork) =>
    Effect.gen(function* () {
      const status = yield* read(network, "getSignatureStatuses", [[signature], { searchTransactionHistory: true }]).pipe(
        Effect.flatMap((answer) => {
          const value = isRecord(answer) && Array.isArray(answer["value"]) ? answer["value"][0] : undefined
          const done = isRecord(value) && (value["confirmationStatus"] === "confirmed" || value["confirmationStatus"] === "finalized" || value["err"] !== null)
          return done ? Effect.succeed(value) : Effect.fail("pending" as const)
        }),
        Effect.retry({ while: (error) => error === "pending", schedule: Schedule.spaced(Duration.millis(STATUS_POLL_MS)) }),
        Effect.timeoutOrElse({
          duration: Duration.millis(TRANSACTION_CONFIRMATION_MS),
          orElse: () => Effect.fail(new SomethingWentWrong({ reason: `${signature} was not confirmed after 25 s` }))
        }),
        Effect.mapError((error) => (error === "pending" ? new SomethingWentWrong({ reason: "pending" }) : error))
      )
      if (status["err"] !== null && status["err"] !== undefined) {
        return yield* new TransactionReverted({ hash: signature, reason: JSON.stringify(status["err"]) })
      }
      const confirmation: TransactionConfirmation = {
        namespace: "solana",
        hash: signature,
        blockNumber: BigInt(String(status["slot"] ?? 0)),
        status: "success"
      }
      return confirmation
    }).pipe(Effect.withSpan("SolanaAdapter.waitForTransaction"))

  const tokenAccounts = (owner: string, network: CaipNetwork, program: Address) =>
    Effect.map(read(network, "getTokenAccountsByOwner", [owner, { programId: program }, { encoding: "jsonParsed" }]), (answer) => {
      const list = isRecord(answer) && Array.isArray(answer["value"]) ? answer["value"] : []
      return list.flatMap((entry): ReadonlyArray<ChainBalance> => {
        const data = isRecord(entry) && isRecord(entry["account"]) ? entry["account"]["data"] : undefined
        const info = isRecord(data) && isRecord(data["parsed"]) ? data["parsed"]["info"] : undefined
        const amount = isRecord(info) && isRecord(info["tokenAmount"]) ? info["tokenAmount"] : undefined
        if (!isRecord(info) || typeof info["mint"] !== "string" || !isRecord(amount)) return []
        const decimals = Number(amount["decimals"])
        if (!/^\d+$/.test(String(amount["amount"])) || !Number.isSafeInteger(decimals)) return []
        const value = BigInt(String(amount["amount"]))
        const mint = info["mint"]
        return [{ token: mint, symbol: symbolOf(network, mint), decimals, value, formatted: formatUnits(value, decimals) }]
      })
    })

  const symbolOf = (network: CaipNetwork, mint: string): string => {
    const known = options.tokenOf?.(network)
    return known !== undefined && known.address === mint ? (known.symbol ?? `${mint.slice(0, 4)}…`) : `${mint.slice(0, 4)}…`
  }

  const balances = (owner: string, network: CaipNetwork) =>
    Effect.gen(function* () {
      const answer = yield* read(network, "getBalance", [owner])
      const lamports = isRecord(answer) ? answer["value"] : undefined
      if (typeof lamports !== "number" && typeof lamports !== "string") {
        return yield* new SomethingWentWrong({ reason: "The node answered no balance" })
      }
      const value = BigInt(lamports)
      const decimals = network.nativeCurrency.decimals
      const [tokens, tokens2022] = yield* Effect.all(
        [tokenAccounts(owner, network, TOKEN_PROGRAM), tokenAccounts(owner, network, TOKEN_2022_PROGRAM).pipe(Effect.orElseSucceed(() => []))],
        { concurrency: "unbounded" }
      )
      const native: ChainBalance = { symbol: network.nativeCurrency.symbol, decimals, value, formatted: formatUnits(value, decimals) }
      return [native, ...tokens, ...tokens2022]
    }).pipe(Effect.withSpan("SolanaAdapter.balances"))

  const firstSignatureOf = (wire: Uint8Array): string | undefined => {
    const signatures = Object.values(getTransactionDecoder().decode(wire).signatures)
    const first = signatures[0]
    return first === null || first === undefined ? undefined : toBase58(new Uint8Array(first))
  }

  // Params are checked as spec 5 says (a message and a pubkey; a transaction; an array of transactions).
  const decode = <A>(schema: Schema.Codec<A>, method: string, params: unknown) =>
    Schema.decodeUnknownEffect(schema)(params).pipe(
      Effect.mapError((issue) => new InvalidWalletParams({ details: `${method}: ${issue.message}` }))
    )

  const bytes = (method: string, text: string, decodeText: (text: string) => Uint8Array | undefined) => {
    const value = decodeText(text)
    return value === undefined ? Effect.fail(new InvalidWalletParams({ details: `${method}: not an encoded value: ${text.slice(0, 16)}…` })) : Effect.succeed(value)
  }

  const request = (session: AccountSession, method: string, params: unknown) =>
    Effect.gen(function* () {
      const provider = yield* providerOf(session)
      const chain = walletStandardChainOf(session.network)
      switch (method) {
        case "solana_signMessage": {
          const input = yield* decode(SolanaSignMessageRequest, method, params)
          const message = yield* bytes(method, input.message, fromBase58)
          return { signature: toBase58(yield* ask(() => provider.signMessage(input.pubkey, message))) }
        }
        case "solana_signTransaction": {
          const input = yield* decode(SolanaSignTransactionRequest, method, params)
          const transaction = yield* bytes(method, input.transaction, fromBase64)
          const signTransaction = provider.signTransaction
          if (signTransaction === undefined) return yield* new WalletMethodUnsupported({ details: "This wallet cannot sign transactions." })
          const signed = yield* ask(() => signTransaction(session.address, transaction, chain))
          return { signature: firstSignatureOf(signed), transaction: toBase64(signed) }
        }
        case "solana_signAndSendTransaction": {
          const input = yield* decode(SolanaSignAndSendTransactionRequest, method, params)
          const transaction = yield* bytes(method, input.transaction, fromBase64)
          return { signature: yield* sendWire(session, provider, transaction, input.sendOptions) }
        }
        case "solana_signAllTransactions": {
          const input = yield* decode(SolanaSignAllTransactionsRequest, method, params)
          const transactions = yield* Effect.forEach(input.transactions, (text) => bytes(method, text, fromBase64))
          const signAll = provider.signAllTransactions
          if (signAll === undefined) return yield* new WalletMethodUnsupported({ details: "This wallet cannot sign transactions." })
          const signed = yield* ask(() => signAll(session.address, transactions, chain))
          return { transactions: signed.map(toBase64) }
        }
        default:
          return yield* new WalletMethodUnsupported({ details: `Solana wallets do not answer ${method}.` })
      }
    }).pipe(Effect.withSpan("SolanaAdapter.request"))

  return {
    namespace: "solana",
    // A Solana wallet has no chain of its own to move: the network in front is the one it is used on.
    switchNetwork: () => Effect.void,
    signMessage,
    send,
    estimateFee,
    waitForTransaction,
    balances,
    request
  }
}
