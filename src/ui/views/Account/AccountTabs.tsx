/**
 * The Tokens / NFTs / Activity tabs of the account. Their contents come with the account-features release; until
 * then each panel says so (no made-up data). A WAI-ARIA tab list: arrow keys, Home and End move between tabs.
 */
import { type KeyboardEvent, type ReactNode, useId, useRef, useState } from "react"
import * as styles from "./Account.css"

const TABS = [
  { id: "tokens", label: "Tokens", coming: "Your tokens will be listed here in a coming release." },
  { id: "nfts", label: "NFTs", coming: "Your NFTs will be shown here in a coming release." },
  { id: "activity", label: "Activity", coming: "Your activity will be listed here in a coming release." }
] as const

/** The account's tabs. */
export function AccountTabs(): ReactNode {
  const [selected, setSelected] = useState(0)
  const baseId = useId()
  const tabRefs = useRef<Array<HTMLButtonElement | null>>([])
  const select = (index: number) => {
    setSelected(index)
    tabRefs.current[index]?.focus()
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
  const current = TABS[selected] ?? TABS[0]
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
        {current.coming}
      </div>
    </div>
  )
}
