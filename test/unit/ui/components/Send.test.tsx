// @vitest-environment happy-dom
import { act, cleanup, fireEvent, waitFor, within } from "@testing-library/react"
import { Effect } from "effect"
import * as AsyncResult from "effect/reactivity/AsyncResult"
import { afterEach, describe, expect, it } from "vitest"
import { localChainA } from "../../../../src/domain/networks"
import type { WalletRuntime } from "../../../../src/runtime"
import { Connection } from "../../../../src/services/Connection"
import { Modal } from "../../../../src/services/Modal"
import { servedFeaturesAtom } from "../../../../src/ui/atoms/servedFeatures"
import { makeFakeHttp } from "../../support/fakeHttpClient"
import { decodeQr } from "./qrDecoder"
import { ALICE, findView, renderHost, runtimeFor, testWallet } from "./support"

const BOB = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"

let runtime: WalletRuntime | undefined

afterEach(async () => {
  cleanup()
  await runtime?.dispose()
  runtime = undefined
})

/**
 * Alice holds 1 ETH ($3000) and 25 WUSD on Local Chain A; the services swap on `swaps` and their on-ramp provider
 * delivers on `onramp` (their host's config).
 */
const blockchainService = (swaps: ReadonlyArray<string> = ["eip155:31337"], onramp: ReadonlyArray<string> = ["eip155:31337", "eip155:31338"]) =>
  makeFakeHttp((request) => {
    const path = request.url.pathname
    if (path.endsWith("/v1/supported-chains")) return { status: 200, json: { http: ["eip155:31337", "eip155:31338"], ws: [], swaps, onramp } }
    if (path.endsWith(`/v1/account/${ALICE}/balance`)) {
      return {
        status: 200,
        json: {
          balances: [
            { name: "Ether", symbol: "ETH", chainId: "eip155:31337", address: "eip155:31337:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee", price: 3000, value: 3000, quantity: { decimals: "18", numeric: "1" }, iconUrl: "" },
            { name: "Wallet Runtime USD", symbol: "WUSD", chainId: "eip155:31337", address: "eip155:31337:0x5fbdb2315678afecb367f032d93f642f64180aa3", price: 1, value: 25, quantity: { decimals: "6", numeric: "25" }, iconUrl: "" }
          ]
        }
      }
    }
    if (path.endsWith(`/v1/identity/${ALICE}`)) return { status: 200, json: { name: null, avatar: null } }
    return { status: 404, json: {} }
  })

const openAccount = async (options: Record<string, unknown> = {}, swaps?: ReadonlyArray<string>, onramp?: ReadonlyArray<string>) => {
  const wallet = testWallet()
  const made = runtimeFor(wallet, { http: blockchainService(swaps, onramp).layer, options })
  runtime = made
  renderHost(made)
  await act(async () => {
    await made.run(Effect.flatMap(Connection, (c) => c.connect({ connectorId: "test-wallet", networks: [localChainA] })))
    await made.run(Effect.flatMap(Modal, (m) => m.open()))
  })
  return { wallet, account: await findView("Account") }
}

const featureButtons = async (account: HTMLElement) =>
  within(await within(account).findByRole("group", { name: "Wallet features" }))
    .getAllByRole("button")
    .map((button) => button.textContent)

