/**
 * Logging in with a passkey (WebAuthn, checked by @simplewebauthn/server): `POST /api/passkey/start`, `/options`,
 * `/verify` and `/finish`. The frame starts a ceremony for its device; the passkey page, a popup on the frame origin,
 * reads the options and answers the challenge; the frame then opens the session. The relying party ID is the
 * server's `passkeyRpId` (the frame origin's host name by default): passkeys made under a host's own domain keep
 * working wherever that domain serves the frame from.
 */
import { randomBytes, randomUUID } from "node:crypto"
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse
} from "@simplewebauthn/server"
import type { ApiProject } from "../../../../src/domain/http/middleware"
import { originAllowed } from "../../services/projects"
import { WalletBadRequest, WalletProject, WalletServerApi } from "../WalletServerApi"
import { allowedHostOrigin, makeSteps } from "./handlers"
import { newToken, tokenHash } from "./keys"
import { limitVisitor } from "./visitorLimits"
import * as passkeyStore from "./passkeyStore"
import { runQuery, WalletServerEnv, type WalletServerDeps } from "./WalletServerEnv"

/** A ceremony is good for this long after the frame starts it. */
export const PASSKEY_CEREMONY_TTL_MS = 5 * 60_000
/** How long the browser lets the visitor answer (WebAuthn's `timeout`). */
export const PASSKEY_PROMPT_TIMEOUT_MS = 120_000

/** The relying party a server's passkeys belong to: its `passkeyRpId`, else the frame origin's host name. */
export const passkeyRelyingParty = (deps: Pick<WalletServerDeps, "publicUrl" | "passkeyRpId">) => {
  const origin = new URL(deps.publicUrl).origin
  return { rpId: deps.passkeyRpId ?? new URL(origin).hostname, origin }
}

const invalidState = new WalletBadRequest({
  code: "invalid_state",
  error: "This passkey request was not started here, was answered already or has expired: try again"
})
const refused = new WalletBadRequest({ code: "passkey_refused", error: "Your passkey could not be verified: try again" })
const unknownPasskey = new WalletBadRequest({
  code: "passkey_unknown",
  error: "This passkey is not known here: create a new one, or log in another way"
})

// A check that throws (a malformed response, another origin or RP ID, a bad signature, a counter gone back) is a
// refusal in the visitor's words; the reason goes to the server's log.
const checked = <A>(check: () => Promise<A>) =>
  Effect.tryPromise({ try: check, catch: (cause) => cause }).pipe(
    Effect.tapError((cause) => Effect.logWarning(`passkey refused: ${cause instanceof Error ? cause.message : String(cause)}`)),
    Effect.mapError(() => refused)
  )

// The page an assertion made in a frame was embedded in, as its client data says (signed with it): undefined when
// the ceremony ran in a page of its own, or the data cannot be read (the check below then refuses it).
const topOriginOf = (response: AuthenticationResponseJSON): string | undefined => {
  try {
    const data: unknown = JSON.parse(Buffer.from(response.response.clientDataJSON, "base64url").toString("utf8"))
    return typeof data === "object" && data !== null && "topOrigin" in data && typeof data.topOrigin === "string" ? data.topOrigin : undefined
  } catch {
    return undefined
  }
}

/**
 * Checks a passkey's answer (`response`, as @simplewebauthn/browser made it) to a ceremony's `challenge` taken already:
 * the server's origin and RP ID, user verification, a known passkey of the user it was made for, and its counter moved
 * in one statement (of two good assertions at once, one passes). Answers the passkey's user. `embeddedBy`: the project
 * whose pages show the frame's own views (the export's confirmation), where the passkey is asked in the frame embedded
 * in the host's page: the assertion then says so (`crossOrigin`, `topOrigin`) and is taken only from a page of an
 * origin the project allows. Without it (the login's passkey page, a window of its own) an embedded answer is refused.
 */
export const verifyAssertion = Effect.fn("WalletServer.verifyAssertion")(function* (
  deps: WalletServerDeps,
  challenge: string,
  answer: Readonly<Record<string, unknown>>,
  embeddedBy?: ApiProject
) {
  const { rpId, origin } = passkeyRelyingParty(deps)
  const response = answer as unknown as AuthenticationResponseJSON
  const topOrigin = embeddedBy === undefined ? undefined : topOriginOf(response)
  const expectedTopOrigin = topOrigin !== undefined && topOrigin !== "null" && embeddedBy !== undefined && originAllowed(embeddedBy, topOrigin) ? topOrigin : undefined
  const passkey = typeof response.id === "string" ? yield* runQuery(deps, passkeyStore.findPasskey(response.id)) : undefined
  if (passkey === undefined) return yield* unknownPasskey
  // The authenticator names the user it holds the passkey for: it must be the one the passkey was made for.
  const userHandle = response.response?.userHandle
  if (userHandle !== undefined && userHandle !== passkey.user_handle) return yield* refused
  const counter = Number(passkey.counter)
  const result = yield* checked(() =>
    verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: origin,
      expectedRPID: rpId,
      requireUserVerification: true,
      ...(expectedTopOrigin === undefined ? {} : { expectedTopOrigin }),
      credential: {
        id: passkey.credential_id,
        publicKey: new Uint8Array(passkey.public_key),
        counter,
        transports: passkey.transports === "" ? [] : passkey.transports.split(",")
      }
    })
  )
  if (!result.verified) return yield* refused
  if (!(yield* runQuery(deps, passkeyStore.advanceCounter(passkey.credential_id, counter, result.authenticationInfo.newCounter, new Date(deps.now()))))) {
    return yield* refused
  }
  return passkey.user_id
})

