import { describe, expect, it } from "vitest"

// A change to what the package exports is a change to its public contract: it must show up in review as a change
// to this snapshot. Loading an entry point's whole module graph the first time is slow on a busy machine: the
// bound is the loading's, not a measure of it.
describe("entry points", { timeout: 30_000 }, () => {
  it("wallet-runtime exports", async () => {
    expect(Object.keys(await import("../../src/index")).sort()).toMatchSnapshot()
  })
  it("wallet-runtime/react exports", async () => {
    expect(Object.keys(await import("../../src/react")).sort()).toMatchSnapshot()
  })
  it("wallet-runtime/atoms exports", async () => {
    expect(Object.keys(await import("../../src/atoms")).sort()).toMatchSnapshot()
  })
  it("wallet-runtime/testing exports", async () => {
    expect(Object.keys(await import("../../src/testing")).sort()).toMatchSnapshot()
  })
})
