/**
 * The NFTs tab: the NFTs the account holds on its network (spam left out), two per row with picture and name, more
 * as the grid's end comes into view; choosing one shows its details (picture, collection, token id, standard) and a
 * link to the explorer, and Send (when the host has it on) to send that NFT. A failed read says 'Failed to fetch NFTs'
 * with a retry.
 */
import * as AsyncResult from "effect/reactivity/AsyncResult"
import { type ReactNode, useCallback, useEffect, useRef, useState } from "react"
import type { Nft } from "../../../../domain/Portfolio"
import { explorerNftUrl } from "../../../../domain/portfolioView"
import { nftAssetOf } from "../../../../domain/accountFeatures"
import { useAtomSet, useAtomValue } from "../../../atom-react/hooks"
import { loadMoreNftsAtom, nftsAtom } from "../../../atoms/account"
import { activeNetworkAtom } from "../../../atoms/networks"
import { openSendFn } from "../../../atoms/send"
import { Button } from "../../../components/Button/Button"
import { useWalletRuntime } from "../../../react/context"
import { visuallyHidden } from "../../../theme/theme.css"
import { LoadMore } from "../LoadMore/LoadMore"
import { PanelFailure, PanelLoading, PanelNote } from "../PanelStates/PanelStates"
import * as styles from "./Nfts.css"

const keyOf = (nft: Nft) => `${nft.contract}/${nft.tokenId}`

function Picture(props: { readonly nft: Nft }): ReactNode {
  const [failed, setFailed] = useState(false)
  const src = props.nft.imageUrl
  if (src === null || failed) return <span className={styles.picture} aria-hidden="true" />
  return <img className={styles.picture} src={src} alt="" loading="lazy" onError={() => setFailed(true)} />
}

function Detail(props: { readonly nft: Nft; readonly explorerUrl: string | undefined; readonly onBack: () => void }): ReactNode {
  const { nft } = props
  const { options } = useWalletRuntime()
  const openSend = useAtomSet(openSendFn)
  const heading = useRef<HTMLHeadingElement>(null)
  // The detail replaces the card that had focus: focus goes to its heading, so the keyboard user is not lost.
  useEffect(() => heading.current?.focus(), [])
  const href = explorerNftUrl(props.explorerUrl, nft.contract, nft.tokenId)
  return (
    <section className={styles.detail} aria-labelledby={`${keyOf(nft)}-title`}>
      <Picture nft={nft} />
      <h4 id={`${keyOf(nft)}-title`} ref={heading} tabIndex={-1} className={styles.name}>
        {nft.name}
      </h4>
      <dl className={styles.facts}>
        <dt className={styles.term}>Collection</dt>
        <dd className={styles.value}>
          {nft.collection.name} ({nft.collection.symbol})
        </dd>
        <dt className={styles.term}>Token ID</dt>
        <dd className={styles.value}>{nft.tokenId}</dd>
        <dt className={styles.term}>Standard</dt>
        <dd className={styles.value}>{nft.standard.toUpperCase()}</dd>
      </dl>
      {href !== undefined && (
        <a className={styles.link} href={href} target="_blank" rel="noopener noreferrer">
          View on {props.explorerUrl?.replace(/^https?:\/\//, "").replace(/\/.*$/, "")}
          <span className={visuallyHidden}> (opens the explorer)</span>
        </a>
      )}
      {options.features.send && <Button onClick={() => openSend({ nft: nftAssetOf(nft) })}>Send</Button>}
      <Button variant="secondary" icon="back" onClick={props.onBack}>
        All NFTs
      </Button>
    </section>
  )
}

/** The NFTs tab's panel. */
export function Nfts(): ReactNode {
  const result = useAtomValue(nftsAtom)
  const network = useAtomValue(activeNetworkAtom)
  const setLoadMore = useAtomSet(loadMoreNftsAtom)
  const loadMore = useCallback(() => setLoadMore(undefined), [setLoadMore])
  const [chosen, setChosen] = useState<string | undefined>(undefined)
  const state = AsyncResult.getOrElse(result, () => undefined)
  if (state === undefined || (state.loading && state.items.length === 0)) {
    return <PanelLoading label="Loading NFTs" rows={2} />
  }
  if (state.error !== undefined) {
    return <PanelFailure message={state.error.message} onRetry={loadMore} />
  }
  const explorerUrl = network?.blockExplorers?.default.url
  const shown = state.items.find((nft) => keyOf(nft) === chosen)
  if (shown !== undefined) return <Detail nft={shown} explorerUrl={explorerUrl} onBack={() => setChosen(undefined)} />
  if (state.items.length === 0 && state.done) return <PanelNote>No NFTs on this network yet.</PanelNote>
  return (
    <>
      <ul className={styles.grid} aria-label="NFTs">
        {state.items.map((nft) => (
          <li key={keyOf(nft)}>
            <button type="button" className={styles.card} onClick={() => setChosen(keyOf(nft))} data-nft={keyOf(nft)}>
              <Picture nft={nft} />
              <span className={styles.name}>{nft.name}</span>
              <span className={styles.collection}>{nft.collection.name}</span>
            </button>
          </li>
        ))}
      </ul>
      <LoadMore state={state} loadMore={loadMore} label="Loading more NFTs" />
    </>
  )
}
