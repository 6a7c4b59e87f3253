/**
 * The embedded wallet's frame: what the hidden page on the frame origin does with the host page's messages (spec
 * 7.1, `src/domain/Frame.ts`), answering them through the wallet server's API (`../WalletServerApi.ts`). No DOM
 * globals here: the API client, storage, the post function, the parent's origin and identity are injected, so the
 * rules are unit-tested; `main.ts` wires them to the page.
 *
 * The rules that keep the visitor safe:
 * - nothing is posted, and every message is ignored, unless the parent's origin is allowed for the project;
 * - a message is accepted only from the parent window at that exact origin, and only if it decodes strictly;
 * - every message goes to that exact origin (never `'*'`);
 * - the session token stays in the frame origin's storage: no reply carries it (checked before each post);
 * - the user's keys are made here (issue 30), split 2-of-3, after the login and before it is answered (frameKeys.ts;
 *   a key the server still holds sealed, made before keys were split, is split then); signing happens here: the key
 *   is put together for one operation (frameRpc.ts, loaded on the first signing request) and never leaves the frame.
 *
 * Smart accounts: on the chains the wallet server lists in `smartAccountChains` (a bundler serves them), the user has
 * a WalletAccount (SimpleAccount with ERC-7739 signatures) of their key beside the EOA. SET_PREFERRED_ACCOUNT chooses
 * the one in front (kept in the frame origin's storage); GET_USER lists both with their types; with the smart account
 * in front, the site sees it and its sends go from it as user operations (built and signed here, sent through the
 * wallet server's bundler); a message the site asks it to sign is signed here as the account (ERC-1271, ERC-6492
 * until deployed).
 */
import { Result } from "effect"
import type { ThemeMode } from "../../../../src/domain/Account"
import type { FrameErrorCode } from "../../../../src/domain/errors"
import {
  classifyEmbeddedRpcMethod,
  decodeFrameRequest,
  decodeFrameResponse,
  FRAME_PREFIX,
  type FrameRequest,
  type FrameRequestName,
  type FrameRequestPayload,
  type FrameResponse,
  type FrameSuccessPayload,
  frameRequestNameOf,
  type SecureViewKind,
  type SecureViewOutcome
} from "../../../../src/domain/Frame"
import type { EmbeddedWalletUser } from "../../../../src/domain/Account"
import type { ThemeVariables } from "../../../../src/domain/Options"
import { isLoopbackOrigin } from "../../services/projects"
import type { ChainsResponse, FarcasterStatusResponse, WalletUser } from "../api"
import { type FrameSigningApi, type SplitKeysApi, type WalletApi, WalletApiError } from "./apiClient"

/** Keys of the frame origin's storage. */
export const FRAME_STORAGE_KEYS = {
  deviceId: "wr-frame/device-id",
  token: "wr-frame/session-token",
  pendingEmail: "wr-frame/pending-email",
  /** `smartAccount` or `eoa`: the EVM account in front, as SET_PREFERRED_ACCOUNT last chose (eoa until then). */
  preferredAccountType: "wr-frame/preferred-account-type"
} as const

/** The longest the frame waits for a device to be verified before answering (the host's step lasts 30000 ms). */
export const DEVICE_WAIT_MS = 25_000

/** The longest the frame waits for a Farcaster channel to be signed before answering `pending` (host step: 30000 ms). */
export const FARCASTER_WAIT_MS = 25_000

/** The frame page's query: `?projectId=…&chainId=…&version=…&enableLogger=…`. */
export interface FrameQuery {
  readonly projectId: string
  /** The host's chain at load: a number for eip155, or a CAIP-2 id; undefined when not given. */
  readonly chainId: number | string | undefined
  readonly version: string | undefined
  readonly enableLogger: boolean
}

/** Reads the frame page's query string. */
export const parseFrameQuery = (search: string): FrameQuery => {
  const query = new URLSearchParams(search)
  const chainId = query.get("chainId")
  return {
    projectId: query.get("projectId") ?? "",
    chainId: chainId === null || chainId === "" ? undefined : /^\d+$/.test(chainId) ? Number(chainId) : chainId,
    version: query.get("version") ?? undefined,
    enableLogger: query.get("enableLogger") === "true"
  }
}

/** The part of Web Storage the frame uses (`window.localStorage` fits). */
export interface FrameStorage {
  readonly getItem: (key: string) => string | null
  readonly setItem: (key: string, value: string) => void
  readonly removeItem: (key: string) => void
}

/**
 * Storage that lasts as long as the frame: where the browser allows the frame nothing persistent (FrameStore.ts), the
 * session then ends with the page instead of the frame failing.
 */
export const makeMemoryStorage = (): FrameStorage => {
  const items = new Map<string, string>()
  return {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key)
  }
}

