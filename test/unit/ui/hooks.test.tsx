// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from "@testing-library/react"
import { Effect, SubscriptionRef } from "effect"
import { StrictMode, useState } from "react"
import { afterEach, describe, expect, it } from "vitest"
import { localChainA, localChainB } from "../../../src/domain/networks"
import { testLayer } from "../../../src/layers/Test"
import { makeWalletRuntime, type WalletRuntime } from "../../../src/runtime"
import { Connection } from "../../../src/services/Connection"
import { type FakeWallet, makeFakeWallet } from "../../../src/services/fakes/FakeWallet"
import {
  useAccount,
  useConnect,
  useConnectionStatus,
  useDisconnect,
  useModal,
  useNetwork,
  useOnramp,
  useSendCalls,
  useSwap
} from "../../../src/ui/react/hooks"
import { WalletRuntimeProvider } from "../../../src/ui/react/WalletRuntimeProvider"
import { loadCore } from "../../../src/ui/react/shell"

// The runtime's code is on the page before these tests render (test/unit/ui/lazyCore*.test.tsx cover the page before it).
await loadCore()

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"

const makeWallet = (): FakeWallet =>
  Effect.runSync(
    makeFakeWallet({ name: "Browser Wallet", families: { eip155: { accounts: [{ address: ALICE, type: "eoa" }], chainId: 31337 } } })
  )

const makeRuntime = (wallet: FakeWallet = makeWallet()): WalletRuntime =>
  makeWalletRuntime({ projectId: "test", networks: [localChainA, localChainB] }, { layer: (o) => testLayer(o, { wallets: [wallet] }) })

function Panel() {
  const modal = useModal()
  const account = useAccount()
  const status = useConnectionStatus()
  const { network, networks, switchNetwork } = useNetwork()
  const disconnect = useDisconnect()
  return (
    <div>
      <button onClick={() => void modal.open()}>open</button>
      <button onClick={() => void modal.open({ view: "Networks" })}>open networks</button>
      <button onClick={() => void modal.close()}>close</button>
      <button onClick={() => void switchNetwork("eip155:31338")}>switch</button>
      <button onClick={() => void disconnect()}>disconnect</button>
      <p data-testid="modal">{modal.isOpen ? `open:${modal.view}` : "closed"}</p>
      <p data-testid="status">{status}</p>
      <p data-testid="address">{account.address ?? "none"}</p>
      <p data-testid="network">{network?.name ?? "…"}</p>
      <p data-testid="count">{networks.length}</p>
    </div>
  )
}

afterEach(cleanup)

const text = (id: string) => screen.getByTestId(id).textContent

describe("React hooks under WalletRuntimeProvider", () => {
  it("follow the runtime: modal, network, connection and disconnect", async () => {
    const runtime = makeRuntime()
    render(
      <WalletRuntimeProvider runtime={runtime}>
        <Panel />
      </WalletRuntimeProvider>
    )
    expect(await screen.findByText("Local Chain A")).toBeTruthy()
    expect(text("count")).toBe("2")
    expect(text("modal")).toBe("closed")
    expect(text("status")).toBe("disconnected")

    fireEvent.click(screen.getByText("open"))
    expect(await screen.findByText("open:Connect")).toBeTruthy()

    await act(() =>
      runtime.run(Effect.flatMap(Connection, (c) => c.connect({ connectorId: "injected", networks: [localChainA] })))
    )
    expect(await screen.findByText(ALICE)).toBeTruthy()
    expect(text("status")).toBe("connected")

    fireEvent.click(screen.getByText("switch"))
    expect(await screen.findByText("Local Chain B")).toBeTruthy()

    fireEvent.click(screen.getByText("disconnect"))
    expect(await screen.findByText("none")).toBeTruthy()
    expect(text("status")).toBe("disconnected")

    fireEvent.click(screen.getByText("close"))
    expect(await screen.findByText("closed")).toBeTruthy()
    fireEvent.click(screen.getByText("open networks"))
    expect(await screen.findByText("open:Networks")).toBeTruthy()
    await runtime.dispose()
  })

  it("makes its own runtime from options and releases it on unmount, surviving StrictMode", async () => {
    const { unmount } = render(
      <StrictMode>
        <WalletRuntimeProvider options={{ projectId: "test", networks: [localChainA] }}>
          <Panel />
        </WalletRuntimeProvider>
      </StrictMode>
    )
    expect(await screen.findByText("Local Chain A")).toBeTruthy()
    fireEvent.click(screen.getByText("open"))
    expect(await screen.findByText("open:Connect")).toBeTruthy()
    unmount()
  })

  it("a hook outside the provider says what is missing", () => {
    expect(() => render(<Panel />)).toThrow(/WalletRuntimeProvider/)
  })
})

