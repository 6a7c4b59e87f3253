/**
 * A server render with hostile theme variables: no value that ends its declaration, closes the style element or
 * fetches something reaches the page's HTML, before the runtime's code is there (the options read as given) and
 * after (the options decoded: hostile ones are refused with InvalidOptions).
 */
import { renderToString } from "react-dom/server"
import { describe, expect, it } from "vitest"
import { InvalidOptions } from "../../../src/domain/errors"
import { localChainA } from "../../../src/domain/networks"
import { ConnectButton } from "../../../src/ui/buttons/ConnectButton/ConnectButton"
import { NetworkButton } from "../../../src/ui/buttons/NetworkButton/NetworkButton"
import { WalletRuntimeProvider } from "../../../src/ui/react/WalletRuntimeProvider"
import { loadCore } from "../../../src/ui/react/shell"

const HOSTILE = {
  "--wr-accent": "red; background:url(//evil.example/a)",
  "--wr-font-family": "red} body{display:none",
  "--wr-border-radius-master": "x}</style><script>alert(1)</script>",
  "--wr-color-mix": "url(//evil.example/b)",
  "--wr-qr-color": "expression(alert(1))",
  "--wr-z-index": "1 !important"
}

const page = (themeVariables: Record<string, string | number>) =>
  renderToString(
    <WalletRuntimeProvider options={{ projectId: "test", networks: [localChainA], themeVariables }}>
      <ConnectButton />
      <NetworkButton />
    </WalletRuntimeProvider>
  )

describe("server rendering with hostile theme variables", () => {
  it("before the runtime's code: hostile values are left out of the HTML, the host's sound ones written", () => {
    const html = page({ ...HOSTILE, "--wr-font-size-master": "12px" })
    expect(html).toContain("Connect wallet")
    expect(html).toContain("--wr-font-size-master:12px")
    for (const text of ["evil.example", "display:none", "<script", "</style", "expression(", "!important", "--wr-accent", "--wr-z-index"]) {
      expect(html).not.toContain(text)
    }
  })

  it("with the runtime's code: the options are decoded and the hostile ones refused, naming each", async () => {
    await loadCore()
    let failure: unknown
    try {
      page(HOSTILE)
    } catch (error) {
      failure = error
    }
    expect(failure).toBeInstanceOf(InvalidOptions)
    for (const name of Object.keys(HOSTILE)) expect((failure as InvalidOptions).issues).toContain(`at ["themeVariables"]["${name}"]`)
    const html = page({ "--wr-accent": "#ff0066", "--wr-font-family": 'Georgia, "Times New Roman", serif' })
    expect(html).toContain("--wr-accent:#ff0066")
    expect(html).toContain("--wr-font-family:Georgia, &quot;Times New Roman&quot;, serif")
  })
})
