/**
 * Connect: the wallets the visitor can use, in the order of spec point 9 (WalletConnect, recent, installed and
 * announced — a wallet reachable in several families is one row —, featured — the host's featured wallets among the
 * catalogue's 4 —, the host's custom wallets, external, recommended — the rest of the catalogue's 4), or in the
 * host's `features.connectorTypeOrder`; each wallet is listed once; installed wallets are marked; "All wallets" leads
 * to the full list. Choosing a row hands it to the connect flow. When the host offers email login, "Continue with email"
 * comes before or after the wallets by the connect-method order (wallet first for a visitor with an installed wallet,
 * unless the host's `features.connectMethodsOrder` says otherwise); the embedded wallet takes a well-formed address
 * from there; with `features.passkey`, "Continue with a passkey" (and "Create a passkey") follows it in its place.
 * Beside email, the host may fold the wallets into one "Continue with a wallet" row
 * (`features.collapseWallets`, or `features.emailShowWallets: false`) that opens them unfolded (Back folds them). With
 * `features.legalCheckbox` and a Terms or Privacy link, the visitor ticks "I agree…" before any way to connect can be
 * used.
 */
import { Fragment, type ReactNode, useContext, useEffect, useRef } from "react"
import type { SocialLogin } from "../../../domain/Account"
import { type ConnectMethod, type ConnectorGroup, FEATURED_WALLETS_COUNT } from "../../../domain/constants"
import { connectorGroupOrder, orderConnectMethods, orderConnectors } from "../../../domain/rules"
import { useAtom, useAtomSet, useAtomValue } from "../../atom-react/hooks"
import { chooseWalletFn, connectionAtom, connectorsAtom, connectorsStateAtom, preloadWalletConnectFn } from "../../atoms/connection"
import { embeddedAtom, submitEmailFn } from "../../atoms/embedded"
import { legalAgreedAtom, pushRouteFn } from "../../atoms/modal"
import { isMobileAtom, miniAppAtom } from "../../atoms/platform"
import { offeredSocials } from "../../../domain/validation"
import * as socialStyles from "../SocialLogin/SocialLogin.css"
import {
  customWalletsAtom,
  featuredNotAskedAtom,
  featuredPendingAheadAtom,
  featuredWalletsAtom,
  featuredWalletsPendingAtom
} from "../../atoms/wallets"
import { Icon } from "../../components/Icon/Icon"
import { LaidOutAhead } from "../../components/laidOutAhead"
import { lazyPart, useLazyPart } from "../../components/lazyPart"
import { LIST_ITEM_ATTRIBUTE, ListItem, ListItemSkeleton, onListKeyDown } from "../../components/ListItem/ListItem"
import * as listStyles from "../../components/ListItem/ListItem.css"
import { Notice } from "../../components/Notice/Notice"
import { Spinner } from "../../components/Spinner/Spinner"
import { WalletIcon } from "../../components/WalletIcon/WalletIcon"
import { useWalletRuntime } from "../../react/context"
import { EmailForm } from "../EmailLogin/EmailForm"
import * as emailStyles from "../EmailLogin/EmailLogin.css"
import type { ViewProps } from "../types"
import { choiceOf, connectorEntry, connectorsReported, installedConnectors, listingEntry, type WalletEntry, walletEntry } from "../walletEntries"
import * as styles from "./Connect.css"

/** Installed wallets listed here at most; the rest are in All wallets. */
const INSTALLED_SHOWN = 8

/**
 * The social logins' code (their buttons and marks) comes when the modal shows them, not with the page's first click:
 * until it is there (a few milliseconds) its place is held by blank buttons of the same size.
 */
const socialLogin = lazyPart(() => import("../SocialLogin/SocialLogin").then((module) => module.SocialLogin))

/** How many icon buttons sit under the wide one (kept equal to SocialLogin's SOCIAL_ICONS_VISIBLE). */
const SOCIAL_ICONS_HELD = 4

function SocialSection(props: { readonly providers: ReadonlyArray<SocialLogin>; readonly disabled: boolean; readonly ahead: boolean }): ReactNode {
  const SocialLogin = useLazyPart(socialLogin, props.ahead)
  if (SocialLogin !== undefined) return <SocialLogin providers={props.providers} disabled={props.disabled} />
  const icons = Math.min(props.providers.length - 1, SOCIAL_ICONS_HELD)
  return (
    <div className={socialStyles.section} aria-hidden="true">
      <div className={socialStyles.held} />
      {icons > 0 && (
        <div className={socialStyles.row}>
          {Array.from({ length: icons }, (_, index) => (
            <div key={index} className={socialStyles.heldIcon} />
          ))}
        </div>
      )}
    </div>
  )
}

/** The passkey buttons' code comes as the social logins' does: their places held by blank ones of the same size. */
const passkeyLogin = lazyPart(() => import("../PasskeyLogin/PasskeyLogin").then((module) => module.PasskeyLogin))

