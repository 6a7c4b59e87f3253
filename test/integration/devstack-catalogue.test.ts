import { Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { GetWalletsResponse } from "../../src/domain/Api"
import type { Started } from "../../server/src/lib/Started"
import { type ServicesInfo, startServices } from "../../devstack/services"

let services: Started<ServicesInfo>
const projectId = "devstack-project"

const wallets = async (query: Record<string, string> = {}) => {
  const response = await fetch(`${services.info.url}/getWallets?${new URLSearchParams({ projectId, ...query })}`)
  expect(response.status).toBe(200)
  return Schema.decodeUnknownSync(GetWalletsResponse)(await response.json())
}

beforeAll(async () => {
  services = await startServices()
})

afterAll(async () => {
  await services?.stop()
})

describe("devstack wallet catalogue", () => {
  it("serves pages of 40 by default over at least 500 entries, each page continuing the last", async () => {
    const first = await wallets()
    expect(first.data).toHaveLength(40)
    expect(first.count).toBeGreaterThanOrEqual(500)
    const second = await wallets({ page: "2" })
    expect(second.data).toHaveLength(40)
    expect(second.count).toBe(first.count)
    const ids = new Set([...first.data, ...second.data].map((w) => w.id))
    expect(ids.size).toBe(80)

    const small = await wallets({ page: "3", entries: "7" })
    expect(small.data.map((w) => w.id)).toEqual(
      (await wallets({ entries: "21" })).data.slice(14, 21).map((w) => w.id)
    )
    const lastPage = Math.ceil(first.count / 40)
    expect((await wallets({ page: String(lastPage) })).data).toHaveLength(first.count - (lastPage - 1) * 40)
    expect((await wallets({ page: String(lastPage + 1) })).data).toEqual([])
  })

  it("searches names case-insensitively, ignoring surrounding spaces", async () => {
    const found = await wallets({ search: "  aMbEr ", entries: "100" })
    expect(found.count).toBeGreaterThan(1)
    expect(found.data).toHaveLength(found.count)
    for (const wallet of found.data) expect(wallet.name.toLowerCase()).toContain("amber")
    expect((await wallets({ search: "zzz-no-such-wallet" })).count).toBe(0)
  })

  it("honours include, exclude, chains and badge_type", async () => {
    const page = await wallets({ entries: "10" })
    const [a, b, c] = page.data
    if (a === undefined || b === undefined || c === undefined) throw new Error("catalogue too small")

    const included = await wallets({ include: `${a.id},${c.id}` })
    expect(included.count).toBe(2)
    expect(included.data.map((w) => w.id).sort()).toEqual([a.id, c.id].sort())

    const excluded = await wallets({ exclude: `${a.id},${b.id}`, entries: "100" })
    expect(excluded.count).toBe(page.count - 2)
    expect(excluded.data.map((w) => w.id)).not.toContain(a.id)
    expect(excluded.data.map((w) => w.id)).not.toContain(b.id)

    const local = await wallets({ chains: "eip155:31338", entries: "100" })
    expect(local.count).toBeGreaterThan(0)
    expect(local.count).toBeLessThan(page.count)
    for (const wallet of local.data) expect(wallet.chains).toContain("eip155:31338")
    const either = await wallets({ chains: "eip155:31338,bip122:000000000019d6689c085ae165831e93" })
    expect(either.count).toBeGreaterThan(local.count)

    const certified = await wallets({ badge_type: "certified" })
    expect(certified.count).toBeGreaterThan(0)
    expect(certified.count).toBeLessThan(page.count)
    expect((await wallets({ badge_type: "none" })).count).toBe(page.count)
  })

  it("lists test-wallet entries that deep-link to the local test wallet page, with images it serves", async () => {
    const found = await wallets({ search: "devstack test wallet" })
    expect(found.data.map((w) => w.name)).toEqual(["Devstack Test Wallet", "Devstack Test Wallet Desktop", "Devstack Test Wallet Mobile"])
    const [web, desktop, mobile] = found.data
    expect(web?.webapp_link).toBe(services.info.testWalletUrl)
    expect(desktop?.desktop_link).toBe(services.info.testWalletUrl)
    expect(mobile?.mobile_link).toBe(services.info.testWalletUrl)
    const page = await fetch(`${services.info.testWalletUrl}wc?uri=${encodeURIComponent("wc:abc@2?relay-protocol=irn")}`)
    expect(await page.text()).toContain("wc:abc@2?relay-protocol=irn")

    const image = await fetch(web?.image_url ?? "")
    expect(image.status).toBe(200)
    expect(image.headers.get("content-type")).toBe("image/svg+xml")
    expect(await image.text()).toMatch(/^<svg [^>]*>.*>DT<\/text><\/svg>$/)
    for (const path of ["/public/getAssetImage/eip155-31337", "/public/getCurrencyImage/USD", "/public/getTokenImage/WUSD"]) {
      const asset = await fetch(`${services.info.url}${path}?projectId=${projectId}`)
      expect(asset.headers.get("content-type")).toBe("image/svg+xml")
      expect(await asset.text()).toMatch(/^<svg /)
    }
    const unknownProject = await fetch(`${services.info.url}/public/getTokenImage/ETH?projectId=not-a-project`)
    expect(await unknownProject.text()).toBe("Unauthorized: invalid key")
  })
})

describe("devstack analytics", () => {
  it("reports analytics as enabled per project and records the events sent", async () => {
    const config = async (id: string) => (await fetch(`${services.info.url}/getAnalyticsConfig?projectId=${id}`)).json()
    expect(await config(projectId)).toEqual({ isAnalyticsEnabled: true })
    expect(await config("devstack-no-analytics")).toEqual({ isAnalyticsEnabled: false })

    await fetch(`${services.info.url}/__events`, { method: "DELETE" })
    const event = { eventId: "e-1", url: "http://127.0.0.1:5173/", domain: "127.0.0.1", timestamp: 1_700_000_000_000, props: { event: "MODAL_OPEN", properties: { connected: false } } }
    const sent = await fetch(`${services.info.url}/e?projectId=${projectId}`, {
      method: "POST",
      headers: { origin: "http://127.0.0.1:5173", "content-type": "text/plain" },
      body: JSON.stringify(event)
    })
    expect(sent.status).toBe(200)
    const { events } = (await (await fetch(`${services.info.url}/__events`)).json()) as { events: ReadonlyArray<unknown> }
    expect(events).toEqual([expect.objectContaining({ projectId, origin: "http://127.0.0.1:5173", event })])
  })
})
