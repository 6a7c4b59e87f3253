import { StrictMode } from "react"
import { createRoot } from "react-dom/client"
import { App } from "./App"
import { readStack } from "./config"
import { devWalletEnabled } from "./devWalletSwitch"
import { signInMode } from "./signInSwitch"

const stack = readStack()
// A wallet extension is there before the page runs; the development wallet does the same.
// It loads only when switched on: a visitor without it pays nothing for its signing library.
if (devWalletEnabled()) (await import("./devWallet")).installDevWallet(stack)
// The demo's own sign-in (the legacy siweConfig) loads only in that mode.
const siweConfig = signInMode() === "siwe" ? (await import("./demoSiwe")).demoSiweConfig() : undefined

const root = document.getElementById("root")
if (root === null) throw new Error("the demo page has no #root")
createRoot(root).render(
  <StrictMode>
    <App stack={stack} siweConfig={siweConfig} />
  </StrictMode>
)
