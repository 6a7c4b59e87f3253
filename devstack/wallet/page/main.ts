/**
 * The test wallet page's entry: reads the config the services server wrote into the HTML, starts the wallet,
 * renders it, and pairs at once with a `?uri=wc:…` given in the address (the catalogue's deep links open the page so).
 */
import { configElementId, decodePageConfig } from "./config"
import { mountView } from "./view"
import { startPageWallet } from "./wallet"

const showFatal = (text: string) => {
  const status = document.getElementById("status")
  if (status !== null) {
    status.dataset["phase"] = "failed"
    status.textContent = text
  }
}

const start = () => {
  const element = document.getElementById(configElementId)
  if (element === null) {
    showFatal("This page has no configuration: open it from the devstack's services server (/test-wallet/).")
    return
  }
  const config = decodePageConfig(element.textContent ?? "")
  const wallet = startPageWallet(config)
  mountView(config, wallet)
  // The server's Content-Security-Policy lets the page reach only the local stack; say so when it blocks something.
  document.addEventListener("securitypolicyviolation", (event) =>
    wallet.report(`Blocked a request to ${event.blockedURI || "an address"} outside the local stack.`, "error")
  )

  const address = new URL(location.href)
  const uri = address.searchParams.get("uri")
  if (uri === null) return
  // A reload must not pair again with a link that was used up.
  address.searchParams.delete("uri")
  history.replaceState(null, "", address)
  if (wallet.state().phase !== "starting") {
    void wallet.pair(uri)
    return
  }
  const unsubscribe = wallet.subscribe((state) => {
    if (state.phase === "starting") return
    unsubscribe()
    void wallet.pair(uri)
  })
}

try {
  start()
} catch (error) {
  showFatal(`The wallet could not start: ${error instanceof Error ? error.message : String(error)}`)
}
