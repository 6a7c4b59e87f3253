// @vitest-environment happy-dom
import { act, cleanup, render, screen } from "@testing-library/react"
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { UserRejected } from "../../../src/domain/errors"
import { localChainA } from "../../../src/domain/Network"
import { testLayer } from "../../../src/layers/Test"
import { makeWalletRuntime } from "../../../src/runtime"
import { type FakeChainAdapter, makeFakeChainAdapter } from "../../../src/services/ChainAdapter"
import { Connection } from "../../../src/services/Connection"
import { useSignMessage } from "../../../src/ui/react/hooks"
import { WalletRuntimeProvider } from "../../../src/ui/react/WalletRuntimeProvider"

const ALICE = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"

afterEach(cleanup)

function Signer() {
  const sign = useSignMessage()
  return (
    <div>
      <button onClick={() => void sign.signMessage("hello").catch(() => undefined)}>sign</button>
      <p data-testid="state">
        {sign.status === "success" ? sign.data : sign.status === "error" ? `error:${sign.error.message}` : sign.status}
      </p>
    </div>
  )
}

const setup = async (connect: boolean) => {
  const adapter: FakeChainAdapter = Effect.runSync(
    makeFakeChainAdapter("eip155", { accounts: [{ address: ALICE, type: "eoa" }], chainId: 31337 })
  )
  const runtime = makeWalletRuntime({ projectId: "p", networks: [localChainA] }, { layer: (o) => testLayer(o, [adapter]) })
  if (connect) {
    await runtime.run(Effect.flatMap(Connection, (c) => c.connect({ namespace: "eip155", connectorId: "x", network: localChainA })))
  }
  render(
    <WalletRuntimeProvider runtime={runtime}>
      <Signer />
    </WalletRuntimeProvider>
  )
  return adapter
}

describe("useSignMessage", () => {
  it("signs with the wallet of the family in front", async () => {
    const adapter = await setup(true)
    await act(async () => screen.getByText("sign").click())
    expect(await screen.findByText(`signed(${ALICE}):hello`)).toBeTruthy()
    expect(adapter.calls).toContain("sign:hello")
  })

  it("shows the refusal", async () => {
    const adapter = await setup(true)
    adapter.script.signError = new UserRejected({ code: 4001 })
    await act(async () => screen.getByText("sign").click())
    expect(await screen.findByText("error:User rejected the request.")).toBeTruthy()
  })

  it("says nothing is connected rather than calling a wallet", async () => {
    const adapter = await setup(false)
    await act(async () => screen.getByText("sign").click())
    expect(await screen.findByText("error:CaipNetwork or CaipAddress is undefined")).toBeTruthy()
    expect(adapter.calls).toEqual([])
  })
})
