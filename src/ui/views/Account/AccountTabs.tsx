/**
 * The Tokens / NFTs / Activity tabs of the account, a WAI-ARIA tab list: arrow keys, Home and End move between tabs.
 * Each panel's code is its own chunk, fetched when its tab is first shown, so the first click never pays for it.
 */
import { type ComponentType, type KeyboardEvent, lazy, type ReactNode, Suspense, useId, useRef, useState } from "react"
import { useAtomSet } from "../../atom-react/hooks"
import { recordEventFn } from "../../atoms/analytics"
import { ListItemSkeleton } from "../../components/ListItem/ListItem"
import * as styles from "./Account.css"

const Tokens = lazy(() => import("./Tokens/Tokens").then((module) => ({ default: module.Tokens })))
const Nfts = lazy(() => import("./Nfts/Nfts").then((module) => ({ default: module.Nfts })))
const Activity = lazy(() => import("./Activity/Activity").then((module) => ({ default: module.Activity })))

const TABS: ReadonlyArray<{ readonly id: string; readonly label: string; readonly Panel: ComponentType }> = [
  { id: "tokens", label: "Tokens", Panel: Tokens },
  { id: "nfts", label: "NFTs", Panel: Nfts },
  { id: "activity", label: "Activity", Panel: Activity }
]

/** What shows while a panel's code arrives. */
function PanelLoading(): ReactNode {
  return (
    <div aria-busy="true">
      <ListItemSkeleton />
      <ListItemSkeleton />
    </div>
  )
}

/** The account's tabs. */
export function AccountTabs(): ReactNode {
  const [selected, setSelected] = useState(0)
  const baseId = useId()
  const tabRefs = useRef<Array<HTMLButtonElement | null>>([])
  const record = useAtomSet(recordEventFn)
  const select = (index: number) => {
    setSelected(index)
    tabRefs.current[index]?.focus()
    const tab = TABS[index]
    if (tab !== undefined && index !== selected) record({ name: "VIEW_TAB", properties: { tab: tab.id } })
  }
  const onKeyDown = (event: KeyboardEvent) => {
    const last = TABS.length - 1
    const next =
      event.key === "ArrowRight" ? (selected === last ? 0 : selected + 1)
      : event.key === "ArrowLeft" ? (selected === 0 ? last : selected - 1)
      : event.key === "Home" ? 0
      : event.key === "End" ? last
      : undefined
    if (next === undefined) return
    event.preventDefault()
    select(next)
  }
  const current = TABS[selected] ?? TABS[0]!
  return (
    <div>
      <div className={styles.tabs} role="tablist" aria-label="Account details" onKeyDown={onKeyDown}>
        {TABS.map((tab, index) => (
          <button
            key={tab.id}
            ref={(element) => {
              tabRefs.current[index] = element
            }}
            type="button"
            role="tab"
            id={`${baseId}-${tab.id}-tab`}
            aria-selected={index === selected}
            aria-controls={`${baseId}-${tab.id}-panel`}
            tabIndex={index === selected ? 0 : -1}
            className={styles.tab}
            onClick={() => select(index)}
          >
            {tab.label}
          </button>
        ))}
      </div>
      <div
        className={styles.panel}
        role="tabpanel"
        id={`${baseId}-${current.id}-panel`}
        aria-labelledby={`${baseId}-${current.id}-tab`}
      >
        <Suspense fallback={<PanelLoading />}>
          <current.Panel />
        </Suspense>
      </div>
    </div>
  )
}
