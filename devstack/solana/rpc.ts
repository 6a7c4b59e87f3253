import {
  type Address,
  type EncodedAccount,
  getBase58Decoder,
  getBase58Encoder,
  getCompiledTransactionMessageDecoder,
  isAddress,
  type ReadonlyUint8Array
} from "@solana/kit"
import { describeTransactionError } from "./errors"
import { parseCreateAccount, parseTransferLamports } from "./keys"
import { type DecimalsOf, decodeMint, decodeTokenAccount, parsedAccountData, parsedSplInstruction, uiTokenAmount } from "./spl"
import { SYSTEM_PROGRAM, TOKEN_PROGRAM } from "./token"
import {
  GENESIS_HASH,
  LAMPORTS_PER_SIGNATURE,
  type Ledger,
  MalformedTransaction,
  Rejected,
  type Simulation,
  SLOTS_PER_EPOCH,
  type TransactionRecord
} from "./Ledger"

/** A JSON-RPC error with Solana's codes. */
export class RpcError extends Error {
  override readonly name = "RpcError"
  constructor(
    readonly code: number,
    message: string,
    readonly data?: unknown
  ) {
    super(message)
  }
}

/** Solana JSON-RPC error codes used here. */
export const SolanaRpcCode = {
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
  preflightFailure: -32002,
  signatureVerification: -32003,
  unsupportedVersion: -32015,
  minContextSlot: -32016
} as const

const API_VERSION = "2.3.0"
const RENT_EPOCH_EXEMPT = 18_446_744_073_709_551_615n
const MAX_SIGNATURE_STATUSES = 256
const MAX_SIGNATURES_FOR_ADDRESS = 1000

const base58Decoder = getBase58Decoder()
const base58Encoder = getBase58Encoder()
const messageDecoder = getCompiledTransactionMessageDecoder()
const toBase58 = (bytes: ReadonlyUint8Array): string => base58Decoder.decode(bytes)
const toBase64 = (bytes: ReadonlyUint8Array): string => Buffer.from(bytes).toString("base64")

const invalid = (message: string): RpcError => new RpcError(SolanaRpcCode.invalidParams, message)

type Params = ReadonlyArray<unknown>
type Config = Readonly<Record<string, unknown>>

const positional = (params: unknown): Params => {
  if (params === undefined || params === null) return []
  if (!Array.isArray(params)) throw invalid("Invalid params: params must be an array")
  return params
}

const stringAt = (params: Params, index: number, what: string): string => {
  const value = params[index]
  if (typeof value !== "string") throw invalid(`Invalid params: ${what} must be a string`)
  return value
}

const addressAt = (params: Params, index: number): Address => {
  const value = stringAt(params, index, "address")
  if (!isAddress(value)) throw invalid(`Invalid param: not a base58 address: ${value}`)
  return value
}

const configAt = (params: Params, index: number): Config => {
  const value = params[index]
  if (value === undefined || value === null) return {}
  if (typeof value !== "object" || Array.isArray(value)) throw invalid(`Invalid params: argument ${index + 1} must be a config object`)
  return value as Config
}

const unsignedInteger = (value: unknown, what: string): number => {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw invalid(`Invalid params: ${what} must be a non-negative integer`)
  }
  return value
}

const optionalString = (config: Config, key: string): string | undefined => {
  const value = config[key]
  if (value === undefined || value === null) return undefined
  if (typeof value !== "string") throw invalid(`Invalid params: ${key} must be a string`)
  return value
}

const optionalBoolean = (config: Config, key: string): boolean | undefined => {
  const value = config[key]
  if (value === undefined || value === null) return undefined
  if (typeof value !== "boolean") throw invalid(`Invalid params: ${key} must be a boolean`)
  return value
}

/** Wire bytes from a base58 or base64 string. */
const decodeBytes = (text: string, encoding: string): Uint8Array => {
  if (encoding === "base64") {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) throw invalid("Invalid params: not base64")
    return new Uint8Array(Buffer.from(text, "base64"))
  }
  if (encoding === "base58") {
    try {
      return new Uint8Array(base58Encoder.encode(text))
    } catch {
      throw invalid("Invalid params: not base58")
    }
  }
  throw invalid(`Invalid params: unsupported encoding: ${encoding}. Supported encodings: base58, base64`)
}

