/**
 * Account: the connected account — name and avatar when its identity gives them (an EVM account without a name is
 * offered "Choose a name"), address (4…6 characters, with a copy button and a link to the explorer), native balance
 * (3 decimals) from the blockchain service, the wallet features the host has on (in the spec's order: onramp, swaps,
 * receive, send — those that exist), the network (to switch), the Tokens/NFTs/Activity tabs (the Tokens tab heads its
 * list with the USD total), and disconnect. A family the product offers no balances or portfolio for (spec 9:
 * bip122, polkadot) shows a sentence saying what is not available instead of a balance and the tabs. An embedded (email)
 * wallet shows its email under the address, with "Update email"; one from a social login, its provider and user name.
 * When the embedded wallet has a smart account beside its EOA, the account in front is named by its type ("Smart
 * account" or "EOA") with a switch to the other; the address, balance and sends follow the account in front.
 */
import type * as Atom from "effect/reactivity/Atom"
import * as AsyncResult from "effect/reactivity/AsyncResult"
import type * as AtomRegistry from "effect/reactivity/AtomRegistry"
import { type ReactNode, useEffect } from "react"
import { SOCIAL_LOOK, SocialIcon } from "../../components/SocialIcon/SocialIcon"
import type { Balance as BalanceValue } from "../../../domain/Account"
import type { WalletFeature } from "../../../domain/constants"
import { truncateAddress } from "../../../domain/format"
import { newDeviceWords } from "../../../domain/newDevice"
import { accountFeatures, explorerAddressUrl, explorerHost } from "../../../domain/accountFeatures"
import { familySupports } from "../../../domain/familyFeatures"
import { unavailableFeaturesText } from "../../../domain/familyFeaturesText"
import { runAtomExit, useAtomSet, useAtomValue, useRegistry } from "../../atom-react/hooks"
import { accountBalanceAtom, accountIdentityAtom } from "../../atoms/account"
import { activeAccountAtom, disconnectFn } from "../../atoms/connection"
import { embeddedAtom, setPreferredAccountFn } from "../../atoms/embedded"
import { openSecureViewFn, refreshRecoveryFn } from "../../atoms/secureView"
import { closeModalFn, pushRouteFn, resetRouteFn } from "../../atoms/modal"
import { showSnackbarFn } from "../../atoms/notifications"
import { activeNetworkAtom } from "../../atoms/networks"
import { openNamesFn } from "../../atoms/names"
import { openSendFn } from "../../atoms/send"
import { NOTHING_SERVED, servedFeaturesAtom } from "../../atoms/servedFeatures"
import { Avatar } from "../../components/Avatar/Avatar"
import { Button, IconButton } from "../../components/Button/Button"
import { accountLabel, balanceText } from "../../components/display"
import { Icon } from "../../components/Icon/Icon"
import { ListItem } from "../../components/ListItem/ListItem"
import { NetworkIcon } from "../../components/NetworkIcon/NetworkIcon"
import { Notice } from "../../components/Notice/Notice"
import { Spinner } from "../../components/Spinner/Spinner"
import { whenIdle } from "../../modal/whenIdle"
import { useWalletRuntime } from "../../react/context"
import { visuallyHidden } from "../../theme/theme.css"
import { ACCOUNT_FORM_VIEWS, preloadAccountForms } from "../accountForms"
import { registerViews } from "../viewEntries"
import type { ViewProps } from "../types"
import { visitorError } from "../errorText"
import { useAction } from "../useAction"
import * as styles from "./Account.css"
import { AccountTabs } from "./AccountTabs"

/** The native balance (3 decimals): loading, the amount, or the catalogue's 'Token Balance Unavailable'. */
function Balance(props: { readonly result: AsyncResult.AsyncResult<BalanceValue | undefined, unknown> }): ReactNode {
  const { result } = props
  if (AsyncResult.isSuccess(result)) {
    const text = result.value === undefined ? undefined : balanceText(result.value.balance, result.value.symbol)
    return text === undefined ? null : <p className={styles.balance}>{text}</p>
  }
  if (AsyncResult.isFailure(result) && !result.waiting) {
    return <p className={styles.balanceUnavailable}>{visitorError(result.cause).message}</p>
  }
  return <Spinner label="Loading balance" />
}

// Swap and Buy are opened from here only: their entries come with this chunk, not with the page's start.
registerViews(ACCOUNT_FORM_VIEWS)

// The forms' atoms (with their services) are fetched when the account offers Swap or a form is opened: what loads
// this view names their chunk nowhere.
const swapAtoms = () => import("../../atoms/swap")
const onrampAtoms = () => import("../../atoms/onramp")

/**
 * Runs the action atom `pick` finds in a form's atoms once their code is there. A form whose code cannot be fetched
 * (offline, files replaced by a deploy) opens nothing, and the next click tries again; nor does one whose code arrives
 * after the host disposed the runtime (its registry refuses every atom then), a normal end that is no one's error.
 */
