/**
 * The name service's rules: a name is `label` + the server's suffix (`.wallet-runtime.id` unless the host names its
 * own, the library's `nameSuffix` default; the local stack's `.wallet.test`), registered by a signed message
 * (`namesApi.ts`) and kept in the database (`namesStore.ts`); the local stack also has seed names it holds without one.
 */
import { Result } from "effect"
import { NAME_COIN_TYPE_CHAIN_ID_LIMIT, NAME_COIN_TYPE_EVM_FLAG } from "../../../src/domain/constants"
import { normaliseName, validateAccountName, zoneOf } from "../../../src/domain/accountName"
import { DEFAULT_NAME_SUFFIX } from "../../../src/domain/Options"

/** A name the service holds without a registration (the local stack's alice, bob…), and whose it is. */
export interface SeedName {
  readonly name: string
  readonly address: string
}

/** The names a server serves: the suffix every name ends with, and the seed names. */
export interface NamesConfig {
  /** `.` and the zone, e.g. `.wallet-runtime.id`: the modal's `nameSuffix` must be the same. */
  readonly suffix: string
  readonly seeds: ReadonlyArray<SeedName>
}

/** A server's names by default: the library's default suffix, no seed names. */
export const defaultNames: NamesConfig = { suffix: DEFAULT_NAME_SUFFIX, seeds: [] }

/** The zone of the names (the suffix without its dot), as `GET /v1/profile/suggestions/{name}?zone=` names it. */
export const nameZone = (names: NamesConfig): string => zoneOf(names.suffix)

/** The avatar image id of a name: its label's initials drawn by `/public/getAssetImage/{id}`. */
export const avatarImageId = (names: NamesConfig, name: string): string =>
  `avatar-${name.endsWith(names.suffix) ? name.slice(0, -names.suffix.length) : name}`

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
 * The full name to register from a message's `name` (the full name, `label` + suffix), normalised, or why it cannot
 * be registered: another suffix, or a label breaking the account-name rules (spec 5: 4 or more letters, digits or
 * hyphens, ENSIP-15).
 */
export const registrableName = (names: NamesConfig, name: string): Result.Result<string, string> => {
  const { suffix } = names
  const lower = name.toLowerCase()
  if (!lower.endsWith(suffix) || lower.length === suffix.length) {
    return Result.fail(`Invalid name ${name}: a name here ends with ${suffix}`)
  }
  const label = validateAccountName(name.slice(0, -suffix.length))
  if (Result.isFailure(label)) return Result.fail(`Invalid name ${name}: ${label.failure}`)
  return Result.succeed(`${label.success}${suffix}`)
}

/** The full name a lookup asks for (a full name, or a label to which the suffix is added), normalised; none when it cannot be a name. */
export const lookupName = (names: NamesConfig, input: string): string | undefined => {
  const trimmed = input.trim()
  const full = trimmed.includes(".") ? trimmed : `${trimmed}${names.suffix}`
  const normalised = normaliseName(full)
  return Result.isSuccess(normalised) ? normalised.success : undefined
}

/**
 * The names to offer for `label` (valid, normalised): the label itself first, then `label1`, `label2`, … (those free
 * first found by `isTaken`), `count` variants in all; each a full name with whether it is taken.
 */
export const suggestionsFor = async (
  names: NamesConfig,
  label: string,
  isTaken: (candidates: ReadonlyArray<string>) => Promise<ReadonlySet<string>>,
  count = 3
): Promise<ReadonlyArray<{ readonly name: string; readonly registered: boolean }>> => {
  const asked = `${label}${names.suffix}`
  // Variants are looked up in one batch; a label whose first ten variants are all taken gets fewer suggestions.
  const variants = Array.from({ length: 10 }, (_, i) => `${label}${i + 1}${names.suffix}`)
  const taken = await isTaken([asked, ...variants])
  return [
    { name: asked, registered: taken.has(asked) },
    ...variants.filter((name) => !taken.has(name)).slice(0, count).map((name) => ({ name, registered: false }))
  ]
}
