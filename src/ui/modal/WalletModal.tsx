/**
 * `<WalletModal/>`: the wallet modal of the runtime. Put it once anywhere inside `<WalletRuntimeProvider>`; it
 * renders nothing until the modal opens. It is appended to `document.body` through a portal, unless the host set
 * `disableAppend` (rendered where it is placed, still modal) or `enableEmbedded` (rendered in place as part of
 * the page: no backdrop, no focus trap, page not inert).
 */
import type { ReactNode } from "react"
import { useReady } from "../react/context"

/**
 * The wallet modal. Place it once inside `WalletRuntimeProvider`.
 * @example <WalletRuntimeProvider options={options}><App /><WalletModal /></WalletRuntimeProvider>
 */
export function WalletModal(): ReactNode {
  const ready = useReady()
  return ready === undefined ? null : <ready.core.WalletModal />
}
