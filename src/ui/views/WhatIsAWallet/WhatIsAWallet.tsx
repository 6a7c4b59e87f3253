/**
 * "What is a wallet?": for a visitor who has none yet — what a wallet is for, in three short points, and a way to get
 * one (the full list of wallets, where each leads to its own download page).
 */
import type { ReactNode } from "react"
import { useAtomSet } from "../../atom-react/hooks"
import { pushRouteFn } from "../../atoms/modal"
import { Button } from "../../components/Button/Button"
import { Icon, type IconName } from "../../components/Icon/Icon"
import type { ViewProps } from "../types"
import * as styles from "./WhatIsAWallet.css"

const POINTS: ReadonlyArray<{ readonly icon: IconName; readonly heading: string; readonly text: string }> = [
  {
    icon: "wallet",
    heading: "A home for your digital assets",
    text: "A wallet holds your tokens and collectibles, and shows what you own on each network."
  },
  {
    icon: "key",
    heading: "Yours alone",
    text: "Only you hold its keys. Nobody, this site included, can move your assets without your approval in the wallet."
  },
  {
    icon: "signIn",
    heading: "A new way to sign in",
    text: "Instead of a new account and password for every site, connect your wallet and approve in it."
  }
]

/** The WhatIsAWallet view. */
export function WhatIsAWallet(_props: ViewProps<"WhatIsAWallet">): ReactNode {
  const push = useAtomSet(pushRouteFn)
  return (
    <>
      <ul className={styles.points}>
        {POINTS.map((point) => (
          <li key={point.heading} className={styles.point}>
            <span className={styles.mark}>
              <Icon name={point.icon} size={20} />
            </span>
            <div>
              <h3 className={styles.heading}>{point.heading}</h3>
              <p className={styles.text}>{point.text}</p>
            </div>
          </li>
        ))}
      </ul>
      <Button fullWidth onClick={() => push({ view: "AllWallets" })}>
        Get a wallet
      </Button>
    </>
  )
}