/** A message event as the frame sees it. */
export interface FrameMessageEvent {
  readonly data: unknown
  readonly origin: string
  readonly source: unknown
}

/** Everything the frame needs from its page. */
export interface FrameEnv {
  readonly api: WalletApi & SplitKeysApi & FrameSigningApi
  readonly storage: FrameStorage
  /** Posts to the parent window with this exact target origin. */
  readonly post: (message: FrameResponse, targetOrigin: string) => void
  /** The parent's origin (`location.ancestorOrigins[0]`, else the referrer's), undefined when unknown. */
  readonly parentOrigin: string | undefined
  /** Whether a message's `source` is the parent window. */
  readonly isParent: (source: unknown) => boolean
  readonly query: FrameQuery
  /** A fresh random id of 32 url-safe characters (the device id). */
  readonly randomId: () => string
  /** Milliseconds now, for the device wait's deadline. */
  readonly now: () => number
  /**
   * Resolves after `ms` (on the clock `now` reads): the long-polls wait out a server's refusal that says when to ask
   * again (429 `rate_limited`, 503 `unavailable`, with `Retry-After`) within their step, instead of failing it.
   */
  readonly sleep: (ms: number) => Promise<void>
  /** Where the log goes when `enableLogger` is on (console.info on the page). */
  readonly log: (text: string) => void
  /**
   * Whether `storage` travels to the wallet server (FrameStore's cookies): device shares and secrets are then kept
   * sealed under the session, so a new login there needs recovery with a password or passkey.
   */
  readonly storageTravels?: boolean
  /** How long CONNECT_DEVICE may wait in all; DEVICE_WAIT_MS unless a test shortens it. */
  readonly deviceWaitMs?: number
  /** The frame's own views (protect, recover, export); without them OPEN_SECURE_VIEW is refused. */
  readonly secureViews?: SecureViews
}

/**
 * The host's theme for the frame's views, as the host said it (SYNC_THEME, OPEN_SECURE_VIEW): `accent` is its
 * `--wr-accent`, unchecked here; the views apply it only when their own check takes it for a colour.
 */
export interface SecureViewTheme {
  readonly themeMode: ThemeMode | undefined
  readonly accent: ThemeVariables[string] | undefined
}

/** The views the frame shows itself over the modal (secureView.ts on the page; none in a test that needs none). */
export interface SecureViews {
  /** Fetches the views' code (once); nothing is shown. */
  readonly load: () => Promise<void>
  /** Shows the view `kind` in the frame's document (after `load`), in the host's `theme`; resolves once the visitor finished or left it. */
  readonly open: (kind: SecureViewKind, theme: SecureViewTheme) => Promise<SecureViewOutcome>
  /** Applies the host's theme, changed while a view shows, to that view at once (with the views' own checks); none showing, nothing. */
  readonly theme: (theme: SecureViewTheme) => void
  /** Drops the view and what it held (the host left it: Escape, Back, the modal closed). */
  readonly close: () => void
  /** What the view shows now that must never leave the frame (an exported key): no post may carry it. */
  readonly withheld: () => ReadonlyArray<string>
}

/** What the start found: whether READY was posted, and why not. */
export type FrameStart = { readonly ready: true; readonly parentOrigin: string } | { readonly ready: false; readonly reason: string }

/** The running frame. */
export interface Frame {
  /** Checks the parent and posts READY when it is allowed; call once at load. */
  readonly start: () => Promise<FrameStart>
  /** Handles one message event; resolves once its reply (if any) is posted. Never rejects. */
  readonly receive: (event: FrameMessageEvent) => Promise<void>
}

type Family = "eip155" | "solana"
type ChainId = number | string

/**
 * Whether `method` needs the user's key (an approved solana_* request, a message, a transaction or a batch): it runs
 * in the frame (frameRpc.ts); a batch is kept and a send made with a permission counted by the server first. Every
 * other method goes to the wallet server's `/api/rpc`.
 */
export const signsWithKey = (method: string): boolean =>
  classifyEmbeddedRpcMethod(method) === "unsafe" &&
  (method.startsWith("solana_") || ["personal_sign", "eth_signTypedData_v4", "eth_sendTransaction", "wallet_sendCalls"].includes(method))

/** The family and CAIP-2 id of a chain as the host names it (`1`, `"31337"`, `"eip155:31337"`, `"solana:…"`). */
export const chainOf = (chainId: ChainId): { readonly family: Family; readonly caip: string } | undefined => {
  if (typeof chainId === "number") {
    return Number.isSafeInteger(chainId) && chainId > 0 ? { family: "eip155", caip: `eip155:${chainId}` } : undefined
  }
  if (/^[1-9]\d{0,15}$/.test(chainId)) return { family: "eip155", caip: `eip155:${chainId}` }
  if (/^eip155:[1-9]\d{0,15}$/.test(chainId)) return { family: "eip155", caip: chainId }
  if (/^solana:[1-9A-HJ-NP-Za-km-z]{1,32}$/.test(chainId)) return { family: "solana", caip: chainId }
  return undefined
}

