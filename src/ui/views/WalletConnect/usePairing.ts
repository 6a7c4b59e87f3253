/**
 * What both WalletConnect views do: ask for a session once the view opens (on the active eip155 network), follow
 * the pairing URI, retry after a refusal or failure, stop pairing when the visitor leaves, and show the account
 * once the wallet approves.
 */
import * as AsyncResult from "effect/reactivity/AsyncResult"
import { useCallback, useEffect, useRef } from "react"
import type { CaipNetwork } from "../../../domain/Network"
import type { ModalView } from "../../../domain/rules"
import type { WalletCatalogEntry } from "../../../domain/Wallet"
import type { NetworksState } from "../../../services/Networks"
import { useAtomSet, useAtomValue } from "../../atom-react/hooks"
import { networksStateAtom } from "../../atoms/networks"
import { cancelPairingFn, walletConnectAtom, walletConnectFn, type WalletConnectView } from "../../atoms/walletConnect"
import { useModalNavigation } from "../../components/Modal/navigation"
import { type ActionStatus, useAction } from "../useAction"

const networkOf = (state: NetworksState | undefined): CaipNetwork | undefined =>
  state?.active["eip155"] ?? state?.requested.find((network) => network.chainNamespace === "eip155")

/** The pairing of a WalletConnect view. */
export interface Pairing {
  /** WalletConnect's connector and pairing; `undefined` while the runtime starts. */
  readonly walletConnect: WalletConnectView | undefined
  /** The pairing URI to show, once there is one. */
  readonly uri: string | undefined
  readonly status: ActionStatus<unknown>
  /** Asks again (after a refusal or failure). */
  readonly retry: () => void
  /** Remembers the wallet link the visitor followed, stored with the session. */
  readonly followed: (href: string) => void
}

/** Runs the pairing of `view`, for `wallet` when one was chosen in the catalogue. */
export function usePairing(view: ModalView, wallet: WalletCatalogEntry | undefined): Pairing {
  const walletConnect = useAtomValue(walletConnectAtom)
  const network = useAtomValue(networksStateAtom, (result) => networkOf(AsyncResult.getOrElse(result, () => undefined)))
  const connect = useAction(walletConnectFn)
  const cancel = useAtomSet(cancelPairingFn)
  const navigation = useModalNavigation()
  const deepLink = useRef<string | undefined>(undefined)
  const asked = useRef(false)

  const start = useCallback(() => {
    if (network === undefined) return
    connect.run({ network, wallet, deepLink: () => deepLink.current })
  }, [connect, network, wallet])

  // Asked once when the view opens (StrictMode runs effects twice; the wallet must see one proposal).
  useEffect(() => {
    if (asked.current || walletConnect === undefined || network === undefined) return
    asked.current = true
    start()
  })

  // Leaving the view stops pairing; StrictMode's immediate remount cancels the stop.
  const leaving = useRef<ReturnType<typeof setTimeout> | undefined>(undefined)
  useEffect(() => {
    clearTimeout(leaving.current)
    return () => {
      leaving.current = setTimeout(() => {
        try {
          cancel(undefined)
        } catch {
          // The whole runtime went away with the view (the host unmounted it): its pairing ended with it.
        }
      }, 0)
    }
  }, [cancel])

  const done = connect.status._tag === "Done"
  useEffect(() => {
    if (done) void navigation.resetFrom(view, "Account")
  }, [done, navigation, view])

  const pairing = walletConnect?.pairing
  return {
    walletConnect,
    uri: pairing?._tag === "Ready" ? pairing.uri : undefined,
    status: connect.status,
    retry: start,
    followed: (href) => {
      deepLink.current = href
    }
  }
}
