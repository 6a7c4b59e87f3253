/**
 * Swap: sell one token for another on the account's network. Each side has a token button that opens a picker (the
 * swappable tokens with the visitor's balances, searched); the amount sold shows its USD value and has Max; the quote
 * (asked by the Swap service 300 ms after the last keystroke, and again every 15 s) shows the amount received, the
 * rate, the price impact, the network fee in USD and the minimum received after 1 % slippage. When the router may not
 * yet spend the token sold, Approve comes first; then Swap, followed to the chain's confirmation, and the result with
 * an explorer link — or what went wrong in the visitor's words.
 */
import { type FormEvent, type ReactNode, useEffect, useId, useState } from "react"
import { explorerHost } from "../../../domain/accountFeatures"
import { formatAmount, formatUnits, formatUsd, parseUnits } from "../../../domain/format"
import { searchSwapChoices, type SwapChoice, usdValueOf } from "../../../domain/swap"
import type { SwapState } from "../../../services/swapState"
import { useAtomSet, useAtomValue } from "../../atom-react/hooks"
import {
  approveSwapFn,
  chooseSwapTokenFn,
  flipSwapFn,
  makeSwapFn,
  prepareSwapFn,
  refreshSwapQuoteFn,
  resetSwapFn,
  setSwapAmountFn,
  swapAtom,
  swapMaxFn
} from "../../atoms/swap"
import { Button } from "../../components/Button/Button"
import * as buttonStyles from "../../components/Button/Button.css"
import { Icon } from "../../components/Icon/Icon"
import { Notice } from "../../components/Notice/Notice"
import { Spinner } from "../../components/Spinner/Spinner"
import { visuallyHidden } from "../../theme/theme.css"
import { visitorErrorOf } from "../errorText"
import * as sendStyles from "../Send/Send.css"
import type { ViewProps } from "../types"
import * as styles from "./Swap.css"

const amountOf = (units: bigint, token: SwapChoice) => `${formatAmount(formatUnits(units, token.decimals))} ${token.symbol}`

function ExplorerLink(props: { readonly url: string | undefined }): ReactNode {
  if (props.url === undefined) return null
  return (
    <a className={sendStyles.link} href={props.url} target="_blank" rel="noopener noreferrer">
      View on {explorerHost(props.url)}
      <span className={visuallyHidden}> (opens the explorer)</span>
    </a>
  )
}

