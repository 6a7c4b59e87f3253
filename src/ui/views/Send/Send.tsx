/**
 * Send: the form — what to send (the native coin, a token, or the NFT chosen in the NFTs tab), how much (with Max),
 * and to whom (an address, or on EVM a name the names endpoints resolve). Continue asks the Send service to check
 * every rule of spec 5 and the gas check against an estimated fee; what it finds wrong is said beside each field
 * (and on Solana as 'Please enter a valid amount and receiver address'); when all pass the review opens.
 */
import { type FormEvent, type ReactNode, useEffect, useId, useState } from "react"
import { formatAmount, formatUnits, formatUsd, parseUnits, truncateAddress } from "../../../domain/format"
import type { FungibleAsset, SendAsset } from "../../../domain/send"
import { chosenAsset, type SendState } from "../../../services/sendState"
import { useAtomSet, useAtomValue } from "../../atom-react/hooks"
import {
  chooseSendAssetFn,
  prepareSendFn,
  reloadSendFn,
  reviewSendFn,
  sendAtom,
  sendMaxFn,
  setSendAmountFn,
  setSendReceiverFn
} from "../../atoms/send"
import { Button } from "../../components/Button/Button"
import * as buttonStyles from "../../components/Button/Button.css"
import { Notice } from "../../components/Notice/Notice"
import { Spinner } from "../../components/Spinner/Spinner"
import type { ViewProps } from "../types"
import * as styles from "./Send.css"

const balanceText = (asset: FungibleAsset): string => `${formatAmount(formatUnits(asset.balance, asset.decimals))} ${asset.symbol}`

const optionText = (asset: SendAsset): string =>
  asset.kind === "nft" ? `${asset.name} (${asset.collection})` : `${asset.symbol} — ${balanceText(asset)}`

/** A field's words: its problem when it has one (announced), else its hint. */
function FieldWords(props: { readonly id: string; readonly problem: string | undefined; readonly hint?: ReactNode }): ReactNode {
  if (props.problem !== undefined) {
    return (
      <p id={props.id} className={styles.problem}>
        {props.problem}
      </p>
    )
  }
  return props.hint === undefined ? null : (
    <p id={props.id} className={styles.hint}>
      {props.hint}
    </p>
  )
}

function Picture(props: { readonly src: string | null }): ReactNode {
  const [failed, setFailed] = useState(false)
  if (props.src === null || failed) return <span className={styles.nftPicture} aria-hidden="true" />
  return <img className={styles.nftPicture} src={props.src} alt="" onError={() => setFailed(true)} />
}

/** The amount, typed by the visitor; filled again by the service for Max (the field is keyed by `filled`). */
function AmountField(props: { readonly state: SendState; readonly asset: FungibleAsset }): ReactNode {
  const { state, asset } = props
  const id = useId()
  const [text, setText] = useState(state.amount)
  const setAmount = useAtomSet(setSendAmountFn)
  const max = useAtomSet(sendMaxFn)
  const units = parseUnits(text, asset.decimals)
  const usd = units !== undefined && asset.priceUsd > 0 ? formatUsd(Number(formatUnits(units, asset.decimals)) * asset.priceUsd) : undefined
  const problem = state.checked ? state.issues.amount : undefined
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        Amount
      </label>
      <div className={styles.amountRow}>
        <input
          id={id}
          className={styles.control}
          inputMode="decimal"
          autoComplete="off"
          placeholder="0.0"
          value={text}
          aria-invalid={problem !== undefined}
          aria-describedby={`${id}-words`}
          onChange={(event) => {
            setText(event.target.value)
            setAmount(event.target.value)
          }}
        />
        <Button variant="secondary" busy={state.estimating} onClick={() => max(undefined)}>
          Max
        </Button>
      </div>
      <FieldWords
        id={`${id}-words`}
        problem={problem}
        hint={`Balance: ${balanceText(asset)}${usd !== undefined ? ` · ${usd}` : ""}`}
      />
    </div>
  )
}

