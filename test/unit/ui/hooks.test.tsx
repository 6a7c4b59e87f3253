// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from "@testing-library/react"
import { Effect } from "effect"
import { StrictMode } from "react"
import { afterEach, describe, expect, it } from "vitest"
import { localChainA, localChainB } from "../../../src/domain/Network"
import { testLayer } from "../../../src/layers/Test"
import { makeWalletRuntime, type WalletRuntime } from "../../../src/runtime"
import { makeFakeChainAdapter } from "../../../src/services/ChainAdapter"
import { Connection } from "../../../src/services/Connection"
import { useAccount, useConnectionStatus, useDisconnect, useModal, useNetwork } from "../../../src/ui/react/hooks"
import { WalletRuntimeProvider } from "../../../src/ui/react/WalletRuntimeProvider"

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"

const makeRuntime = (): WalletRuntime => {
  const adapter = Effect.runSync(
    makeFakeChainAdapter("eip155", { accounts: [{ address: ALICE, type: "eoa" }], chainId: 31337 })
  )
  return makeWalletRuntime({ projectId: "test", networks: [localChainA, localChainB] }, { layer: (o) => testLayer(o, [adapter]) })
}

function Panel() {
  const modal = useModal()
  const account = useAccount()
  const status = useConnectionStatus()
  const { network, networks, switchNetwork } = useNetwork()
  const disconnect = useDisconnect()
  return (
    <div>
      <button onClick={() => void modal.open()}>open</button>
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
      runtime.run(Effect.flatMap(Connection, (c) => c.connect({ namespace: "eip155", connectorId: "injected", network: localChainA })))
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
