// @vitest-environment happy-dom
/**
 * Links that would run script never become links: `walletLink` refuses to build one, a catalogue entry's unsafe
 * link decodes as absent (the wallet stays listed), and the WalletConnect view shows no button for a wallet whose
 * desktop or web app link is `javascript:`, even when such an entry reaches it without decoding.
 */
import { act, cleanup, within } from "@testing-library/react"
import { Effect, Result, Schema } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { WalletCatalogEntry } from "../../../src/domain/Wallet"
import type { WalletRuntime } from "../../../src/runtime"
import { Modal } from "../../../src/services/Modal"
import { walletLink } from "../../../src/services/walletconnect/links"
import { fakeWalletConnect, findView, holdConnects, remoteWallet, renderHost, runtimeFor, testWallet } from "../ui/components/support"

const URI = "wc:7f6e5d4c@2?relay-protocol=irn&symKey=aaaa&expiryTimestamp=1"

const SCRIPT_LINKS = [
  "javascript:alert(document.domain)//",
  "javascript://%0aalert(1)",
  "JavaScript:alert(1)",
  "java\tscript:alert(1)",
  " javascript:alert(1)",
  "vbscript:msgbox(1)",
  "data:text/html,<script>alert(1)</script>",
  "file:///etc/passwd"
]

describe("walletLink", () => {
  it.each(SCRIPT_LINKS)("builds no link from %j", (link) => {
    expect(walletLink(link, URI)).toBeUndefined()
  })

  it("still builds universal links and wallet schemes", () => {
    expect(walletLink("https://wallet.example/app", URI)).toBe(`https://wallet.example/app/wc?uri=${encodeURIComponent(URI)}`)
    expect(walletLink("metamask:", URI)).toBe(`metamask://wc?uri=${encodeURIComponent(URI)}`)
  })
})

describe("a catalogue entry with unsafe links", () => {
  const decode = Schema.decodeUnknownResult(WalletCatalogEntry)

  it("keeps the wallet and drops each link or picture that is not safe", () => {
    const result = decode({
      id: "evil",
      name: "Evil Wallet",
      image_id: "x",
      image_url: "javascript:alert(1)",
      homepage: "javascript:alert(1)",
      mobile_link: "data:text/html,<script>alert(1)</script>",
      desktop_link: "javascript:alert(document.domain)//",
      webapp_link: "vbscript:msgbox(1)",
      app_store: "file:///etc/passwd",
      play_store: "https://play.example/evil",
      chains: ["eip155:1"]
    })
    expect(result).toEqual(
      Result.succeed({
        id: "evil",
        name: "Evil Wallet",
        image_id: "x",
        homepage: null,
        mobile_link: null,
        desktop_link: null,
        webapp_link: null,
        app_store: null,
        play_store: "https://play.example/evil",
        chains: ["eip155:1"]
      })
    )
  })

  it("keeps safe links as they are", () => {
    const entry = {
      id: "good",
      name: "Good Wallet",
      image_id: "x",
      image_url: "https://img.example/good.png",
      mobile_link: "good://",
      desktop_link: "good-desktop:",
      webapp_link: "https://app.good.example",
      chains: []
    }
    expect(decode(entry)).toEqual(Result.succeed(entry))
  })
})

describe("the WalletConnect view", () => {
  let runtime: WalletRuntime | undefined
  afterEach(async () => {
    cleanup()
    await runtime?.dispose()
    runtime = undefined
  })

  it("shows no button for a javascript: desktop or web app link, and still the QR code", async () => {
    const remote = remoteWallet()
    holdConnects(remote)
    const wc = fakeWalletConnect(remote)
    runtime = runtimeFor([remote, testWallet()], { walletConnect: wc.service })
    renderHost(runtime)
    // Handed to the view as it is, as a route a host opens: the view itself must not make a link of it.
    const wallet: WalletCatalogEntry = {
      id: "evil",
      name: "Evil Wallet",
      image_id: "x",
      desktop_link: "javascript:alert(document.domain)//",
      webapp_link: "javascript:alert(1)",
      chains: ["eip155:31337"]
    }
    await act(() => runtime!.run(Effect.flatMap(Modal, (m) => m.open({ view: "ConnectingWalletConnect", wallet }))))
    const view = await findView("ConnectingWalletConnect")
    act(() => wc.show(URI))
    expect(await within(view).findByRole("img", { name: "QR code to connect with Evil Wallet" })).toBeTruthy()
    expect(within(view).queryByRole("link", { name: "Open desktop app" })).toBeNull()
    expect(within(view).queryByRole("link", { name: "Open web app" })).toBeNull()
    expect(view.querySelector('[href^="javascript:" i]')).toBeNull()
  })
})