/** The token picker of one side: a search over the swappable tokens, each with the visitor's balance. */
function TokenPicker(props: {
  readonly side: "from" | "to"
  readonly choices: ReadonlyArray<SwapChoice>
  readonly chosen: string | undefined
  readonly onDone: () => void
}): ReactNode {
  const [search, setSearch] = useState("")
  const choose = useAtomSet(chooseSwapTokenFn)
  const shown = searchSwapChoices(props.choices, search)
  const label = props.side === "from" ? "Token to sell" : "Token to receive"
  return (
    <div className={styles.picker} role="group" aria-label={label}>
      <input
        className={sendStyles.control}
        type="search"
        aria-label="Search tokens"
        placeholder="Search tokens"
        autoComplete="off"
        value={search}
        onChange={(event) => setSearch(event.target.value)}
      />
      {shown.length === 0 ? (
        <p className={sendStyles.hint}>No token matches “{search.trim()}”.</p>
      ) : (
        <ul className={styles.tokenList}>
          {shown.map((choice) => (
            <li key={choice.address}>
              <button
                type="button"
                className={styles.tokenOption}
                aria-pressed={choice.address === props.chosen}
                onClick={() => {
                  choose({ side: props.side, address: choice.address })
                  props.onDone()
                }}
              >
                <span className={styles.tokenName}>
                  {choice.symbol} <span className={sendStyles.hint}>{choice.name}</span>
                </span>
                <span className={styles.tokenBalance}>{amountOf(choice.balance, choice)}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  )
}

/** The token button of one side, opening its picker. */
function TokenButton(props: {
  readonly side: "from" | "to"
  readonly token: SwapChoice | undefined
  readonly open: boolean
  readonly onToggle: () => void
}): ReactNode {
  const what = props.side === "from" ? "Token to sell" : "Token to receive"
  return (
    <button type="button" className={styles.tokenButton} aria-expanded={props.open} aria-label={`${what}: ${props.token?.symbol ?? "none"}`} onClick={props.onToggle}>
      {props.token?.symbol ?? "Choose"}
      <Icon name="forward" size={14} />
    </button>
  )
}

/** The amount sold: typed by the visitor, filled by the service for Max (keyed by `filled`). */
function AmountField(props: { readonly state: SwapState; readonly token: SwapChoice | undefined; readonly id: string }): ReactNode {
  const { state, token, id } = props
  const [text, setText] = useState(state.amount)
  const setAmount = useAtomSet(setSwapAmountFn)
  const units = token === undefined ? undefined : parseUnits(text, token.decimals)
  const usd = units !== undefined && token !== undefined && token.priceUsd > 0 ? formatUsd(usdValueOf(units, token)) : undefined
  return (
    <>
      <input
        id={id}
        className={sendStyles.control}
        inputMode="decimal"
        autoComplete="off"
        placeholder="0.0"
        value={text}
        aria-invalid={state.amountIssue !== undefined}
        aria-describedby={`${id}-words`}
        onChange={(event) => {
          setText(event.target.value)
          setAmount(event.target.value)
        }}
      />
      {state.amountIssue !== undefined ? (
        <p id={`${id}-words`} className={sendStyles.problem}>
          {state.amountIssue}
        </p>
      ) : (
        <p id={`${id}-words`} className={sendStyles.hint}>
          {token === undefined ? "" : `Balance: ${amountOf(token.balance, token)}`}
          {usd !== undefined ? ` · ${usd}` : ""}
        </p>
      )}
    </>
  )
}

/** The quote's lines: rate, price impact, network fee, minimum received. */
function QuoteLines(props: { readonly state: SwapState; readonly to: SwapChoice }): ReactNode {
  const { quote } = props.state
  if (quote._tag !== "Ready") return null
  const { summary } = quote
  return (
    <dl className={sendStyles.summary} aria-label="Quote">
      <dt className={sendStyles.term}>Rate</dt>
      <dd className={sendStyles.value}>{summary.rate}</dd>
      <dt className={sendStyles.term}>Price impact</dt>
      <dd className={sendStyles.value}>{summary.priceImpactPercent < 0.01 ? "<0.01%" : `${summary.priceImpactPercent.toFixed(2)}%`}</dd>
      <dt className={sendStyles.term}>Network fee</dt>
      <dd className={sendStyles.value}>{summary.networkFeeUsd < 0.01 ? "<$0.01" : formatUsd(summary.networkFeeUsd)}</dd>
      <dt className={sendStyles.term}>Minimum received</dt>
      <dd className={sendStyles.value}>{amountOf(summary.minimumReceived, props.to)}</dd>
    </dl>
  )
}

/** The step under way or its end: waiting for the wallet or the chain, done with the explorer link, or failed. */
function StepStatus(props: { readonly state: SwapState }): ReactNode {
  const { step } = props.state
  const reset = useAtomSet(resetSwapFn)
  if (step._tag === "Approving" || step._tag === "Swapping") {
    const what = step._tag === "Approving" ? "approval" : "swap"
    return (
      <div className={sendStyles.status} role="status">
        <Spinner size={24} />
        <p className={sendStyles.hint}>{step.hash === undefined ? `Confirm the ${what} in your wallet` : `Waiting for the network to confirm the ${what}`}</p>
      </div>
    )
  }
  if (step._tag === "Done") {
    return (
      <div className={sendStyles.status} role="status">
        <span className={sendStyles.success}>
          <Icon name="check" size={32} />
        </span>
        <h3 className={sendStyles.headline}>Swap confirmed</h3>
        <p className={sendStyles.hint}>{step.summary}</p>
        <ExplorerLink url={step.explorerUrl} />
        <Button fullWidth onClick={() => reset(undefined)}>
          Swap again
        </Button>
      </div>
    )
  }
  if (step._tag === "Failed") {
    const words = visitorErrorOf(step.error)
    return (
      <>
        <Notice variant="error" title={words.heading}>
          {words.message}
        </Notice>
        <ExplorerLink url={step.explorerUrl} />
      </>
    )
  }
  return null
}

/** The Swap view. */
export function Swap(_props: ViewProps<"Swap">): ReactNode {
  const state = useAtomValue(swapAtom)
  const prepare = useAtomSet(prepareSwapFn)
  const flip = useAtomSet(flipSwapFn)
  const max = useAtomSet(swapMaxFn)
  const refresh = useAtomSet(refreshSwapQuoteFn)
  const approve = useAtomSet(approveSwapFn)
  const swap = useAtomSet(makeSwapFn)
  const amountId = useId()
  const [picking, setPicking] = useState<"from" | "to" | undefined>(undefined)
  useEffect(() => {
    prepare(undefined)
  }, [prepare])
  if (state === undefined || state.tokens._tag === "Idle" || (state.tokens._tag === "Loading" && state.choices.length === 0)) {
    return <Spinner size={24} label="Loading the tokens you can swap" />
  }
  if (state.caipAddress === undefined) return <Notice variant="info">Connect an EVM wallet to swap.</Notice>
  if (state.tokens._tag === "Failed") {
    const words = visitorErrorOf(state.tokens.error)
    return (
      <Notice variant="error" title={words.heading}>
        {words.message}
      </Notice>
    )
  }
  const from = state.choices.find((c) => c.address === state.from)
  const to = state.choices.find((c) => c.address === state.to)
  const { quote, step } = state
  const busy = step._tag === "Approving" || step._tag === "Swapping"
  const ready = quote._tag === "Ready" && state.amountIssue === undefined
  const needsApproval = ready && quote._tag === "Ready" && !quote.approved
  const submit = (event: FormEvent) => {
    event.preventDefault()
    if (!ready || busy) return
    if (needsApproval) approve(undefined)
    else swap(undefined)
  }
  const toggle = (side: "from" | "to") => setPicking((open) => (open === side ? undefined : side))
  const quoteFailure = quote._tag === "Failed" ? visitorErrorOf(quote.error) : undefined
  return (
    <form className={sendStyles.form} onSubmit={submit} noValidate aria-label="Swap">
      <div className={styles.side}>
        <label className={sendStyles.label} htmlFor={amountId}>
          You sell
        </label>
        <div className={styles.sideRow}>
          <TokenButton side="from" token={from} open={picking === "from"} onToggle={() => toggle("from")} />
          <Button variant="secondary" onClick={() => max(undefined)} disabled={busy}>
            Max
          </Button>
        </div>
        {picking === "from" && <TokenPicker side="from" choices={state.choices} chosen={state.from} onDone={() => setPicking(undefined)} />}
        <AmountField key={state.filled} state={state} token={from} id={amountId} />
      </div>
      <div className={styles.flipRow}>
        <Button variant="secondary" onClick={() => flip(undefined)} disabled={busy}>
          Switch tokens
        </Button>
      </div>
      <div className={styles.side}>
        <span className={sendStyles.label}>You receive</span>
        <div className={styles.sideRow}>
          <TokenButton side="to" token={to} open={picking === "to"} onToggle={() => toggle("to")} />
          <p className={styles.received} data-testid="swap-received" aria-live="polite">
            {quote._tag === "Ready" ? quote.summary.toText : quote._tag === "Loading" ? "…" : "0"}
          </p>
        </div>
        {picking === "to" && <TokenPicker side="to" choices={state.choices} chosen={state.to} onDone={() => setPicking(undefined)} />}
      </div>
      {quote._tag === "Loading" && <Spinner label="Getting a quote" />}
      {to !== undefined && <QuoteLines state={state} to={to} />}
      {quoteFailure !== undefined && (
        <Notice variant="error" title={quoteFailure.heading}>
          {quoteFailure.message}
        </Notice>
      )}
      <StepStatus state={state} />
      {step._tag !== "Done" && (
        <div className={sendStyles.actions}>
          {quote._tag === "Ready" && (
            <Button variant="secondary" onClick={() => refresh(undefined)} disabled={busy}>
              Refresh quote
            </Button>
          )}
          <button type="submit" className={buttonStyles.button.primary} disabled={!ready || busy} aria-busy={busy || undefined}>
            {busy && <Spinner />}
            {needsApproval && from !== undefined ? `Approve ${from.symbol}` : "Swap"}
          </button>
        </div>
      )}
    </form>
  )
}
