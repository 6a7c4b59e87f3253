import { renderToString } from "react-dom/server"
import { describe, expect, it } from "vitest"
import { localChainA } from "../../../../src/domain/networks"
import { AccountButton } from "../../../../src/ui/buttons/AccountButton/AccountButton"
import { ConnectButton } from "../../../../src/ui/buttons/ConnectButton/ConnectButton"
import { NetworkButton } from "../../../../src/ui/buttons/NetworkButton/NetworkButton"
import { WalletModal } from "../../../../src/ui/modal/WalletModal"
import { WalletRuntimeProvider } from "../../../../src/ui/react/WalletRuntimeProvider"
import { loadCore } from "../../../../src/ui/react/shell"

// The runtime's code is on the page before these tests render (test/unit/ui/lazyCore*.test.tsx cover the page before it).
await loadCore()

describe("server rendering of the modal and buttons", () => {
  it("renders the connect button only, touching no browser API", () => {
    expect(typeof document).toBe("undefined")
    const html = renderToString(
      <WalletRuntimeProvider options={{ projectId: "test", networks: [localChainA], themeMode: "dark" }}>
        <ConnectButton />
        <AccountButton />
        <NetworkButton />
        <WalletModal />
      </WalletRuntimeProvider>
    )
    expect(html).toContain("Connect wallet")
    expect(html).toContain('data-wr-theme="dark"')
    expect(html).not.toContain('role="dialog"')
  })
})
