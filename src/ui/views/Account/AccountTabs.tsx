/**
 * The Tokens / NFTs / Activity tabs of the account, a WAI-ARIA tab list: arrow keys, Home and End move between tabs.
 * Each panel's code is its own chunk, fetched once the Account view is shown (the first click never pays for it),
 * and shown the moment it arrives: our own loader rather than `React.lazy`, whose Suspense fallback, once shown,
 * holds the panel back for React's reveal throttle.
 */
import { type ComponentType, type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from "react"
import { useAtomSet } from "../../atom-react/hooks"
import { recordEventFn } from "../../atoms/analytics"
import { lazyPart, useLazyPart } from "../../components/lazyPart"
import { PanelLoading } from "./PanelStates/PanelStates"
import * as styles from "./Account.css"

const ALL_TABS = [
  { id: "tokens", label: "Tokens", panel: lazyPart<ComponentType>(() => import("./Tokens/Tokens").then((module) => module.Tokens)) },
  { id: "nfts", label: "NFTs", panel: lazyPart<ComponentType>(() => import("./Nfts/Nfts").then((module) => module.Nfts)) },
  { id: "activity", label: "Activity", panel: lazyPart<ComponentType>(() => import("./Activity/Activity").then((module) => module.Activity)) }
] as const
// `features.history` off: no Activity tab, and its code is never fetched.
const TABS_WITHOUT_HISTORY = ALL_TABS.filter((tab) => tab.id !== "activity")

/** The selected panel, once its code is there (a failed fetch is tried again when the tab is chosen again). */
function Panel(props: { readonly tab: (typeof ALL_TABS)[number] }): ReactNode {
  const Loaded = useLazyPart(props.tab.panel)
  return Loaded === undefined ? <PanelLoading label={`Loading ${props.tab.label}`} rows={2} /> : <Loaded />
}

/** The account's tabs; Activity only when the host's `features.history` is on. */
export function AccountTabs(props: { readonly history: boolean }): ReactNode {
  const TABS = props.history ? ALL_TABS : TABS_WITHOUT_HISTORY
  const [selected, setSelected] = useState(0)
  const baseId = useId()
  const tabRefs = useRef<Array<HTMLButtonElement | null>>([])
  const record = useAtomSet(recordEventFn)
  // The other panels' code comes once the account is shown, so choosing a tab shows it at once.
  useEffect(() => {
    for (const tab of TABS) void tab.panel.load().catch(() => {})
  }, [TABS])
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
  const current = TABS[selected] ?? ALL_TABS[0]
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
        <Panel key={current.id} tab={current} />
      </div>
    </div>
  )
}
