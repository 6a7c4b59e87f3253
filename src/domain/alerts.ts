/**
 * Alerts (spec point 8): problems of the host's configuration or of the session that the visitor or the host
 * developer must see once, with a stable code to search for. The Notifications service shows each once.
 */
import { Schema } from "effect"

/** Identifier of an alert. */
export const AlertId = Schema.Literals([
  "INVALID_APP_CONFIGURATION",
  "INVALID_PROJECT_ID",
  "SESSION_EXPIRED",
  "NETWORK_NOT_FOUND",
  "SWITCH_NETWORK_NOT_FOUND",
  "EMBEDDED_WALLET_LOAD_TIMEOUT",
  "SOCIALS_TIMEOUT",
  "AUTH_TIMEOUT",
  "PROJECT_ID_NOT_CONFIGURED"
])
/** Identifier of an alert. */
export type AlertId = typeof AlertId.Type

/** An alert: id, stable code, a short title and the longer explanation with what to do. */
export const Alert = Schema.Struct({
  id: AlertId,
  code: Schema.String,
  shortMessage: Schema.String,
  longMessage: Schema.String
})
/** An alert. */
export type Alert = typeof Alert.Type

/** Every alert of the catalogue, by id. */
export const Alerts: { readonly [K in AlertId]: Alert & { readonly id: K } } = {
  INVALID_APP_CONFIGURATION: {
    id: "INVALID_APP_CONFIGURATION",
    code: "WR001",
    shortMessage: "Invalid App Configuration",
    longMessage: "The origin of this page is not on the project's allow-list. Add it to the project's allowed origins."
  },
  INVALID_PROJECT_ID: {
    id: "INVALID_PROJECT_ID",
    code: "WR002",
    shortMessage: "Invalid Project ID",
    longMessage: "The projectId is not recognised by the services. Check the projectId option."
  },
  SESSION_EXPIRED: {
    id: "SESSION_EXPIRED",
    code: "WR003",
    shortMessage: "Session Expired",
    longMessage: "The session token is not yet valid. Check this device's time settings and reconnect."
  },
  NETWORK_NOT_FOUND: {
    id: "NETWORK_NOT_FOUND",
    code: "WR004",
    shortMessage: "Network Not Found",
    longMessage: "The default network must be one of the networks given in the networks option."
  },
  SWITCH_NETWORK_NOT_FOUND: {
    id: "SWITCH_NETWORK_NOT_FOUND",
    code: "WR005",
    shortMessage: "Network Not Found",
    longMessage: "The network to switch to is not in the networks option."
  },
  EMBEDDED_WALLET_LOAD_TIMEOUT: {
    id: "EMBEDDED_WALLET_LOAD_TIMEOUT",
    code: "WR006",
    shortMessage: "Embedded Wallet Load Failed",
    longMessage: "The embedded wallet did not load in time. Check the frame endpoint and the page's Content-Security-Policy."
  },
  SOCIALS_TIMEOUT: {
    id: "SOCIALS_TIMEOUT",
    code: "WR007",
    shortMessage: "Social Login Timed Out",
    longMessage: "The social login did not answer in time. Please try again."
  },
  AUTH_TIMEOUT: {
    id: "AUTH_TIMEOUT",
    code: "WR008",
    shortMessage: "Authentication Timed Out",
    longMessage: "The embedded wallet did not answer in time. Please try again."
  },
  PROJECT_ID_NOT_CONFIGURED: {
    id: "PROJECT_ID_NOT_CONFIGURED",
    code: "WR009",
    shortMessage: "Project ID Not Configured",
    longMessage: "No projectId was given. WalletConnect and the hosted services need one."
  }
}

/** Which alert a service error text raises: origin not allowed, invalid key, token not yet valid. */
export const alertForServiceError = (text: string): Alert | undefined => {
  const lower = text.toLowerCase()
  if (lower.includes("unauthorized: origin not allowed")) return Alerts.INVALID_APP_CONFIGURATION
  if (lower.includes("unauthorized: invalid key")) return Alerts.INVALID_PROJECT_ID
  if (lower.includes("not yet valid") || lower.includes("jwt not active")) return Alerts.SESSION_EXPIRED
  return undefined
}
