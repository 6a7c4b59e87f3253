/**
 * `<WalletRuntimeProvider options>`: gives the hooks and components below it one wallet runtime, and releases it
 * when the tree unmounts. The runtime's code is not part of what the page loads at start: the provider renders its
 * children at once (the hooks give "disconnected", the Connect button says "Connect wallet"), and fetches the code
 * once the page is idle, at the visitor's first press of a pointer or key, when the visitor points at or focuses a
 * button of ours, or at once when a stored session waits to be restored. Never at import, so server rendering is safe.
 */
import { type ReactNode, useEffect, useState, useSyncExternalStore } from "react"
import type { WalletRuntime, WalletRuntimeSettings } from "../../runtime"
import { whenIdle } from "../modal/whenIdle"
import { ShellContext, useReady } from "./context"
import { makeShell } from "./shell"

export { useWalletRuntime } from "./context"

/** Props of {@link WalletRuntimeProvider}: the host options (read once), or a runtime the host made itself. */
export type WalletRuntimeProviderProps =
  | {
      /**
       * The host options, decoded once the runtime's code is there; a bad option throws from the provider then (at
       * mount when the code is already loaded), for the host's error boundary.
       */
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

const noFailure = (): unknown => undefined
const ignore = () => {}

/**
 * Gives the wallet hooks and components below it one wallet runtime.
 * @example <WalletRuntimeProvider options={{ projectId, networks: [ethereum] }}><App /></WalletRuntimeProvider>
 */
export function WalletRuntimeProvider(props: WalletRuntimeProviderProps): ReactNode {
  const [shell] = useState(() => makeShell(props))
  const failure = useSyncExternalStore(shell.subscribe, shell.failure, noFailure)
  if (failure !== undefined) throw failure
  useEffect(() => {
    shell.retain()
    if (shell.ready() !== undefined) return shell.release
    const load = () => void shell.load().catch(ignore)
    // A session to restore starts at once; otherwise the code waits until the page has painted and is idle, or until
    // the visitor first presses a pointer or a key anywhere (a click comes a few tens of milliseconds after its press).
    if (shell.restoring) {
      load()
      return shell.release
    }
    const cancel = whenIdle(load)
    const intents = ["pointerdown", "keydown"] as const
    const onIntent = () => {
      intents.forEach((type) => document.removeEventListener(type, onIntent, true))
      load()
    }
    intents.forEach((type) => document.addEventListener(type, onIntent, { capture: true, passive: true }))
    return () => {
      cancel()
      intents.forEach((type) => document.removeEventListener(type, onIntent, true))
      shell.release()
    }
  }, [shell])
  return (
    <ShellContext.Provider value={shell}>
      {props.children}
      <Notifications />
    </ShellContext.Provider>
  )
}

/** The page's snackbar region, once the runtime's code is there (nothing before: there is nothing to say yet). */
function Notifications(): ReactNode {
  const ready = useReady()
  return ready === undefined ? null : <ready.core.Notifications />
}