function Connector() {
  const connection = useConnect()
  const [outcome, setOutcome] = useState("none")
  const connect = () =>
    connection.connect("Browser Wallet").then(
      (wallet) => setOutcome(`resolved:${wallet.connector.id}:${wallet.accounts.eip155?.address ?? "?"}:${wallet.accounts.eip155?.chainId ?? "?"}`),
      () => setOutcome("rejected")
    )
  return (
    <div>
      <button onClick={() => void connect()}>connect</button>
      <button onClick={connection.cancel}>cancel</button>
      <p data-testid="connect-status">{connection.status}</p>
      <p data-testid="outcome">{outcome}</p>
      <p data-testid="connection">{useConnectionStatus("eip155")}</p>
    </div>
  )
}

describe("useConnect", () => {
  const renderConnector = (wallet: FakeWallet) => {
    const runtime = makeRuntime(wallet)
    render(
      <WalletRuntimeProvider runtime={runtime}>
        <Connector />
      </WalletRuntimeProvider>
    )
    return runtime
  }

  it("connects a wallet by name and resolves with its accounts", async () => {
    const wallet = makeWallet()
    const runtime = renderConnector(wallet)
    fireEvent.click(screen.getByText("connect"))
    expect(await screen.findByText(`resolved:injected:${ALICE}:31337`)).toBeTruthy()
    expect(text("connect-status")).toBe("success")
    expect(text("connection")).toBe("connected")
    expect(wallet.calls).toEqual(["connect:injected"])
    await runtime.dispose()
  })

  it("cancel stops a connect still waiting on the wallet: nothing connects when it answers late", async () => {
    const wallet = makeWallet()
    let answer = () => {}
    const answered = new Promise<void>((resolve) => {
      answer = resolve
    })
    wallet.script.connectGate = answered
    const runtime = renderConnector(wallet)
    fireEvent.click(screen.getByText("connect"))
    await waitFor(() => expect(text("connection")).toBe("connecting"))
    expect(text("connect-status")).toBe("pending")

    fireEvent.click(screen.getByText("cancel"))
    expect(await screen.findByText("rejected")).toBeTruthy()
    await waitFor(() => expect(text("connection")).toBe("disconnected"))
    expect(text("connect-status")).toBe("idle")

    answer()
    await act(() => runtime.run(Effect.promise(() => answered)))
    const state = await runtime.run(Effect.flatMap(Connection, (c) => SubscriptionRef.get(c.state)))
    expect(state.namespaces.eip155?.account.status).toBe("disconnected")
    expect(text("connection")).toBe("disconnected")
    await runtime.dispose()
  })

  it("a wallet the page does not have is 'Provider not found.'", async () => {
    const runtime = makeRuntime()
    function Missing() {
      const connection = useConnect()
      return (
        <div>
          <button onClick={() => void connection.connect("nowhere").catch(() => undefined)}>connect nowhere</button>
          <p data-testid="missing">{connection.status === "error" ? connection.error.message : connection.status}</p>
        </div>
      )
    }
    render(
      <WalletRuntimeProvider runtime={runtime}>
        <Missing />
      </WalletRuntimeProvider>
    )
    fireEvent.click(screen.getByText("connect nowhere"))
    expect(await screen.findByText("Provider not found.")).toBeTruthy()
    await runtime.dispose()
  })
})

function Forms() {
  const modal = useModal()
  const swap = useSwap()
  const onramp = useOnramp()
  return (
    <div>
      <button onClick={() => void modal.open()}>open modal</button>
      <button onClick={() => void modal.close()}>close modal</button>
      <button onClick={() => void swap.open()}>swap</button>
      <button onClick={() => void onramp.open()}>buy</button>
      <p data-testid="forms-modal">{modal.isOpen ? `open:${modal.view}` : "closed"}</p>
      <p data-testid="swap-form">{swap.state === undefined ? "none" : `for:${swap.state.caipAddress ?? "nobody"}`}</p>
      <p data-testid="buy-form">{onramp.state === undefined ? "none" : "ready"}</p>
    </div>
  )
}

