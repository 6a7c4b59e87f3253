// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react"
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { UserRejected } from "../../../../src/domain/errors"
import { localChainA, localSolana } from "../../../../src/domain/networks"
import type { WalletRuntime } from "../../../../src/runtime"
import { Connection } from "../../../../src/services/Connection"
import type { FakeWallet } from "../../../../src/services/fakes/FakeWallet"
import { Modal } from "../../../../src/services/Modal"
import { type FakeAnswer, makeFakeHttp } from "../../support/fakeHttpClient"
import { ALICE, findView, renderHost, runtimeFor, testWallet } from "./support"

const SUFFIX = ".wallet.test"
const SOL_ALICE = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"

let runtime: WalletRuntime | undefined

afterEach(async () => {
  cleanup()
  await runtime?.dispose()
  runtime = undefined
})

/** The names service: alice.wallet.test is taken, Alice has no name until she registers one (or `named`). */
const namesService = (named: string | undefined = undefined) => {
  const names: Array<string> = named === undefined ? [] : [named]
  return makeFakeHttp((request): FakeAnswer => {
    const path = request.url.pathname
    if (path.endsWith("/v1/supported-chains")) return { status: 200, json: { http: ["eip155:31337"], ws: [] } }
    if (path.endsWith("/balance")) return { status: 200, json: { balances: [] } }
    if (path.endsWith(`/v1/identity/${ALICE}`)) return { status: 200, json: { name: null, avatar: null } }
    if (path.endsWith(`/v1/profile/reverse/${ALICE}`)) return { status: 200, json: { names: names.map((name) => ({ name, addresses: {} })) } }
    if (path === "/v1/profile/account/alice.wallet.test") {
      return { status: 200, json: { name: "alice.wallet.test", addresses: { "2147514985": { address: "0x70997970C51812dc3A010C7d01b50e0d17dc79C8" } } } }
    }
    if (path.startsWith("/v1/profile/account/")) return { status: 404, json: { reasons: [{ description: "Name not found" }] } }
    if (path.startsWith("/v1/profile/suggestions/")) {
      const label = decodeURIComponent(path.slice("/v1/profile/suggestions/".length))
      return {
        status: 200,
        json: {
          suggestions: [
            { name: `${label}${SUFFIX}`, registered: label === "alice" },
            { name: `${label}7${SUFFIX}`, registered: false }
          ]
        }
      }
    }
    if (path === "/v1/profile/account" && request.method === "POST") {
      const { name } = JSON.parse((request.body as { message: string }).message) as { name: string }
      names.unshift(name)
      return { status: 200, json: { name, addresses: { "2147514985": { address: ALICE } }, attributes: {} } }
    }
    return { status: 404, json: {} }
  })
}

const openAccount = async (options: { readonly wallet?: FakeWallet; readonly named?: string; readonly solana?: boolean } = {}) => {
  const wallet = options.wallet ?? testWallet()
  const http = namesService(options.named)
  const made = runtimeFor(wallet, {
    http: http.layer,
    options: { nameSuffix: SUFFIX, ...(options.solana === true ? { networks: [localSolana] } : {}) }
  })
  runtime = made
  renderHost(made)
  await act(async () => {
    await made.run(
      Effect.flatMap(Connection, (c) => c.connect({ connectorId: "test-wallet", networks: [options.solana === true ? localSolana : localChainA] }))
    )
    await made.run(Effect.flatMap(Modal, (m) => m.open()))
  })
  return { wallet, http, account: await findView("Account") }
}

/** The words under the name field (what its `aria-describedby` points at, after the suffix). */
const wordsOf = (input: HTMLElement) => {
  const ids = (input.getAttribute("aria-describedby") ?? "").split(" ")
  return document.getElementById(ids[1] ?? "")
}

const openForm = async (account: HTMLElement) => {
  fireEvent.click(await within(account).findByRole("button", { name: "Choose a name" }))
  const view = await findView("RegisterAccountName")
  return { view, input: await within(view).findByLabelText("Name") }
}

