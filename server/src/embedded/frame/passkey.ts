/**
 * The passkey window's page, on the frame's origin (`/frame/passkey?projectId=…&state=…`), opened by the modal in the
 * visitor's click: it reads its ceremony from the wallet server, runs WebAuthn here (the passkey belongs to this
 * origin's relying party, never to the host page), sends the answer to the wallet server, and tells the page that
 * opened it how it ended — at that page's exact origin, never `'*'`. No key, token or answer crosses to the host.
 */
import {
  browserSupportsWebAuthn,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  startAuthentication,
  startRegistration
} from "@simplewebauthn/browser"
import { PASSKEY_PAGE_MESSAGE, type PasskeyOutcome, passkeyOutcomeOf } from "../../../../src/domain/passkey"
import { makeWalletApi, WalletApiError } from "./apiClient"

const query = new URLSearchParams(location.search)
const projectId = query.get("projectId") ?? ""
const state = query.get("state") ?? ""
const api = makeWalletApi({ fetch: (input, init) => fetch(input, init), baseUrl: "", projectId })
const title = document.getElementById("wr-passkey-title")
const status = document.getElementById("wr-passkey-status")
const say = (text: string) => {
  if (status !== null) status.textContent = text
}

const tell = (hostOrigin: string, outcome: PasskeyOutcome) => {
  const message = { type: PASSKEY_PAGE_MESSAGE, ...outcome }
  if (window.opener !== null && !window.opener.closed) window.opener.postMessage(message, hostOrigin)
}

// A browser's refusal (by its DOMException's name) or the wallet server's words.
const outcomeOf = (error: unknown): PasskeyOutcome => {
  if (error instanceof WalletApiError) return { outcome: "failed", message: error.message }
  const name = error instanceof Error ? error.name : ""
  const outcome = passkeyOutcomeOf(name)
  if (outcome !== undefined) return { outcome }
  return { outcome: "failed", message: `Your passkey could not be used: ${error instanceof Error ? error.message : String(error)}`.slice(0, 300) }
}

// The window is going (the visitor closed it): the browser ends its prompt as it goes, with an error that is not the
// visitor's answer (Chromium: NotSupportedError, read as "cannot use passkeys"). Nothing is told then: the page that
// opened the window sees it closed and says so.
let leaving = false
addEventListener("pagehide", () => {
  leaving = true
})

const run = async () => {
  const ceremony = await api.passkeyOptions({ projectId, state }).catch((error: unknown) => {
    // The server's words may end their own sentence ('… Please try again after N seconds.').
    say(`${(error instanceof Error ? error.message : String(error)).replace(/\.$/, "")}. Close this window and try again from the page you came from.`)
    return undefined
  })
  if (ceremony === undefined) return
  if (ceremony.themeMode === "dark") document.documentElement.dataset["theme"] = "dark"
  const creating = ceremony.mode === "create"
  if (title !== null) title.textContent = creating ? "Create a passkey" : "Log in with your passkey"
  if (!browserSupportsWebAuthn()) {
    say("This browser cannot use passkeys.")
    return tell(ceremony.hostOrigin, { outcome: "unsupported" })
  }
  say(creating ? "Follow your browser to create a passkey for your wallet." : "Follow your browser to use your passkey.")
  try {
    // As the wallet server's @simplewebauthn/server made them (the Schema keeps them as a record).
    const options: unknown = ceremony.options
    const response = creating
      ? await startRegistration({ optionsJSON: options as PublicKeyCredentialCreationOptionsJSON })
      : await startAuthentication({ optionsJSON: options as PublicKeyCredentialRequestOptionsJSON })
    say("Checking your passkey…")
    await api.passkeyVerify({ projectId, state, response: response as unknown as Record<string, unknown> })
    say("Done: you can go back to the page you were on.")
    tell(ceremony.hostOrigin, { outcome: "verified" })
  } catch (error) {
    if (leaving) return
    const outcome = outcomeOf(error)
    say(outcome.outcome === "failed" ? outcome.message : "The passkey request was cancelled. You can close this window.")
    tell(ceremony.hostOrigin, outcome)
  }
}

void run()
