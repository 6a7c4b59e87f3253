/**
 * The account button once the runtime runs: the connected account (name or truncated address, and balance); opens
 * the Account view. `<AccountButton/>` renders it.
 */
import type { ReactNode } from "react"
import { useAtomSet, useAtomValue } from "../../atom-react/hooks"
import * as AsyncResult from "effect/reactivity/AsyncResult"
import { accountBalanceAtom, accountIdentityAtom } from "../../atoms/account"
import { activeAccountAtom } from "../../atoms/connection"
import { openModalFn } from "../../atoms/modal"
import { Avatar } from "../../components/Avatar/Avatar"
import { accountLabel, balanceText, shortAddress } from "../../components/display"
import { preloadViews } from "../../views/registry"
import { HostButton } from "../../components/HostButton/HostButton"
import * as styles from "../../components/HostButton/HostButton.css"
import type { AccountButtonProps } from "../props"

// The views this button opens are fetched as soon as the visitor points at it or focuses it.
const preload = () => preloadViews(["Account"])

/** The connected account; nothing while no wallet is connected. */
export function AccountButtonView(props: AccountButtonProps): ReactNode {
  const account = useAtomValue(activeAccountAtom)
  const open = useAtomSet(openModalFn)
  if (account.status !== "connected" || account.address === undefined) return null
  return (
    <HostButton place="account" className={props.className} preload={preload} onClick={() => open({ view: "Account" })}>
      {props.showBalance !== false && <ButtonBalance />}
      <AccountName address={account.address} />
    </HostButton>
  )
}

// Separate components, so the balance and identity are asked for only while a connected account is shown.
function ButtonBalance(): ReactNode {
  const text = useAtomValue(accountBalanceAtom, (result) =>
    AsyncResult.isSuccess(result) && result.value !== undefined ? balanceText(result.value.balance, result.value.symbol) : undefined
  )
  return text === undefined ? null : <span className={`${styles.muted} ${styles.wideOnly}`}>{text}</span>
}

/**
 * The account's avatar and name (from its identity) or truncated address; on a phone-sized screen, the short address
 * alone, so the button fits beside the host's other controls.
 */
export function AccountName(props: { readonly address: string }): ReactNode {
  const identity = useAtomValue(accountIdentityAtom, (result) => AsyncResult.getOrElse(result, () => undefined))
  return (
    <>
      <Avatar address={props.address} image={identity?.profileImage} size={22} />
      <span className={styles.wideOnly}>{accountLabel({ address: props.address, profileName: identity?.profileName })}</span>
      <span className={styles.phoneOnly}>{shortAddress(props.address)}</span>
    </>
  )
}
