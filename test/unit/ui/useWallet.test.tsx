// @vitest-environment happy-dom
import { act, cleanup, render, screen } from "@testing-library/react"
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { localChainA } from "../../../src/domain/networks"
import { testLayer } from "../../../src/layers/Test"
import { makeWalletRuntime } from "../../../src/runtime"
import { Connection } from "../../../src/services/Connection"
import { makeFakeWallet } from "../../../src/services/fakes/FakeWallet"
import { useWallet } from "../../../src/ui/react/hooks"
import { WalletRuntimeProvider } from "../../../src/ui/react/WalletRuntimeProvider"
import { loadCore } from "../../../src/ui/react/shell"

// The runtime's code is on the page before these tests render (test/unit/ui/lazyCore*.test.tsx cover the page before it).
await loadCore()

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"

afterEach(cleanup)

function Wallet() {
  const w = useWallet()
  return (
    <div>
      <p data-testid="summary">
        {w.isConnected ? `${w.wallet?.name ?? "?"} (${w.wallet?.type ?? "?"}) ${w.account.address ?? ""} on ${w.network?.name ?? "?"}` : w.status}
      </p>
      <button onClick={() => void w.disconnect()}>disconnect</button>
    </div>
  )
}

describe("useWallet", () => {
  it("names the wallet in use with its account and network, and disconnects", async () => {
    const wallet = Effect.runSync(
      makeFakeWallet({
        id: "io.metamask",
        name: "MetaMask",
        type: "ANNOUNCED",
        rdns: "io.metamask",
        families: { eip155: { accounts: [{ address: ALICE, type: "eoa" }], chainId: 31337 } }
      })
    )
    const runtime = makeWalletRuntime({ projectId: "p", networks: [localChainA] }, { layer: (o) => testLayer(o, { wallets: [wallet] }) })
    render(
      <WalletRuntimeProvider runtime={runtime}>
        <Wallet />
      </WalletRuntimeProvider>
    )
    expect(await screen.findByText("disconnected")).toBeTruthy()
    await act(() =>
      runtime.run(Effect.flatMap(Connection, (c) => c.connect({ connectorId: "io.metamask", networks: [localChainA] })))
    )
    expect(await screen.findByText(`MetaMask (ANNOUNCED) ${ALICE} on Local Chain A`)).toBeTruthy()
    await act(async () => screen.getByText("disconnect").click())
    expect(await screen.findByText("disconnected")).toBeTruthy()
    expect(wallet.calls).toEqual(["connect:io.metamask", "disconnect"])
    await runtime.dispose()
  })
})
