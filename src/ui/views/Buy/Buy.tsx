/**
 * Buy: crypto for fiat through the on-ramp provider. The visitor chooses what to buy (what the provider delivers on
 * the account's network) and the currency paid, types the amount within the provider's card limits, and sees the
 * quote (what arrives, the provider's fee, the network fee, the total). The provider's page opens in a new window;
 * meanwhile the view watches the balance: the purchase's arrival, or after a bound 'Not received yet' with Check again.
 */
import { type ReactNode, useEffect, useId, useState } from "react"
import { cardLimitsOf, purchasableOn } from "../../../domain/onramp"
import type { OnrampState } from "../../../services/onrampState"
import { useAtomSet, useAtomValue } from "../../atom-react/hooks"
import {
  chooseOnrampAssetFn,
  chooseOnrampCurrencyFn,
  onrampAtom,
  onrampCheckAgainFn,
  onrampStartedFn,
  prepareOnrampFn,
  setOnrampAmountFn
} from "../../atoms/onramp"
import { Button } from "../../components/Button/Button"
import * as buttonStyles from "../../components/Button/Button.css"
import { Icon } from "../../components/Icon/Icon"
import { Notice } from "../../components/Notice/Notice"
import { Spinner } from "../../components/Spinner/Spinner"
import { visuallyHidden } from "../../theme/theme.css"
import { visitorErrorOf } from "../errorText"
import * as sendStyles from "../Send/Send.css"
import type { ViewProps } from "../types"

/** The provider's name as the services give it, in a phrase ('Buy with Local On-ramp'); without one, 'the provider'. */
const providerOf = (state: OnrampState): string => state.options?.providerName ?? "the provider"

function Purchase(props: { readonly state: OnrampState }): ReactNode {
  const { purchase } = props.state
  const checkAgain = useAtomSet(onrampCheckAgainFn)
  if (purchase._tag === "Watching") {
    return (
      <div className={sendStyles.status} role="status">
        <Spinner size={24} />
        <h3 className={sendStyles.headline}>Waiting for your {purchase.symbol}</h3>
        <p className={sendStyles.hint}>Pay on {providerOf(props.state)}'s page; your purchase shows here when it reaches your wallet.</p>
      </div>
    )
  }
  if (purchase._tag === "Received") {
    return (
      <div className={sendStyles.status} role="status">
        <span className={sendStyles.success}>
          <Icon name="check" size={32} />
        </span>
        <h3 className={sendStyles.headline}>Purchase received</h3>
        <p className={sendStyles.hint}>
          +{purchase.amount.toLocaleString("en-US", { maximumFractionDigits: 6 })} {purchase.symbol} arrived in your wallet.
        </p>
      </div>
    )
  }
  if (purchase._tag === "NotReceived") {
    return (
      <div className={sendStyles.status} role="status">
        <h3 className={sendStyles.headline}>Not received yet</h3>
        <p className={sendStyles.hint}>Nothing has arrived so far. If you paid, it may still be on its way.</p>
        <Button variant="secondary" onClick={() => checkAgain(undefined)}>
          Check again
        </Button>
      </div>
    )
  }
  return null
}

