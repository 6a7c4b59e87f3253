/** `<AccountButton/>`: the connected account (name or truncated address, and balance); opens the Account view. */
import type { ReactNode } from "react"
import { useReady } from "../../react/context"
import type { AccountButtonProps } from "../props"

/**
 * The connected account; renders nothing while no wallet is connected (nor before the runtime runs, when no wallet
 * can be connected yet).
 * @example <AccountButton showBalance={false} />
 */
export function AccountButton(props: AccountButtonProps): ReactNode {
  const ready = useReady()
  return ready === undefined ? null : <ready.core.AccountButton {...props} />
}