describe("useSwap and useOnramp (their atoms fetched on first use)", () => {
  it("give the forms' state once their code is there, and open the Swap and Buy views", async () => {
    const runtime = makeRuntime()
    const { unmount } = render(
      <WalletRuntimeProvider runtime={runtime}>
        <Forms />
      </WalletRuntimeProvider>
    )
    expect(await screen.findByText("for:nobody")).toBeTruthy()
    // The two forms' atoms arrive each in its own time: the Buy form's may come after the Swap form's.
    await waitFor(() => expect(text("buy-form")).toBe("ready"))
    await act(() =>
      runtime.run(Effect.flatMap(Connection, (c) => c.connect({ connectorId: "injected", networks: [localChainA] })))
    )
    // With the modal closed, open() opens it on the form's view (a host's own Swap or Buy button).
    expect(text("forms-modal")).toBe("closed")
    fireEvent.click(screen.getByText("swap"))
    expect(await screen.findByText("open:Swap")).toBeTruthy()
    expect(await screen.findByText(`for:eip155:31337:${ALICE}`)).toBeTruthy()
    fireEvent.click(screen.getByText("close modal"))
    expect(await screen.findByText("closed")).toBeTruthy()
    fireEvent.click(screen.getByText("buy"))
    expect(await screen.findByText("open:Buy")).toBeTruthy()
    fireEvent.click(screen.getByText("close modal"))
    expect(await screen.findByText("closed")).toBeTruthy()
    // With the modal open on the account, open() goes to the form's view from there.
    fireEvent.click(screen.getByText("open modal"))
    expect(await screen.findByText("open:Account")).toBeTruthy()
    fireEvent.click(screen.getByText("swap"))
    expect(await screen.findByText("open:Swap")).toBeTruthy()
    fireEvent.click(screen.getByText("buy"))
    expect(await screen.findByText("open:Buy")).toBeTruthy()
    // As a host does: the tree goes before the runtime it was given (a form's atoms arriving late then mount nothing).
    unmount()
    await runtime.dispose()
  })
})

function Batch() {
  const batch = useSendCalls()
  return (
    <div>
      <button onClick={() => void batch.sendCalls({ calls: [{ to: ALICE, value: 1n }, { to: ALICE, data: "0x01" }] }).catch(() => {})}>send batch</button>
      <p data-testid="batch">
        {batch.status === "success"
          ? `done:${batch.id}:${batch.data.receipts?.length ?? 0}`
          : batch.status === "error"
            ? `failed:${batch.error.message}`
            : batch.status}
      </p>
    </div>
  )
}

describe("useSendCalls (its atoms fetched on first use)", () => {
  const receipt = { status: "0x1", transactionHash: `0x${"ab".repeat(32)}`, blockHash: `0x${"cd".repeat(32)}`, blockNumber: "0x5", gasUsed: "0x5208", logs: [] }
  const scripted = (final: number) => {
    const wallet = makeWallet()
    wallet.script.requestAnswer = (method) =>
      method === "wallet_sendCalls"
        ? { id: "0xb47c4" }
        : { version: "2.0.0", id: "0xb47c4", chainId: "0x7a69", status: final, atomic: true, receipts: [{ ...receipt, status: final === 200 ? "0x1" : "0x0" }] }
    return wallet
  }
  const sendWith = async (wallet: FakeWallet) => {
    const runtime = makeRuntime(wallet)
    const { unmount } = render(
      <WalletRuntimeProvider runtime={runtime}>
        <Batch />
      </WalletRuntimeProvider>
    )
    await act(() => runtime.run(Effect.flatMap(Connection, (c) => c.connect({ connectorId: "injected", networks: [localChainA] }))))
    expect(text("batch")).toBe("idle")
    fireEvent.click(screen.getByText("send batch"))
    // As a host does: the tree goes before the runtime it was given, so no atom is read from a disposed registry.
    return {
      dispose: async () => {
        unmount()
        await runtime.dispose()
      }
    }
  }

  it("sends the batch, follows it to final and gives its id and receipts", async () => {
    const wallet = scripted(200)
    const sent = await sendWith(wallet)
    expect(await screen.findByText("done:0xb47c4:1")).toBeTruthy()
    expect(wallet.calls.filter((call) => call.startsWith("request:"))).toEqual(["request:wallet_sendCalls", "request:wallet_getCallsStatus"])
    await sent.dispose()
  })

  it("a batch that reverted is a failure in words", async () => {
    const sent = await sendWith(scripted(500))
    expect(await screen.findByText("failed:The calls failed on chain: none of them took effect")).toBeTruthy()
    await sent.dispose()
  })
})