/** Thrown by a handler: its message is the `_ERROR` reply's text; a refusal for now also carries its code and wait. */
class FrameFailure extends Error {
  constructor(
    message: string,
    readonly refusal?: { readonly code: FrameErrorCode; readonly retryAfterSeconds: number }
  ) {
    super(message)
  }
}

// The requests whose route's only 429 `rate_limited` is the mail's own cool-down (a code within 30 s of the last).
const MAILING_REQUESTS: ReadonlyArray<FrameRequestName> = ["CONNECT_EMAIL", "UPDATE_EMAIL"]

/**
 * The code and wait an `_ERROR` reply to `name` carries for `error`, when it is a refusal for now: the mail's own
 * limit (`email_rate_limited`, the only one the modal's resend countdown follows), too many tries from the visitor's
 * network (`rate_limited`), or a wallet busy the frame could not wait out (`busy`). Undefined for any other failure.
 */
export const refusalOf = (
  name: FrameRequestName,
  error: unknown
): { readonly code: FrameErrorCode; readonly retryAfterSeconds: number } | undefined => {
  if (error instanceof FrameFailure) return error.refusal
  if (!(error instanceof WalletApiError) || error.code !== "rate_limited" || error.retryAfterSeconds === undefined) return undefined
  const retryAfterSeconds = Math.max(1, Math.ceil(error.retryAfterSeconds))
  return { code: MAILING_REQUESTS.includes(name) ? "email_rate_limited" : "rate_limited", retryAfterSeconds }
}

/**
 * How long (ms) the server asked the frame to wait before asking again, when it refused for now: too many logins
 * waiting or too many tries (429 `rate_limited`), or the server busy (503 `unavailable`), each with `Retry-After`.
 * Undefined for any other failure.
 */
export const retryWaitOf = (error: unknown): number | undefined =>
  error instanceof WalletApiError && error.retryAfterSeconds !== undefined && (error.code === "rate_limited" || error.code === "unavailable")
    ? Math.max(1, error.retryAfterSeconds) * 1000
    : undefined

/** A refusal the frame could not wait out within its step, in the visitor's words (the spec's rate-limit wording). */
const busyFor = (error: unknown, waitMs: number) => {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000))
  return new FrameFailure(
    `${error instanceof WalletApiError && error.code === "unavailable" ? "The wallet is busy right now." : "The wallet is busy with other logins right now."} Please try again after ${seconds} seconds.`,
    { code: "busy", retryAfterSeconds: seconds }
  )
}

/** A user whose keys are made: both addresses known. */
export type KeyedUser = WalletUser & { readonly evmAddress: string; readonly solanaAddress: string }

const hasKeys = (user: WalletUser): user is KeyedUser => user.evmAddress !== undefined && user.solanaAddress !== undefined

const notAvailable = {
  smartAccount: "Smart accounts are not available on this wallet server."
} as const

type Handlers = { readonly [N in FrameRequestName]: (payload: FrameRequestPayload<N>) => Promise<FrameSuccessPayload<N>> }

