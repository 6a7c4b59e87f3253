/**
 * AllWallets: every wallet the visitor can choose — the browser's own first, then the catalogue's, page after page
 * as the list scrolls — with a search (the catalogue trims it and waits 300 ms before asking). The list is
 * virtual: only the rows in view (and a few around) are in the page, so it stays smooth with thousands of
 * wallets. One row is a Tab stop; the arrow keys, Page Up/Down, Home and End move between rows.
 */
import { observeElementRect, useVirtualizer, type Virtualizer } from "@tanstack/react-virtual"
import type { WalletListing } from "../../../services/WalletCatalog"
import { type KeyboardEvent, type ReactNode, useEffect, useId, useMemo, useRef, useState } from "react"
import { useAtomSet, useAtomValue } from "../../atom-react/hooks"
import { chooseWalletFn, connectorsAtom } from "../../atoms/connection"
import { loadMoreWalletsFn, searchWalletsFn, walletListAtom, walletSearchAtom } from "../../atoms/wallets"
import { Button } from "../../components/Button/Button"
import { Icon } from "../../components/Icon/Icon"
import { ListItem } from "../../components/ListItem/ListItem"
import { Notice } from "../../components/Notice/Notice"
import { Spinner } from "../../components/Spinner/Spinner"
import { WalletIcon } from "../../components/WalletIcon/WalletIcon"
import { visuallyHidden } from "../../theme/theme.css"
import type { ViewProps } from "../types"
import { choiceOf, connectorEntry, installedConnectors, listingEntry, searchEntries, type WalletEntry } from "../walletEntries"
import * as styles from "./AllWallets.css"

const INITIAL_RECT = { width: 320, height: styles.LIST_HEIGHT_PX }

/** The next page is asked for when the window comes this close to the last loaded row. */
const LOAD_AHEAD_ROWS = 10

// Before layout (or where nothing is laid out) the list measures 0 high and would show no row: its CSS height is
// known, so that is used instead.
const observeRect = (instance: Virtualizer<HTMLDivElement, Element>, onRect: (rect: { width: number; height: number }) => void) =>
  observeElementRect(instance, (rect) => onRect(rect.height > 0 ? rect : INITIAL_RECT))

const KEY_MOVES: Readonly<Record<string, (index: number, count: number) => number>> = {
  ArrowDown: (index, count) => Math.min(index + 1, count - 1),
  ArrowUp: (index) => Math.max(index - 1, 0),
  PageDown: (index, count) => Math.min(index + 6, count - 1),
  PageUp: (index) => Math.max(index - 6, 0),
  Home: () => 0,
  End: (_index, count) => count - 1
}

/** Rows listed once: the first row of a wallet wins. */
const distinct = (entries: ReadonlyArray<WalletEntry>): ReadonlyArray<WalletEntry> => {
  const seen = new Set<string>()
  return entries.filter((entry) => !seen.has(entry.key) && (seen.add(entry.key), true))
}

const wallets = (count: number): string => (count === 1 ? "1 wallet" : `${count.toLocaleString("en-US")} wallets`)

