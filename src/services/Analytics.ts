/**
 * Analytics: usage events sent as `POST /e` (spec 7.3) only when both the host (`enableAnalytics` and
 * `features.analytics`) and the service (`GET /getAnalyticsConfig`, asked once, on the first event) allow it.
 * When either says no, not a single request leaves — not even the config request when the host said no.
 */
import { Clock, Context, Effect, Layer, SubscriptionRef } from "effect"
import * as HttpClient from "effect/http/HttpClient"
import { Alerts } from "../domain/alerts"
import type { AnalyticsEventName } from "../domain/analytics"
import { analyticsEnabled } from "../domain/Options"
import { Config } from "./Config"
import { Connection } from "./Connection"
import { Notifications } from "./Notifications"
import { Platform } from "./Platform"
import type { HappenedEvent } from "./analyticsCalls"
import { lazyCalls, SDK_TYPE, SDK_VERSION } from "./serviceHttp"

/** How long after the visitor's action its event is sent: the action's own work is done by then. */
export const ANALYTICS_SEND_DELAY_MS = 500

/** Free properties of an event. */
export type AnalyticsProperties = Readonly<Record<string, unknown>>

/** Whether the host's options let analytics send anything: turned on (the default) and a projectId to send under. */
export const analyticsAllowed = (config: Config["Service"]): boolean =>
  analyticsEnabled(config) && config.projectId !== undefined && config.projectId.trim() !== ""

/** Usage events, when allowed. */
export class Analytics extends Context.Service<
  Analytics,
  {
    /** Whether events are sent: the host's switches, then the service's config (asked once, only if the host allows). */
    readonly enabled: Effect.Effect<boolean>
    /** Sends one event with the connected address, if allowed; never fails (a lost event is only logged). */
    readonly track: (event: AnalyticsEventName, properties?: AnalyticsProperties) => Effect.Effect<void>
    /**
     * Sends one event in the background: what the visitor does never waits for its event. `"soon"` (the default)
     * sends it {@link ANALYTICS_SEND_DELAY_MS} later, after the action's own work; `"now"` starts sending at once, for
     * an action that may end with the page (a swap is mined in a moment on a fast chain, and the visitor leaves).
     */
    readonly record: (event: AnalyticsEventName, properties?: AnalyticsProperties, when?: "soon" | "now") => Effect.Effect<void>
  }
>()("wallet-runtime/Analytics") {
  /** Analytics that sends nothing (tests of the services that record events). */
  static readonly layerNone: Layer.Layer<Analytics> = Layer.succeed(Analytics)({
    enabled: Effect.succeed(false),
    track: () => Effect.void,
    record: () => Effect.void
  })

  /** Analytics against `Config.endpoints.walletCatalog`, over the HttpClient in context. */
  static readonly layer: Layer.Layer<Analytics, never, Config | Platform | Notifications | Connection | HttpClient.HttpClient> =
    Layer.effect(Analytics)(
      Effect.gen(function* () {
        const config = yield* Config
        const platform = yield* Platform
        const notifications = yield* Notifications
        const connection = yield* Connection
        const options = { baseUrl: config.endpoints.walletCatalog, client: yield* HttpClient.HttpClient, raiseAlert: notifications.raiseAlert }
        // Its own calls, not the derived clients: the first event is usually the modal's first open (MODAL_OPEN), which
        // so fetches no effect/http-api (see analyticsCalls.ts); their code comes with the first event.
        const service = lazyCalls(options.baseUrl, () =>
          import("./analyticsCalls").then((module) => module.makeAnalyticsCalls(options, platform.href))
        )
        const projectId = config.projectId
        const hostAllows = analyticsAllowed(config)

        const projectQuery = projectId === undefined ? {} : { projectId }

        const askService = service((calls, exchange) => calls.config({ ...projectQuery, st: SDK_TYPE, sv: SDK_VERSION }, exchange))
          .pipe(
            Effect.map((answer) => answer.isAnalyticsEnabled),
            Effect.catch((error) =>
              Effect.gen(function* () {
                if (error._tag === "HttpStatusError" && error.status === 403) {
                  yield* notifications.raiseAlert(Alerts.INVALID_APP_CONFIGURATION)
                }
                yield* Effect.logDebug(`Analytics off for this session: ${error.message}`)
                return false
              })
            )
          )
        // Asked at most once per runtime, whatever the answer: a failed config means no events, not retries.
        const serviceAllows = yield* Effect.cached(askService)
        const enabled = hostAllows ? serviceAllows : Effect.succeed(false)

        const scope = yield* Effect.scope
        // What an event says is taken when it happens (its data with the address, its time); sending it can wait.
        const capture = (event: AnalyticsEventName, properties: AnalyticsProperties | undefined) =>
          Effect.gen(function* () {
            const state = yield* SubscriptionRef.get(connection.state)
            const active = state.activeNamespace === undefined ? undefined : state.namespaces[state.activeNamespace]
            const address = active?.account.address
            const happened: HappenedEvent = {
              props: {
                type: "track",
                event,
                ...(address === undefined ? {} : { address }),
                ...(properties === undefined ? {} : { properties })
              },
              timestamp: yield* Clock.currentTimeMillis
            }
            return happened
          })

        const send = (happened: HappenedEvent) =>
          Effect.gen(function* () {
            if (!hostAllows || !(yield* enabled)) return
            yield* service((calls, exchange) => calls.event(projectQuery, happened, exchange)).pipe(
              Effect.catch((error) => Effect.logDebug(`Analytics event ${happened.props.event} lost: ${error.message}`))
            )
          })

        const track = Effect.fn("Analytics.track")(function* (event: AnalyticsEventName, properties?: AnalyticsProperties) {
          if (!hostAllows) return
          yield* send(yield* capture(event, properties))
        })

        // The visitor's click and what it shows come first: the event (taken now) is sent a moment later.
        const record = (event: AnalyticsEventName, properties?: AnalyticsProperties, when: "soon" | "now" = "soon") =>
          hostAllows
            ? Effect.flatMap(capture(event, properties), (captured) =>
                Effect.asVoid(
                  Effect.forkIn(when === "now" ? send(captured) : Effect.andThen(Effect.sleep(ANALYTICS_SEND_DELAY_MS), send(captured)), scope)
                )
              )
            : Effect.void

        return { enabled, track, record }
      })
    )
}
