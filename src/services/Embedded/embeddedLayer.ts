/**
 * The EmbeddedWallet service as the runtime builds it: without the AUTH connector (no email login offered) it holds
 * a disabled state and does nothing; with it, it holds the state from the start (what the Connect view renders) and
 * builds the rest when first used: a method called (the visitor logs in, a host calls it), an unsafe request, the
 * frame loaded (a restored session: the Account view's email follows the connection from then on), or a social
 * login's result in the page's address at start. The flows (`./EmbeddedWalletLive`) are fetched the first time the
 * visitor or an unsafe request needs them.
 */
import { Effect, Layer, Option, Scope, Stream, SubscriptionRef } from "effect"
import type { ChainNamespace } from "../../domain/Caip"
import { SECURE_SDK_VERSION_DEFAULT } from "../../domain/constants"
import { EmailLoginDependencyFailed } from "../../domain/errors"
import { Config } from "../Config"
import { Platform } from "../Platform"
import { Theme } from "../Theme"
import type { ConnectFlow } from "../ConnectFlow"
import { Connection } from "../Connection"
import type { Modal } from "../Modal"
import type { Networks } from "../Networks"
import type { Notifications } from "../Notifications"
import type { Portfolio } from "../Portfolio"
import type { Siwx } from "../Siwx/Siwx"
import * as Keys from "../Storage/keys"
import { Storage } from "../Storage/Storage"
import { EmbeddedAuth } from "./EmbeddedAuth"
import { isFrameCallback, withoutResultUri } from "./socialUrls"
import { SocialWindow } from "./SocialWindow"
import { EmbeddedWallet, idleEmbeddedService, initialEmbeddedState } from "./EmbeddedWallet"
import type { ApprovalGate } from "./authState"
import type { EmbeddedService, EmbeddedState } from "./embeddedState"
import type { EmbeddedLive } from "./EmbeddedWalletLive"
import { type Forwards, lazyFront } from "../lazyFront"

/** How the runtime names itself to the frame (SYNC_DAPP_DATA's `sdkType`). */
export const SDK_TYPE = "wallet-runtime"

type Needs = Modal | ConnectFlow | Connection | Networks | Portfolio | Storage | Notifications | Config | Theme | Platform | Siwx

// The service once built: its methods, and the approval gate (the flows', fetched and built when first run) that the
// connector holds from the start.
type Built = EmbeddedService & { readonly gate: Effect.Effect<ApprovalGate> }

/** The embedded wallet over the runtime's services and, when the host offers email login, its AUTH connector. */
export const embeddedWalletLayer: Layer.Layer<EmbeddedWallet, never, Needs> = Layer.effect(EmbeddedWallet)(
  Effect.gen(function* () {
    const found = yield* Effect.serviceOption(EmbeddedAuth)
    const state = yield* SubscriptionRef.make(initialEmbeddedState(Option.isSome(found)))
    if (Option.isNone(found)) return idleEmbeddedService(state)
    const auth = found.value
    // Only a social login's result is read of the page's address, and only at start (see `build`).
    const here = (yield* SocialWindow).pageUrl() ?? ""
    const resultUri = here === "" ? null : new URL(here).searchParams.get("result_uri")
    // Every method but the state goes to the built service: the idle service names each, as a function or an effect.
    const forwards = Object.fromEntries(
      Object.entries(idleEmbeddedService(state)).flatMap(([name, member]) => (name === "state" ? [] : [[name, typeof member === "function" ? 1 : 0]]))
    ) as Forwards<Built, "state" | "gate">
    const { live: built, front } = yield* lazyFront<Built, Needs | Scope.Scope, "state" | "gate">(build(state, auth, here, resultUri), forwards)
    // Set from the start: an unsafe request of a session restored by the connector may come before anything else.
    yield* auth.setGate(Effect.flatMap(built, (service) => service.gate))
    // No embedded session connects without the frame (a login, a restore): once it is loaded, the service follows
    // the connection. A result in the address is taken at once, as before the service was built on first use.
    if (resultUri !== null) yield* built
    else yield* Effect.forkScoped(Effect.andThen(auth.whenLoaded, built))
    return { ...front, state }
  })
)

