/**
 * AllWallets: every wallet the visitor can choose — the browser's own first, then the catalogue's — with a search
 * (trimmed, case-insensitive). The list is virtual: only the rows in view (and a few around) are in the page, so
 * it stays smooth with thousands of wallets. One row is a Tab stop; the arrow keys, Home and End move between rows.
 */
import { observeElementRect, useVirtualizer, type Virtualizer } from "@tanstack/react-virtual"
import { type KeyboardEvent, type ReactNode, useEffect, useId, useMemo, useRef, useState } from "react"
import type { ConnectorInfo, WalletCatalogEntry } from "../../../domain/Wallet"
import { useAtomValue } from "../../atom-react/hooks"
import { connectorsAtom } from "../../atoms/connection"
import { Icon } from "../../components/Icon/Icon"
import { ListItem } from "../../components/ListItem/ListItem"
import { useModalNavigation } from "../../components/Modal/navigation"
import { WalletIcon } from "../../components/WalletIcon/WalletIcon"
import { visuallyHidden } from "../../theme/theme.css"
import type { ViewProps } from "../registry"
import { connectorEntry, routeOf, searchEntries, type WalletEntry, walletEntry } from "../walletEntries"
import * as styles from "./AllWallets.css"
import { catalogueWalletsAtom } from "./catalogue"

const INITIAL_RECT = { width: 320, height: styles.LIST_HEIGHT_PX }

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

/** The browser's wallets, then the catalogue's not already listed (a catalogue wallet installed here is merged). */
const allEntries = (
  connectors: ReadonlyArray<ConnectorInfo>,
  catalogue: ReadonlyArray<WalletCatalogEntry>
): ReadonlyArray<WalletEntry> => {
  const byKey = new Map<string, WalletEntry>()
  for (const connector of connectors) {
    const entry = connectorEntry(connector)
    if (!byKey.has(entry.key)) byKey.set(entry.key, entry)
  }
  for (const wallet of catalogue) {
    const entry = walletEntry(wallet, connectors)
    const listed = byKey.get(entry.key)
    if (listed === undefined) byKey.set(entry.key, entry)
    else if (listed.wallet === undefined) byKey.set(entry.key, { ...listed, wallet })
  }
  return [...byKey.values()]
}

/** The AllWallets view. */
export function AllWallets(_props: ViewProps): ReactNode {
  const connectors = useAtomValue(connectorsAtom)
  const catalogue = useAtomValue(catalogueWalletsAtom)
  const navigation = useModalNavigation()
  const [search, setSearch] = useState("")
  const searchId = useId()
  const entries = useMemo(() => allEntries(connectors, catalogue), [connectors, catalogue])
  const rows = useMemo(() => searchEntries(entries, search), [entries, search])

  const scrollerRef = useRef<HTMLDivElement>(null)
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollerRef.current,
    estimateSize: () => styles.ROW_HEIGHT_PX,
    overscan: 6,
    initialRect: INITIAL_RECT,
    observeElementRect: observeRect
  })
  const items = virtualizer.getVirtualItems()

  // The row that is the list's Tab stop; it must be one of the rows in the page, or Tab would skip the list.
  const [active, setActive] = useState(0)
  const tabStop = items.some((item) => item.index === active) ? active : (items[0]?.index ?? 0)
  useEffect(() => setActive(0), [search])

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

  const open = (entry: WalletEntry) => void navigation.push("ConnectingExternal", routeOf(entry))

  return (
    <>
      <label className={styles.searchBox} htmlFor={searchId}>
        <Icon name="search" size={18} />
        <span className={visuallyHidden}>Search wallets</span>
        <input
          id={searchId}
          className={styles.searchInput}
          type="search"
          placeholder="Search wallet"
          autoComplete="off"
          spellCheck={false}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === "ArrowDown" && rows.length > 0) {
              event.preventDefault()
              moveTo(tabStop)
            }
          }}
        />
      </label>
      <p className={visuallyHidden} role="status" aria-live="polite">
        {rows.length === 1 ? "1 wallet" : `${rows.length} wallets`}
      </p>
      {rows.length === 0 ? (
        <p className={styles.empty}>No wallet matches “{search.trim()}”.</p>
      ) : (
        <div ref={scrollerRef} className={styles.scroller} onKeyDown={onListKeyDown}>
          <div className={styles.inner} role="list" aria-label="Wallets" style={{ height: virtualizer.getTotalSize() }}>
            {items.map((item) => {
              const entry = rows[item.index]
              if (entry === undefined) return null
              return (
                <div
                  key={entry.key}
                  role="listitem"
                  aria-setsize={rows.length}
                  aria-posinset={item.index + 1}
                  className={styles.row}
                  style={{ transform: `translateY(${item.start}px)` }}
                >
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
    </>
  )
}