describe("RegisterAccountName", () => {
  it("says the rules in words as the visitor types, then whether the name is free, politely; Register waits for a free name", async () => {
    const { account } = await openAccount()
    const { view, input } = await openForm(account)
    const suffix = document.getElementById((input.getAttribute("aria-describedby") ?? "").split(" ")[0] ?? "")
    expect(suffix?.textContent).toBe(SUFFIX)
    const words = wordsOf(input)
    expect(words?.getAttribute("role")).toBe("status")
    const register = within(view).getByRole("button", { name: "Register" })
    expect(register).toHaveProperty("disabled", true)

    fireEvent.change(input, { target: { value: "ali" } })
    await waitFor(() => expect(wordsOf(input)?.textContent).toBe("A name has at least 4 characters"))
    expect(input.getAttribute("aria-invalid")).toBe("true")
    fireEvent.change(input, { target: { value: "ali ce" } })
    await waitFor(() => expect(wordsOf(input)?.textContent).toBe("A name has only letters, digits and hyphens"))
    fireEvent.change(input, { target: { value: "al--ice" } })
    await waitFor(() => expect(wordsOf(input)?.textContent).toBe("A name cannot have hyphens as its 3rd and 4th characters"))

    fireEvent.change(input, { target: { value: "alice" } })
    await waitFor(() => expect(wordsOf(input)?.textContent).toBe("Checking alice.wallet.test…"))
    await waitFor(() => expect(wordsOf(input)?.textContent).toBe("alice.wallet.test is taken"))
    expect(register).toHaveProperty("disabled", true)

    fireEvent.change(input, { target: { value: "alice-in-chains" } })
    await waitFor(() => expect(wordsOf(input)?.textContent).toBe("alice-in-chains.wallet.test is available"))
    expect(input.getAttribute("aria-invalid")).toBe("false")
    expect(within(view).getByRole("button", { name: "Register" })).toHaveProperty("disabled", false)
  })

  it("offers free names like a taken one as buttons; choosing one by keyboard fills the field and it can be registered", async () => {
    const { account } = await openAccount()
    const { view, input } = await openForm(account)
    fireEvent.change(input, { target: { value: "alice" } })
    const suggestions = await within(view).findByRole("list", { name: "Suggestions" })
    const suggestion = within(suggestions).getByRole("button", { name: "alice7.wallet.test" })
    expect(within(suggestions).queryByRole("button", { name: "alice.wallet.test" })).toBeNull()
    suggestion.focus()
    fireEvent.click(suggestion)
    expect((input as HTMLInputElement).value).toBe("alice7")
    expect(document.activeElement).toBe(input)
    await waitFor(() => expect(wordsOf(input)?.textContent).toBe("alice7.wallet.test is available"))
  })

  it("registers: the success view while the wallet signs, then the name; Done shows it on the account and its button", async () => {
    const { account, wallet, http } = await openAccount()
    const { view, input } = await openForm(account)
    fireEvent.change(input, { target: { value: "wonderland" } })
    await waitFor(() => expect(within(view).getByRole("button", { name: "Register" })).toHaveProperty("disabled", false))
    // Enter in the field registers, as the button does.
    fireEvent.submit(within(view).getByRole("form", { name: "Choose a name" }))
    const success = await findView("RegisterAccountNameSuccess")
    expect(await within(success).findByRole("heading", { name: "Name registered" })).toBeTruthy()
    expect(within(success).getByText("wonderland.wallet.test")).toBeTruthy()
    expect(wallet.calls.some((call) => call.startsWith('sign:{"name":"wonderland.wallet.test","attributes":{},"timestamp":'))).toBe(true)
    expect(http.to("/v1/profile/account").map((r) => (r.body as { coin_type: number }).coin_type)).toEqual([2_147_514_985])
    fireEvent.click(within(success).getByRole("button", { name: "Done" }))
    const back = await findView("Account")
    expect(await within(back).findByRole("heading", { name: "wonderland.wallet.test" })).toBeTruthy()
    expect(within(back).queryByRole("button", { name: "Choose a name" })).toBeNull()
    const host = screen.getByTestId("host")
    await waitFor(() => expect(within(host).getAllByText("wonderland.wallet.test").length).toBeGreaterThan(0))
  })

  it("a refusal in the wallet brings the visitor back, said in their words, with Try again", async () => {
    const wallet = testWallet({ signError: new UserRejected({ code: 4001 }) })
    const { account } = await openAccount({ wallet })
    const { view, input } = await openForm(account)
    fireEvent.change(input, { target: { value: "wonderland" } })
    await waitFor(() => expect(within(view).getByRole("button", { name: "Register" })).toHaveProperty("disabled", false))
    fireEvent.click(within(view).getByRole("button", { name: "Register" }))
    const form = await findView("RegisterAccountName")
    const alert = await within(form).findByRole("alert")
    expect(alert.textContent).toContain("Request declined")
    expect(alert.textContent).toContain("User rejected the request.")
    expect((within(form).getByLabelText("Name") as HTMLInputElement).value).toBe("wonderland")
    wallet.script.signError = undefined
    fireEvent.click(within(form).getByRole("button", { name: "Try again" }))
    const success = await findView("RegisterAccountNameSuccess")
    expect(await within(success).findByRole("heading", { name: "Name registered" })).toBeTruthy()
  })
})

describe("the Account view's Choose a name", () => {
  it("is not offered to an account that has a name", async () => {
    const { account } = await openAccount({ named: "alice.wallet.test" })
    expect(await within(account).findByRole("heading", { name: "alice.wallet.test" })).toBeTruthy()
    expect(within(account).queryByRole("button", { name: "Choose a name" })).toBeNull()
  })

  it("is not offered to an account of another family", async () => {
    const wallet = testWallet({ families: { solana: { accounts: [{ address: SOL_ALICE, type: "eoa" }], chainId: localSolana.id } } })
    const { account } = await openAccount({ wallet, solana: true })
    await within(account).findByRole("button", { name: "Disconnect" })
    // The identity has answered (no name): the button would be there by now for an EVM account.
    await act(async () => {
      await new Promise((resolve) => setTimeout(resolve, 50))
    })
    expect(within(account).queryByRole("button", { name: "Choose a name" })).toBeNull()
  })
})
