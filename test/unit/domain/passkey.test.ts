/**
 * The passkey page's message as the modal decodes it (only well-formed ones, nothing more in them), the browser's
 * refusals by name, and the words the visitor reads for each way a passkey login ends without a login.
 */
import { describe, expect, it } from "vitest"
import { decodePasskeyPageMessage, PASSKEY_PAGE_MESSAGE, passkeyFailureWords, passkeyOutcomeOf } from "../../../src/domain/passkey"

describe("the passkey page's message", () => {
  it.each([
    [{ type: PASSKEY_PAGE_MESSAGE, outcome: "verified" }],
    [{ type: PASSKEY_PAGE_MESSAGE, outcome: "cancelled" }],
    [{ type: PASSKEY_PAGE_MESSAGE, outcome: "unsupported" }],
    [{ type: PASSKEY_PAGE_MESSAGE, outcome: "failed", message: "This passkey is not known here: create a new one, or log in another way" }]
  ])("decodes %j", (message) => {
    expect(decodePasskeyPageMessage(message)).toEqual(message)
  })

  it.each([
    ["another type", { type: "wallet-runtime/social-callback", outcome: "verified" }],
    ["an unknown outcome", { type: PASSKEY_PAGE_MESSAGE, outcome: "done" }],
    ["a failure without words", { type: PASSKEY_PAGE_MESSAGE, outcome: "failed" }],
    ["words too long to be the page's", { type: PASSKEY_PAGE_MESSAGE, outcome: "failed", message: "x".repeat(301) }],
    ["a key the page never sends", { type: PASSKEY_PAGE_MESSAGE, outcome: "verified", token: "secret" }],
    ["a string", "verified"],
    ["nothing", undefined]
  ])("refuses %s", (_, message) => {
    expect(decodePasskeyPageMessage(message)).toBeUndefined()
  })
})

describe("the browser's refusals", () => {
  it("NotAllowedError (dismissed or timed out) and AbortError are cancelled; NotSupportedError unsupported; others are not classed", () => {
    expect(passkeyOutcomeOf("NotAllowedError")).toBe("cancelled")
    expect(passkeyOutcomeOf("AbortError")).toBe("cancelled")
    expect(passkeyOutcomeOf("NotSupportedError")).toBe("unsupported")
    expect(passkeyOutcomeOf("SecurityError")).toBeUndefined()
    expect(passkeyOutcomeOf("InvalidStateError")).toBeUndefined()
  })
})

describe("the visitor's words", () => {
  it("say what happened and that nothing changed, or pass the server's words on", () => {
    expect(passkeyFailureWords({ _tag: "Cancelled" })).toBe("The passkey request was cancelled. Nothing was changed: try again when you are ready.")
    expect(passkeyFailureWords({ _tag: "WindowClosed" })).toBe("The passkey window was closed before you used your passkey. Nothing was changed: try again.")
    expect(passkeyFailureWords({ _tag: "Blocked" })).toBe("Your browser blocked the passkey window: allow pop-ups for this site, then try again.")
    expect(passkeyFailureWords({ _tag: "TimedOut" })).toBe("The passkey request took too long: try again.")
    expect(passkeyFailureWords({ _tag: "Unsupported" })).toBe("This browser cannot use passkeys: log in another way.")
    expect(passkeyFailureWords({ _tag: "Failed", message: "Your passkey could not be verified: try again" })).toBe("Your passkey could not be verified: try again")
  })
})
