/**
 * SPL Token state and instructions read the way a Solana validator shows them in `jsonParsed` answers
 * (solana-account-decoder and solana-transaction-status): mint and token accounts, token amounts, and the
 * `spl-token` / `spl-associated-token-account` instructions a wallet sends.
 */
import { type Address, getAddressDecoder, type ReadonlyUint8Array } from "@solana/kit"
import {
  ASSOCIATED_TOKEN_PROGRAM,
  AssociatedTokenInstruction,
  MINT_SIZE,
  TOKEN_ACCOUNT_SIZE,
  TOKEN_PROGRAM,
  TokenInstruction
} from "./token"

/** An initialized SPL Token account. */
export interface TokenAccountState {
  readonly mint: Address
  readonly owner: Address
  readonly amount: bigint
  readonly delegate: Address | null
  readonly state: "initialized" | "frozen"
  /** The rent-exempt reserve of a wrapped-SOL account, `null` for other mints. */
  readonly isNative: bigint | null
  readonly delegatedAmount: bigint
  readonly closeAuthority: Address | null
}

/** An initialized SPL Token mint. */
export interface MintState {
  readonly mintAuthority: Address | null
  readonly supply: bigint
  readonly decimals: number
  readonly freezeAuthority: Address | null
}

/** A token amount as the JSON-RPC gives it (`uiTokenAmount`, `tokenAmount`, `getTokenAccountBalance`'s value). */
export interface UiTokenAmount {
  readonly amount: string
  readonly decimals: number
  readonly uiAmount: number
  readonly uiAmountString: string
}

const addressDecoder = getAddressDecoder()

const view = (data: ReadonlyUint8Array) => new DataView(data.buffer, data.byteOffset, data.byteLength)
const pubkeyAt = (data: ReadonlyUint8Array, offset: number): Address => addressDecoder.decode(data.slice(offset, offset + 32))
// A COption<Pubkey> in account state: a u32 tag, then the 32 bytes (present either way).
const optionalPubkeyAt = (data: ReadonlyUint8Array, offset: number): Address | null =>
  view(data).getUint32(offset, true) === 1 ? pubkeyAt(data, offset + 4) : null

/** The token account in `data` (SPL Token layout, 165 bytes), or undefined when it is not an initialized one. */
export const decodeTokenAccount = (data: ReadonlyUint8Array): TokenAccountState | undefined => {
  if (data.length !== TOKEN_ACCOUNT_SIZE) return undefined
  const v = view(data)
  const state = data[108]
  if (state !== 1 && state !== 2) return undefined
  return {
    mint: pubkeyAt(data, 0),
    owner: pubkeyAt(data, 32),
    amount: v.getBigUint64(64, true),
    delegate: optionalPubkeyAt(data, 72),
    state: state === 1 ? "initialized" : "frozen",
    isNative: v.getUint32(109, true) === 1 ? v.getBigUint64(113, true) : null,
    delegatedAmount: v.getBigUint64(121, true),
    closeAuthority: optionalPubkeyAt(data, 129)
  }
}

/** The mint in `data` (SPL Token layout, 82 bytes), or undefined when it is not an initialized one. */
export const decodeMint = (data: ReadonlyUint8Array): MintState | undefined => {
  if (data.length !== MINT_SIZE || data[45] !== 1) return undefined
  return {
    mintAuthority: optionalPubkeyAt(data, 0),
    supply: view(data).getBigUint64(36, true),
    decimals: data[44] ?? 0,
    freezeAuthority: optionalPubkeyAt(data, 46)
  }
}

/** `amount` base units with `decimals`, as the JSON-RPC writes it (`uiAmountString` without trailing zeros). */
export const uiTokenAmount = (amount: bigint, decimals: number): UiTokenAmount => {
  const digits = amount.toString().padStart(decimals + 1, "0")
  const whole = digits.slice(0, digits.length - decimals)
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, "")
  const uiAmountString = fraction.length > 0 ? `${whole}.${fraction}` : whole
  return { amount: amount.toString(), decimals, uiAmount: Number(uiAmountString), uiAmountString }
}

/** Reads a mint's decimals (for token amounts of accounts and instructions); undefined when it is not a mint. */
export type DecimalsOf = (mint: Address) => number | undefined

