// @vitest-environment happy-dom
/**
 * The first click shows its view at once: once the page is idle, the modal fetches the views it opens with (its own
 * code, nothing else), and not before. In a file of its own: the views' loaders are module state.
 */
import { act, cleanup } from "@testing-library/react"
import { Effect } from "effect"
import { afterEach, describe, expect, it, vi } from "vitest"
import type { WalletRuntime } from "../../../src/runtime"
import { whenIdle } from "../../../src/ui/modal/whenIdle"
import { root } from "../../../src/ui/theme/contract.css"
import { darkTheme } from "../../../src/ui/theme/theme.css"
import { localChainA } from "../../../src/domain/networks"
import { Connection } from "../../../src/services/Connection"
import { openingViews, VIEWS } from "../../../src/ui/views/registry"
import { Modal } from "../../../src/services/Modal"
import { findView, renderHost, runtimeFor, testWallet } from "./components/support"

let runtime: WalletRuntime | undefined
const idle: Array<() => void> = []
const original = { request: window.requestIdleCallback, cancel: window.cancelIdleCallback }

afterEach(async () => {
  cleanup()
  await runtime?.dispose()
  runtime = undefined
  idle.splice(0)
  window.requestIdleCallback = original.request
  window.cancelIdleCallback = original.cancel
})

/** An idle callback the test fires itself: the page is idle when the test says so. */
const controlIdle = () => {
  window.requestIdleCallback = ((callback: () => void) => idle.push(callback)) as typeof window.requestIdleCallback
  window.cancelIdleCallback = ((id: number) => {
    idle[id - 1] = () => {}
  }) as typeof window.cancelIdleCallback
}

describe("the modal's views, fetched when the page is idle", () => {
  it("fetches the views the modal opens with once the page is idle, not before; Account only once connected", async () => {
    controlIdle()
    const wallet = testWallet()
    runtime = runtimeFor(wallet)
    renderHost(runtime)
    const loaded = (view: keyof typeof VIEWS) => VIEWS[view].Component.loaded() !== undefined
    expect(openingViews(false)).toEqual(["Connect"])
    expect(idle.length).toBeGreaterThan(0)
    expect(["Connect", "ConnectingExternal", "Account"].map((view) => loaded(view as keyof typeof VIEWS))).toEqual([false, false, false])

    for (const callback of idle.splice(0)) callback()
    await vi.waitFor(() => expect(loaded("Connect")).toBe(true))
    // A first visit's page does not fetch a view its first click cannot open, nor what the second click opens.
    expect(loaded("ConnectingExternal")).toBe(false)
    expect(loaded("Account")).toBe(false)
    expect(loaded("AllWallets")).toBe(false)

    // Once the modal shows Connect, what choosing a wallet there opens comes when the page is idle again.
    await act(() => runtime!.run(Effect.flatMap(Modal, (modal) => modal.open({ view: "Connect" }))))
    await findView("Connect")
    await vi.waitFor(() => expect(idle.length).toBeGreaterThan(0))
    expect(loaded("ConnectingExternal")).toBe(false)
    for (const callback of idle.splice(0)) callback()
    await vi.waitFor(() => expect(loaded("ConnectingExternal") && loaded("AllWallets")).toBe(true))
    await act(() => runtime!.run(Effect.flatMap(Modal, (modal) => modal.close)))

    await act(() =>
      runtime!.run(Effect.flatMap(Connection, (c) => c.connect({ connectorId: wallet.connector.info.id, networks: [localChainA] })))
    )
    // Connected: the next click opens Account, fetched once the page is idle again.
    await vi.waitFor(() => expect(idle.length).toBeGreaterThan(0))
    expect(loaded("Account")).toBe(false)
    for (const callback of idle.splice(0)) callback()
    await vi.waitFor(() => expect(loaded("Account")).toBe(true))
  })

  it("once idle, lays out a few hidden words in the modal's themed font, then removes them", async () => {
    controlIdle()
    runtime = runtimeFor(testWallet(), { options: { themeMode: "dark", themeVariables: { "--wr-font-family": "Georgia, serif" } } })
    renderHost(runtime)
    const appended: Array<HTMLElement> = []
    const append = document.body.appendChild.bind(document.body)
    const spy = vi.spyOn(document.body, "appendChild").mockImplementation(<T extends Node>(node: T): T => {
      if (node instanceof HTMLElement) appended.push(node)
      return append(node)
    })
    try {
      for (const callback of idle.splice(0)) callback()
    } finally {
      spy.mockRestore()
    }
    const warmed = appended.find((element) => element.getAttribute("aria-hidden") === "true")
    expect(warmed).toBeDefined()
    expect(warmed!.classList.contains(root)).toBe(true)
    expect(warmed!.classList.contains(darkTheme)).toBe(true)
    expect(warmed!.style.getPropertyValue("--wr-font-family")).toBe("Georgia, serif")
    expect(warmed!.style.visibility).toBe("hidden")
    expect([...warmed!.children].map((words) => (words as HTMLElement).style.fontWeight)).toEqual(["400", "600", "700"])
    expect(warmed!.isConnected).toBe(false)
  })

  it("without an idle callback, runs once the page has loaded; a cancelled task does not run", async () => {
    // @ts-expect-error: a browser without requestIdleCallback
    delete window.requestIdleCallback
    const ran: Array<string> = []
    whenIdle(() => ran.push("kept"))
    whenIdle(() => ran.push("cancelled"))()
    await vi.waitFor(() => expect(ran).toEqual(["kept"]))
  })

  it("the views a visitor may reach next from the view shown are fetched once the page is idle again, not while it opens", async () => {
    controlIdle()
    const fetchNext = vi.spyOn(VIEWS.AllWallets.Component, "load")
    try {
      runtime = runtimeFor(testWallet())
      renderHost(runtime)
      await act(() => runtime!.run(Effect.flatMap(Modal, (modal) => modal.open({ view: "Connect" }))))
      await findView("Connect")
      expect(fetchNext).not.toHaveBeenCalled()
      for (const callback of idle.splice(0)) callback()
      expect(fetchNext).toHaveBeenCalled()
      await vi.waitFor(() => expect(VIEWS.AllWallets.Component.loaded()).toBeDefined())
      expect(VIEWS.WhatIsAWallet.Component.loaded()).toBeDefined()
    } finally {
      fetchNext.mockRestore()
    }
  })
})