/** The AllWallets view. */
export function AllWallets(_props: ViewProps<"AllWallets">): ReactNode {
  const connectors = useAtomValue(connectorsAtom)
  // Reading the list starts the catalogue's first page; reading the search follows its answers.
  const list = useAtomValue(walletListAtom)
  const search = useAtomValue(walletSearchAtom)
  const loadMore = useAtomSet(loadMoreWalletsFn)
  const setQuery = useAtomSet(searchWalletsFn)
  const choose = useAtomSet(chooseWalletFn)
  const [input, setInput] = useState(search.input)
  const query = input.trim()
  const searchId = useId()

  const installed = useMemo(() => installedConnectors(connectors).map(connectorEntry), [connectors])
  const rows = useMemo(() => {
    const entry = (listing: WalletListing) => listingEntry(listing, connectors)
    return query === ""
      ? distinct([...installed, ...list.wallets.map(entry)])
      : distinct([...searchEntries(installed, query), ...(search.query === query ? search.results.map(entry) : [])])
  }, [connectors, installed, list.wallets, query, search.query, search.results])
  const searching = query !== "" && (search.loading || search.query !== query)
  const paging = query === "" && (list.hasMore || list.loading)
  // The whole list's size before every page is here: the browser's wallets once each (500 announced alike are one
  // row), plus the catalogue's count less the catalogue wallets already counted as installed.
  const total = useMemo(() => {
    if (query !== "") return rows.length
    const installedKeys = new Set(installed.map((entry) => entry.key))
    const counted = list.wallets.filter((listing) => installedKeys.has(listingEntry(listing, connectors).key)).length
    return Math.max(rows.length, installedKeys.size + list.count - counted)
  }, [connectors, installed, list.count, list.wallets, query, rows.length])

  const scrollerRef = useRef<HTMLDivElement>(null)
  const virtualizer = useVirtualizer({
    // One more row while pages are still to come: it shows the loading and asks for the next page.
    count: rows.length + (paging ? 1 : 0),
    getScrollElement: () => scrollerRef.current,
    estimateSize: () => styles.ROW_HEIGHT_PX,
    overscan: 6,
    initialRect: INITIAL_RECT,
    observeElementRect: observeRect
  })
  const items = virtualizer.getVirtualItems()

  const lastShown = items[items.length - 1]?.index ?? 0
  const wantsMore = paging && !list.loading && list.error === undefined && lastShown >= rows.length - LOAD_AHEAD_ROWS
  useEffect(() => {
    if (wantsMore) loadMore(undefined)
  }, [wantsMore, loadMore])

  // The row that is the list's Tab stop; it must be one of the rows in the page, or Tab would skip the list.
  const [active, setActive] = useState(0)
  const shownRows = items.filter((item) => item.index < rows.length)
  const tabStop = shownRows.some((item) => item.index === active) ? active : (shownRows[0]?.index ?? 0)
  useEffect(() => setActive(0), [query])

  // A row asked for by the keyboard but not in the page yet gets focus once the window has scrolled to it.
  const focusPending = useRef<number | undefined>(undefined)
  const rowElement = (index: number) => scrollerRef.current?.querySelector<HTMLElement>(`[data-index="${index}"]`) ?? undefined
  useEffect(() => {
    if (focusPending.current === undefined) return
    const row = rowElement(focusPending.current)
    if (row === undefined) return
    focusPending.current = undefined
    row.focus()
  })

  const moveTo = (index: number) => {
    setActive(index)
    virtualizer.scrollToIndex(index)
    const row = rowElement(index)
    if (row !== undefined) row.focus()
    else focusPending.current = index
  }

  const onListKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const move = KEY_MOVES[event.key]
    if (move === undefined || rows.length === 0) return
    event.preventDefault()
    moveTo(move(tabStop, rows.length))
  }

  const open = (entry: WalletEntry) => choose(choiceOf(entry))

  return (
    <>
      <label className={styles.searchBox} htmlFor={searchId}>
        <Icon name="search" size={18} />
        <span className={visuallyHidden}>Search wallets</span>
        <input
          id={searchId}
          className={styles.searchInput}
          type="search"
          placeholder="Search wallets"
          autoComplete="off"
          spellCheck={false}
          value={input}
          onChange={(event) => {
            setInput(event.target.value)
            setQuery(event.target.value)
          }}
          onKeyDown={(event) => {
            if (event.key === "ArrowDown" && rows.length > 0) {
              event.preventDefault()
              moveTo(tabStop)
            }
          }}
        />
        {searching && <Spinner label="Searching" />}
      </label>
      {list.offline && query === "" && (
        <Notice variant="info">The wallet directory cannot be reached: showing the wallets known to this site.</Notice>
      )}
      <p className={visuallyHidden} role="status" aria-live="polite">
        {searching ? "Searching" : wallets(total)}
      </p>
      {rows.length === 0 && !searching && !paging ? (
        <p className={styles.empty}>{query === "" ? "No wallet to show." : `No wallet matches “${query}”.`}</p>
      ) : (
        <div ref={scrollerRef} className={styles.scroller} onKeyDown={onListKeyDown}>
          <div className={styles.inner} role="list" aria-label="Wallets" aria-busy={searching || list.loading} style={{ height: virtualizer.getTotalSize() }}>
            {items.map((item) => {
              const entry = rows[item.index]
              const place = { className: styles.row, style: { transform: `translateY(${item.start}px)` } }
              if (entry === undefined) {
                return (
                  <div key="more" {...place} className={`${styles.row} ${styles.more}`}>
                    {list.error !== undefined ? (
                      <Button variant="secondary" onClick={() => loadMore(undefined)}>
                        Load more wallets
                      </Button>
                    ) : (
                      <Spinner label="Loading more wallets" />
                    )}
                  </div>
                )
              }
              return (
                <div key={entry.key} role="listitem" aria-setsize={total} aria-posinset={item.index + 1} {...place}>
                  <ListItem
                    index={item.index}
                    tabIndex={item.index === tabStop ? 0 : -1}
                    onFocus={() => setActive(item.index)}
                    icon={<WalletIcon name={entry.name} src={entry.imageUrl} />}
                    label={entry.name}
                    tag={entry.installed ? "Installed" : undefined}
                    onClick={() => open(entry)}
                  />
                </div>
              )
            })}
          </div>
        </div>
      )}
      {list.error !== undefined && query === "" && <Notice variant="error">{list.error}</Notice>}
    </>
  )
}