/** `POST /api/passkey/start`, `/options`, `/verify` and `/finish`. */
export const PasskeyGroupLive = HttpApiBuilder.group(WalletServerApi, "passkey", (handlers) =>
  Effect.gen(function* () {
    const deps = yield* WalletServerEnv
    const steps = makeSteps(deps)
    const { run, at } = steps
    const { rpId, origin } = passkeyRelyingParty(deps)

    return handlers
      .handle(
        "start",
        Effect.fn("WalletServer.passkeyStart")(function* ({ payload }) {
          yield* limitVisitor(deps, "passkey")
          const project = yield* WalletProject
          const hostOrigin = yield* allowedHostOrigin(project, payload.hostOrigin)
          const state = newToken()
          const now = deps.now()
          yield* run(
            passkeyStore.insertCeremony(
              tokenHash(state),
              {
                project_id: project.projectId,
                device_id: payload.deviceId,
                mode: payload.mode,
                host_origin: hostOrigin,
                theme_mode: payload.themeMode ?? null,
                challenge: randomBytes(32).toString("base64url"),
                user_handle: payload.mode === "create" ? randomBytes(32).toString("base64url") : ""
              },
              new Date(now),
              new Date(now + PASSKEY_CEREMONY_TTL_MS)
            )
          )
          const uri = new URL("/frame/passkey", deps.publicUrl)
          uri.searchParams.set("projectId", project.projectId)
          uri.searchParams.set("state", state)
          return { uri: uri.href }
        })
      )
      .handle(
        "options",
        Effect.fn("WalletServer.passkeyOptions")(function* ({ payload }) {
          yield* limitVisitor(deps, "passkey")
          const project = yield* WalletProject
          const ceremony = yield* run(passkeyStore.pendingCeremony(tokenHash(payload.state), project.projectId, at()))
          // An export's ceremony is answered in the frame's export view, never on the login's page.
          if (ceremony === undefined || ceremony.mode === "export") return yield* invalidState
          const challenge = Buffer.from(ceremony.challenge, "base64url")
          const options =
            ceremony.mode === "create"
              ? yield* Effect.promise(() =>
                  generateRegistrationOptions({
                    rpName: rpId,
                    rpID: rpId,
                    userID: Buffer.from(ceremony.user_handle, "base64url"),
                    userName: `Wallet ${at().toISOString().slice(0, 10)}`,
                    challenge,
                    timeout: PASSKEY_PROMPT_TIMEOUT_MS,
                    attestationType: "none",
                    authenticatorSelection: { residentKey: "required", userVerification: "required" },
                    // Asked now so that passkeys made today can protect a recovery secret later (split keys).
                    extensions: { prf: {} }
                  })
                )
              : yield* Effect.promise(() =>
                  generateAuthenticationOptions({ rpID: rpId, challenge, timeout: PASSKEY_PROMPT_TIMEOUT_MS, userVerification: "required" })
                )
          // Without the fields the library leaves undefined (no allowCredentials: any passkey of this RP may answer).
          const defined = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined))
          return { mode: ceremony.mode, hostOrigin: ceremony.host_origin, themeMode: ceremony.theme_mode, options: defined }
        })
      )
      .handle(
        "verify",
        Effect.fn("WalletServer.passkeyVerify")(function* ({ payload }) {
          yield* limitVisitor(deps, "passkey")
          const project = yield* WalletProject
          const stateHash = tokenHash(payload.state)
          // Taken before the response is read: a replayed response, right or wrong, finds nothing.
          const ceremony = yield* run(passkeyStore.takeChallenge(stateHash, project.projectId, at()))
          if (ceremony === undefined || ceremony.mode === "export") return yield* invalidState
          const expected = { expectedChallenge: ceremony.challenge, expectedOrigin: origin, expectedRPID: rpId, requireUserVerification: true }
          if (ceremony.mode === "create") {
            const response = payload.response as unknown as RegistrationResponseJSON
            const result = yield* checked(() => verifyRegistrationResponse({ response, ...expected }))
            if (!result.verified) return yield* refused
            const { credential } = result.registrationInfo
            const id = randomUUID()
            yield* run(
              passkeyStore.insertPasskeyUser(
                id,
                {
                  credentialId: credential.id,
                  userHandle: ceremony.user_handle,
                  publicKey: credential.publicKey,
                  counter: credential.counter,
                  transports: credential.transports ?? [],
                  prfEnabled: response.clientExtensionResults?.prf?.enabled === true
                },
                at()
              )
            )
            yield* run(passkeyStore.verifyCeremony(stateHash, id, at()))
            return { verified: true as const }
          }
          const userId = yield* verifyAssertion(deps, ceremony.challenge, payload.response)
          yield* run(passkeyStore.verifyCeremony(stateHash, userId, at()))
          return { verified: true as const }
        })
      )
      .handle(
        "finish",
        Effect.fn("WalletServer.passkeyFinish")(function* ({ payload }) {
          yield* limitVisitor(deps, "passkey")
          const project = yield* WalletProject
          const ceremony = yield* run(passkeyStore.useCeremony(tokenHash(payload.state), project.projectId, payload.deviceId, at()))
          if (ceremony === undefined) return yield* invalidState
          const token = yield* steps.openSession(ceremony.user_id, payload.deviceId)
          return { token, created: ceremony.mode === "create" }
        })
      )
  })
)