/** The receiver, typed by the visitor; a name shows the address it points to. */
function ReceiverField(props: { readonly state: SendState }): ReactNode {
  const { state } = props
  const id = useId()
  const [text, setText] = useState(state.receiver)
  const setReceiver = useAtomSet(setSendReceiverFn)
  const evm = state.namespace === "eip155"
  const problem = state.checked ? state.issues.receiver : undefined
  const name = state.name
  const hint =
    name._tag === "Resolving" ? `Looking up ${name.name}…`
    : name._tag === "Resolved" ? `${name.name}: ${name.address}`
    : undefined
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        To
      </label>
      <input
        id={id}
        className={styles.control}
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        placeholder={evm ? "Address or name" : "Address"}
        value={text}
        aria-invalid={problem !== undefined}
        aria-describedby={`${id}-words`}
        onChange={(event) => {
          setText(event.target.value)
          setReceiver(event.target.value)
        }}
      />
      <FieldWords id={`${id}-words`} problem={problem} hint={hint} />
    </div>
  )
}

function AssetField(props: { readonly state: SendState; readonly asset: SendAsset | undefined }): ReactNode {
  const { state, asset } = props
  const id = useId()
  const choose = useAtomSet(chooseSendAssetFn)
  const problem = state.checked ? state.issues.token : undefined
  return (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={id}>
        Token
      </label>
      <select
        id={id}
        className={styles.control}
        value={state.chosen ?? ""}
        aria-invalid={problem !== undefined}
        aria-describedby={`${id}-words`}
        onChange={(event) => choose(event.target.value)}
      >
        {state.chosen === undefined && <option value="">Choose what to send</option>}
        {state.choices.map((choice) => (
          <option key={choice.id} value={choice.id}>
            {optionText(choice)}
          </option>
        ))}
      </select>
      <FieldWords id={`${id}-words`} problem={problem} />
      {asset?.kind === "nft" && (
        <div className={styles.nft}>
          <Picture src={asset.imageUrl} />
          <span className={styles.nftText}>
            <strong>{asset.name}</strong>
            <span className={styles.hint}>
              {asset.collection} · #{asset.tokenId} · {truncateAddress(asset.contract)}
            </span>
          </span>
        </div>
      )}
    </div>
  )
}

/** The Send view. */
export function Send(_props: ViewProps<"Send">): ReactNode {
  const state = useAtomValue(sendAtom)
  const prepare = useAtomSet(prepareSendFn)
  const reload = useAtomSet(reloadSendFn)
  const review = useAtomSet(reviewSendFn)
  // Opened another way than the account's Send button (a host's route), or for another account: a fresh form.
  useEffect(() => {
    prepare(undefined)
  }, [prepare])
  if (state === undefined || state.assets._tag === "Idle" || (state.assets._tag === "Loading" && state.choices.length === 0)) {
    return <Spinner size={24} label="Loading what you can send" />
  }
  if (state.caipAddress === undefined) return <Notice variant="info">Connect a wallet to send.</Notice>
  if (state.assets._tag === "Failed") {
    return (
      <Notice variant="error" title={state.assets.message}>
        <Button variant="secondary" onClick={() => reload(undefined)}>
          Try again
        </Button>
      </Notice>
    )
  }
  const asset = chosenAsset(state)
  const submit = (event: FormEvent) => {
    event.preventDefault()
    review(undefined)
  }
  const formProblem = state.checked ? state.issues.form : undefined
  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-label="Send">
      <AssetField state={state} asset={asset} />
      {asset !== undefined && asset.kind !== "nft" && <AmountField key={state.filled} state={state} asset={asset} />}
      <ReceiverField key={state.filled} state={state} />
      {formProblem !== undefined && <Notice variant="error">{formProblem}</Notice>}
      <button
        type="submit"
        className={[buttonStyles.button.primary, buttonStyles.fullWidth].join(" ")}
        disabled={state.estimating}
        aria-busy={state.estimating || undefined}
      >
        {state.estimating && <Spinner />}
        {state.estimating ? "Estimating the fee" : "Continue"}
      </button>
    </form>
  )
}
