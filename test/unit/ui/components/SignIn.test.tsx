// @vitest-environment happy-dom
/**
 * The sign-in view while the wallet's signature is pending: it says 'Authenticating...' (spec point 8's loading
 * message) until the wallet answers; a smart account whose signature the site refuses reads spec 8's words; an account
 * that nothing on this device can make sign (an embedded key only its first device protects) is offered no Sign again,
 * only Check again and leaving: Disconnect when sign-in is required, otherwise the header's Close alone. Where sign-in is
 * required the header has no Close at all (the modal cannot be closed without a session: it would only shake).
 */
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react"
import { Effect, SubscriptionRef } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import type { SiwxConfig, SiwxSession } from "../../../../src/domain/Siwx"
import type { WalletRuntime } from "../../../../src/runtime"
import { ConnectFlow } from "../../../../src/services/ConnectFlow"
import { Connection } from "../../../../src/services/Connection"
import { Modal } from "../../../../src/services/Modal"
import { Siwx } from "../../../../src/services/Siwx/Siwx"
import { requireFirst } from "../../../../src/services/Siwx/SiwxLive"
import { ALICE, dialogClosed, findView, renderHost, runtimeFor, testWallet } from "./support"

let runtime: WalletRuntime | undefined

afterEach(async () => {
  cleanup()
  await runtime?.dispose()
  runtime = undefined
})

const siwx = (): SiwxConfig => {
  const sessions: Array<SiwxSession> = []
  return {
    createMessage: async (input) => {
      const data = {
        chainId: input.chainId,
        accountAddress: input.accountAddress,
        domain: "shop.test",
        uri: "https://shop.test",
        version: "1",
        nonce: "abcdefgh1",
        issuedAt: "1970-01-01T00:00:00.000Z"
      }
      return { ...data, toString: () => `sign in ${input.accountAddress}` }
    },
    addSession: async (session) => void sessions.push(session),
    revokeSession: async () => undefined,
    setSessions: async () => undefined,
    getSessions: async () => sessions
  }
}

