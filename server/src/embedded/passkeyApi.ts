/**
 * The Schemas of the wallet server's passkey routes (declared in `./WalletServerApi.ts`). A passkey ceremony runs in
 * a popup on the frame origin (`/frame/passkey`), never in the host page: the frame starts it for its device, the
 * passkey page answers its challenge, and the frame turns it into a session.
 */
import { Schema } from "effect"
import { DeviceId } from "./api"

/** What a ceremony is for: a new passkey for a new wallet, or logging in with a passkey made before. */
export const PasskeyMode = Schema.Literals(["create", "login"])

/**
 * `POST /api/passkey/start` — the frame starts a ceremony for this device and the host page at `hostOrigin` (one of
 * the project's allowed origins): the answer's `uri` is the passkey page (`/frame/passkey?projectId=…&state=…`) to
 * open in the popup. A ceremony is good for 5 minutes.
 */
export const PasskeyStartRequest = Schema.Struct({
  projectId: Schema.String,
  deviceId: DeviceId,
  mode: PasskeyMode,
  hostOrigin: Schema.String,
  /** The host's theme (SYNC_THEME): the passkey page is shown in it. */
  themeMode: Schema.optionalKey(Schema.Literals(["light", "dark"]))
})
/** The answer of `POST /api/passkey/start`: the passkey page's address. */
export const PasskeyStartResponse = Schema.Struct({ uri: Schema.String })

/**
 * `POST /api/passkey/options` — the passkey page reads its ceremony: the WebAuthn options (registration or
 * authentication, with the ceremony's challenge, the relying party ID, the `prf` extension asked at registration)
 * and the host page to answer. A state not started here, answered already or expired: 400 `invalid_state`.
 */
export const PasskeyOptionsRequest = Schema.Struct({ projectId: Schema.String, state: Schema.String })
/** The answer of `POST /api/passkey/options`. */
export const PasskeyOptionsResponse = Schema.Struct({
  mode: PasskeyMode,
  hostOrigin: Schema.String,
  themeMode: Schema.NullOr(Schema.Literals(["light", "dark"])),
  /** `PublicKeyCredentialCreationOptionsJSON` or `PublicKeyCredentialRequestOptionsJSON`, for @simplewebauthn/browser. */
  options: Schema.Record(Schema.String, Schema.Unknown)
})

/**
 * `POST /api/passkey/verify` — the passkey page's answer to the challenge (`RegistrationResponseJSON` or
 * `AuthenticationResponseJSON`). The challenge is taken first (a second answer, a replay, is 400 `invalid_state`),
 * then the response is checked: the origin exactly the frame's, the RP ID, the challenge, user verification, the
 * signature and its counter. A refusal is 400 `passkey_refused`; a passkey this server does not know 400
 * `passkey_unknown`. A registration makes the user (with the same wallet as an email user) and keeps the passkey.
 */
export const PasskeyVerifyRequest = Schema.Struct({
  projectId: Schema.String,
  state: Schema.String,
  response: Schema.Record(Schema.String, Schema.Unknown)
})
/** The answer of `POST /api/passkey/verify`. */
export const PasskeyVerifyResponse = Schema.Struct({ verified: Schema.Literal(true) })

/**
 * `POST /api/passkey/finish` — the frame turns a verified ceremony it started into a session: once, from the same
 * device, before the ceremony expires (400 `invalid_state` otherwise).
 */
export const PasskeyFinishRequest = Schema.Struct({ projectId: Schema.String, deviceId: DeviceId, state: Schema.String })
/** The answer of `POST /api/passkey/finish`: the session token and whether the passkey was made now. */
export const PasskeyFinishResponse = Schema.Struct({ token: Schema.String, created: Schema.Boolean })
