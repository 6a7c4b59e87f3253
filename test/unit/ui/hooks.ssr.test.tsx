import { renderToString } from "react-dom/server"
import { describe, expect, it } from "vitest"
import { localChainA } from "../../../src/domain/networks"
import { useAccount, useModal, useNetwork } from "../../../src/ui/react/hooks"
import { WalletRuntimeProvider } from "../../../src/ui/react/WalletRuntimeProvider"
import { loadCore } from "../../../src/ui/react/shell"

// The runtime's code is on the page before these tests render (test/unit/ui/lazyCore*.test.tsx cover the page before it).
await loadCore()

function Status() {
  const account = useAccount()
  const modal = useModal()
  const { network } = useNetwork()
  return <p>{`${account.status}|${modal.isOpen}|${network?.name ?? "pending"}`}</p>
}

describe("server rendering", () => {
  it("renders with the live layers and touches no browser API", () => {
    expect(typeof window).toBe("undefined")
    const html = renderToString(
      <WalletRuntimeProvider options={{ projectId: "test", networks: [localChainA] }}>
        <Status />
      </WalletRuntimeProvider>
    )
    expect(html).toBe("<p>disconnected|false|pending</p>")
  })
})
