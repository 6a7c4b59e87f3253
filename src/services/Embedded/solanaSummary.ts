/**
 * What a Solana transaction asks, for the ApproveTransaction view: a transaction whose only instruction (beside
 * compute-budget settings) is a System Program transfer is "send X SOL to Y"; anything else is named by the programs
 * it calls. Read from the wire format directly (legacy and v0 messages), so no chain library loads to show it; bytes
 * that do not parse are described as they are, never thrown on.
 */
import { toBase58 } from "../../domain/encoding"
import { formatUnits } from "../../domain/format"
import type { ApprovalSummary } from "./embeddedState"

const SYSTEM_PROGRAM = "11111111111111111111111111111111"
const COMPUTE_BUDGET_PROGRAM = "ComputeBudget111111111111111111111111111111"
const SOL_DECIMALS = 9

interface Instruction {
  readonly program: string | undefined
  readonly accounts: ReadonlyArray<string | undefined>
  readonly data: Uint8Array
}

/** A compact-u16 ("shortvec") and the offset after it; undefined past the end. */
const shortVec = (bytes: Uint8Array, offset: number): readonly [number, number] | undefined => {
  let value = 0
  for (let index = 0; index < 3; index++) {
    const byte = bytes[offset + index]
    if (byte === undefined) return undefined
    value |= (byte & 0x7f) << (7 * index)
    if ((byte & 0x80) === 0) return [value, offset + index + 1]
  }
  return undefined
}

/** The instructions of a wire transaction with their program and account addresses (undefined: from a lookup table). */
export const parseInstructions = (wire: Uint8Array): ReadonlyArray<Instruction> | undefined => {
  const signatures = shortVec(wire, 0)
  if (signatures === undefined) return undefined
  let offset = signatures[1] + signatures[0] * 64
  const first = wire[offset]
  if (first === undefined) return undefined
  // A versioned message starts with 0x80 | version; a legacy one with its header.
  if ((first & 0x80) !== 0) offset += 1
  offset += 3
  const keyCount = shortVec(wire, offset)
  if (keyCount === undefined) return undefined
  offset = keyCount[1]
  const keys: Array<string> = []
  for (let index = 0; index < keyCount[0]; index++) {
    if (offset + 32 > wire.length) return undefined
    keys.push(toBase58(wire.subarray(offset, offset + 32)))
    offset += 32
  }
  offset += 32 // recent blockhash
  const count = shortVec(wire, offset)
  if (count === undefined) return undefined
  offset = count[1]
  const instructions: Array<Instruction> = []
  for (let index = 0; index < count[0]; index++) {
    const programIndex = wire[offset]
    if (programIndex === undefined) return undefined
    const accountCount = shortVec(wire, offset + 1)
    if (accountCount === undefined) return undefined
    offset = accountCount[1]
    if (offset + accountCount[0] > wire.length) return undefined
    const accounts = [...wire.subarray(offset, offset + accountCount[0])].map((key) => keys[key])
    offset += accountCount[0]
    const dataLength = shortVec(wire, offset)
    if (dataLength === undefined || dataLength[1] + dataLength[0] > wire.length) return undefined
    const data = wire.subarray(dataLength[1], dataLength[1] + dataLength[0])
    offset = dataLength[1] + dataLength[0]
    instructions.push({ program: keys[programIndex], accounts, data })
  }
  return instructions
}

const transferLamports = (instruction: Instruction): bigint | undefined => {
  const { data } = instruction
  if (instruction.program !== SYSTEM_PROGRAM || data.length !== 12) return undefined
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength)
  return view.getUint32(0, true) === 2 ? view.getBigUint64(4, true) : undefined
}

/** The summary of one or more Solana wire transactions about to be signed (and sent). */
export const solanaApprovalSummary = (transactions: ReadonlyArray<Uint8Array>): ApprovalSummary => {
  const parsed = transactions.map(parseInstructions)
  const only = parsed.length === 1 ? parsed[0]?.filter((instruction) => instruction.program !== COMPUTE_BUDGET_PROGRAM) : undefined
  const transfer = only?.length === 1 ? only[0] : undefined
  const lamports = transfer === undefined ? undefined : transferLamports(transfer)
  const to = transfer?.accounts[1]
  if (lamports !== undefined && to !== undefined) return { _tag: "SolanaTransfer", to, amount: `${formatUnits(lamports, SOL_DECIMALS)} SOL` }
  const programs = [
    ...new Set(parsed.flatMap((instructions) => (instructions ?? []).map((instruction) => instruction.program ?? "a program from a lookup table")))
  ]
  return { _tag: "SolanaTransactions", count: transactions.length, programs }
}
