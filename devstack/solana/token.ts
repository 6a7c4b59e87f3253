/**
 * SPL Token instructions built by hand (no `@solana-program/*` packages) and the associated-token-account
 * derivation: what a client needs to send a token, creating the receiver's account when it is missing. Pure and
 * browser-safe (only @solana/kit).
 */
import { AccountRole, type Address, address, getAddressEncoder, getProgramDerivedAddress, type Instruction } from "@solana/kit"

/** The System Program, owner of plain wallet accounts. */
export const SYSTEM_PROGRAM = address("11111111111111111111111111111111")
/** The SPL Token program. */
export const TOKEN_PROGRAM = address("TokenkegQfeZyiNwAJbNbGKPFXCWuBvf9Ss623VQ5DA")
/** The Token-2022 program (loaded on the local RPC; its accounts are not parsed there). */
export const TOKEN_2022_PROGRAM = address("TokenzQdBNbLqP5VEhdkAS6EPFLC1PHnBqCXEpPxuEb")
/** The Associated Token Account program. */
export const ASSOCIATED_TOKEN_PROGRAM = address("ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL")

/** Size of an SPL Token account, and of a mint. */
export const TOKEN_ACCOUNT_SIZE = 165
/** Size of an SPL Token mint. */
export const MINT_SIZE = 82

/** SPL Token instruction tags used here. */
export const TokenInstruction = { transfer: 3, mintTo: 7, transferChecked: 12, initializeMint2: 20 } as const
/** Associated Token Account instruction tags (an empty instruction is `create` too). */
export const AssociatedTokenInstruction = { create: 0, createIdempotent: 1 } as const

const addressEncoder = getAddressEncoder()

const u64 = (value: bigint): Uint8Array => {
  const bytes = new Uint8Array(8)
  new DataView(bytes.buffer).setBigUint64(0, value, true)
  return bytes
}

/** The associated token account of `owner` for `mint`: the PDA of seeds [owner, token program, mint]. */
export const findAssociatedTokenAddress = async (
  owner: Address,
  mint: Address,
  tokenProgram: Address = TOKEN_PROGRAM
): Promise<Address> => {
  const [pda] = await getProgramDerivedAddress({
    programAddress: ASSOCIATED_TOKEN_PROGRAM,
    seeds: [addressEncoder.encode(owner), addressEncoder.encode(tokenProgram), addressEncoder.encode(mint)]
  })
  return pda
}

/**
 * `CreateIdempotent` (data `[1]`): creates `owner`'s associated token account for `mint`, paid by `payer`, and
 * succeeds without change when it already exists.
 */
export const createAssociatedTokenIdempotentInstruction = (accounts: {
  readonly payer: Address
  readonly associatedToken: Address
  readonly owner: Address
  readonly mint: Address
  readonly tokenProgram?: Address
}): Instruction => ({
  programAddress: ASSOCIATED_TOKEN_PROGRAM,
  accounts: [
    { address: accounts.payer, role: AccountRole.WRITABLE_SIGNER },
    { address: accounts.associatedToken, role: AccountRole.WRITABLE },
    { address: accounts.owner, role: AccountRole.READONLY },
    { address: accounts.mint, role: AccountRole.READONLY },
    { address: SYSTEM_PROGRAM, role: AccountRole.READONLY },
    { address: accounts.tokenProgram ?? TOKEN_PROGRAM, role: AccountRole.READONLY }
  ],
  data: new Uint8Array([AssociatedTokenInstruction.createIdempotent])
})

/**
 * `TransferChecked` (tag 12, then the amount as u64 LE and the mint's decimals): moves `amount` base units from
 * `source` to `destination` (token accounts), signed by `authority`, the source's owner.
 */
export const transferCheckedInstruction = (args: {
  readonly source: Address
  readonly mint: Address
  readonly destination: Address
  readonly authority: Address
  readonly amount: bigint
  readonly decimals: number
  readonly tokenProgram?: Address
}): Instruction => ({
  programAddress: args.tokenProgram ?? TOKEN_PROGRAM,
  accounts: [
    { address: args.source, role: AccountRole.WRITABLE },
    { address: args.mint, role: AccountRole.READONLY },
    { address: args.destination, role: AccountRole.WRITABLE },
    { address: args.authority, role: AccountRole.READONLY_SIGNER }
  ],
  data: new Uint8Array([TokenInstruction.transferChecked, ...u64(args.amount), args.decimals])
})

/** `InitializeMint2` (tag 20): makes the (allocated, token-owned) `mint` a mint with no freeze authority. */
export const initializeMint2Instruction = (args: {
  readonly mint: Address
  readonly decimals: number
  readonly mintAuthority: Address
}): Instruction => ({
  programAddress: TOKEN_PROGRAM,
  accounts: [{ address: args.mint, role: AccountRole.WRITABLE }],
  data: new Uint8Array([TokenInstruction.initializeMint2, args.decimals, ...addressEncoder.encode(args.mintAuthority), 0])
})

/** `MintTo` (tag 7, then the amount as u64 LE): mints `amount` base units to the token account `destination`. */
export const mintToInstruction = (args: {
  readonly mint: Address
  readonly destination: Address
  readonly mintAuthority: Address
  readonly amount: bigint
}): Instruction => ({
  programAddress: TOKEN_PROGRAM,
  accounts: [
    { address: args.mint, role: AccountRole.WRITABLE },
    { address: args.destination, role: AccountRole.WRITABLE },
    { address: args.mintAuthority, role: AccountRole.READONLY_SIGNER }
  ],
  data: new Uint8Array([TokenInstruction.mintTo, ...u64(args.amount)])
})
