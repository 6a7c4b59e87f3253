/** Usage events the views record themselves (a tab viewed); the flows record theirs in their services. */
import { Effect } from "effect"
import type { AnalyticsEventName } from "../../domain/analytics"
import { Analytics, type AnalyticsProperties } from "../../services/Analytics"
import { walletRuntimeAtom } from "./runtime"

/** Records an event in the background (sent only when the host and the service allow analytics). */
export const recordEventFn = walletRuntimeAtom.fn(
  (event: { readonly name: AnalyticsEventName; readonly properties?: AnalyticsProperties }) =>
    Effect.flatMap(Analytics, (analytics) => analytics.record(event.name, event.properties))
)
