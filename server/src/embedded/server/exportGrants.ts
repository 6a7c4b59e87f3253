/**
 * Showing a private key asks for a fresh confirmation (issue 30, item 4): `POST /api/keys/export/start`, `/confirm`
 * and `/share`. An email user confirms with a code mailed for this purpose (the login's code rules: hashed, tries
 * counted before they are compared, the 30 s mail cool-down, the lockout); a passkey user with a new assertion (the
 * login's ceremony rules: a challenge taken once, 5 minutes, the server's origin and RP ID, the counter moved); an
 * account with neither (a social login) with a login of the last {@link EXPORT_FRESH_LOGIN_MS}. One confirmation covers
 * the families the view asked for (both keys of a wallet shown after one code), and yields a grant per family of
 * {@link EXPORT_GRANT_TTL_MS}, each its own token kept as its SHA-256, good once, for the session that confirmed and
 * that family only: the frame's export view asks for each family's server share with its grant, and no grant reveals a
 * family the confirmation did not name. Signing still takes the server share
 * with the session alone (`/api/keys/server-share`): what this adds is that the export view shows no key to whoever
 * merely holds an open session on the device.
 */
import { randomBytes } from "node:crypto"
import { Array as Arr, Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { generateAuthenticationOptions } from "@simplewebauthn/server"
import { WalletBadRequest, WalletForbidden, WalletProject, WalletServerApi, WalletSession, WalletTooManyRequests } from "../WalletServerApi"
import { CODE_MAX_ATTEMPTS, MAIL_COOLDOWN_MS, makeSteps } from "./handlers"
import { newToken, tokenHash } from "./keys"
import { PASSKEY_CEREMONY_TTL_MS, PASSKEY_PROMPT_TIMEOUT_MS, passkeyRelyingParty, verifyAssertion } from "./passkeys"
import * as passkeyStore from "./passkeyStore"
import * as shareStore from "./shareStore"
import * as store from "./store"
import { serverShareOf, splitKeyOf } from "./shares"
import { limitVisitor } from "./visitorLimits"
import { WalletServerEnv } from "./WalletServerEnv"

/** How long a confirmation's grant lets the export view ask for the server share. */
export const EXPORT_GRANT_TTL_MS = 3 * 60_000
/** How recent the login of an account with no email and no passkey must be to confirm an export. */
export const EXPORT_FRESH_LOGIN_MS = 5 * 60_000

const minutesOf = (ms: number) => Math.max(1, Math.ceil(ms / 60_000))

const notConfirmed = new WalletForbidden({
  code: "export_not_confirmed",
  error: "Confirm it is you again to show this key: the confirmation was used already, has expired, or is for another key or login"
})
const invalidCeremony = new WalletBadRequest({
  code: "invalid_state",
  error: "This passkey request was not started here, was answered already or has expired: ask again"
})

/** `POST /api/keys/export/start`, `/confirm` and `/share`. */
export const KeyExportGroupLive = HttpApiBuilder.group(WalletServerApi, "keyExport", (handlers) =>
  Effect.gen(function* () {
    const deps = yield* WalletServerEnv
    const steps = makeSteps(deps)
    const { run, at } = steps
    const { rpId, origin } = passkeyRelyingParty(deps)
    const loginMinutes = minutesOf(EXPORT_FRESH_LOGIN_MS)

    return handlers
      .handle(
        "start",
        Effect.fn("WalletServer.exportStart")(function* ({ payload }) {
          yield* limitVisitor(deps, "keyExport")
          const session = yield* WalletSession
          // Nothing to confirm for a key the account does not have split: said before a mail or a passkey is asked.
          yield* Effect.forEach(payload.families, (family) => splitKeyOf(deps, session.userId, family), { discard: true })
          if (session.email !== null) {
            const email = session.email
            yield* steps.notLockedOut(email)
            // Asked again within the mail's cool-down (the view opened again, or "Send a new code" too soon), no mail
            // goes: the answer says when another may be sent, and whether the code mailed then can still be entered
            // (not when it confirmed an export already: the view then offers no code field until a new code is mailed).
            const heldSeconds = yield* steps.withMailClaim(email, "export", steps.mailCode(email, "export")).pipe(
              Effect.as(undefined),
              Effect.catchIf(
                (refused) => refused instanceof WalletTooManyRequests && refused.code === "rate_limited",
                (refused) => Effect.succeed(refused.retryAfterSeconds ?? 1)
              )
            )
            if (heldSeconds === undefined) return { method: "code" as const, email, resendInSeconds: Math.ceil(MAIL_COOLDOWN_MS / 1000), codeWaiting: true }
            const code = yield* run(store.latestCode(email, "export"))
            const codeWaiting = code !== undefined && code.used_at === null && code.attempts < CODE_MAX_ATTEMPTS && code.expires_at.getTime() > deps.now()
            return { method: "code" as const, email, resendInSeconds: heldSeconds, codeWaiting }
          }
          if (yield* run(passkeyStore.hasPasskey(session.userId))) {
            const project = yield* WalletProject
            const state = newToken()
            const challenge = randomBytes(32).toString("base64url")
            const now = deps.now()
            yield* run(
              passkeyStore.insertCeremony(
                tokenHash(state),
                // Bound to the session that asked: its token's hash stands where a login's device id does.
                { project_id: project.projectId, device_id: session.tokenHash, mode: "export", host_origin: origin, theme_mode: null, challenge, user_handle: "" },
                new Date(now),
                new Date(now + PASSKEY_CEREMONY_TTL_MS)
              )
            )
            const options = yield* Effect.promise(() =>
              generateAuthenticationOptions({ rpID: rpId, challenge: Buffer.from(challenge, "base64url"), timeout: PASSKEY_PROMPT_TIMEOUT_MS, userVerification: "required" })
            )
            const defined = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined))
            return { method: "passkey" as const, state, options: defined }
          }
          return { method: "login" as const, withinMinutes: loginMinutes }
        })
      )
      .handle(
        "confirm",
        Effect.fn("WalletServer.exportConfirm")(function* ({ payload }) {
          yield* limitVisitor(deps, "keyExport")
          const session = yield* WalletSession
          const proof = payload.proof
          if (proof.method === "code") {
            if (session.email === null) return yield* new WalletBadRequest({ code: "bad_request", error: "This account has no email to send a code to" })
            yield* steps.checkCode(session.email, "export", proof.otp)
          } else if (proof.method === "passkey") {
            const project = yield* WalletProject
            // Taken before the answer is read: a replayed answer, right or wrong, finds nothing.
            const ceremony = yield* run(passkeyStore.takeChallenge(tokenHash(proof.state), project.projectId, at()))
            if (ceremony === undefined || ceremony.mode !== "export" || ceremony.device_id !== session.tokenHash) return yield* invalidCeremony
            // Asked in the frame's own view, embedded in the host's page: the assertion's top origin is the project's.
            const userId = yield* verifyAssertion(deps, ceremony.challenge, proof.response, project)
            if (userId !== session.userId) {
              return yield* new WalletForbidden({ code: "passkey_refused", error: "This passkey is another account's: use the one of this wallet" })
            }
          } else {
            if (session.email !== null || (yield* run(passkeyStore.hasPasskey(session.userId)))) {
              return yield* new WalletBadRequest({ code: "bad_request", error: "This account confirms with its code or passkey, not with its login" })
            }
            const loginAt = yield* run(shareStore.sessionLoginAt(session.tokenHash))
            if (loginAt === undefined || deps.now() - loginAt.getTime() > EXPORT_FRESH_LOGIN_MS) {
              return yield* new WalletForbidden({
                code: "fresh_login_required",
                error: `Log in again to show your key: this needs a login within the last ${loginMinutes} minutes`
              })
            }
          }
          // A grant of its own per family confirmed: each shows that family's key once, and no other.
          const grants = Arr.map(payload.families, (family) => ({ family, grant: newToken() }))
          const now = deps.now()
          yield* run(
            shareStore.insertExportGrants(
              Arr.map(grants, ({ family, grant }) => ({ family, grantHash: tokenHash(grant) })),
              { sessionHash: session.tokenHash, userId: session.userId },
              new Date(now),
              new Date(now + EXPORT_GRANT_TTL_MS)
            )
          )
          return { grants, expiresInSeconds: Math.floor(EXPORT_GRANT_TTL_MS / 1000) }
        })
      )
      .handle(
        "share",
        Effect.fn("WalletServer.exportShare")(function* ({ payload }) {
          yield* limitVisitor(deps, "keyExport")
          const session = yield* WalletSession
          if (!(yield* run(shareStore.useExportGrant(tokenHash(payload.grant), session.tokenHash, payload.family, at())))) return yield* notConfirmed
          return { share: yield* serverShareOf(deps, session.userId, payload.family) }
        })
      )
  })
)
