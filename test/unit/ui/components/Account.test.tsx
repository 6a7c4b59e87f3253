// @vitest-environment happy-dom
import { act, cleanup, screen, within } from "@testing-library/react"
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { localChainA, westend } from "../../../../src/domain/networks"
import type { WalletRuntime } from "../../../../src/runtime"
import { Connection } from "../../../../src/services/Connection"
import { Modal } from "../../../../src/services/Modal"
import { type FakeAnswer, makeFakeHttp } from "../../support/fakeHttpClient"
import { ALICE, ALICE_SHORT, findView, renderHost, runtimeFor, testWallet } from "./support"

let runtime: WalletRuntime | undefined

afterEach(async () => {
  cleanup()
  await runtime?.dispose()
  runtime = undefined
})

/** A blockchain service holding 1.23456789 ETH for Alice on Local Chain A, and her name unless `anonymous`. */
const blockchainService = (answers: { readonly balance: "ok" | "down"; readonly name: string | null }) =>
  makeFakeHttp((request): FakeAnswer => {
    const path = request.url.pathname
    if (path.endsWith("/v1/supported-chains")) return { status: 200, json: { http: ["eip155:31337"], ws: [] } }
    if (path.endsWith(`/v1/account/${ALICE}/balance`)) {
      if (answers.balance === "down") return { status: 503, json: {} }
      return {
        status: 200,
        json: {
          balances: [
            {
              name: "Ether",
              symbol: "ETH",
              chainId: "eip155:31337",
              price: 0,
              quantity: { decimals: "18", numeric: "1.23456789" },
              iconUrl: ""
            }
          ]
        }
      }
    }
    if (path.endsWith(`/v1/identity/${ALICE}`)) return { status: 200, json: { name: answers.name, avatar: null } }
    return { status: 404, json: {} }
  })

const openAccount = async (answers: Parameters<typeof blockchainService>[0]) => {
  const wallet = runtimeFor(testWallet(), { http: blockchainService(answers).layer })
  runtime = wallet
  renderHost(wallet)
  await act(async () => {
    await wallet.run(Effect.flatMap(Connection, (c) => c.connect({ connectorId: "test-wallet", networks: [localChainA] })))
    await wallet.run(Effect.flatMap(Modal, (m) => m.open()))
  })
  return findView("Account")
}

describe("Account", () => {
  it("shows the identity's name over the truncated address, and the balance with 3 decimals", async () => {
    const account = await openAccount({ balance: "ok", name: "alice.eth" })
    expect(await within(account).findByRole("heading", { name: "alice.eth" })).toBeTruthy()
    expect(within(account).getByText(ALICE_SHORT)).toBeTruthy()
    // The balance under the name (the Tokens tab lists it again in its row).
    expect(await within(account).findByText("1.234 ETH", { selector: "p" })).toBeTruthy()
    // The host's account button shows them too.
    expect(await screen.findByRole("button", { name: /1\.234 ETH.*alice\.eth/, hidden: true })).toBeTruthy()
  })

  it("shows the truncated address without a name, and says when the balance is unavailable", async () => {
    const account = await openAccount({ balance: "down", name: null })
    expect(await within(account).findByRole("heading", { name: ALICE_SHORT })).toBeTruthy()
    expect(await within(account).findAllByText("Token Balance Unavailable")).not.toHaveLength(0)
    expect(within(account).queryByText(/ETH/)).toBeNull()
  })
})

describe("Account of a social login", () => {
  it("names the provider and the user from the account state (spec 3's socialProvider and user, as useAccount gives them)", async () => {
    const account = await openAccount({ balance: "ok", name: null })
    expect(within(account).queryByText("alice-fc")).toBeNull()
    const wallet = runtime
    if (wallet === undefined) throw new Error("no runtime")
    await act(async () => {
      await wallet.run(
        Effect.flatMap(Connection, (c) => c.updateAccount("eip155", (state) => ({ ...state, socialProvider: "farcaster", user: { email: null, username: "alice-fc" } })))
      )
    })
    expect(await within(account).findByText("alice-fc")).toBeTruthy()
    expect(within(account).getByText("Farcaster:")).toBeTruthy()
  })
})

describe("Account of a family without balances (Polkadot)", () => {
  const POLKADOT_ALICE = "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY"

  it("shows the address and the network, says what is not available, and asks the blockchain service nothing", async () => {
    // A service that would answer a balance for anyone: the view must not show one for a Polkadot account.
    const http = makeFakeHttp((request): FakeAnswer => {
      if (request.url.pathname.endsWith("/v1/supported-chains")) return { status: 200, json: { http: [`polkadot:${westend.id}`], ws: [] } }
      return { status: 200, json: { balances: [{ name: "Westend", symbol: "WND", chainId: `polkadot:${westend.id}`, price: 0, quantity: { decimals: "12", numeric: "0" }, iconUrl: "" }] } }
    })
    const wallet = testWallet({ id: "polkadot-wallet", name: "Polkadot Wallet", families: { polkadot: { accounts: [{ address: POLKADOT_ALICE, type: "eoa" }], chainId: westend.id } } })
    runtime = runtimeFor(wallet, { http: http.layer, options: { networks: [westend] } })
    renderHost(runtime)
    const open = runtime
    await act(async () => {
      await open.run(Effect.flatMap(Connection, (c) => c.connect({ connectorId: "polkadot-wallet", networks: [westend] })))
      await open.run(Effect.flatMap(Modal, (m) => m.open()))
    })
    const account = await findView("Account")
    expect(await within(account).findByRole("heading", { name: "5Grw…GKutQY" })).toBeTruthy()
    expect(within(account).getByRole("button", { name: /Westend/ })).toBeTruthy()
    expect(within(account).getByTestId("unavailable-features").textContent).toBe(
      "Balances, tokens, NFTs, activity, names and sending are not available for Polkadot accounts."
    )
    expect(within(account).queryByText(/0\.00|WND/)).toBeNull()
    expect(within(account).queryByRole("tablist")).toBeNull()
    expect(within(account).queryByRole("button", { name: "Send" })).toBeNull()
    expect(http.requests.filter((request) => /\/v1\/(account|identity|profile)\//.test(request.url.pathname))).toEqual([])
  })
})
