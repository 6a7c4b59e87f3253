/**
 * The Tokens tab: the account's tokens on its network from the blockchain service, highest USD value first, each
 * with its icon, quantity (3 decimals) and USD value, and their total on top. A network the service does not serve
 * for balances shows '$0.00' and says so; a failed read says 'Token Balance Unavailable' (spec 7.7, 8, 9).
 */
import { Option } from "effect"
import * as AsyncResult from "effect/reactivity/AsyncResult"
import type { ReactNode } from "react"
import { formatAmount, formatUsd } from "../../../../domain/format"
import type { TokenBalance } from "../../../../domain/Portfolio"
import { tokensByValue, totalUsdValue } from "../../../../domain/portfolioView"
import type { TokenBalanceUnavailable } from "../../../../services/BlockchainApi"
import { useAtomValue } from "../../../atom-react/hooks"
import { accountTokenBalancesAtom } from "../../../atoms/account"
import { WalletIcon } from "../../../components/WalletIcon/WalletIcon"
import { visitorError } from "../../errorText"
import { PanelLoading, PanelNote } from "../PanelStates/PanelStates"
import * as styles from "./Tokens.css"

const unsupported = (cause: unknown): boolean =>
  (cause as Partial<TokenBalanceUnavailable> | undefined)?.reason === "unsupportedNetwork"

function Total(props: { readonly value: number }): ReactNode {
  return (
    <p className={styles.total}>
      <span>Total</span>
      <span className={styles.totalValue}>{formatUsd(props.value)}</span>
    </p>
  )
}

function TokenRow(props: { readonly token: TokenBalance }): ReactNode {
  const { token } = props
  return (
    <li className={styles.row}>
      <WalletIcon name={token.symbol} src={token.iconUrl} size={36} round />
      <span className={styles.text}>
        <span className={styles.name}>{token.name}</span>
        <span className={styles.detail}>
          {formatAmount(token.quantity.numeric)} {token.symbol}
        </span>
      </span>
      <span className={styles.value}>{formatUsd(token.value ?? 0)}</span>
    </li>
  )
}

/** The Tokens tab's panel. */
export function Tokens(): ReactNode {
  const result = useAtomValue(accountTokenBalancesAtom)
  if (AsyncResult.isSuccess(result)) {
    const tokens = tokensByValue(result.value)
    return (
      <>
        <Total value={totalUsdValue(tokens)} />
        {tokens.length === 0 ? (
          <PanelNote>No tokens on this network yet.</PanelNote>
        ) : (
          <ul className={styles.list} aria-label="Tokens">
            {tokens.map((token) => (
              <TokenRow key={`${token.chainId}:${token.address ?? token.symbol}`} token={token} />
            ))}
          </ul>
        )}
      </>
    )
  }
  if (AsyncResult.isFailure(result) && !result.waiting) {
    const error = AsyncResult.error(result)
    const unsupportedNetwork = Option.isSome(error) && unsupported(error.value)
    return (
      <>
        <Total value={0} />
        <PanelNote status>
          {unsupportedNetwork ? "Token balances are not available on this network." : visitorError(result.cause).message}
        </PanelNote>
      </>
    )
  }
  return <PanelLoading label="Loading tokens" />
}