/**
 * The value of an account in the encoding asked for, or null when it does not exist. `jsonParsed` parses SPL Token
 * mints and accounts (a token account's amounts need its mint's decimals) and falls back to base64 for the rest.
 */
export const encodeAccount = (account: EncodedAccount | undefined, config: Config, decimalsOf: DecimalsOf): unknown => {
  if (!account) return null
  const encoding = optionalString(config, "encoding")
  let data: ReadonlyUint8Array = account.data
  const slice = config.dataSlice
  if (encoding === "jsonParsed" && slice !== undefined && slice !== null) {
    throw new RpcError(
      SolanaRpcCode.invalidRequest,
      "Sliced account data can only be encoded using binary (base 58) or base64 encoding."
    )
  }
  if (slice !== undefined && slice !== null) {
    if (typeof slice !== "object") throw invalid("Invalid params: dataSlice must be { offset, length }")
    const { offset, length } = slice as Record<string, unknown>
    const start = unsignedInteger(offset, "dataSlice.offset")
    data = data.slice(start, start + unsignedInteger(length, "dataSlice.length"))
  }
  const encoded = (() => {
    switch (encoding) {
      case undefined:
        return toBase58(data)
      case "base58":
        return [toBase58(data), "base58"]
      case "base64":
        return [toBase64(data), "base64"]
      // Validators fall back to base64 for accounts they cannot parse.
      case "jsonParsed":
        return parsedAccountData(account.programAddress, data, decimalsOf) ?? [toBase64(data), "base64"]
      default:
        throw invalid(`Invalid params: unsupported encoding: ${encoding}`)
    }
  })()
  return {
    data: encoded,
    executable: account.executable,
    lamports: account.lamports,
    owner: account.programAddress,
    rentEpoch: RENT_EPOCH_EXEMPT,
    space: BigInt(account.data.length)
  }
}

interface Instruction {
  readonly programIdIndex: number
  readonly accounts: ReadonlyArray<number>
  readonly data: ReadonlyUint8Array
}

const instructionsOf = (record: TransactionRecord): ReadonlyArray<Instruction> => {
  const message = record.decoded.message
  if (message.version === 1) {
    return message.instructionHeaders.map((header, i) => ({
      programIdIndex: header.programAccountIndex,
      accounts: message.instructionPayloads[i]?.instructionAccountIndices ?? [],
      data: message.instructionPayloads[i]?.instructionData ?? new Uint8Array()
    }))
  }
  return message.instructions.map((ix) => ({
    programIdIndex: ix.programAddressIndex,
    accounts: ix.accountIndices ?? [],
    data: ix.data ?? new Uint8Array()
  }))
}

const accountFlags = (record: TransactionRecord, index: number) => {
  const { header, staticAccounts } = record.decoded.message
  const signer = index < header.numSignerAccounts
  const writable = signer
    ? index < header.numSignerAccounts - header.numReadonlySignerAccounts
    : index < staticAccounts.length - header.numReadonlyNonSignerAccounts
  return { signer, writable }
}

const systemInstruction = (data: ReadonlyUint8Array, keys: ReadonlyArray<Address>) => {
  const lamports = parseTransferLamports(new Uint8Array(data))
  if (lamports !== undefined && keys.length >= 2) {
    return { type: "transfer", info: { source: keys[0], destination: keys[1], lamports } }
  }
  const created = parseCreateAccount(new Uint8Array(data))
  if (created !== undefined && keys.length >= 2) {
    return { type: "createAccount", info: { source: keys[0], newAccount: keys[1], ...created } }
  }
  return undefined
}

/** An instruction as `jsonParsed` shows it: parsed for the System, SPL Token and ATA programs, raw for the rest. */
const parsedInstruction = (record: TransactionRecord, ix: Instruction, stackHeight: number | null) => {
  const keys = record.decoded.message.staticAccounts
  const programId = keys[ix.programIdIndex] ?? SYSTEM_PROGRAM
  const accounts = ix.accounts.map((i) => keys[i] ?? SYSTEM_PROGRAM)
  if (programId === SYSTEM_PROGRAM) {
    const parsed = systemInstruction(ix.data, accounts)
    if (parsed !== undefined) return { program: "system", programId, parsed, stackHeight }
  }
  const spl = parsedSplInstruction(programId, ix.data, accounts)
  if (spl !== undefined) return { ...spl, stackHeight }
  return { programId, accounts, data: toBase58(ix.data), stackHeight }
}

