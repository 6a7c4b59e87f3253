// @vitest-environment happy-dom
/**
 * A first-time visitor's page paints before the services are built (nothing to show but "Connect wallet" anyway);
 * a returning visitor with a session to restore gets them during the first render, so the button shows
 * "Reconnecting…" from the first frame instead of "Connect wallet" first.
 */
import * as AsyncResult from "effect/reactivity/AsyncResult"
import { afterEach, describe, expect, it, vi } from "vitest"
import { localChainA } from "../../../src/domain/networks"
import type { BaseServices } from "../../../src/layers/Base"
import { makeWalletRuntime, type WalletRuntime } from "../../../src/runtime"
import * as Keys from "../../../src/services/Storage/keys"
import { storagePath } from "../../../src/services/Storage/Storage"
import { connectionStateAtom } from "../../../src/ui/atoms/connection"

let runtime: WalletRuntime<BaseServices> | undefined
const options = { networks: [localChainA], endpoints: { walletCatalog: "http://127.0.0.1:9", blockchainApi: "http://127.0.0.1:9", rpcProxy: "http://127.0.0.1:9" } }

afterEach(async () => {
  await runtime?.dispose()
  runtime = undefined
  localStorage.clear()
})

/** The connection state as the first render reads it: the registry's value right after the runtime is made. */
const firstRead = (wallet: WalletRuntime<BaseServices>) => wallet.registry.get(connectionStateAtom)

describe("when the services start", () => {
  it("a first-time visitor: not during the first render, then once the page has painted", async () => {
    runtime = makeWalletRuntime(options)
    const unmount = runtime.registry.mount(connectionStateAtom)
    expect(AsyncResult.isSuccess(firstRead(runtime))).toBe(false)
    await vi.waitFor(() => expect(AsyncResult.isSuccess(firstRead(runtime!))).toBe(true))
    unmount()
  })

  it("a returning visitor with a session to restore: during the first render, already reconnecting", () => {
    localStorage.setItem(storagePath(Keys.connectionStatus("eip155")), JSON.stringify("connected"))
    localStorage.setItem(storagePath(Keys.connectedConnector("eip155")), JSON.stringify({ id: "com.example.wallet", type: "ANNOUNCED" }))
    runtime = makeWalletRuntime(options)
    const unmount = runtime.registry.mount(connectionStateAtom)
    const result = firstRead(runtime)
    expect(AsyncResult.isSuccess(result)).toBe(true)
    if (AsyncResult.isSuccess(result)) expect(result.value.namespaces.eip155?.account.status).not.toBe("disconnected")
    unmount()
  })

  it("a stored 'disconnected' is a first-time visitor", () => {
    localStorage.setItem(storagePath(Keys.connectionStatus("eip155")), JSON.stringify("disconnected"))
    runtime = makeWalletRuntime(options)
    const unmount = runtime.registry.mount(connectionStateAtom)
    expect(AsyncResult.isSuccess(firstRead(runtime))).toBe(false)
    unmount()
  })
})