const runFormAtom = <M,>(
  registry: AtomRegistry.AtomRegistry,
  load: () => Promise<M>,
  pick: (atoms: M) => Atom.Writable<AsyncResult.AsyncResult<unknown, unknown>, undefined>
): void =>
  void load()
    .then((atoms) => runAtomExit(registry, pick(atoms), undefined))
    .catch(() => undefined)

const FEATURE_LABELS: Partial<Record<WalletFeature, string>> = { onramp: "Buy", swaps: "Swap", receive: "Receive", send: "Send" }

/** The embedded wallet's account types in plain words. */
const ACCOUNT_TYPE_NAMES = { smartAccount: "Smart account", eoa: "EOA" } as const

/** The Account view. */
export function Account(_props: ViewProps<"Account">): ReactNode {
  const account = useAtomValue(activeAccountAtom)
  const network = useAtomValue(activeNetworkAtom)
  const close = useAtomSet(closeModalFn)
  const push = useAtomSet(pushRouteFn)
  const reset = useAtomSet(resetRouteFn)
  const snackbar = useAtomSet(showSnackbarFn)
  const disconnect = useAction(disconnectFn)
  const balance = useAtomValue(accountBalanceAtom)
  const identity = useAtomValue(accountIdentityAtom, (result) => AsyncResult.getOrElse(result, () => undefined))
  // Known to have no name only once the service answered: a visitor with a name never sees "Choose a name" flash.
  const identityKnown = useAtomValue(accountIdentityAtom, AsyncResult.isSuccess)
  const openNames = useAtomSet(openNamesFn)
  const openSend = useAtomSet(openSendFn)
  const registry = useRegistry()
  const email = useAtomValue(embeddedAtom, (state) => state?.email)
  const accountSwitch = useAtomValue(embeddedAtom, (state) => state?.accountSwitch)
  const setPreferredAccount = useAtomSet(setPreferredAccountFn)
  const recovery = useAtomValue(embeddedAtom, (state) => state?.recovery)
  const needsRecovery = useAtomValue(embeddedAtom, (state) => state?.needsRecovery)
  const openSecureView = useAtomSet(openSecureViewFn)
  const refreshRecovery = useAtomSet(refreshRecoveryFn)
  const { options } = useWalletRuntime()
  // An embedded wallet (its login's user is known): the frame says what protects it, for "Protect your wallet".
  const embedded = account.status === "connected" && account.user !== undefined
  useEffect(() => {
    if (embedded) refreshRecovery(undefined)
  }, [embedded, refreshRecovery])

  // The services say which networks swap and which the on-ramp delivers on (the host's config); Swap and Buy show once
  // they said so for this one.
  const served = useAtomValue(servedFeaturesAtom(network?.caipNetworkId ?? ""), (result) => AsyncResult.getOrElse(result, () => NOTHING_SERVED))
  const offersSwap =
    account.namespace !== undefined && accountFeatures(options.features, account.namespace, network?.caipNetworkId, served).includes("swaps")
  // Swap's code comes while the visitor looks at the account, as the views a click may open next do.
  useEffect(() => {
    if (offersSwap) runFormAtom(registry, swapAtoms, (atoms) => atoms.warmSwapFn)
  }, [offersSwap, registry])
  useEffect(() => whenIdle(preloadAccountForms), [])

  const disconnected = disconnect.status._tag === "Done"
  useEffect(() => {
    if (disconnected) close(undefined)
  }, [disconnected, close])

  const address = account.address
  if (account.status !== "connected" || address === undefined) {
    if (account.status === "connecting" || account.status === "reconnecting") {
      return <Spinner size={24} label={account.status === "connecting" ? "Connecting" : "Reconnecting"} />
    }
    return (
      <>
        <Notice variant="info">No wallet is connected.</Notice>
        <Button fullWidth onClick={() => reset({ view: "Connect" })}>
          Connect a wallet
        </Button>
      </>
    )
  }

  const copy = () =>
    Promise.resolve()
      .then(() => navigator.clipboard.writeText(address))
      .then(
        () => snackbar({ variant: "success", message: "Address copied" }),
        () => snackbar({ variant: "error", message: "Could not copy the address" })
      )

  const profileName = identity?.profileName ?? account.profileName
  const profileImage = identity?.profileImage ?? account.profileImage
  const hasName = profileName !== undefined && profileName !== null
  const explorerUrl = network?.blockExplorers?.default.url
  const explorerHref = account.namespace === undefined ? undefined : explorerAddressUrl(explorerUrl, account.namespace, address)
  const features = account.namespace === undefined ? [] : accountFeatures(options.features, account.namespace, network?.caipNetworkId, served)
  const runFeature = (feature: WalletFeature) =>
    feature === "send"
      ? openSend({})
      : feature === "swaps"
        ? runFormAtom(registry, swapAtoms, (atoms) => atoms.openSwapFn)
        : feature === "onramp"
          ? runFormAtom(registry, onrampAtoms, (atoms) => atoms.openOnrampFn)
          : push({ view: "Receive" })
  // What the family has no balances, tokens or activity for is said in words, never as a '0.00' that looks like one.
  const offersBalance = account.namespace === undefined || familySupports(account.namespace, "balance")
  const offersPortfolio = account.namespace === undefined || familySupports(account.namespace, "tokens")
  const unavailable = account.namespace === undefined ? undefined : unavailableFeaturesText(account.namespace)
  // The embedded wallet's EVM accounts: the one in front named by its type, and a switch to the other.
  const inFront = account.allAccounts.find((entry) => entry.address.toLowerCase() === address.toLowerCase())?.type
  const typeName = inFront === "smartAccount" || inFront === "eoa" ? ACCOUNT_TYPE_NAMES[inFront] : undefined
  const otherType = inFront === "smartAccount" ? "eoa" : "smartAccount"
  const canSwitch = account.namespace === "eip155" && typeName !== undefined && account.allAccounts.some((entry) => entry.type === otherType)
  return (
    <>
      <div className={styles.profile}>
        <Avatar address={address} image={profileImage} size={64} />
        <div className={styles.nameRow}>
          <h3 className={styles.name} title={address}>
            {accountLabel({ address, profileName })}
          </h3>
          <IconButton icon="copy" label="Copy address" onClick={() => void copy()} />
        </div>
        {hasName && <p className={styles.address}>{truncateAddress(address)}</p>}
        {email !== undefined && (
          <>
            <p className={styles.email}>
              <span className={visuallyHidden}>Email: </span>
              {email}
            </p>
            <button type="button" className={styles.chooseName} onClick={() => push({ view: "UpdateEmail" })}>
              Update email
            </button>
          </>
        )}
        {email === undefined && typeof account.user?.username === "string" && (
          <p className={styles.socialUser}>
            {account.socialProvider !== undefined && <SocialIcon provider={account.socialProvider} size={16} />}
            <span className={visuallyHidden}>{account.socialProvider === undefined ? "Social login" : SOCIAL_LOOK[account.socialProvider].name}: </span>
            <span>{account.user.username}</span>
          </p>
        )}
        {canSwitch && (
          <>
            <p className={styles.email} data-testid="account-type">
              <span className={visuallyHidden}>Account type: </span>
              {typeName}
            </p>
            <button
              type="button"
              className={styles.chooseName}
              disabled={accountSwitch?.switching !== undefined}
              aria-busy={accountSwitch?.switching !== undefined}
              onClick={() => setPreferredAccount(otherType)}
            >
              {accountSwitch?.switching !== undefined ? "Switching…" : `Switch to ${otherType === "eoa" ? "EOA" : "smart account"}`}
            </button>
            {accountSwitch?.error !== undefined && <Notice variant="error">{accountSwitch.error}</Notice>}
          </>
        )}
        {embedded && needsRecovery === true && <Notice variant="info">{newDeviceWords(recovery)}</Notice>}
        {embedded && needsRecovery === true && recovery !== "device" && (
          <button type="button" className={styles.chooseName} onClick={() => openSecureView("recover")}>
            Recover your wallet on this device
          </button>
        )}
        {embedded && needsRecovery !== true && recovery === "device" && (
          <button type="button" className={styles.chooseName} onClick={() => openSecureView("protect")}>
            Protect your wallet
          </button>
        )}
        {embedded && (
          <button type="button" className={styles.chooseName} onClick={() => openSecureView("export")}>
            Export private key
          </button>
        )}
        {!hasName && identityKnown && account.namespace === "eip155" && (
          <button type="button" className={styles.chooseName} onClick={() => openNames(undefined)}>
            Choose a name
          </button>
        )}
        {offersBalance && <Balance result={balance} />}
        {!offersBalance && unavailable !== undefined && (
          <p className={styles.balanceUnavailable} data-testid="unavailable-features">
            {unavailable}
          </p>
        )}
        {explorerHref !== undefined && explorerUrl !== undefined && (
          <a className={styles.explorer} href={explorerHref} target="_blank" rel="noopener noreferrer">
            View on {explorerHost(explorerUrl)}
            <span className={visuallyHidden}> (opens the explorer)</span>
          </a>
        )}
      </div>
      {features.length > 0 && (
        <div className={styles.features} role="group" aria-label="Wallet features">
          {features.map((feature) => (
            <Button key={feature} variant="secondary" onClick={() => runFeature(feature)}>
              {FEATURE_LABELS[feature] ?? feature}
            </Button>
          ))}
        </div>
      )}
      {network !== undefined && (
        <ListItem
          icon={<NetworkIcon network={network} />}
          label={network.name}
          sublabel="Network"
          trailing={<Icon name="forward" size={18} />}
          onClick={() => push({ view: "Networks" })}
        />
      )}
      {offersPortfolio && <AccountTabs history={options.features.history} />}
      {disconnect.status._tag === "Failed" && (
        <Notice variant="error" title={disconnect.status.error.heading}>
          {disconnect.status.error.message}
        </Notice>
      )}
      <Button
        variant="danger"
        icon="exit"
        fullWidth
        busy={disconnect.status._tag === "Running"}
        onClick={() => disconnect.start(account.namespace)}
      >
        Disconnect
      </Button>
    </>
  )
}
