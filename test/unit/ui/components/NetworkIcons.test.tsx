// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react"
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { type CaipNetwork } from "../../../../src/domain/Network"
import { bitcoin, localChainA, localChainB, localSolana, polkadot } from "../../../../src/domain/networks"
import type { WalletRuntime } from "../../../../src/runtime"
import { Connection } from "../../../../src/services/Connection"
import { Modal } from "../../../../src/services/Modal"
import { findView, renderHost, runtimeFor, testWallet } from "./support"

let runtime: WalletRuntime | undefined

afterEach(async () => {
  cleanup()
  await runtime?.dispose()
  runtime = undefined
})

const CATALOG = "http://catalog.test"
const ASSET_QUERY = "projectId=test&st=wallet-runtime&sv=0.1.0"

const withAssets = (network: CaipNetwork, assets: NonNullable<CaipNetwork["assets"]>): CaipNetwork => ({ ...network, assets })

const host = (networks: ReadonlyArray<CaipNetwork>): WalletRuntime => {
  const made = runtimeFor(testWallet(), { options: { networks, endpoints: { walletCatalog: CATALOG } } })
  runtime = made
  renderHost(made)
  return made
}

const networkButton = () => screen.findByRole("button", { name: /^Network: / })

describe("network icons", () => {
  it("the network button shows the catalogue's asset image of a network that names an imageId", async () => {
    host([withAssets(localChainA, { imageId: "eip155-31337" })])
    const img = (await networkButton()).querySelector("img")
    expect(img?.getAttribute("src")).toBe(`${CATALOG}/public/getAssetImage/eip155-31337?${ASSET_QUERY}`)
  })

  it("the network button prefers the network's own imageUrl", async () => {
    host([withAssets(localChainA, { imageUrl: "https://host.example/a.png", imageId: "eip155-31337" })])
    expect((await networkButton()).querySelector("img")?.getAttribute("src")).toBe("https://host.example/a.png")
  })

  it("the network button draws the family mark, not a letter, for a network without an image", async () => {
    host([localChainA])
    const button = await networkButton()
    expect(button.querySelector("img")).toBeNull()
    expect(button.querySelector('svg[data-family="eip155"]')).not.toBeNull()
    expect(button.textContent).toBe("Local Chain A")
  })

  it("the Account view's network row draws the family mark, not a letter", async () => {
    const wallet = host([localChainA])
    await act(async () => {
      await wallet.run(Effect.flatMap(Connection, (c) => c.connect({ connectorId: "test-wallet", networks: [localChainA] })))
      await wallet.run(Effect.flatMap(Modal, (m) => m.open()))
    })
    const row = await within(await findView("Account")).findByRole("button", { name: /Local Chain A/ })
    expect(row.querySelector('svg[data-family="eip155"]')?.parentElement?.textContent).toBe("")
  })

  it("falls back to the family mark when the image does not load", async () => {
    host([withAssets(localChainA, { imageUrl: "https://host.example/broken.png" })])
    const button = await networkButton()
    fireEvent.error(button.querySelector("img")!)
    await waitFor(() => expect(button.querySelector('svg[data-family="eip155"]')).not.toBeNull())
    expect(button.querySelector("img")).toBeNull()
    expect(button.textContent).toBe("Local Chain A")
  })

  it("the Networks list shows each network's image or its family's mark, never a letter", async () => {
    host([
      withAssets(localChainA, { imageId: "eip155-31337" }),
      localChainB,
      localSolana,
      withAssets(bitcoin, { imageUrl: "https://host.example/btc.png" }),
      polkadot
    ])
    fireEvent.click(await networkButton())
    const view = await findView("Networks")
    const row = async (name: string) => within(view).findByRole("button", { name: new RegExp(`^${name}`) })

    expect((await row("Local Chain A")).querySelector("img")?.getAttribute("src")).toBe(
      `${CATALOG}/public/getAssetImage/eip155-31337?${ASSET_QUERY}`
    )
    expect((await row("Bitcoin")).querySelector("img")?.getAttribute("src")).toBe("https://host.example/btc.png")
    for (const [name, family] of [
      ["Local Chain B", "eip155"],
      ["Local Solana", "solana"],
      ["Polkadot", "polkadot"]
    ] as const) {
      const button = await row(name)
      expect(button.querySelector("img")).toBeNull()
      expect(button.querySelector(`svg[data-family="${family}"]`)).not.toBeNull()
    }

    fireEvent.error((await row("Bitcoin")).querySelector("img")!)
    await waitFor(async () => expect((await row("Bitcoin")).querySelector('svg[data-family="bip122"]')).not.toBeNull())
    // The tile holds the mark alone: no initial beside it.
    for (const mark of view.querySelectorAll("svg[data-family]")) expect(mark.parentElement?.textContent).toBe("")
  })
})
