/**
 * The frame's Protect view's rule for a password (server/src/embedded/frame/secureView.ts): long enough, and typed the
 * same twice; said in the visitor's words before any scrypt runs.
 */
import { describe, expect, it } from "vitest"
import { MIN_PASSWORD_LENGTH, passwordProblem } from "../../../server/src/embedded/frame/secureView"

describe("a password that protects the wallet", () => {
  it.each([
    ["", "", `Use at least ${MIN_PASSWORD_LENGTH} characters.`],
    ["123456789", "123456789", `Use at least ${MIN_PASSWORD_LENGTH} characters.`],
    ["correct horse", "correct hose", "The two passwords are not the same."],
    ["correct horse", "Correct horse", "The two passwords are not the same."]
  ])("%j / %j is refused: %s", (password, confirmation, words) => {
    expect(passwordProblem(password, confirmation)).toBe(words)
  })

  it("takes ten characters or more typed the same twice", () => {
    expect(passwordProblem("1234567890", "1234567890")).toBeUndefined()
    expect(passwordProblem("correct horse battery staple", "correct horse battery staple")).toBeUndefined()
  })
})