describe("the account's wallet features", () => {
  it("shows Buy, Swap, Receive then Send (the spec's order) on a swap network", async () => {
    const { account } = await openAccount()
    // Swap once the services said they swap on this network.
    await waitFor(async () => expect(await featureButtons(account)).toEqual(["Buy", "Swap", "Receive", "Send"]))
  })

  it("offers Swap only on the networks the services swap on (their host's config), whatever the network", async () => {
    const { account } = await openAccount({}, ["eip155:31338"])
    const registry = runtime!.registry
    const here = servedFeaturesAtom("eip155:31337")
    const unmount = registry.mount(here)
    await waitFor(() => expect(AsyncResult.isSuccess(registry.get(here))).toBe(true))
    expect(AsyncResult.getOrElse(registry.get(here), () => undefined)).toEqual({ swaps: false, onramp: true })
    expect(await featureButtons(account)).toEqual(["Buy", "Receive", "Send"])
    unmount()
    const there = servedFeaturesAtom("eip155:31338")
    const unmountThere = registry.mount(there)
    await waitFor(() => expect(AsyncResult.getOrElse(registry.get(there), () => undefined)).toEqual({ swaps: true, onramp: true }))
    unmountThere()
  })

  it("offers Buy only where the services' on-ramp provider delivers (none: the host configured no provider)", async () => {
    const { account } = await openAccount({}, ["eip155:31337"], [])
    // Swap shows once the services answered, from the same answer that leaves Buy out.
    await waitFor(async () => expect(await featureButtons(account)).toEqual(["Swap", "Receive", "Send"]))
  })

  it("follows the host's order, and leaves out a feature the host turned off", async () => {
    const ordered = await openAccount({ features: { walletFeaturesOrder: ["send", "receive"] } })
    // The features the host did not order follow in the spec's order.
    await waitFor(async () => expect(await featureButtons(ordered.account)).toEqual(["Send", "Receive", "Buy", "Swap"]))
    cleanup()
    await runtime?.dispose()
    const noSend = await openAccount({ features: { send: false, swaps: false, onramp: false } })
    expect(await featureButtons(noSend.account)).toEqual(["Receive"])
  })
})

describe("Send", () => {
  it("continue with nothing typed says what is missing beside each field; a valid form reaches the review, then the result", async () => {
    const { account, wallet } = await openAccount()
    fireEvent.click(await within(account).findByRole("button", { name: "Send" }))
    const form = await findView("Send")
    const amount = await within(form).findByLabelText("Amount")
    const to = within(form).getByLabelText("To")
    fireEvent.click(within(form).getByRole("button", { name: "Continue" }))
    await waitFor(() => expect(amount.getAttribute("aria-invalid")).toBe("true"))
    expect(document.getElementById(amount.getAttribute("aria-describedby") ?? "")?.textContent).toBe("Enter an amount")
    expect(to.getAttribute("aria-invalid")).toBe("true")
    expect(document.getElementById(to.getAttribute("aria-describedby") ?? "")?.textContent).toBe("Enter the receiver's address or name")

    fireEvent.change(within(form).getByLabelText("Token"), { target: { value: "0x5fbdb2315678afecb367f032d93f642f64180aa3" } })
    fireEvent.change(amount, { target: { value: "2.1234567" } })
    await waitFor(() => expect(document.getElementById(amount.getAttribute("aria-describedby") ?? "")?.textContent).toBe("WUSD has at most 6 decimals"))
    fireEvent.change(amount, { target: { value: "2.5" } })
    fireEvent.change(to, { target: { value: BOB } })
    await waitFor(() => expect(amount.getAttribute("aria-invalid")).toBe("false"))
    fireEvent.click(within(form).getByRole("button", { name: "Continue" }))

    const review = await findView("SendReview")
    // The view comes with its frame first; its lines follow from the service (on a busy machine, a moment later).
    expect(await within(review).findByText("2.5 WUSD", {}, { timeout: 10_000 })).toBeTruthy()
    expect(within(review).getByText(BOB)).toBeTruthy()
    expect(within(review).getByText("0.000021 ETH")).toBeTruthy()
    fireEvent.click(within(review).getByRole("button", { name: "Confirm" }))

    const result = await findView("SendResult")
    expect(await within(result).findByRole("heading", { name: "Transaction confirmed" })).toBeTruthy()
    expect(wallet.calls).toContain(`send:${BOB}:2500000:0x5fbdb2315678afecb367f032d93f642f64180aa3`)
    fireEvent.click(within(result).getByRole("button", { name: "Done" }))
    await findView("Account")
  })

  it("a refusal in the wallet is said in the visitor's words, with Try again", async () => {
    const { account, wallet } = await openAccount()
    const { UserRejected } = await import("../../../../src/domain/errors")
    wallet.script.sendError = new UserRejected({ code: 4001 })
    fireEvent.click(await within(account).findByRole("button", { name: "Send" }))
    const form = await findView("Send")
    fireEvent.change(await within(form).findByLabelText("Amount"), { target: { value: "0.1" } })
    fireEvent.change(within(form).getByLabelText("To"), { target: { value: BOB } })
    fireEvent.click(within(form).getByRole("button", { name: "Continue" }))
    fireEvent.click(within(await findView("SendReview")).getByRole("button", { name: "Confirm" }))
    const result = await findView("SendResult")
    expect(await within(result).findByRole("heading", { name: "Request declined" })).toBeTruthy()
    expect(within(result).getByRole("alert").textContent).toContain("User rejected the request.")
    wallet.script.sendError = undefined
    fireEvent.click(within(result).getByRole("button", { name: "Try again" }))
    expect(await within(result).findByRole("heading", { name: "Transaction confirmed" })).toBeTruthy()
  })
})