const innerInstructionsJson = (record: TransactionRecord, parsed: boolean) =>
  record.innerInstructions.map(({ index, instructions }) => ({
    index,
    instructions: instructions.map((ix) =>
      parsed
        ? parsedInstruction(record, ix, ix.stackHeight)
        : { programIdIndex: ix.programIdIndex, accounts: ix.accounts, data: toBase58(ix.data), stackHeight: ix.stackHeight }
    )
  }))

const transactionJson = (record: TransactionRecord, encoding: string) => {
  const message = record.decoded.message
  const keys = message.staticAccounts
  const parsed = encoding === "jsonParsed"
  const lookups =
    message.version === 0
      ? {
          addressTableLookups: (message.addressTableLookups ?? []).map((l) => ({
            accountKey: l.lookupTableAddress,
            writableIndexes: l.writableIndexes,
            readonlyIndexes: l.readonlyIndexes
          }))
        }
      : {}
  return {
    signatures: record.decoded.signatures,
    message: {
      accountKeys: parsed
        ? keys.map((pubkey, i) => ({ pubkey, ...accountFlags(record, i), source: "transaction" }))
        : keys,
      ...(parsed
        ? {}
        : {
            header: {
              numRequiredSignatures: message.header.numSignerAccounts,
              numReadonlySignedAccounts: message.header.numReadonlySignerAccounts,
              numReadonlyUnsignedAccounts: message.header.numReadonlyNonSignerAccounts
            }
          }),
      recentBlockhash: message.lifetimeToken,
      instructions: instructionsOf(record).map((ix) =>
        parsed
          ? parsedInstruction(record, ix, null)
          : { programIdIndex: ix.programIdIndex, accounts: ix.accounts, data: toBase58(ix.data), stackHeight: null }
      ),
      ...lookups
    }
  }
}

const statusOf = (record: TransactionRecord) => ({
  slot: record.slot,
  confirmations: null,
  err: record.err,
  status: record.err === null ? { Ok: null } : { Err: record.err },
  confirmationStatus: "finalized"
})

const simulationValue = (simulation: Simulation) => ({
  err: simulation.err,
  logs: simulation.logs,
  accounts: null,
  unitsConsumed: simulation.unitsConsumed,
  returnData: simulation.returnData && {
    programId: simulation.returnData.programId,
    data: [toBase64(simulation.returnData.data), "base64"]
  },
  innerInstructions: null
})