function PasskeySection(props: { readonly disabled: boolean; readonly ahead: boolean }): ReactNode {
  const PasskeyLogin = useLazyPart(passkeyLogin, props.ahead)
  if (PasskeyLogin !== undefined) return <PasskeyLogin disabled={props.disabled} />
  return (
    <div className={socialStyles.section} aria-hidden="true">
      <div className={socialStyles.held} />
      <p className={`${styles.footnote} ${styles.heldLine}`}>New here? Create a passkey</p>
    </div>
  )
}

/** The Connect view. */
export function Connect(props: ViewProps<"Connect">): ReactNode {
  const { options } = useWalletRuntime()
  const connectors = useAtomValue(connectorsAtom)
  const loaded = useAtomValue(connectorsStateAtom, connectorsReported)
  const recent = useAtomValue(connectionAtom, (state) => state.recentWallets)
  // Reading these starts the catalogue's first fetch: the modal is open, the visitor asked for wallets. Laid out
  // ahead of the click, the view holds the catalogue's places instead and asks nothing.
  const ahead = useContext(LaidOutAhead)
  const featured = useAtomValue(ahead ? featuredNotAskedAtom : featuredWalletsAtom)
  const featuredPending = useAtomValue(ahead ? featuredPendingAheadAtom : featuredWalletsPendingAtom)
  const custom = useAtomValue(ahead ? featuredNotAskedAtom : customWalletsAtom)
  const isMobile = useAtomValue(isMobileAtom)
  const choose = useAtomSet(chooseWalletFn)
  const preloadWalletConnectNow = useAtomSet(preloadWalletConnectFn)
  const preloadWalletConnect = () => preloadWalletConnectNow(undefined)
  const push = useAtomSet(pushRouteFn)
  const embedded = useAtomValue(embeddedAtom)
  const submitEmail = useAtomSet(submitEmailFn)
  const miniApp = useAtomValue(miniAppAtom)
  const [agreed, setAgreed] = useAtom(legalAgreedAtom)
  const unfolded = props.route.wallets === "unfolded"
  const walletListRef = useRef<HTMLDivElement>(null)
  // Unfolded by the visitor: the first wallet takes the focus (not the agreement above, already ticked to get here).
  useEffect(() => {
    if (unfolded) walletListRef.current?.querySelector<HTMLElement>(`[${LIST_ITEM_ATTRIBUTE}]:not(:disabled)`)?.focus()
  }, [unfolded])

  const { termsConditionsUrl: termsUrl, privacyPolicyUrl: privacyUrl } = options
  const askAgreement = options.features.legalCheckbox && (termsUrl !== undefined || privacyUrl !== undefined)
  // Until the visitor agrees to the host's terms, no way to connect can be used.
  const locked = askAgreement && !agreed

  const order = connectorGroupOrder(options.features.connectorTypeOrder)
  const showAllWallets =
    options.features.allWallets && (options.allWallets === "SHOW" || (options.allWallets === "ONLY_MOBILE" && isMobile))
  // A page may announce hundreds of wallets: this view lists the first few, the virtualised All wallets list has them
  // all (installed ones first), so going back here never renders them all at once.
  const installed = installedConnectors(connectors)
  // The service's featured list puts the host's featured wallets first, then the recommended ones.
  const hostFeatured = options.featuredWalletIds ?? []
  const isHostFeatured = (listing: (typeof featured)[number]) => hostFeatured.includes(listing.wallet.id)
  const groups: Partial<Record<ConnectorGroup, ReadonlyArray<WalletEntry>>> = {
    walletConnect: connectors.filter((c) => c.type === "WALLET_CONNECT").map(connectorEntry),
    recent: recent.map((wallet) => walletEntry(wallet, connectors)),
    injected: (showAllWallets ? installed.slice(0, INSTALLED_SHOWN) : installed).map(connectorEntry),
    featured: featured.filter(isHostFeatured).map((listing) => listingEntry(listing, connectors)),
    custom: custom.map((listing) => listingEntry(listing, connectors)),
    // The embedded wallet's AUTH connector is reached through the email field, never as a row: a row would connect
    // it without a login.
    external: connectors.filter((c) => c.type === "EXTERNAL").map(connectorEntry),
    recommended: featured.filter((listing) => !isHostFeatured(listing)).map((listing) => listingEntry(listing, connectors))
  }
  const rows = orderConnectors(groups, (entry) => entry.key, order)
  // While the catalogue answers, its 4 rows hold their place where they will appear (the host's featured ones, as
  // many as it names, then the recommended ones), so nothing below them moves and the dialog keeps its height.
  const featuredExpected = Math.min(hostFeatured.length, FEATURED_WALLETS_COUNT)
  const placesHeld: Partial<Record<ConnectorGroup, number>> = featuredPending
    ? { featured: featuredExpected, recommended: FEATURED_WALLETS_COUNT - featuredExpected }
    : {}

  const row = ({ group, item }: { readonly group: ConnectorGroup; readonly item: WalletEntry }) => (
    <div role="listitem" key={`${group}:${item.key}`}>
      <ListItem
        icon={<WalletIcon name={item.name} src={item.imageUrl} />}
        label={item.name}
        tag={group === "recent" ? "Recent" : item.installed ? "Installed" : undefined}
        trailing={<Icon name="forward" size={18} />}
        disabled={locked}
        onClick={() => choose(choiceOf(item))}
        onIntent={item.connector?.type === "WALLET_CONNECT" ? preloadWalletConnect : undefined}
      />
    </div>
  )

  if (!loaded) return <Spinner size={24} label="Looking for wallets" />
  // Email, social and wallet in the host's order, else wallet first for a visitor who has one installed.
  const socials = embedded?.enabled === true ? offeredSocials(options.features.socials, miniApp) : []
  const methods = orderConnectMethods({
    hasInjectedWallets: installed.length > 0,
    // The passkey is the embedded wallet's own login, as email is: it takes email's place in the order.
    email: embedded?.enabled === true && (options.features.email || options.features.passkey),
    socials: socials.length > 0,
    hostOrder: options.features.connectMethodsOrder
  })
  const emailForm =
    embedded === undefined || !options.features.email ? null : (
      <EmailForm
        label="Continue with email"
        submitLabel="Continue"
        busy={embedded.login._tag === "SendingEmail"}
        disabled={locked}
        error={embedded.error}
        onSubmit={(email) => submitEmail(email)}
      />
    )
  const passkeySection = embedded?.enabled === true && options.features.passkey ? <PasskeySection disabled={locked} ahead={ahead} /> : null
  const emailSection =
    emailForm === null && passkeySection === null ? null : (
      <Fragment key="email">
        {emailForm}
        {emailForm !== null && passkeySection !== null && (
          <div className={emailStyles.divider} aria-hidden="true">
            or
          </div>
        )}
        {passkeySection}
      </Fragment>
    )
  // Folded beside email (the host's choice): one row stands for the wallets until the visitor unfolds them.
  const folded = methods.includes("email") && (options.features.collapseWallets || !options.features.emailShowWallets) && !unfolded
  const walletSection = folded ? (
    <div key="wallet" className={listStyles.list}>
      <ListItem
        icon={<Icon name="wallet" size={32} />}
        label="Continue with a wallet"
        trailing={<Icon name="forward" size={18} />}
        disabled={locked}
        onClick={() => push({ view: "Connect", wallets: "unfolded" })}
      />
    </div>
  ) : (
    <Fragment key="wallet">
      {rows.length === 0 && !featuredPending && <Notice variant="info">No wallet was found in this browser.</Notice>}
      <div
        ref={walletListRef}
        className={listStyles.list}
        role="list"
        aria-label="Wallets"
        aria-busy={featuredPending || undefined}
        onKeyDown={onListKeyDown}
      >
        {order.flatMap((group) => [
          ...rows.filter((entry) => entry.group === group).map(row),
          ...Array.from({ length: placesHeld[group] ?? 0 }, (_, index) => <ListItemSkeleton key={`skeleton:${group}:${index}`} />)
        ])}
        {showAllWallets && (
          <div role="listitem">
            <ListItem
              icon={<Icon name="grid" size={32} />}
              label="All wallets"
              trailing={<Icon name="forward" size={18} />}
              disabled={locked}
              onClick={() => push({ view: "AllWallets" })}
            />
          </div>
        )}
      </div>
    </Fragment>
  )
  const socialSection = socials.length === 0 ? null : <SocialSection key="social" providers={socials} disabled={locked} ahead={ahead} />
  const sections: Record<ConnectMethod, ReactNode> = { email: emailSection, social: socialSection, wallet: walletSection }
  // The unfolded wallets are a view of the wallets alone: email is one Back away.
  const shown = methods.filter((method) => sections[method] !== null && (!unfolded || method === "wallet"))
  const legalLinks = (
    <>
      {termsUrl !== undefined && (
        <a className={styles.link} href={termsUrl} target="_blank" rel="noreferrer noopener">
          Terms
        </a>
      )}
      {termsUrl !== undefined && privacyUrl !== undefined && " and "}
      {privacyUrl !== undefined && (
        <a className={styles.link} href={privacyUrl} target="_blank" rel="noreferrer noopener">
          Privacy Policy
        </a>
      )}
    </>
  )
  return (
    <>
      {askAgreement && (
        <label className={styles.agreement}>
          <input type="checkbox" className={styles.checkbox} checked={agreed} onChange={(event) => setAgreed(event.target.checked)} />
          <span>I agree to this site's {legalLinks}.</span>
        </label>
      )}
      {shown.flatMap((method, index) => [
        // Between two ways to connect; decorative, the sections say what they are.
        index > 0 && (
          <div key={`or:${method}`} className={emailStyles.divider} aria-hidden="true">
            or
          </div>
        ),
        sections[method]
      ])}
      <p className={styles.footnote}>
        New to wallets?{" "}
        <button type="button" className={styles.helpLink} onClick={() => push({ view: "WhatIsAWallet" })}>
          What is a wallet?
        </button>
      </p>
      {!askAgreement && (termsUrl !== undefined || privacyUrl !== undefined) && (
        <p className={styles.footnote}>By connecting a wallet, you agree to this site's {legalLinks}.</p>
      )}
    </>
  )
}
