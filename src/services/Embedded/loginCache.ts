/**
 * The embedded wallet's login cache (spec point 4): a successful login keeps the email and the email-login-used flag
 * and clears the last email login time; a disconnect or a failed connection check forgets the flag, the email, the
 * last chain and the social username.
 */
import { Effect } from "effect"
import type { SocialLogin } from "../../domain/Account"
import type { CaipNetworkId } from "../../domain/Caip"
import * as Keys from "../Storage/keys"
import type { Storage } from "../Storage/Storage"

/** After a successful login with `email`. */
export const rememberLogin = (storage: Storage["Service"], email: string, lastChain?: CaipNetworkId) =>
  storage.modify(Keys.embeddedLogin, (cache) => ({
    ...cache,
    email,
    emailLoginUsed: true,
    lastEmailLoginTime: null,
    ...(lastChain === undefined ? {} : { lastChain })
  })).pipe(Effect.asVoid)

/** After a disconnect or a failed connection check. */
export const forgetLogin = (storage: Storage["Service"]) =>
  storage.modify(Keys.embeddedLogin, (cache) => ({
    ...cache,
    email: null,
    emailLoginUsed: false,
    lastChain: null,
    socialUsername: null,
    socialProvider: null
  })).pipe(Effect.asVoid)

/** When a code was last mailed (epoch ms), for the 30 s cooldown across reloads. */
export const noteCodeSent = (storage: Storage["Service"], at: number) =>
  storage.modify(Keys.embeddedLogin, (cache) => ({ ...cache, lastEmailLoginTime: at })).pipe(Effect.asVoid)

/** After a successful social login: the name the provider gave (spec point 4's social username). */
export const rememberSocialLogin = (
  storage: Storage["Service"],
  social: { readonly provider: SocialLogin | undefined; readonly username: string },
  lastChain?: CaipNetworkId
) =>
  storage.modify(Keys.embeddedLogin, (cache) => ({
    ...cache,
    socialUsername: social.username,
    socialProvider: social.provider ?? null,
    ...(lastChain === undefined ? {} : { lastChain })
  })).pipe(Effect.asVoid)