/** Makes the frame over its page's `env`. */
export const makeFrame = (env: FrameEnv): Frame => {
  const { api, storage, query } = env
  const log = (text: string) => {
    if (query.enableLogger) env.log(`[wallet frame] ${text}`)
  }
  let allowedParent: string | undefined
  // The chain the host last chose in each family, and the family it chose last.
  const current: { eip155?: ChainId; solana?: ChainId } = {}
  let activeFamily: Family = "eip155"
  // What the host told the frame of itself (SYNC_THEME, SYNC_DAPP_DATA): the social callback page takes the theme.
  const host: {
    themeMode?: ThemeMode | undefined
    accent?: ThemeVariables[string] | undefined
    dapp?: { readonly name: string | undefined; readonly sdkVersion: string; readonly sdkType: string }
  } = {}
  // The Sign In With Farcaster channel GET_FARCASTER_URI opened, until CONNECT_FARCASTER sees it signed or over.
  let farcasterChannel: string | undefined
  // The passkey ceremony GET_PASSKEY_URI started for this device, until CONNECT_PASSKEY turns it into a session.
  let passkeyState: string | undefined
  let emailUpdate: { readonly done: Promise<string>; readonly resolve: (email: string) => void } | undefined
  // Counts the secure views asked for and dropped: one asked before another, or dropped while its code was still on
  // the way, is not shown (its code arrives after the CLOSE or the next OPEN that ended it).
  let secureViewTurn = 0
  // Counts the host's SYNC_THEMEs: one that came while a view's code was on the way is newer than its request's mode.
  let themeSyncs = 0
  // The eip155 chains where the wallet server makes smart accounts (a bundler serves them), from its /api/chains.
  let smartChains: ReadonlyArray<string> = []
  // The chains the wallet server serves, as its /api/chains said at the start: where the frame signs and sends.
  let served: typeof ChainsResponse.Type = { chains: [] }

  const deviceId = (): string => {
    const stored = storage.getItem(FRAME_STORAGE_KEYS.deviceId)
    if (stored !== null && /^[-_A-Za-z0-9]{16,64}$/.test(stored)) return stored
    const fresh = env.randomId()
    storage.setItem(FRAME_STORAGE_KEYS.deviceId, fresh)
    return fresh
  }

  const chooseChain = (chainId: ChainId): { readonly family: Family; readonly caip: string } => {
    const chain = chainOf(chainId)
    if (chain === undefined) throw new FrameFailure(`Chain ${String(chainId)} is not served by this wallet: use an EVM or Solana network.`)
    current[chain.family] = chainId
    activeFamily = chain.family
    return chain
  }

  const currentChain = (family: Family): { readonly chainId: ChainId; readonly caip: string } => {
    const chainId = current[family]
    const chain = chainId === undefined ? undefined : chainOf(chainId)
    if (chainId === undefined || chain === undefined) {
      throw new FrameFailure(family === "solana" ? "No Solana network is chosen for this wallet." : "No EVM network is chosen for this wallet.")
    }
    return { chainId, caip: chain.caip }
  }

  const token = (): string => {
    const stored = storage.getItem(FRAME_STORAGE_KEYS.token)
    if (stored === null || stored === "") throw new FrameFailure("Not connected: log in with your email first.")
    return stored
  }

  // A session the server no longer knows is forgotten, so IS_CONNECTED says false from then on.
  const withSession = async <A>(call: (token: string) => Promise<A>): Promise<A> => {
    try {
      return await call(token())
    } catch (error) {
      if (error instanceof WalletApiError && error.code === "unauthorized") storage.removeItem(FRAME_STORAGE_KEYS.token)
      throw error
    }
  }

  // The user's keys are made here after the login, before it is answered (frameKeys.ts): a new user's, or the split of
  // one the server still holds sealed; nothing once split. Where the frame's storage travels to the server (cookies),
  // the device share and secret are kept sealed under this session, so a later login there recovers with a password or
  // passkey (the user reply's `recovery: "device"` has the Account view ask the visitor to set one).
  const makeKeys = async (sessionToken: string): Promise<void> => {
    try {
      const { keysAtLogin } = await import("./frameKeys")
      const done = (await keysAtLogin(api, storage, sessionToken, env.storageTravels === true)).filter((key) => key.done !== "split")
      if (done.length > 0) log(`keys ${done.map((key) => `${key.family} ${key.done}`).join(", ")}`)
    } catch (error) {
      throw new FrameFailure(`Your wallet's keys could not be made ready: ${error instanceof Error ? error.message : String(error)}. Please log in again.`)
    }
  }

  const loggedIn = async (sessionToken: string): Promise<void> => {
    storage.setItem(FRAME_STORAGE_KEYS.token, sessionToken)
    storage.removeItem(FRAME_STORAGE_KEYS.pendingEmail)
    await makeKeys(sessionToken)
  }

  // The user with both addresses: a user whose keys a login's making did not finish (another tab of the login, a
  // failure) gets them made now, so no reply ever carries an empty address.
  const userWithKeys = async (): Promise<KeyedUser> => {
    const user = await withSession(api.user)
    if (hasKeys(user)) return user
    await makeKeys(token())
    const again = await withSession(api.user)
    if (!hasKeys(again)) throw new FrameFailure("Your wallet's keys are not made yet: please log in again.")
    return again
  }

  const pendingEmail = (): string => {
    const email = storage.getItem(FRAME_STORAGE_KEYS.pendingEmail)
    if (email === null) throw new FrameFailure("No login is in progress: enter your email first.")
    return email
  }

  const addressFor = (user: KeyedUser, family: Family): string => (family === "solana" ? user.solanaAddress : user.evmAddress)

  const preferred = (): "eoa" | "smartAccount" =>
    storage.getItem(FRAME_STORAGE_KEYS.preferredAccountType) === "smartAccount" ? "smartAccount" : "eoa"

  // The current EVM chain when smart accounts run on it; a refusal in words otherwise.
  const smartChain = (): string => {
    if (smartChains.length === 0) throw new FrameFailure(notAvailable.smartAccount)
    const { caip } = currentChain("eip155")
    if (!smartChains.includes(caip)) throw new FrameFailure(`Smart accounts are not available on this network (${caip}).`)
    return caip
  }

  /** The user's smart account on `caip`, as the wallet server computes it (their key's WalletAccount). */
  const smartAccountOn = async (caip: string): Promise<{ readonly address: string; readonly deployed: boolean }> => {
    const answer = await withSession((session) => api.rpc(session, { chainId: caip, method: "wallet_getSmartAccount" }))
    const result = answer.result as { readonly address?: unknown; readonly deployed?: unknown } | null | undefined
    if (typeof result?.address !== "string" || !/^0x[0-9a-fA-F]{40}$/.test(result.address) || typeof result.deployed !== "boolean") {
      throw new FrameFailure("The wallet server did not say where the smart account is.")
    }
    return { address: result.address, deployed: result.deployed }
  }

  // The smart account in front on the current EVM chain, when the visitor chose it and it runs there.
  const smartAccountInFront = async (): Promise<string | undefined> => {
    if (preferred() !== "smartAccount") return undefined
    const caip = current.eip155 === undefined ? undefined : chainOf(current.eip155)?.caip
    if (caip === undefined || !smartChains.includes(caip)) return undefined
    return (await smartAccountOn(caip)).address
  }

  // What protects the recovery share of the user's split key (this device's secret until a password or passkey does),
  // and whether this device lacks a share of it: the host then opens Recover (issue 30, item 2).
  const recoveryOf = async (): Promise<Pick<EmbeddedWalletUser, "recovery" | "needsRecovery">> => {
    const listed = await withSession(api.splitKeys)
    const kdf = listed.keys[0]?.recoveryKdf.name
    if (kdf === undefined) return {}
    const { lacksDeviceShares } = await import("./deviceShares")
    const lacking = await lacksDeviceShares(storage, env.storageTravels === true ? token() : undefined, listed)
    return { recovery: kdf === "scrypt" ? "password" : kdf === "passkey-prf" ? "passkey" : "device", ...(lacking ? { needsRecovery: true } : {}) }
  }

  const userReply = async (user: KeyedUser, chain: { readonly family: Family; readonly chainId: ChainId }): Promise<EmbeddedWalletUser> => {
    const eoa = addressFor(user, chain.family)
    const social = { ...(user.social === undefined ? {} : { username: user.social.username, socialProvider: user.social.provider }), ...(await recoveryOf()) }
    const caip = chainOf(chain.chainId)?.caip
    if (chain.family !== "eip155" || caip === undefined || !smartChains.includes(caip)) {
      return { email: user.email, address: eoa, chainId: chain.chainId, accounts: [{ address: eoa, type: "eoa" }], preferredAccountType: "eoa", smartAccountDeployed: false, ...social }
    }
    const smart = await smartAccountOn(caip)
    const type = preferred()
    const both = [
      { address: smart.address, type: "smartAccount" as const },
      { address: eoa, type: "eoa" as const }
    ]
    return {
      email: user.email,
      address: type === "smartAccount" ? smart.address : eoa,
      chainId: chain.chainId,
      accounts: type === "smartAccount" ? both : [...both].reverse(),
      preferredAccountType: type,
      smartAccountDeployed: smart.deployed,
      ...social
    }
  }

  const handlers: Handlers = {
    CONNECT_EMAIL: async ({ email }) => {
      const answer = await api.loginEmail({
        projectId: query.projectId,
        deviceId: deviceId(),
        email,
        ...(host.themeMode === undefined ? {} : { themeMode: host.themeMode })
      })
      storage.setItem(FRAME_STORAGE_KEYS.pendingEmail, email)
      return { action: answer.action }
    },
    CONNECT_DEVICE: async () => {
      const email = pendingEmail()
      // The server holds each call until the device is verified or its own bound; ask again while time is left. Time
      // is what passed here or what the server says it waited, whichever is longer (the server's clock may run ahead).
      // A refusal for now (too many logins waiting from this network) is waited out within that time, then asked again.
      for (let left = env.deviceWaitMs ?? DEVICE_WAIT_MS; left > 0; ) {
        const began = env.now()
        const answer = await api.loginDevice({ projectId: query.projectId, deviceId: deviceId(), email, waitMs: Math.min(left, DEVICE_WAIT_MS) }).catch(
          (error: unknown) => {
            const wait = retryWaitOf(error)
            if (wait === undefined) throw error
            if (wait >= left) throw busyFor(error, wait)
            return env.sleep(wait).then(() => ({ verified: false, waitedMs: wait }))
          }
        )
        if (answer.verified) return undefined
        left -= Math.max(env.now() - began, answer.waitedMs ?? 0)
      }
      throw new FrameFailure("This device is not verified yet: open the link in the email we sent you, then try again.")
    },
    CONNECT_OTP: async ({ otp }) => {
      const email = pendingEmail()
      const answer = await api.loginOtp({ projectId: query.projectId, deviceId: deviceId(), email, otp })
      await loggedIn(answer.token)
      return undefined
    },
    CONNECT_SOCIAL: async ({ uri }) => {
      const answer = await api.socialFinish({ projectId: query.projectId, deviceId: deviceId(), uri })
      await loggedIn(answer.token)
      return await userReply(await userWithKeys(), { family: activeFamily, chainId: currentChain(activeFamily).chainId })
    },
    GET_SOCIAL_REDIRECT_URI: async ({ provider, returnTo }) => {
      if (allowedParent === undefined) throw new FrameFailure("The frame is not ready for this page.")
      const answer = await api.socialStart({
        projectId: query.projectId,
        deviceId: deviceId(),
        provider,
        hostOrigin: allowedParent,
        ...(returnTo === undefined ? {} : { returnTo }),
        ...(host.themeMode === undefined ? {} : { themeMode: host.themeMode })
      })
      return { uri: answer.uri }
    },
    GET_FARCASTER_URI: async () => {
      const answer = await api.farcasterChannel({ projectId: query.projectId, deviceId: deviceId() })
      farcasterChannel = answer.channelToken
      return { url: answer.url, expiresAt: answer.expiresAt }
    },
    CONNECT_FARCASTER: async () => {
      const channelToken = farcasterChannel
      if (channelToken === undefined) throw new FrameFailure("No Farcaster sign-in is waiting: start again.")
      // The server holds the call until the channel is signed or its own bound (within the host's 30000 ms step). A
      // refusal for now (too many sign-ins waiting from this network) is waited out within that time and asked again;
      // what does not fit is `pending`, and the host asks again while the link lasts. The channel stays.
      const ask = async (left: number): Promise<typeof FarcasterStatusResponse.Type> => {
        const began = env.now()
        const refusedFor = { ms: 0 }
        const answer = await api.farcasterStatus({ projectId: query.projectId, deviceId: deviceId(), channelToken, waitMs: left }).catch((error: unknown) => {
          const wait = retryWaitOf(error)
          if (wait === undefined) {
            if (farcasterChannel === channelToken) farcasterChannel = undefined
            throw error
          }
          refusedFor.ms = Math.min(wait, left)
          return env.sleep(refusedFor.ms).then(() => undefined)
        })
        if (answer !== undefined) return answer
        const rest = left - Math.max(env.now() - began, refusedFor.ms)
        return rest > 0 ? ask(rest) : { state: "pending" }
      }
      const answer = await ask(FARCASTER_WAIT_MS)
      if (answer.state === "pending") return { pending: true as const }
      if (farcasterChannel === channelToken) farcasterChannel = undefined
      await loggedIn(answer.token)
      return { userName: answer.username }
    },
    GET_PASSKEY_URI: async ({ mode, themeMode }) => {
      if (allowedParent === undefined) throw new FrameFailure("The frame is not ready for this page.")
      const theme = themeMode ?? host.themeMode
      const answer = await api.passkeyStart({
        projectId: query.projectId,
        deviceId: deviceId(),
        mode,
        hostOrigin: allowedParent,
        ...(theme === undefined ? {} : { themeMode: theme })
      })
      passkeyState = new URL(answer.uri).searchParams.get("state") ?? undefined
      return { uri: answer.uri }
    },
    CONNECT_PASSKEY: async () => {
      const state = passkeyState
      if (state === undefined) throw new FrameFailure("No passkey login is waiting: start again.")
      passkeyState = undefined
      const answer = await api.passkeyFinish({ projectId: query.projectId, deviceId: deviceId(), state })
      await loggedIn(answer.token)
      return await userReply(await userWithKeys(), { family: activeFamily, chainId: currentChain(activeFamily).chainId })
    },
    GET_USER: async ({ chainId }) => {
      const user = await userWithKeys()
      const chain =
        chainId === undefined ? { family: activeFamily, chainId: currentChain(activeFamily).chainId } : { family: chooseChain(chainId).family, chainId }
      return userReply(user, chain)
    },
    SIGN_OUT: async () => {
      const stored = storage.getItem(FRAME_STORAGE_KEYS.token)
      storage.removeItem(FRAME_STORAGE_KEYS.token)
      storage.removeItem(FRAME_STORAGE_KEYS.pendingEmail)
      storage.removeItem(FRAME_STORAGE_KEYS.preferredAccountType)
      emailUpdate = undefined
      if (stored !== null) {
        // The token is gone from this device whatever the server says; an ended session is not a failure.
        await api.logout(stored).catch((error: unknown) => log(`logout: ${error instanceof Error ? error.message : String(error)}`))
      }
      return undefined
    },
    IS_CONNECTED: async () => {
      if (storage.getItem(FRAME_STORAGE_KEYS.token) === null) return { isConnected: false }
      try {
        await withSession(api.user)
        return { isConnected: true }
      } catch (error) {
        if (error instanceof WalletApiError && error.code === "unauthorized") return { isConnected: false }
        throw error
      }
    },
    GET_CHAIN_ID: async () => ({ chainId: currentChain(activeFamily).chainId }),
    SWITCH_NETWORK: async ({ chainId }) => {
      chooseChain(chainId)
      return { chainId }
    },
    GET_SMART_ACCOUNT_ENABLED_NETWORKS: async () => ({ smartAccountEnabledNetworks: smartChains.map((caip) => Number(caip.slice("eip155:".length))) }),
    INIT_SMART_ACCOUNT: async () => {
      // Its address is known before it exists; its first user operation deploys it.
      await smartAccountOn(smartChain())
      return undefined
    },
    SET_PREFERRED_ACCOUNT: async ({ type }) => {
      if (type === "smartAccount") {
        const smart = await smartAccountOn(smartChain())
        storage.setItem(FRAME_STORAGE_KEYS.preferredAccountType, type)
        return { type, address: smart.address }
      }
      const user = await userWithKeys()
      storage.setItem(FRAME_STORAGE_KEYS.preferredAccountType, type)
      return { type, address: addressFor(user, activeFamily) }
    },
    RPC_REQUEST: async ({ method, params }) => {
      if (classifyEmbeddedRpcMethod(method) === "rejected") throw new FrameFailure("Requested RPC call is not allowed")
      const family: Family = method.startsWith("solana_") ? "solana" : "eip155"
      const { caip } = currentChain(family)
      // With the smart account in front, the site sees it and its sends go from it (as user operations).
      const smart = method.startsWith("solana_") ? undefined : await smartAccountInFront()
      if (smart !== undefined && (method === "eth_accounts" || method === "eth_requestAccounts")) return [smart]
      if (smart !== undefined && method === "eth_sendTransaction" && Array.isArray(params)) {
        const [tx, ...rest] = params as ReadonlyArray<unknown>
        if (typeof tx === "object" && tx !== null && (tx as { readonly from?: unknown }).from === undefined) {
          params = [{ ...(tx as Record<string, unknown>), from: smart }, ...rest]
        }
      }
      const call = params === undefined ? { chainId: caip, method } : { chainId: caip, method, params }
      if (signsWithKey(method)) {
        const { signInFrame } = await import("./frameRpc")
        return (await signInFrame({ api, storage, token, sealed: env.storageTravels === true }, served, await userWithKeys(), call)) ?? null
      }
      const answer = await withSession((session) => api.rpc(session, call))
      return answer.result ?? null
    },
    UPDATE_EMAIL: async ({ email }) => {
      const answer = await withSession((session) => api.updateEmail(session, email))
      let resolve: (email: string) => void = () => undefined
      const done = new Promise<string>((settle) => {
        resolve = settle
      })
      emailUpdate = { done, resolve }
      return { action: answer.action }
    },
    UPDATE_EMAIL_PRIMARY_OTP: async ({ otp }) => {
      await withSession((session) => api.updateEmailPrimary(session, otp))
      return undefined
    },
    UPDATE_EMAIL_SECONDARY_OTP: async ({ otp }) => {
      const answer = await withSession((session) => api.updateEmailSecondary(session, otp))
      emailUpdate?.resolve(answer.email)
      emailUpdate = undefined
      return { newEmail: answer.email }
    },
    AWAIT_UPDATE_EMAIL: async () => {
      // During a change: the new email once its code is in; otherwise the email the user has now.
      if (emailUpdate !== undefined) return { email: await emailUpdate.done }
      const user = await withSession(api.user)
      if (user.email === null) throw new FrameFailure("This wallet was made by a social login or a passkey and has no email.")
      return { email: user.email }
    },
    SYNC_THEME: async ({ themeMode, themeVariables }) => {
      // Each sync carries the host's whole theme: a mode it no longer sets goes back to the visitor's system, an accent
      // to the frame's own.
      host.themeMode = themeMode
      host.accent = themeVariables?.["--wr-accent"]
      themeSyncs++
      // A view showing now follows at once, not only the next one opened.
      env.secureViews?.theme({ themeMode: host.themeMode, accent: host.accent })
      return undefined
    },
    SYNC_DAPP_DATA: async ({ metadata, sdkVersion, sdkType }) => {
      host.dapp = { name: metadata?.name, sdkVersion, sdkType }
      log(`dapp: ${metadata?.name ?? "(no name)"} on ${sdkType} ${sdkVersion}`)
      return undefined
    },
    RELOAD: async () => undefined,
    OPEN_SECURE_VIEW: async ({ kind, themeMode }) => {
      const views = env.secureViews
      if (views === undefined) throw new FrameFailure("This wallet cannot show that view.")
      const turn = ++secureViewTurn
      const syncs = themeSyncs
      // Only a logged-in visitor's wallet has anything to protect, recover or export.
      await withSession(api.user)
      await views.load()
      if (turn !== secureViewTurn) return { outcome: "cancelled" as const }
      const mode = themeSyncs === syncs ? (themeMode ?? host.themeMode) : host.themeMode
      return { outcome: await views.open(kind, { themeMode: mode, accent: host.accent }) }
    },
    CLOSE_SECURE_VIEW: async () => {
      secureViewTurn++
      env.secureViews?.close()
      return undefined
    }
  }

  // Every post goes through here: decoded as the host will decode it, and never carrying the session token or what a
  // secure view shows (an exported key).
  const post = (message: FrameResponse, origin: string): void => {
    const stored = storage.getItem(FRAME_STORAGE_KEYS.token)
    const secrets = [...(stored === null || stored === "" ? [] : [stored]), ...(env.secureViews?.withheld() ?? [])]
    const text = JSON.stringify(message)
    let safe: FrameResponse = message
    if (secrets.some((secret) => text.includes(secret))) {
      log(`withheld a ${message.type} that carried the session token or a key`)
      safe = errorReply(message, "The wallet could not answer this request.")
    } else if (Result.isFailure(decodeFrameResponse(message))) {
      log(`withheld a malformed ${message.type}`)
      safe = errorReply(message, "The wallet could not answer this request.")
    }
    env.post(safe, origin)
  }

  const errorReply = (message: FrameResponse, text: string): FrameResponse => {
    if (!("id" in message)) return { type: `${FRAME_PREFIX}READY` }
    const name = message.type.slice(FRAME_PREFIX.length).replace(/_(SUCCESS|ERROR)$/, "") as FrameRequestName
    return { id: message.id, type: `${FRAME_PREFIX}${name}_ERROR`, payload: { message: text } }
  }

  const answer = async (request: FrameRequest, origin: string): Promise<void> => {
    const name = frameRequestNameOf(request.type)
    const handler = handlers[name] as (payload: unknown) => Promise<unknown>
    try {
      const payload = await handler("payload" in request ? request.payload : undefined)
      const reply = payload === undefined ? { id: request.id, type: `${FRAME_PREFIX}${name}_SUCCESS` } : { id: request.id, type: `${FRAME_PREFIX}${name}_SUCCESS`, payload }
      post(reply as FrameResponse, origin)
    } catch (error) {
      const text = error instanceof Error && error.message !== "" ? error.message : "An error occurred"
      log(`${name} failed: ${text}`)
      const refusal = refusalOf(name, error)
      post({ id: request.id, type: `${FRAME_PREFIX}${name}_ERROR`, payload: { message: text, ...refusal } } as FrameResponse, origin)
    }
  }

  return {
    start: async () => {
      const refuse = (reason: string): FrameStart => {
        log(`not answering: ${reason}`)
        return { ready: false, reason }
      }
      const parent = env.parentOrigin
      if (parent === undefined || parent === "" || parent === "null") return refuse("the page that embeds the frame has no known origin")
      let project
      try {
        project = await api.project(query.projectId)
      } catch (error) {
        return refuse(`project ${JSON.stringify(query.projectId)} is unknown (${error instanceof Error ? error.message : String(error)})`)
      }
      const allowed = project.allowedOrigins === "loopback" ? isLoopbackOrigin(parent) : project.allowedOrigins.includes(parent)
      if (!allowed) return refuse(`${parent} is not an allowed origin of project ${query.projectId}`)
      if (query.chainId !== undefined && chainOf(query.chainId) !== undefined) chooseChain(query.chainId)
      // Families the host did not name start on the server's first chain of that family.
      try {
        served = await api.chains()
        const { chains, smartAccountChains } = served
        smartChains = smartAccountChains ?? []
        for (const caip of chains) {
          const chain = chainOf(caip)
          if (chain !== undefined && current[chain.family] === undefined) current[chain.family] = chain.family === "eip155" ? Number(caip.slice(7)) : caip
        }
      } catch (error) {
        log(`the server's chains are unknown: ${error instanceof Error ? error.message : String(error)}`)
      }
      if (current.eip155 === undefined && current.solana !== undefined) activeFamily = "solana"
      deviceId()
      allowedParent = parent
      post({ type: `${FRAME_PREFIX}READY`, payload: query.version === undefined ? {} : { version: query.version } }, parent)
      return { ready: true, parentOrigin: parent }
    },
    receive: async (event) => {
      if (allowedParent === undefined) return log("dropped a message: the frame is not ready for this page")
      if (!env.isParent(event.source)) return log("dropped a message from a window that is not the parent")
      if (event.origin !== allowedParent) return log(`dropped a message from ${event.origin}`)
      const decoded = decodeFrameRequest(event.data)
      if (Result.isFailure(decoded)) return log(`dropped a malformed message: ${decoded.failure.message}`)
      await answer(decoded.success, allowedParent)
    }
  }
}
