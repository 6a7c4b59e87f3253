/**
 * Analytics: usage events sent as `POST /e` (spec 7.3) only when both the host (`enableAnalytics` and
 * `features.analytics`) and the service (`GET /getAnalyticsConfig`, asked once, on the first event) allow it.
 * When either says no, not a single request leaves — not even the config request when the host said no.
 */
import { Clock, Context, Effect, Layer, Random, SubscriptionRef } from "effect"
import * as HttpClient from "effect/http/HttpClient"
import { Alerts } from "../domain/alerts"
import type { AnalyticsEventName } from "../domain/analytics"
import type { AnalyticsEvent } from "../domain/Api"
import { analyticsEnabled } from "../domain/Options"
import { Config } from "./Config"
import { Connection } from "./Connection"
import { Notifications } from "./Notifications"
import { Platform } from "./Platform"
import { makeServiceCalls } from "./serviceCalls"
import { SDK_TYPE, SDK_VERSION } from "./serviceHttp"

/** How long after the visitor's action its event is sent: the action's own work is done by then. */
export const ANALYTICS_SEND_DELAY_MS = 500

/** Free properties of an event. */
export type AnalyticsProperties = Readonly<Record<string, unknown>>

// A v4 UUID from the Random service: `crypto.randomUUID` exists only in secure contexts, and Random is testable.
const uuid = Effect.gen(function* () {
  const bytes: Array<number> = []
  for (let i = 0; i < 16; i++) bytes.push(yield* Random.nextIntBetween(0, 255))
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80
  const hex = bytes.map((b) => b.toString(16).padStart(2, "0")).join("")
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
})

const domainOf = (href: string | undefined): string => {
  if (href === undefined) return ""
  // `URL` is the platform's parser; a page address that does not parse has no domain to report.
  try {
    return new URL(href).hostname
  } catch {
    return ""
  }
}

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
        const service = makeServiceCalls({
          baseUrl: config.endpoints.walletCatalog,
          client: yield* HttpClient.HttpClient,
          raiseAlert: notifications.raiseAlert
        })
        const projectId = config.projectId
        const hostAllows = analyticsAllowed(config)

        const projectQuery = projectId === undefined ? {} : { projectId }

        const askService = service
          .call("analytics", (analytics) => analytics.config({ query: { ...projectQuery, st: SDK_TYPE, sv: SDK_VERSION } }))
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
        // What an event says is taken when it happens (time, address); sending it can wait.
        const capture = (event: AnalyticsEventName, properties: AnalyticsProperties | undefined) =>
          Effect.gen(function* () {
            const state = yield* SubscriptionRef.get(connection.state)
            const active = state.activeNamespace === undefined ? undefined : state.namespaces[state.activeNamespace]
            const address = active?.account.address
            const timestamp = yield* Clock.currentTimeMillis
            return { event, properties, address, timestamp }
          })

        const send = (captured: Effect.Success<ReturnType<typeof capture>>) =>
          Effect.gen(function* () {
            if (!hostAllows || !(yield* enabled)) return
            const { event, properties, address, timestamp } = captured
            const body: AnalyticsEvent = {
              eventId: yield* uuid,
              url: platform.href ?? "",
              domain: domainOf(platform.href),
              timestamp,
              props: {
                type: "track",
                event,
                ...(address === undefined ? {} : { address }),
                ...(properties === undefined ? {} : { properties })
              }
            }
            yield* service
              .call("analytics", (analytics) => analytics.event({ query: projectQuery, payload: body }))
              .pipe(Effect.catch((error) => Effect.logDebug(`Analytics event ${event} lost: ${error.message}`)))
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
