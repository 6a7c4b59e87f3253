/**
 * What the light hooks and the Connect button show before the runtime's code has loaded (and on the server): no
 * wallet, no network, modal closed. Constants, so React sees the same value on every render; the core's own initial
 * states are the same (a unit test holds them together).
 */
import type { AccountState } from "../../domain/Account"
import type { ChainNamespace } from "../../domain/Caip"
import type { CaipNetwork } from "../../domain/Network"
import type { ConnectorView } from "../atoms/connection"
import type { ActionState } from "./context"

/** The account before any wallet is connected. */
export const NO_ACCOUNT: AccountState & { readonly namespace: ChainNamespace | undefined } = {
  status: "disconnected",
  allAccounts: [],
  namespace: undefined
}
/** The account while a stored session waits for the runtime's code to restore it. */
export const RESTORING_ACCOUNT: AccountState & { readonly namespace: ChainNamespace | undefined } = {
  ...NO_ACCOUNT,
  status: "reconnecting"
}
/** No network known yet. */
export const NO_NETWORK: CaipNetwork | undefined = undefined
/** No networks known yet. */
export const NO_NETWORKS: ReadonlyArray<CaipNetwork> = []
/** No connectors discovered yet. */
export const NO_CONNECTORS: ReadonlyArray<ConnectorView> = []
/** An action not started. */
export const IDLE: ActionState<never> = { status: "idle" }