/** The Buy view. */
export function Buy(_props: ViewProps<"Buy">): ReactNode {
  const state = useAtomValue(onrampAtom)
  const prepare = useAtomSet(prepareOnrampFn)
  const chooseAsset = useAtomSet(chooseOnrampAssetFn)
  const chooseCurrency = useAtomSet(chooseOnrampCurrencyFn)
  const setAmount = useAtomSet(setOnrampAmountFn)
  const started = useAtomSet(onrampStartedFn)
  const assetId = useId()
  const currencyId = useId()
  const amountId = useId()
  const [text, setText] = useState(state?.amount ?? "")
  useEffect(() => {
    prepare(undefined)
  }, [prepare])
  if (state === undefined || (state.caipAddress !== undefined && state.options === undefined)) {
    return <Spinner size={24} label="Loading what you can buy" />
  }
  if (state.caipAddress === undefined || state.network === undefined || state.options === undefined) {
    return <Notice variant="info">Connect a wallet to buy crypto.</Notice>
  }
  const offered = purchasableOn(state.options, state.network.caipNetworkId)
  if (offered.length === 0) return <Notice variant="info">Nothing can be bought on {state.network.name} here.</Notice>
  const limits = cardLimitsOf(state.options, state.currency)
  const { quote } = state
  const failure = quote._tag === "Failed" ? visitorErrorOf(quote.error) : undefined
  const fee = state.options.providerFeePercent
  const provider = providerOf(state)
  return (
    <div className={sendStyles.form}>
      <div className={sendStyles.field}>
        <label className={sendStyles.label} htmlFor={assetId}>
          Buy
        </label>
        <select id={assetId} className={sendStyles.control} value={state.asset ?? ""} onChange={(event) => chooseAsset(event.target.value)}>
          {offered.map((c) => (
            <option key={c.symbol} value={c.symbol}>
              {c.symbol} — {c.name}
            </option>
          ))}
        </select>
      </div>
      <div className={sendStyles.field}>
        <label className={sendStyles.label} htmlFor={currencyId}>
          Pay with
        </label>
        <select id={currencyId} className={sendStyles.control} value={state.currency} onChange={(event) => chooseCurrency(event.target.value)}>
          {state.options.paymentCurrencies.map((c) => (
            <option key={c.id} value={c.id}>
              {c.id}
            </option>
          ))}
        </select>
      </div>
      <div className={sendStyles.field}>
        <label className={sendStyles.label} htmlFor={amountId}>
          Amount
        </label>
        <input
          id={amountId}
          className={sendStyles.control}
          inputMode="decimal"
          autoComplete="off"
          placeholder={`${limits.min}`}
          value={text}
          aria-invalid={state.amountIssue !== undefined}
          aria-describedby={`${amountId}-words`}
          onChange={(event) => {
            setText(event.target.value)
            setAmount(event.target.value)
          }}
        />
        <p id={`${amountId}-words`} className={state.amountIssue === undefined ? sendStyles.hint : sendStyles.problem}>
          {state.amountIssue ??
            `By card, ${limits.min} to ${limits.max.toLocaleString("en-US")} ${state.currency}; provider fee ${fee.min}–${fee.max}%.`}
        </p>
      </div>
      {quote._tag === "Loading" && <Spinner label="Getting a quote" />}
      {quote._tag === "Ready" && (
        <>
          <dl className={sendStyles.summary} aria-label="Quote">
            {state.options.providerName !== undefined && (
              <>
                <dt className={sendStyles.term}>Provider</dt>
                <dd className={sendStyles.value}>{state.options.providerName}</dd>
              </>
            )}
            <dt className={sendStyles.term}>You receive</dt>
            <dd className={sendStyles.value}>
              {quote.quote.purchaseAmount.amount} {quote.quote.purchaseAmount.currency}
            </dd>
            <dt className={sendStyles.term}>Provider fee</dt>
            <dd className={sendStyles.value}>
              {quote.quote.providerFee.amount} {quote.quote.providerFee.currency}
            </dd>
            <dt className={sendStyles.term}>Network fee</dt>
            <dd className={sendStyles.value}>
              {quote.quote.networkFee.amount} {quote.quote.networkFee.currency}
            </dd>
            <dt className={sendStyles.term}>You pay</dt>
            <dd className={sendStyles.value}>
              {quote.quote.paymentTotal.amount} {quote.quote.paymentTotal.currency}
            </dd>
          </dl>
          {state.purchase._tag !== "Watching" && (
            <a
              className={[buttonStyles.button.primary, buttonStyles.fullWidth].join(" ")}
              href={quote.url}
              target="_blank"
              rel="noopener noreferrer"
              onClick={() => started(undefined)}
            >
              Buy with {provider}
              <span className={visuallyHidden}> (opens in a new window)</span>
            </a>
          )}
        </>
      )}
      {failure !== undefined && (
        <Notice variant="error" title={failure.heading}>
          {failure.message}
        </Notice>
      )}
      <Purchase state={state} />
    </div>
  )
}
