/**
 * Account-name rules (spec point 5), apart from `validation.ts` because name normalisation carries the ENSIP-15
 * tables: only the name-registration feature loads this module.
 */
import { ens_normalize } from "@adraffy/ens-normalize"
import { Result, Schema } from "effect"
import { ACCOUNT_NAME_MIN_LENGTH } from "./constants"
import { type NameMessage, NameMessageJson } from "./Names"

const NAME_CHARS = /^[a-zA-Z0-9-]+$/

/** How long the visitor's typing must pause before a name's availability and suggestions are asked (spec 2's 300 ms). */
export const NAME_CHECK_DEBOUNCE_MS = 300

// ENSIP-15 reports by a short technical message; the ones a name of letters, digits and hyphens can reach are said
// in words, any other keeps the standard's own reason.
const ensipWords = (reason: string): string =>
  reason.startsWith("invalid label extension")
    ? "A name cannot have hyphens as its 3rd and 4th characters"
    : `This name is not valid: ${reason}`

/**
 * A name label the visitor wants to register: at least 4 characters, letters, digits or hyphen, and a valid
 * ENSIP-15 label (no empty label, underscore only at the start, no leading combining mark, no confusable mix of
 * scripts). The accepted value is the normalised label.
 */
export const validateAccountName = (input: string): Result.Result<string, string> => {
  const value = input.trim()
  if (value.length < ACCOUNT_NAME_MIN_LENGTH) {
    return Result.fail(`A name has at least ${ACCOUNT_NAME_MIN_LENGTH} characters`)
  }
  if (!NAME_CHARS.test(value)) return Result.fail("A name has only letters, digits and hyphens")
  return Result.mapError(normaliseName(value), ensipWords)
}

/** ENSIP-15 normalisation of a full name (labels separated by dots); the failure says why in words. */
export const normaliseName = (input: string): Result.Result<string, string> => {
  try {
    return Result.succeed(ens_normalize(input))
  } catch (cause) {
    // ens_normalize reports by throwing; its message names the offending character or label.
    return Result.fail(cause instanceof Error ? cause.message : "This name cannot be normalised")
  }
}

/**
 * What the visitor typed as the label to check: trimmed, and without the suffix when they typed the full name.
 * @example labelInput("Bob.wallet.test ", ".wallet.test") // "Bob"
 */
export const labelInput = (input: string, suffix: string): string => {
  const value = input.trim()
  return value.toLowerCase().endsWith(suffix.toLowerCase()) ? value.slice(0, value.length - suffix.length) : value
}

/** The full name of a label under a suffix: `alice` and `.wallet.test` give `alice.wallet.test`. */
export const fullName = (label: string, suffix: string): string => `${label}${suffix}`

/** The zone of name suggestions: the suffix without its leading dot (`wallet.test`). */
export const zoneOf = (suffix: string): string => suffix.replace(/^\./, "")

/** The label of a full name under a suffix, or `undefined` when the name is under another suffix. */
export const labelOf = (name: string, suffix: string): string | undefined =>
  name.toLowerCase().endsWith(suffix.toLowerCase()) && name.length > suffix.length ? name.slice(0, name.length - suffix.length) : undefined

const encodeMessage = Schema.encodeSync(NameMessageJson)

/**
 * The text a wallet signs to register a name (spec 3): the JSON of `{ name, attributes, timestamp }`, the time in
 * whole seconds.
 */
export const nameMessageText = (name: string, nowMillis: number, attributes: NameMessage["attributes"] = {}): string =>
  encodeMessage({ name, attributes, timestamp: Math.floor(nowMillis / 1000) })
