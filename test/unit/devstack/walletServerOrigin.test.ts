/** Which pages the wallet server answers (server/src/embedded/server/WalletServerEnv.ts): its own origin only. */
import { describe, expect, it } from "vitest"
import { isOwnOrigin } from "../../../server/src/embedded/server/WalletServerEnv"

describe("the wallet server's own origin", () => {
  it("on loopback: any loopback name of the same port, nothing else", () => {
    const own = isOwnOrigin("http://127.0.0.1:4100")
    expect(own("http://127.0.0.1:4100")).toBe(true)
    expect(own("http://localhost:4100")).toBe(true)
    expect(own("http://[::1]:4100")).toBe(true)
    expect(own("http://127.0.0.1:5173")).toBe(false)
    expect(own("https://wallet.example")).toBe(false)
    expect(own("null")).toBe(false)
  })

  it("behind a public URL: that exact origin; a loopback page is someone else's", () => {
    const own = isOwnOrigin("https://wallet.example/")
    expect(own("https://wallet.example")).toBe(true)
    expect(own("http://wallet.example")).toBe(false)
    expect(own("http://localhost")).toBe(false)
    expect(own("https://localhost")).toBe(false)
    expect(own("https://app.example")).toBe(false)
  })
})