/** The `jsonParsed` data of an account owned by `owner`, or undefined when validators would fall back to base64. */
export const parsedAccountData = (owner: Address, data: ReadonlyUint8Array, decimalsOf: DecimalsOf) => {
  if (owner !== TOKEN_PROGRAM) return undefined
  const mint = decodeMint(data)
  if (mint !== undefined) {
    return {
      program: "spl-token",
      parsed: {
        type: "mint",
        info: {
          mintAuthority: mint.mintAuthority,
          supply: mint.supply.toString(),
          decimals: mint.decimals,
          isInitialized: true,
          freezeAuthority: mint.freezeAuthority
        }
      },
      space: BigInt(data.length)
    }
  }
  const account = decodeTokenAccount(data)
  const decimals = account === undefined ? undefined : decimalsOf(account.mint)
  if (account === undefined || decimals === undefined) return undefined
  return {
    program: "spl-token",
    parsed: {
      type: "account",
      info: {
        isNative: account.isNative !== null,
        mint: account.mint,
        owner: account.owner,
        state: account.state,
        tokenAmount: uiTokenAmount(account.amount, decimals),
        ...(account.delegate === null
          ? {}
          : { delegate: account.delegate, delegatedAmount: uiTokenAmount(account.delegatedAmount, decimals) }),
        ...(account.isNative === null ? {} : { rentExemptReserve: uiTokenAmount(account.isNative, decimals) }),
        ...(account.closeAuthority === null ? {} : { closeAuthority: account.closeAuthority })
      }
    },
    space: BigInt(data.length)
  }
}

/** A `{ program, programId, parsed: { type, info } }` instruction, as in `jsonParsed` transactions. */
export interface ParsedInstruction {
  readonly program: string
  readonly programId: Address
  readonly parsed: { readonly type: string; readonly info: Readonly<Record<string, unknown>> }
}

const u64At = (data: ReadonlyUint8Array, offset: number): bigint | undefined =>
  data.length >= offset + 8 ? view(data).getBigUint64(offset, true) : undefined

// The signing authority of a token instruction: one signer, or a multisig account followed by its signers.
const authority = (keys: ReadonlyArray<Address>, at: number, name: string): Record<string, unknown> =>
  keys.length > at + 1 ? { [`multisig${name[0]?.toUpperCase()}${name.slice(1)}`]: keys[at], signers: keys.slice(at + 1) } : { [name]: keys[at] }

const tokenInstruction = (data: ReadonlyUint8Array, keys: ReadonlyArray<Address>): ParsedInstruction["parsed"] | undefined => {
  switch (data[0]) {
    case TokenInstruction.transfer: {
      const amount = u64At(data, 1)
      if (amount === undefined || keys.length < 3) return undefined
      return {
        type: "transfer",
        info: { source: keys[0], destination: keys[1], amount: amount.toString(), ...authority(keys, 2, "authority") }
      }
    }
    case TokenInstruction.transferChecked: {
      const amount = u64At(data, 1)
      const decimals = data[9]
      if (amount === undefined || decimals === undefined || keys.length < 4) return undefined
      return {
        type: "transferChecked",
        info: {
          source: keys[0],
          mint: keys[1],
          destination: keys[2],
          ...authority(keys, 3, "authority"),
          tokenAmount: uiTokenAmount(amount, decimals)
        }
      }
    }
    case TokenInstruction.mintTo: {
      const amount = u64At(data, 1)
      if (amount === undefined || keys.length < 3) return undefined
      return {
        type: "mintTo",
        info: { mint: keys[0], account: keys[1], amount: amount.toString(), ...authority(keys, 2, "mintAuthority") }
      }
    }
    default:
      return undefined
  }
}

const associatedTokenInstruction = (
  data: ReadonlyUint8Array,
  keys: ReadonlyArray<Address>
): ParsedInstruction["parsed"] | undefined => {
  const tag = data.length === 0 ? AssociatedTokenInstruction.create : data[0]
  if ((tag !== AssociatedTokenInstruction.create && tag !== AssociatedTokenInstruction.createIdempotent) || keys.length < 6) {
    return undefined
  }
  return {
    type: tag === AssociatedTokenInstruction.create ? "create" : "createIdempotent",
    info: { source: keys[0], account: keys[1], wallet: keys[2], mint: keys[3], systemProgram: keys[4], tokenProgram: keys[5] }
  }
}

/** The parsed form of an SPL Token or Associated Token Account instruction, or undefined for anything else. */
export const parsedSplInstruction = (
  programId: Address,
  data: ReadonlyUint8Array,
  keys: ReadonlyArray<Address>
): ParsedInstruction | undefined => {
  const parsed =
    programId === TOKEN_PROGRAM
      ? tokenInstruction(data, keys)
      : programId === ASSOCIATED_TOKEN_PROGRAM
        ? associatedTokenInstruction(data, keys)
        : undefined
  if (parsed === undefined) return undefined
  return { program: programId === TOKEN_PROGRAM ? "spl-token" : "spl-associated-token-account", programId, parsed }
}

/** One entry of `preTokenBalances` / `postTokenBalances`. */
export interface TokenBalanceJson {
  readonly accountIndex: number
  readonly mint: Address
  readonly owner: Address
  readonly programId: Address
  readonly uiTokenAmount: UiTokenAmount
}
