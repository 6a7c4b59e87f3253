// @vitest-environment happy-dom
/**
 * The sign-in view while the wallet's signature is pending: it says 'Authenticating...' (spec point 8's loading
 * message) until the wallet answers; a smart account whose signature the site refuses reads spec 8's words.
 */
import { act, cleanup, fireEvent, within } from "@testing-library/react"
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import type { SiwxConfig, SiwxSession } from "../../../../src/domain/Siwx"
import type { WalletRuntime } from "../../../../src/runtime"
import { ConnectFlow } from "../../../../src/services/ConnectFlow"
import { ALICE, findView, renderHost, runtimeFor, testWallet } from "./support"

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
})
