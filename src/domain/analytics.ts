/**
 * The usage events the runtime records (spec 7.3, `POST /e`), one name per thing a visitor does. They are sent only
 * when the host and the service both allow analytics; the names follow the style of the hosted services' own.
 */

/** Every event the runtime records. */
export const ANALYTICS_EVENTS = [
  "MODAL_OPEN",
  "MODAL_CLOSE",
  "SELECT_WALLET",
  "CONNECT_SUCCESS",
  "CONNECT_ERROR",
  "SWITCH_NETWORK",
  "SIGN_MESSAGE_SUCCESS",
  "SIGN_MESSAGE_ERROR",
  "SEND_INITIATED",
  "SEND_SUCCESS",
  "SEND_ERROR",
  "VIEW_TAB",
  "OPEN_SWAP",
  "INITIATE_SWAP",
  "SWAP_SUCCESS",
  "SWAP_ERROR",
  "SWAP_APPROVAL_ERROR",
  "SELECT_BUY_CRYPTO",
  "SELECT_BUY_PROVIDER"
] as const

/** The name of a usage event. */
export type AnalyticsEventName = (typeof ANALYTICS_EVENTS)[number]
