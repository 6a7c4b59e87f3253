/** Whether the page runs on a phone, from the runtime's Platform service (false on the server and until known). */
import { Effect } from "effect"
import { useEffect, useState } from "react"
import { Platform } from "../../services/Platform"
import { useWalletRuntime } from "../react/WalletRuntimeProvider"

/** True when the Platform service says the page runs on a phone or tablet. */
export function useIsMobile(): boolean {
  const runtime = useWalletRuntime()
  const [isMobile, setIsMobile] = useState(false)
  useEffect(() => {
    let live = true
    void runtime.run(Effect.map(Platform, (platform) => platform.isMobile)).then((mobile) => {
      if (live) setIsMobile(mobile)
    })
    return () => {
      live = false
    }
  }, [runtime])
  return isMobile
}