/** The modules a scanner reads from the code's SVG: dots are dark modules, the three finder patterns are drawn whole. */
const modulesOf = (svg: Element): Array<Array<boolean>> => {
  const [min, , box] = svg.getAttribute("viewBox")!.split(" ").map(Number)
  const size = box! + 2 * min!
  const modules = Array.from({ length: size }, () => new Array<boolean>(size).fill(false))
  const [dots] = Array.from(svg.querySelectorAll("path"))
  for (const [, x, y] of dots!.getAttribute("d")!.matchAll(/M(\d+)\.5 (\d+)\.08/g)) modules[Number(y)]![Number(x)] = true
  for (const [cx, cy] of [[0, 0], [size - 7, 0], [0, size - 7]] as const) {
    for (let dy = 0; dy < 7; dy++) {
      for (let dx = 0; dx < 7; dx++) {
        const ring = dx === 0 || dx === 6 || dy === 0 || dy === 6
        const centre = dx >= 2 && dx <= 4 && dy >= 2 && dy <= 4
        modules[cy + dy]![cx + dx] = ring || centre
      }
    }
  }
  return modules
}

describe("Receive", () => {
  it("shows the address as a QR code that decodes to it, in full, and the networks it receives on", async () => {
    const { account } = await openAccount()
    fireEvent.click(await within(account).findByRole("button", { name: "Receive" }))
    const receive = await findView("Receive")
    const qr = await within(receive).findByRole("img", { name: "QR code of your address" })
    expect(decodeQr(modulesOf(qr)).text).toBe(ALICE)
    expect(within(receive).getByText(ALICE)).toBeTruthy()
    // An EVM address receives on every EVM network of the host.
    expect(within(receive).getAllByRole("listitem").map((item) => item.textContent)).toEqual(["Local Chain A", "Local Chain B"])
    expect(within(receive).getByRole("button", { name: "Copy address" })).toBeTruthy()
  })
})

describe("a form opened as the host leaves", () => {
  it("opens nothing once its code arrives after the runtime was disposed, and leaves no rejection behind", async () => {
    const rejections: Array<unknown> = []
    const record = (reason: unknown) => void rejections.push(reason)
    process.on("unhandledRejection", record)
    try {
      const { account } = await openAccount()
      const swap = await within(account).findByRole("button", { name: "Swap" })
      // Swap's code is fetched on the click (a dynamic import settles later, however cached); the host leaves at once:
      // its tree goes, then its runtime (the registry is disposed before the first await of `dispose`).
      fireEvent.click(swap)
      cleanup()
      const leaving = runtime?.dispose()
      runtime = undefined
      await leaving
      // The code has arrived, and Node has said which rejections nobody handled (after the microtasks of this turn).
      await import("../../../../src/ui/atoms/swap")
      await new Promise<void>((resolve) => setImmediate(resolve))
      expect(rejections).toEqual([])
    } finally {
      process.off("unhandledRejection", record)
    }
  })
})
