/**
 * Polkadot accounts as an extension lists them (polkadot-js `InjectedAccount`), decoded: SS58 addresses with a valid
 * checksum and their key types, written in a network's address format, those restricted to another chain left out.
 * Fetched with a Polkadot wallet's first connect (with the SS58 codec and blake2b), not with the discovery.
 */
import { Exit, Schema } from "effect"
import type { Account } from "../../domain/Account"
import type { CaipNetwork } from "../../domain/Network"
import { isPolkadotKeyType, type PolkadotKeyType } from "./provider"
import { decodeSs58, encodeSs58, ss58PrefixOf } from "./ss58"

/** The most accounts read from one answer: a wallet holding more shows its first ones. */
export const MAX_ACCOUNTS = 100

const AnyList = Schema.Array(Schema.Unknown)

/** An account as an extension lists it (`InjectedAccount`), as far as it is read. */
const InjectedAccount = Schema.Struct({
  address: Schema.String.pipe(Schema.check(Schema.isNonEmpty(), Schema.isMaxLength(64))),
  type: Schema.optionalKey(Schema.Unknown),
  genesisHash: Schema.optionalKey(Schema.Unknown)
})

/** Reads `read()` once, through `schema`: a value that throws when read, or does not decode, is `undefined`. */
const readThrough = <S extends Schema.Codec<unknown>>(schema: S, read: () => unknown): S["Type"] | undefined => {
  try {
    const decoded = Schema.decodeUnknownExit(schema)(read())
    return Exit.isSuccess(decoded) ? decoded.value : undefined
  } catch {
    return undefined
  }
}

/** A Polkadot account the wallet gave: its account id (the address in any format), key type and where it may be used. */
export interface PolkadotAccount {
  readonly accountId: Uint8Array
  readonly keyType: PolkadotKeyType | undefined
  /** The chain it is restricted to (`0x` + genesis hash), when the wallet restricts it. */
  readonly genesisHash: string | undefined
}

/** An account id as hex: the key accounts are compared by, whatever format their address is written in. */
export const hexOf = (bytes: Uint8Array): string => Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("")

/** The account id (hex) of an SS58 address, or `undefined` when it is none. */
export const accountIdHexOf = (address: string): string | undefined => {
  const decoded = decodeSs58(address)
  return typeof decoded === "string" ? undefined : hexOf(decoded.accountId)
}

/**
 * The accounts of an extension's answer or subscription: SS58 addresses with a valid checksum, with their key
 * type; `undefined` when the answer is not a list. Entries that make no sense (not an account, a bad checksum, an
 * Ethereum-style address) are left out and counted.
 */
export const polkadotAccountsOf = (value: unknown): { readonly accounts: ReadonlyArray<PolkadotAccount>; readonly dropped: number } | undefined => {
  const list = readThrough(AnyList, () => value)
  if (list === undefined) return undefined
  const accounts: Array<PolkadotAccount> = []
  let dropped = 0
  for (const entry of list.slice(0, MAX_ACCOUNTS)) {
    const account = readThrough(InjectedAccount, () => entry)
    const decoded = account === undefined ? undefined : decodeSs58(account.address)
    if (account === undefined || decoded === undefined || typeof decoded === "string") {
      dropped += 1
      continue
    }
    const genesisHash =
      typeof account.genesisHash === "string" && /^0x[0-9a-fA-F]{64}$/.test(account.genesisHash) ? account.genesisHash.toLowerCase() : undefined
    accounts.push({ accountId: decoded.accountId, keyType: isPolkadotKeyType(account.type) ? account.type : undefined, genesisHash })
  }
  return { accounts, dropped }
}

/** The accounts usable on `network`, in its address format: those restricted to another chain are left out. */
export const accountsOn = (accounts: ReadonlyArray<PolkadotAccount>, network: Pick<CaipNetwork, "id">): ReadonlyArray<Account> => {
  const prefix = ss58PrefixOf(network)
  const reference = String(network.id)
  return accounts
    .filter((account) => account.genesisHash === undefined || account.genesisHash.slice(2, 34) === reference)
    .map((account) => ({ address: encodeSs58(account.accountId, prefix), type: "eoa" as const }))
}