describe("SIWXSignMessage", () => {
  it("says 'Authenticating...' while the wallet's signature is pending", async () => {
    const wallet = testWallet({ answerGate: new Promise<void>(() => undefined) })
    const host = runtimeFor(wallet, { options: { siwx: siwx() } })
    runtime = host
    renderHost(host)
    void host.run(Effect.flatMap(ConnectFlow, (flow) => flow.connect("Test Wallet"))).catch(() => undefined)
    const view = await findView("SIWXSignMessage")
    expect(within(view).queryByText("Authenticating...")).toBeNull()
    const sign = await within(view).findByRole("button", { name: "Sign" })
    await act(async () => fireEvent.click(sign))
    expect(await within(view).findByText("Authenticating...")).toBeTruthy()
  })

  it("a smart account the site's verifier refuses: 'This application might not support Smart Accounts' as an alert, with what to do", async () => {
    const wallet = testWallet({ families: { eip155: { accounts: [{ address: ALICE, type: "smartAccount" }], chainId: 31337 } } })
    const refusing: SiwxConfig = { ...siwx(), addSession: async () => Promise.reject(new Error("ERC-1271 is not supported")) }
    const host = runtimeFor(wallet, { options: { siwx: refusing } })
    runtime = host
    renderHost(host)
    void host.run(Effect.flatMap(ConnectFlow, (flow) => flow.connect("Test Wallet"))).catch(() => undefined)
    const view = await findView("SIWXSignMessage")
    await act(async () => fireEvent.click(await within(view).findByRole("button", { name: "Sign" })))
    const alert = await within(view).findByRole("alert")
    expect(within(alert).getByText("This application might not support Smart Accounts")).toBeTruthy()
    expect(alert.textContent).toContain("Switch to your EOA in the account view, or ask the site to accept smart accounts.")
    expect(within(view).getByRole("button", { name: "Try again" })).toBeTruthy()
  })

  /** A wallet connected where sign-in is required: the sign view it opens, and the runtime. */
  const requiredSignView = async () => {
    const host = runtimeFor(testWallet(), { options: { siwx: { ...siwx(), getRequired: () => true } } })
    runtime = host
    renderHost(host)
    void host.run(Effect.flatMap(ConnectFlow, (flow) => flow.connect("Test Wallet"))).catch(() => undefined)
    return { view: await findView("SIWXSignMessage"), host }
  }

  it("sign-in required: the header offers no Close (it could only shake), focus is on the view's heading, Escape shakes and keeps it, Tab goes between Disconnect and Sign", async () => {
    const { view } = await requiredSignView()
    const sign = await within(view).findByRole("button", { name: "Sign" })
    expect(within(view).queryByRole("button", { name: "Close" })).toBeNull()
    const heading = within(view).getByRole("heading", { level: 3 })
    await waitFor(() => expect(document.activeElement).toBe(heading))
    fireEvent.keyDown(view, { key: "Escape" })
    await waitFor(() => expect(view.getAttribute("data-shake")).toBe("true"))
    expect(screen.getByRole("dialog")).toBe(view)
    expect(view.getAttribute("data-view")).toBe("SIWXSignMessage")
    const disconnect = within(view).getByRole("button", { name: "Disconnect" })
    fireEvent.keyDown(view, { key: "Tab" })
    expect(document.activeElement).toBe(disconnect)
    fireEvent.keyDown(view, { key: "Tab" })
    expect(document.activeElement).toBe(sign)
    fireEvent.keyDown(view, { key: "Tab" })
    expect(document.activeElement).toBe(disconnect)
  })

  it("sign-in required, another view over the sign view (the embedded wallet's Recover comes first that way): no Close there either, and Back returns to the sign view", async () => {
    const { view, host } = await requiredSignView()
    await within(view).findByRole("button", { name: "Sign" })
    await act(() => host.run(Effect.flatMap(Modal, (modal) => modal.push({ view: "WhatIsAWallet" }))))
    await waitFor(() => expect(view.getAttribute("data-view")).toBe("WhatIsAWallet"))
    expect(within(view).queryByRole("button", { name: "Close" })).toBeNull()
    await act(async () => fireEvent.click(within(view).getByRole("button", { name: "Back" })))
    await waitFor(() => expect(view.getAttribute("data-view")).toBe("SIWXSignMessage"))
    expect(within(view).getByRole("button", { name: "Disconnect" })).toBeTruthy()
  })

  /** The sign view of an account whose wallet says, before signing, that it cannot sign on this device at all. */
  const cannotSignHere = async (required: boolean) => {
    const wallet = testWallet()
    const host = runtimeFor(wallet, { options: { siwx: { ...siwx(), getRequired: () => required } } })
    runtime = host
    await host.run(Effect.flatMap(Siwx, (s) => requireFirst(s.state, () => Effect.succeed({ reason: ELSEWHERE, final: true }))))
    renderHost(host)
    void host.run(Effect.flatMap(ConnectFlow, (flow) => flow.connect("Test Wallet"))).catch(() => undefined)
    const view = await findView("SIWXSignMessage")
    const alert = await within(view).findByRole("alert")
    expect(alert.textContent).toContain(ELSEWHERE)
    // Guidance, not a failure of the visitor's: the alert is titled by what to do.
    expect(within(alert).getByText("Protect your wallet first")).toBeTruthy()
    expect(alert.textContent).not.toContain("Sign-in failed")
    for (const name of ["Sign", "Try again", "Cancel"]) expect(within(view).queryByRole("button", { name })).toBeNull()
    expect(view.textContent).not.toContain("Sign a message with your wallet")
    // What was done on the other device reaches this one only when the visitor checks again.
    expect(within(view).getByRole("button", { name: "Check again" })).toBeTruthy()
    return { view, wallet, host }
  }
  const ELSEWHERE = "Open your wallet on the device where you first logged in, and protect it there."
  const evmStatus = (host: WalletRuntime) => host.run(Effect.flatMap(Connection, (c) => SubscriptionRef.get(c.state))).then((s) => s.namespaces.eip155?.account.status)

  it("nothing on this device can make the account sign, sign-in required: the words say what to do elsewhere, and Disconnect is the only way on", async () => {
    const { view, wallet, host } = await cannotSignHere(true)
    await act(async () => fireEvent.click(within(view).getByRole("button", { name: "Disconnect" })))
    await dialogClosed()
    expect(await evmStatus(host)).toBe("disconnected")
    expect(wallet.calls.filter((call) => call.startsWith("sign"))).toEqual([])
  })

  it("nothing on this device can make the account sign, sign-in not required: the header's Close is the one way out, and leaves the wallet connected without a session", async () => {
    const { view, wallet, host } = await cannotSignHere(false)
    // The body offers no second Close beside the header's (it was one before, doing the same).
    const closes = within(view).getAllByRole("button", { name: "Close" })
    expect(closes.length).toBe(1)
    expect(within(view).queryByRole("button", { name: "Disconnect" })).toBeNull()
    await act(async () => fireEvent.click(closes[0]!))
    await dialogClosed()
    expect(await evmStatus(host)).toBe("connected")
    expect(wallet.calls.filter((call) => call.startsWith("sign"))).toEqual([])
  })
})