/** The JSON-RPC methods over a ledger. */
export const createRpc = (ledger: Ledger) => {
  const context = () => ({ apiVersion: API_VERSION, slot: ledger.slot })
  const withContext = (value: unknown) => ({ context: context(), value })

  const checkMinContextSlot = (config: Config): void => {
    const min = config.minContextSlot
    if (min === undefined || min === null) return
    if (BigInt(unsignedInteger(min, "minContextSlot")) > ledger.slot) {
      throw new RpcError(SolanaRpcCode.minContextSlot, "Minimum context slot has not been reached", {
        contextSlot: ledger.slot
      })
    }
  }

  const account = (address: Address): EncodedAccount | undefined => {
    const maybe = ledger.svm.getAccount(address)
    return maybe.exists ? maybe : undefined
  }
  const decimalsOf: DecimalsOf = (mint) => ledger.mintDecimals(mint)

  // The token account at `address`, or the JSON-RPC error a validator gives.
  const tokenAccountAt = (address: Address) => {
    const found = account(address)
    if (!found) throw invalid("Invalid param: could not find account")
    const state = found.programAddress === TOKEN_PROGRAM ? decodeTokenAccount(found.data) : undefined
    const decimals = state === undefined ? undefined : decimalsOf(state.mint)
    if (state === undefined || decimals === undefined) throw invalid("Invalid param: not a Token account")
    return { state, decimals }
  }

  // The token program and mint of a getTokenAccountsBy… filter, checked as validators do.
  const tokenFilter = (filter: unknown): { readonly mint: Address | undefined } => {
    if (typeof filter !== "object" || filter === null || Array.isArray(filter)) {
      throw invalid("Invalid params: expected a filter { mint } or { programId }")
    }
    const { mint, programId } = filter as Record<string, unknown>
    if (typeof mint === "string") {
      if (!isAddress(mint)) throw invalid(`Invalid param: not a base58 address: ${mint}`)
      const found = account(mint)
      if (!found) throw invalid("Invalid param: could not find mint")
      if (found.programAddress !== TOKEN_PROGRAM || decodeMint(found.data) === undefined) throw invalid("Invalid param: not a Token mint")
      return { mint }
    }
    if (typeof programId === "string") {
      if (programId !== TOKEN_PROGRAM) throw invalid("Invalid param: unrecognized Token program id")
      return { mint: undefined }
    }
    throw invalid("Invalid params: expected a filter { mint } or { programId }")
  }

  const readTransaction = (params: Params, encodingDefault: string) => {
    const text = stringAt(params, 0, "transaction")
    const config = configAt(params, 1)
    checkMinContextSlot(config)
    const encoding = optionalString(config, "encoding") ?? encodingDefault
    try {
      return { decoded: ledger.decode(decodeBytes(text, encoding)), config }
    } catch (error) {
      if (error instanceof MalformedTransaction) throw invalid(error.message)
      throw error
    }
  }

  const methods: Record<string, (params: Params) => unknown> = {
    getHealth: () => "ok",
    getVersion: () => ({ "solana-core": API_VERSION, "feature-set": 0 }),
    getGenesisHash: () => GENESIS_HASH,
    getSlot: (params) => {
      checkMinContextSlot(configAt(params, 0))
      return ledger.slot
    },
    getBlockHeight: (params) => {
      checkMinContextSlot(configAt(params, 0))
      return ledger.slot
    },
    getTransactionCount: () => ledger.transactionCount,
    getEpochInfo: (params) => {
      checkMinContextSlot(configAt(params, 0))
      return {
        absoluteSlot: ledger.slot,
        blockHeight: ledger.slot,
        epoch: ledger.slot / SLOTS_PER_EPOCH,
        slotIndex: ledger.slot % SLOTS_PER_EPOCH,
        slotsInEpoch: SLOTS_PER_EPOCH,
        transactionCount: ledger.transactionCount
      }
    },
    getLatestBlockhash: (params) => {
      checkMinContextSlot(configAt(params, 0))
      return withContext(ledger.latestBlockhash())
    },
    isBlockhashValid: (params) => {
      const blockhash = stringAt(params, 0, "blockhash")
      checkMinContextSlot(configAt(params, 1))
      return withContext(ledger.isBlockhashValid(blockhash))
    },
    getFeeForMessage: (params) => {
      const bytes = decodeBytes(stringAt(params, 0, "message"), "base64")
      checkMinContextSlot(configAt(params, 1))
      let message
      try {
        message = messageDecoder.decode(bytes)
      } catch {
        throw invalid("Invalid params: not a transaction message")
      }
      return withContext(
        ledger.isBlockhashValid(message.lifetimeToken)
          ? LAMPORTS_PER_SIGNATURE * BigInt(message.header.numSignerAccounts)
          : null
      )
    },
    getMinimumBalanceForRentExemption: (params) =>
      ledger.svm.minimumBalanceForRentExemption(BigInt(unsignedInteger(params[0] ?? 0, "data length"))),
    getRecentPrioritizationFees: () => [{ slot: ledger.slot, prioritizationFee: 0 }],
    getBalance: (params) => {
      const address = addressAt(params, 0)
      checkMinContextSlot(configAt(params, 1))
      return withContext(ledger.svm.getBalance(address) ?? 0n)
    },
    getAccountInfo: (params) => {
      const address = addressAt(params, 0)
      const config = configAt(params, 1)
      checkMinContextSlot(config)
      return withContext(encodeAccount(account(address), config, decimalsOf))
    },
    getMultipleAccounts: (params) => {
      const list = params[0]
      if (!Array.isArray(list) || list.length > 100) throw invalid("Invalid params: expected up to 100 addresses")
      const addresses = list.map((_, i) => addressAt(list, i))
      const config = configAt(params, 1)
      checkMinContextSlot(config)
      return withContext(addresses.map((a) => encodeAccount(account(a), config, decimalsOf)))
    },
    requestAirdrop: async (params) => {
      const address = addressAt(params, 0)
      const amount = BigInt(unsignedInteger(params[1], "lamports"))
      if (amount === 0n) throw invalid("Invalid params: lamports must be more than 0")
      try {
        return (await ledger.airdrop(address, amount)).signature
      } catch (error) {
        if (!(error instanceof Rejected)) throw error
        const rent = ledger.svm.minimumBalanceForRentExemption(0n)
        const hint =
          typeof error.err === "object" && "InsufficientFundsForRent" in error.err
            ? ` (a new account needs at least ${rent} lamports)`
            : ""
        throw new RpcError(SolanaRpcCode.internal, `Airdrop failed: ${describeTransactionError(error.err)}${hint}`)
      }
    },
    sendTransaction: (params) => {
      const { decoded, config } = readTransaction(params, "base58")
      const skipPreflight = optionalBoolean(config, "skipPreflight") ?? false
      try {
        return ledger.submit(decoded, { preflight: !skipPreflight }).signature
      } catch (error) {
        if (!(error instanceof Rejected)) throw error
        if (error.err === "SignatureFailure") {
          throw new RpcError(SolanaRpcCode.signatureVerification, "Transaction signature verification failure")
        }
        const simulation = error.simulation ?? {
          err: error.err,
          logs: [],
          unitsConsumed: 0n,
          returnData: null,
          postAccounts: new Map()
        }
        throw new RpcError(
          SolanaRpcCode.preflightFailure,
          `Transaction simulation failed: ${describeTransactionError(error.err)}`,
          simulationValue(simulation)
        )
      }
    },
    simulateTransaction: (params) => {
      const { decoded, config } = readTransaction(params, "base58")
      const sigVerify = optionalBoolean(config, "sigVerify") ?? false
      const replace = optionalBoolean(config, "replaceRecentBlockhash") ?? false
      if (sigVerify && replace) throw invalid("Invalid params: sigVerify may not be used with replaceRecentBlockhash")
      const simulation = ledger.simulate(decoded, { sigVerify, checkBlockhash: !replace })
      const value: Record<string, unknown> = simulationValue(simulation)
      const accounts = config.accounts
      if (accounts !== undefined && accounts !== null) {
        if (typeof accounts !== "object") throw invalid("Invalid params: accounts must be { addresses, encoding }")
        const { addresses, encoding } = accounts as Record<string, unknown>
        if (!Array.isArray(addresses)) throw invalid("Invalid params: accounts.addresses must be an array")
        const wanted = addresses.map((_, i) => addressAt(addresses, i))
        value.accounts = wanted.map((a) =>
          encodeAccount(simulation.postAccounts.get(a) ?? account(a), { encoding: encoding ?? "base64" }, decimalsOf)
        )
      }
      if (replace) value.replacementBlockhash = ledger.latestBlockhash()
      return withContext(value)
    },
    getSignatureStatuses: (params) => {
      const list = params[0]
      if (!Array.isArray(list) || list.length > MAX_SIGNATURE_STATUSES) {
        throw invalid(`Invalid params: expected an array of up to ${MAX_SIGNATURE_STATUSES} signatures`)
      }
      return withContext(list.map((_, i) => {
        const record = ledger.transaction(stringAt(list, i, "signature"))
        return record ? statusOf(record) : null
      }))
    },
    getTransaction: (params) => {
      const signature = stringAt(params, 0, "signature")
      const config = configAt(params, 1)
      const encoding = optionalString(config, "encoding") ?? "json"
      if (!["json", "jsonParsed", "base64", "base58"].includes(encoding)) {
        throw invalid(`Invalid params: unsupported encoding: ${encoding}`)
      }
      const maxVersion = config.maxSupportedTransactionVersion
      const record = ledger.transaction(signature)
      if (!record) return null
      const version = record.decoded.message.version
      if (version !== "legacy" && (typeof maxVersion !== "number" || maxVersion < version)) {
        throw new RpcError(
          SolanaRpcCode.unsupportedVersion,
          `Transaction version (${version}) is not supported by the requesting client. Please try the request again with the following configuration parameter: "maxSupportedTransactionVersion": ${version}`
        )
      }
      return {
        slot: record.slot,
        blockTime: record.blockTime,
        version,
        meta: {
          err: record.err,
          status: record.err === null ? { Ok: null } : { Err: record.err },
          fee: record.fee,
          preBalances: record.preBalances,
          postBalances: record.postBalances,
          innerInstructions: innerInstructionsJson(record, encoding === "jsonParsed"),
          logMessages: record.logs,
          preTokenBalances: record.preTokenBalances,
          postTokenBalances: record.postTokenBalances,
          rewards: [],
          loadedAddresses: { writable: [], readonly: [] },
          computeUnitsConsumed: record.computeUnits
        },
        transaction:
          encoding === "base64"
            ? [toBase64(record.decoded.wire), "base64"]
            : encoding === "base58"
              ? [toBase58(record.decoded.wire), "base58"]
              : transactionJson(record, encoding)
      }
    },
    getTokenAccountsByOwner: (params) => {
      const owner = addressAt(params, 0)
      const { mint } = tokenFilter(params[1])
      const config = configAt(params, 2)
      checkMinContextSlot(config)
      const owned = ledger.svm.getProgramAccounts(TOKEN_PROGRAM).filter((candidate) => {
        const state = decodeTokenAccount(candidate.data)
        return state !== undefined && state.owner === owner && (mint === undefined || state.mint === mint)
      })
      return withContext(owned.map((found) => ({ pubkey: found.address, account: encodeAccount(found, config, decimalsOf) })))
    },
    getTokenAccountBalance: (params) => {
      const { state, decimals } = tokenAccountAt(addressAt(params, 0))
      checkMinContextSlot(configAt(params, 1))
      return withContext(uiTokenAmount(state.amount, decimals))
    },
    getTokenSupply: (params) => {
      const found = account(addressAt(params, 0))
      checkMinContextSlot(configAt(params, 1))
      if (!found) throw invalid("Invalid param: could not find mint")
      const mint = found.programAddress === TOKEN_PROGRAM ? decodeMint(found.data) : undefined
      if (mint === undefined) throw invalid("Invalid param: not a Token mint")
      return withContext(uiTokenAmount(mint.supply, mint.decimals))
    },
    getSignaturesForAddress: (params) => {
      const address = addressAt(params, 0)
      const config = configAt(params, 1)
      checkMinContextSlot(config)
      const limit = config.limit === undefined || config.limit === null ? MAX_SIGNATURES_FOR_ADDRESS : unsignedInteger(config.limit, "limit")
      if (limit < 1 || limit > MAX_SIGNATURES_FOR_ADDRESS) throw invalid(`Invalid params: limit must be 1 to ${MAX_SIGNATURES_FOR_ADDRESS}`)
      const before = optionalString(config, "before")
      const until = optionalString(config, "until")
      let signatures = ledger.signaturesFor(address)
      if (before !== undefined) {
        const at = signatures.indexOf(before)
        signatures = at < 0 ? [] : signatures.slice(at + 1)
      }
      if (until !== undefined) {
        const at = signatures.indexOf(until)
        if (at >= 0) signatures = signatures.slice(0, at)
      }
      return signatures.slice(0, limit).flatMap((signature) => {
        const record = ledger.transaction(signature)
        return record
          ? [{ signature, slot: record.slot, err: record.err, memo: null, blockTime: record.blockTime, confirmationStatus: "finalized" }]
          : []
      })
    }
  }

  /** Runs one method; throws RpcError for anything the caller got wrong. */
  const call = async (method: string, rawParams: unknown): Promise<unknown> => {
    const handler = Object.hasOwn(methods, method) ? methods[method] : undefined
    if (!handler) throw new RpcError(SolanaRpcCode.methodNotFound, `Method not found: ${method}`)
    return handler(positional(rawParams))
  }

  return { call, account, decimalsOf, methodNames: Object.keys(methods) }
}

/** The RPC the HTTP and websocket servers share. */
export type SolanaRpc = ReturnType<typeof createRpc>

/** JSON text in which bigints are written as plain integers, as the JSON-RPC does for u64 values. */
export const stringifyJson = (value: unknown): string =>
  JSON.stringify(value, (_key, v: unknown) => (typeof v === "bigint" ? `\u0000bigint:${v}` : v)).replace(
    /"\\u0000bigint:(-?\d+)"/g,
    "$1"
  )
