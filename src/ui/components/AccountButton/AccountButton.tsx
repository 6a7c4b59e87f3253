/** `<AccountButton/>`: the connected account (name or truncated address, and balance); opens the Account view. */
import type { ReactNode } from "react"
import { useAtomSet, useAtomValue } from "../../atom-react/hooks"
import { activeAccountAtom } from "../../atoms/connection"
import { openModalFn } from "../../atoms/modal"
import { activeNetworkAtom } from "../../atoms/networks"
import { Avatar } from "../Avatar/Avatar"
import { accountLabel, balanceText } from "../display"
import { HostButton } from "../HostButton/HostButton"
import * as styles from "../HostButton/HostButton.css"

/** Props of {@link AccountButton}. */
export interface AccountButtonProps {
  /** Show the balance beside the address (when known); on unless false. */
  readonly showBalance?: boolean | undefined
  readonly className?: string | undefined
}

/**
 * The connected account; renders nothing while no wallet is connected.
 * @example <AccountButton showBalance={false} />
 */
export function AccountButton(props: AccountButtonProps): ReactNode {
  const account = useAtomValue(activeAccountAtom)
  const symbol = useAtomValue(activeNetworkAtom, (network) => network?.nativeCurrency.symbol)
  const open = useAtomSet(openModalFn)
  if (account.status !== "connected" || account.address === undefined) return null
  const balance = props.showBalance === false ? undefined : balanceText(account.balance, account.balanceSymbol ?? symbol)
  return (
    <HostButton className={props.className} onClick={() => open({ view: "Account" })}>
      {balance !== undefined && <span className={styles.muted}>{balance}</span>}
      <Avatar address={account.address} image={account.profileImage} size={22} />
      <span>{accountLabel(account)}</span>
    </HostButton>
  )
}
