/**
 * The catalogue a host's server serves: the library's bundled list by default, or the entries of a JSON file read
 * once at start (real files in a temp folder). A bad file is refused naming the setting, the file and every bad entry
 * by its place and id; the same queries (include, exclude, chains, badge, search, pages) work on every source.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { NodeFileSystem } from "@effect/platform-node"
import { afterEach, describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { bundledCatalogue, queryCatalogue, readCatalogueFile } from "../../../server/src/services/catalogue"
import { CaipNetworkId } from "../../../src/domain/Caip"
import { fallbackCatalogue } from "../../../src/services/walletCatalogFallback"

const caip2 = Schema.decodeSync(CaipNetworkId)
const SETTING = "catalogue.file (WALLET_RUNTIME_CATALOGUE_FILE)"
const dirs: Array<string> = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** `contents` written as a file in a temp folder; its path. */
const file = (contents: string) => {
  const dir = mkdtempSync(join(tmpdir(), "wr-catalogue-"))
  dirs.push(dir)
  const path = join(dir, "wallets.json")
  writeFileSync(path, contents)
  return path
}

const read = (path: string) => readCatalogueFile(path, SETTING).pipe(Effect.provide(NodeFileSystem.layer))
const refusal = (path: string) => Effect.map(Effect.flip(read(path)), (error) => error.message)

const acme = {
  id: "acme-wallet",
  name: "Acme Wallet",
  image_id: "acme-logo",
  image_url: "https://cdn.acme.example/logo.png",
  homepage: "https://acme.example/",
  mobile_link: "acme://",
  chains: ["eip155:1", "eip155:8453"],
  certified: true
}
const plain = { id: "plain", name: "Plain Purse", image_id: "plain-logo", chains: ["solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp"] }

describe("the bundled catalogue", () => {
  it("is the library's bundled wallet list, under the wallets' public ids, with drawn icons and no test wallet", () => {
    const wallets = bundledCatalogue()
    expect(wallets.map(({ entry }) => entry.id)).toEqual(fallbackCatalogue().map((entry) => entry.id))
    expect(wallets.map(({ entry }) => entry.name)).toContain("MetaMask")
    expect(wallets.some(({ entry }) => /devstack/i.test(entry.name))).toBe(false)
    for (const { entry } of wallets) expect(entry.image_url).toMatch(/^data:image\/svg\+xml,/)
  })

  it("answers the same queries as any catalogue: include, exclude, chains, search, pages", () => {
    const wallets = bundledCatalogue()
    const all = queryCatalogue(wallets, {})
    expect(all.count).toBe(wallets.length)
    const [first, second] = all.data
    if (first === undefined || second === undefined) throw new Error("the bundled list is too small")
    expect(queryCatalogue(wallets, { include: [first.id, second.id] }).data.map((w) => w.id)).toEqual([first.id, second.id])
    expect(queryCatalogue(wallets, { exclude: [first.id] }).count).toBe(wallets.length - 1)
    const polkadot = queryCatalogue(wallets, { chains: [caip2("polkadot:91b171bb158e2d3848fa23a9f1c25182")] })
    expect(polkadot.count).toBeGreaterThan(0)
    expect(polkadot.count).toBeLessThan(wallets.length)
    expect(queryCatalogue(wallets, { search: "  metamask " }).data.map((w) => w.name)).toEqual(["MetaMask"])
    expect(queryCatalogue(wallets, { page: 2, entries: 5 }).data).toEqual(all.data.slice(5, 10))
    // No certification is known of them.
    expect(queryCatalogue(wallets, { badge_type: "certified" }).count).toBe(0)
  })
})

describe("a catalogue file", () => {
  it.effect("serves its entries as written, `certified` deciding badge_type=certified", () =>
    Effect.gen(function* () {
      const wallets = yield* read(file(JSON.stringify([acme, plain])))
      const { certified: _, ...acmeEntry } = acme
      expect(queryCatalogue(wallets, {})).toEqual({ data: [acmeEntry, plain], count: 2 })
      expect(queryCatalogue(wallets, { badge_type: "certified" }).data.map((w) => w.id)).toEqual(["acme-wallet"])
      expect(queryCatalogue(wallets, { chains: [caip2("eip155:8453")] }).data.map((w) => w.id)).toEqual(["acme-wallet"])
      expect(queryCatalogue(wallets, { search: "purse" }).data.map((w) => w.id)).toEqual(["plain"])
      expect(queryCatalogue(wallets, { exclude: ["plain"] }).count).toBe(1)
    }))

  it.effect("is refused naming the setting, the file and every bad entry by its place and id", () =>
    Effect.gen(function* () {
      const path = file(
        JSON.stringify([
          acme,
          { id: "no-name", image_id: "x", chains: ["eip155:1"] },
          { ...plain, id: "typo", mobile_lnik: "plain://" },
          { ...plain, id: "bad-chain", chains: ["ethereum"] },
          { ...plain, id: "unsafe", mobile_link: "javascript:alert(1)", image_url: "ftp://cdn.example/logo.png" },
          acme,
          "not an entry"
        ])
      )
      const message = yield* refusal(path)
      expect(message.split("\n")).toEqual([
        `${SETTING}: ${path} is not a valid catalogue:`,
        '  - entry [1] (id "no-name"): name is missing',
        '  - entry [2] (id "typo"): mobile_lnik is not a field of a catalogue entry',
        '  - entry [3] (id "bad-chain"): chains[0]: expected a CAIP-2 network id',
        '  - entry [4] (id "unsafe"): mobile_link "javascript:alert(1)" is not a safe link (http(s), or a wallet\'s own scheme for its apps)',
        '  - entry [4] (id "unsafe"): image_url "ftp://cdn.example/logo.png" is not an http(s) or data:image URL',
        '  - entry [5] (id "acme-wallet"): the id is given twice',
        "  - entry [6]: expected object"
      ])
    }))

  it.effect("is refused when it cannot be read, is not JSON, or is not a list", () =>
    Effect.gen(function* () {
      const missing = join(tmpdir(), "wr-no-such-dir", "wallets.json")
      expect(yield* refusal(missing)).toMatch(new RegExp(`^catalogue\\.file \\(WALLET_RUNTIME_CATALOGUE_FILE\\): ${missing} cannot be read`))
      const notJson = file("[{")
      expect(yield* refusal(notJson)).toMatch(new RegExp(`^catalogue\\.file \\(WALLET_RUNTIME_CATALOGUE_FILE\\): ${notJson} is not JSON`))
      const notList = file(JSON.stringify({ wallets: [acme] }))
      expect(yield* refusal(notList)).toBe(`${SETTING}: ${notList} must hold a JSON list of catalogue entries`)
    }))
})
