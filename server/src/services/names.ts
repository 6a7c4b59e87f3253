/**
 * The local name service's table and rules: names are `label.wallet.test`, the seed names alice, bob, carol and dave
 * belong to the first dev accounts, and any other name is registered by a signed message (`namesApi.ts`) and kept
 * in the database (`namesStore.ts`).
 */
import { Result } from "effect"
import { NAME_COIN_TYPE_CHAIN_ID_LIMIT, NAME_COIN_TYPE_EVM_FLAG } from "../../../src/domain/constants"
import { normaliseName, validateAccountName } from "../../../src/domain/accountName"
/** The suffix of the local stack's account names. */
export const nameSuffix = ".wallet.test"

/** The zone of the local names (`nameSuffix` without its dot), as `GET /v1/profile/suggestions/{name}?zone=` names it. */
export const nameZone = nameSuffix.slice(1)

const firstNames = ["alice", "bob", "carol", "dave"] as const

/** A name of the local name table. */
export interface DevName {
  readonly name: string
  readonly address: string
  /** The image id of its avatar, served by `/public/getAssetImage/{id}`. */
  readonly avatarImageId: string
}

/** The local name table: the first dev accounts are alice, bob, carol and dave (`alice.wallet.test`, …). */
export const devNames = (accounts: ReadonlyArray<{ readonly address: string }>): ReadonlyArray<DevName> =>
  firstNames.flatMap((first, i) => {
    const account = accounts[i]
    return account === undefined
      ? []
      : [{ name: `${first}${nameSuffix}`, address: account.address, avatarImageId: avatarImageId(`${first}${nameSuffix}`) }]
  })

/** The avatar image id of a name: its label's initials drawn by `/public/getAssetImage/{id}`. */
export const avatarImageId = (name: string): string => `avatar-${name.endsWith(nameSuffix) ? name.slice(0, -nameSuffix.length) : name}`

/** ENSIP-11: the coin type of an EVM chain (`0x80000000 | chainId`), as the decimal text a record is keyed by. */
export const coinTypeOfChain = (chainId: number): string => String(NAME_COIN_TYPE_EVM_FLAG + chainId)

/**
 * The chain id of an EVM coin type (`0x80000000 | chainId`), or why it is not one: below the flag it is not an EVM
 * chain's; at or above 2^32 its chain id would be 2^31 or more, which the coin type cannot carry (spec 5).
 */
export const chainIdOfCoinType = (coinType: number): Result.Result<number, string> => {
  if (coinType >= NAME_COIN_TYPE_EVM_FLAG + NAME_COIN_TYPE_CHAIN_ID_LIMIT) {
    return Result.fail(`Invalid coin type ${coinType}: the chain id must be below ${NAME_COIN_TYPE_CHAIN_ID_LIMIT}`)
  }
  if (coinType < NAME_COIN_TYPE_EVM_FLAG) {
    return Result.fail(`Unsupported coin type ${coinType}: names here are for EVM chains (0x80000000 | chainId)`)
  }
  return Result.succeed(coinType - NAME_COIN_TYPE_EVM_FLAG)
}

/**
 * The full name to register from a message's `name` (the full name, `label.wallet.test`), normalised, or why it cannot
 * be registered: another suffix, or a label breaking the account-name rules (spec 5: 4 or more letters, digits or
 * hyphens, ENSIP-15).
 */
export const registrableName = (name: string): Result.Result<string, string> => {
  const lower = name.toLowerCase()
  if (!lower.endsWith(nameSuffix) || lower.length === nameSuffix.length) {
    return Result.fail(`Invalid name ${name}: a name here ends with ${nameSuffix}`)
  }
  const label = validateAccountName(name.slice(0, -nameSuffix.length))
  if (Result.isFailure(label)) return Result.fail(`Invalid name ${name}: ${label.failure}`)
  return Result.succeed(`${label.success}${nameSuffix}`)
}

/** The full name a lookup asks for (a full name, or a label to which the suffix is added), normalised; none when it cannot be a name. */
export const lookupName = (input: string): string | undefined => {
  const trimmed = input.trim()
  const full = trimmed.includes(".") ? trimmed : `${trimmed}${nameSuffix}`
  const normalised = normaliseName(full)
  return Result.isSuccess(normalised) ? normalised.success : undefined
}

/**
 * The names to offer for `label` (valid, normalised): the label itself first, then `label1`, `label2`, … (those free
 * first found by `isTaken`), `count` variants in all; each a full name with whether it is taken.
 */
export const suggestionsFor = async (
  label: string,
  isTaken: (names: ReadonlyArray<string>) => Promise<ReadonlySet<string>>,
  count = 3
): Promise<ReadonlyArray<{ readonly name: string; readonly registered: boolean }>> => {
  const asked = `${label}${nameSuffix}`
  // Variants are looked up in one batch; a label whose first ten variants are all taken gets fewer suggestions.
  const variants = Array.from({ length: 10 }, (_, i) => `${label}${i + 1}${nameSuffix}`)
  const taken = await isTaken([asked, ...variants])
  return [
    { name: asked, registered: taken.has(asked) },
    ...variants.filter((name) => !taken.has(name)).slice(0, count).map((name) => ({ name, registered: false }))
  ]
}
