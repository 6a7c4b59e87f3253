/**
 * Account-name rules (spec point 5), apart from `validation.ts` because name normalisation carries the ENSIP-15
 * tables: only the name-registration feature loads this module.
 */
import { ens_normalize } from "@adraffy/ens-normalize"
import { Result } from "effect"
import { ACCOUNT_NAME_MIN_LENGTH } from "./constants"

const NAME_CHARS = /^[a-zA-Z0-9-]+$/

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
  const normalised = normaliseName(value)
  if (Result.isFailure(normalised)) return normalised
  return Result.succeed(normalised.success)
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
