import type { FailedTransactionMetadata } from "litesvm"

// litesvm reports errors as the indexes of Solana's error enums; these are the names in that order,
// which is how the JSON-RPC (and @solana/kit's error decoding) spells them.
const TRANSACTION_ERRORS = [
  "AccountInUse", "AccountLoadedTwice", "AccountNotFound", "ProgramAccountNotFound", "InsufficientFundsForFee",
  "InvalidAccountForFee", "AlreadyProcessed", "BlockhashNotFound", "CallChainTooDeep", "MissingSignatureForFee",
  "InvalidAccountIndex", "SignatureFailure", "InvalidProgramForExecution", "SanitizeFailure", "ClusterMaintenance",
  "AccountBorrowOutstanding", "WouldExceedMaxBlockCostLimit", "UnsupportedVersion", "InvalidWritableAccount",
  "WouldExceedMaxAccountCostLimit", "WouldExceedAccountDataBlockLimit", "TooManyAccountLocks",
  "AddressLookupTableNotFound", "InvalidAddressLookupTableOwner", "InvalidAddressLookupTableData",
  "InvalidAddressLookupTableIndex", "InvalidRentPayingAccount", "WouldExceedMaxVoteCostLimit",
  "WouldExceedAccountDataTotalLimit", "MaxLoadedAccountsDataSizeExceeded", "ResanitizationNeeded",
  "InvalidLoadedAccountsDataSizeLimit", "UnbalancedTransaction", "ProgramCacheHitMaxLimit", "CommitCancelled"
] as const

const INSTRUCTION_ERRORS = [
  "GenericError", "InvalidArgument", "InvalidInstructionData", "InvalidAccountData", "AccountDataTooSmall",
  "InsufficientFunds", "IncorrectProgramId", "MissingRequiredSignature", "AccountAlreadyInitialized",
  "UninitializedAccount", "UnbalancedInstruction", "ModifiedProgramId", "ExternalAccountLamportSpend",
  "ExternalAccountDataModified", "ReadonlyLamportChange", "ReadonlyDataModified", "DuplicateAccountIndex",
  "ExecutableModified", "RentEpochModified", "NotEnoughAccountKeys", "AccountDataSizeChanged", "AccountNotExecutable",
  "AccountBorrowFailed", "AccountBorrowOutstanding", "DuplicateAccountOutOfSync", "InvalidError",
  "ExecutableDataModified", "ExecutableLamportChange", "ExecutableAccountNotRentExempt", "UnsupportedProgramId",
  "CallDepth", "MissingAccount", "ReentrancyNotAllowed", "MaxSeedLengthExceeded", "InvalidSeeds", "InvalidRealloc",
  "ComputationalBudgetExceeded", "PrivilegeEscalation", "ProgramEnvironmentSetupFailure", "ProgramFailedToComplete",
  "ProgramFailedToCompile", "Immutable", "IncorrectAuthority", "AccountNotRentExempt", "InvalidAccountOwner",
  "ArithmeticOverflow", "UnsupportedSysvar", "IllegalOwner", "MaxAccountsDataAllocationsExceeded",
  "MaxAccountsExceeded", "MaxInstructionTraceLengthExceeded", "BuiltinProgramsMustConsumeComputeUnits", "BorshIoError"
] as const

/** A transaction error as the JSON-RPC spells it: a name, or `{ Name: detail }`. */
export type TransactionErrorJson = string | { readonly [name: string]: unknown }

type LitesvmError = ReturnType<FailedTransactionMetadata["err"]>

const instructionErrorJson = (err: unknown): unknown => {
  if (typeof err === "number") return INSTRUCTION_ERRORS[err] ?? "GenericError"
  if (typeof err === "object" && err !== null) {
    if ("code" in err && typeof err.code === "number") return { Custom: err.code }
    if ("msg" in err && typeof err.msg === "string") return { BorshIoError: err.msg }
  }
  return "GenericError"
}

/** The JSON-RPC form of a litesvm transaction error. */
export const transactionErrorJson = (err: LitesvmError): TransactionErrorJson => {
  if (typeof err === "number") return TRANSACTION_ERRORS[err] ?? "SanitizeFailure"
  const kind = err.constructor.name
  if ("err" in err && typeof err.err === "function") {
    return { InstructionError: [err.index, instructionErrorJson(err.err())] }
  }
  if (kind === "TransactionErrorDuplicateInstruction" && "index" in err) return { DuplicateInstruction: err.index }
  if ("accountIndex" in err) {
    const name = kind === "TransactionErrorInsufficientFundsForRent" ? "InsufficientFundsForRent" : "ProgramExecutionTemporarilyRestricted"
    return { [name]: { account_index: err.accountIndex } }
  }
  return "SanitizeFailure"
}

/** One line saying what went wrong, for JSON-RPC error messages. */
export const describeTransactionError = (err: TransactionErrorJson): string => {
  if (typeof err === "string") return err
  const [name, detail] = Object.entries(err)[0] ?? ["TransactionError", null]
  return `${name} ${JSON.stringify(detail)}`
}