// The service over the runtime's services, built once on first use. Issue 32: a page whose visitor never uses the
// embedded wallet runs none of this (-0.04 MiB of heap after open in the peers harness).
const build = (state: SubscriptionRef.SubscriptionRef<EmbeddedState>, auth: EmbeddedAuth["Service"], here: string, resultUri: string | null) =>
  Effect.gen(function* () {
    const services = yield* Effect.context<Needs>()
    const scope = yield* Effect.scope
    const connection = yield* Connection
    const storage = yield* Storage
    const config = yield* Config
    const page = yield* SocialWindow
    const platform = yield* Platform
    const live = yield* Effect.cached(
      Effect.tryPromise({ try: () => import("./EmbeddedWalletLive"), catch: () => new EmailLoginDependencyFailed() }).pipe(
        Effect.flatMap((module) =>
          module.makeEmbeddedWallet(state, { connectorId: auth.connector.info.id, frame: auth.frame, setPreferredAccount: auth.setPreferredAccount })
        ),
        Effect.provideService(SocialWindow, page),
        Effect.provideContext(services),
        Effect.provideService(Scope.Scope, scope)
      )
    )
    // A flow that cannot load says so where the visitor looks (under the email field, on the view).
    const via = <A>(use: (service: EmbeddedLive) => Effect.Effect<A>) =>
      Effect.flatMap(live, use).pipe(
        Effect.catch((error) => SubscriptionRef.update(state, (s): EmbeddedState => ({ ...s, login: { _tag: "Idle" }, error: error.message })))
      )
    // The Account view shows the email of the embedded wallet while it is connected (restored ones too).
    yield* SubscriptionRef.changes(connection.state).pipe(
      Stream.map((current) =>
        Object.values(current.namespaces).some(
          (family) => family?.connector?.type === "AUTH" && family.account.status === "connected"
        )
      ),
      Stream.changes,
      Stream.runForEach((connected) =>
        Effect.gen(function* () {
          const cache = yield* storage.get(Keys.embeddedLogin)
          const email = connected ? (cache.email ?? undefined) : undefined
          const socialUser =
            connected && cache.socialUsername !== null ? { provider: cache.socialProvider ?? undefined, username: cache.socialUsername } : undefined
          // A switch's failure belongs to the session it happened in.
          yield* SubscriptionRef.update(state, (s) => ({ ...s, email, socialUser, accountSwitch: { ...s.accountSwitch, error: undefined } }))
        })
      ),
      Effect.forkIn(scope)
    )
    // Spec 3's account state of the embedded wallet, per family it connected: `socialProvider` (a social or Farcaster
    // login) and `user` (email, username), from the login cache the login kept before connecting. Checked at each
    // change of the connection, so a family (re)connected later gets them too; equal fields are not written again.
    yield* SubscriptionRef.changes(connection.state).pipe(
      Stream.runForEach((current) =>
        Effect.gen(function* () {
          const held = Object.entries(current.namespaces).filter(
            ([, family]) => family?.connector?.type === "AUTH" && family.account.status === "connected"
          )
          if (held.length === 0) return
          const cache = yield* storage.get(Keys.embeddedLogin)
          const provider = cache.socialProvider ?? undefined
          const user = { email: cache.email, username: cache.socialUsername }
          for (const [namespace, family] of held) {
            const account = family?.account
            if (account?.socialProvider === provider && account?.user?.email === user.email && account?.user?.username === user.username) continue
            yield* connection.updateAccount(namespace as ChainNamespace, ({ socialProvider: _, ...rest }) => ({
              ...rest,
              ...(provider === undefined ? {} : { socialProvider: provider }),
              user
            }))
          }
        })
      ),
      Effect.forkIn(scope)
    )
    // Once the frame said READY (never loading it for this): the host's dapp data, and its theme now and at each change,
    // so the frame's pages (the social callback) follow them. A frame that does not take them changes nothing here.
    const theme = yield* Theme
    yield* Effect.gen(function* () {
      const bridge = yield* auth.whenLoaded
      yield* bridge
        .request("SYNC_DAPP_DATA", {
          ...(config.metadata === undefined ? {} : { metadata: config.metadata }),
          sdkVersion: String(SECURE_SDK_VERSION_DEFAULT),
          projectId: config.projectId ?? "",
          sdkType: SDK_TYPE
        })
        .pipe(Effect.ignore)
      yield* SubscriptionRef.changes(theme.state).pipe(
        Stream.changes,
        Stream.runForEach((current) =>
          bridge
            .request("SYNC_THEME", {
              ...(current.themeMode === undefined ? {} : { themeMode: current.themeMode }),
              ...(current.themeVariables === undefined ? {} : { themeVariables: current.themeVariables })
            })
            .pipe(Effect.ignore)
        )
      )
    }).pipe(Effect.forkIn(scope))

    // A social login that came back in the page's address (the redirect fallback, the mini-app mode): the address is
    // cleaned at once; only a callback on the frame's own origin is handed on, anything else is refused and dropped.
    if (resultUri !== null) {
      page.replacePageUrl(withoutResultUri(here))
      if (isFrameCallback(resultUri, config.endpoints.frame)) {
        yield* Effect.forkIn(via((service) => service.finishSocial(resultUri)), scope)
      } else {
        yield* SubscriptionRef.update(state, (s) => ({ ...s, socialError: "A login result from another site was refused." }))
      }
    }
    const service: Built = {
      state,
      gate: Effect.map(Effect.orDie(live), (service) => service.gate),
      connectSocial: (provider) =>
        // The popup opens first, in the click, before anything waits (the flows' code may still be loading).
        // Inside a messenger's mini-app no popup is opened: the page goes to the provider and comes back with
        // `result_uri` (spec 2).
        Effect.suspend(() => {
          const popup = platform.miniApp === undefined ? page.open() : undefined
          return via((service) => service.socialLogin(provider, popup))
        }),
      cancelSocial: via((service) => service.cancelSocial),
      // As a social login: the popup opens in the click, before the flows' code may have loaded.
      connectPasskey: (mode) =>
        Effect.suspend(() => {
          const popup = page.open()
          return via((service) => service.passkeyLogin(mode, popup))
        }),
      cancelPasskey: via((service) => service.cancelPasskey),
      connectFarcaster: via((service) => service.connectFarcaster),
      cancelFarcaster: via((service) => service.cancelFarcaster),
      submitEmail: (email) => via((service) => service.submitEmail(email)),
      resend: via((service) => service.resend),
      waitForDevice: via((service) => service.waitForDevice),
      submitOtp: (otp) => via((service) => service.submitOtp(otp)),
      cancelLogin: via((service) => service.cancelLogin),
      startEmailUpdate: (email) => via((service) => service.startEmailUpdate(email)),
      submitEmailUpdateOtp: (otp) => via((service) => service.submitEmailUpdateOtp(otp)),
      cancelEmailUpdate: via((service) => service.cancelEmailUpdate),
      approve: via((service) => service.approve),
      reject: via((service) => service.reject),
      setPreferredAccount: (type) => via((service) => service.setPreferredAccount(type)),
      openSecureView: (kind) => via((service) => service.openSecureView(kind)),
      showSecureView: (place) => via((service) => service.showSecureView(place)),
      hideSecureView: via((service) => service.hideSecureView),
      refreshRecovery: via((service) => service.refreshRecovery)
    }
    return service
  })
