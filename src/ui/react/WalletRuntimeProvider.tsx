/**
 * `<WalletRuntimeProvider options>`: makes the wallet runtime once for the React tree (never at import, so server
 * rendering is safe), gives the hooks its registry, and releases it when the tree unmounts.
 */
import { createContext, type ReactNode, useContext, useEffect, useState } from "react"
import { makeWalletRuntime, type WalletRuntime, type WalletRuntimeSettings } from "../../runtime"
import { RegistryProvider } from "../atom-react/hooks"

const WalletRuntimeContext = createContext<WalletRuntime | undefined>(undefined)

/** Props of {@link WalletRuntimeProvider}: the host options (read once), or a runtime the host made itself. */
export type WalletRuntimeProviderProps =
  | {
      /** The host options, decoded once when the provider mounts; a bad option throws right there. */
      readonly options: unknown
      readonly settings?: WalletRuntimeSettings | undefined
      readonly runtime?: undefined
      readonly children?: ReactNode
    }
  | {
      /** A runtime made with `makeWalletRuntime`; the host disposes it. */
      readonly runtime: WalletRuntime
      readonly options?: undefined
      readonly settings?: undefined
      readonly children?: ReactNode
    }

const releasing = new WeakSet<WalletRuntime>()

/**
 * Gives the wallet hooks and components below it one wallet runtime.
 * @example <WalletRuntimeProvider options={{ projectId, networks: [ethereum] }}><App /></WalletRuntimeProvider>
 */
export function WalletRuntimeProvider(props: WalletRuntimeProviderProps): ReactNode {
  const [runtime] = useState(() => props.runtime ?? makeWalletRuntime(props.options, props.settings))
  const owned = props.runtime === undefined
  useEffect(() => {
    if (!owned) return
    releasing.delete(runtime)
    return () => {
      // StrictMode tears effects down and runs them again at once: only a teardown not undone by then is an unmount.
      releasing.add(runtime)
      queueMicrotask(() => {
        if (releasing.has(runtime)) void runtime.dispose()
      })
    }
  }, [owned, runtime])
  return (
    <WalletRuntimeContext.Provider value={runtime}>
      <RegistryProvider registry={runtime.registry}>{props.children}</RegistryProvider>
    </WalletRuntimeContext.Provider>
  )
}

/** The wallet runtime of the nearest {@link WalletRuntimeProvider}. */
export function useWalletRuntime(): WalletRuntime {
  const runtime = useContext(WalletRuntimeContext)
  if (runtime === undefined) throw new Error("wallet-runtime: wrap your app in <WalletRuntimeProvider options={…}>")
  return runtime
}
