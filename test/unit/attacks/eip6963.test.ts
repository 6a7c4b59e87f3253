// @vitest-environment happy-dom
/**
 * EIP-6963 announcements as any script on the page can make them: malformed ones, ones that throw when read, icons
 * on a remote host, a listed wallet's rdns with another provider, one uuid for many wallets, hundreds at once. The
 * listener never throws; only well-formed wallets are listed, one row per uuid, the first announcement of an rdns
 * keeping it; icons are `data:` images; conflicts are ignored and reported once; a burst costs one update.
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Logger, Stream, SubscriptionRef } from "effect"
import { TestClock } from "effect/testing"
import type { Connector } from "../../../src/services/connectors/Connector"
import { browserEip155Source, makeAnnouncedList } from "../../../src/services/connectors/eip6963"
import { makeWalletStandardConnector } from "../../../src/services/connectors/walletStandard"
import type { Eip1193Provider, Eip6963Info } from "../../../src/services/eip155/eip1193"
import { walletIcon } from "../../../src/services/generatedIcon"
import { throwingProxy } from "./hostile"

const ICON = "data:image/svg+xml,%3Csvg%20xmlns='http://www.w3.org/2000/svg'/%3E"

const provider = (): Eip1193Provider => ({ request: async () => [] })

const info = (overrides: Partial<Eip6963Info> = {}): Eip6963Info => ({
  uuid: "uuid-1",
  name: "Honest Wallet",
  icon: ICON,
  rdns: "com.honest",
  ...overrides
})

/** An announcement as the listener receives it: an event whose `detail` holds the wallet. */
const announcement = (detail: unknown): unknown => new CustomEvent("eip6963:announceProvider", { detail })

const hostileDetails = (): ReadonlyArray<unknown> => [
  null,
  undefined,
  5,
  "wallet",
  {},
  throwingProxy(),
  {
    get info() {
      throw new Error("hostile getter")
    },
    provider: provider()
  },
  {
    info: {
      ...info(),
      get rdns() {
        throw new Error("hostile getter")
      }
    },
    provider: provider()
  },
  {
    info: info(),
    provider: {
      get request() {
        throw new Error("hostile getter")
      }
    }
  },
  { info: info(), provider: throwingProxy() },
  { info: info(), provider: {} },
  { info: { ...info(), rdns: "" }, provider: provider() },
  { info: { ...info(), name: "x".repeat(10_000) }, provider: provider() },
  { info: { ...info(), uuid: 7 }, provider: provider() }
]

/** Collects the warnings logged while `use` runs. */
const withWarnings = <A, E, R>(use: (warnings: Array<string>) => Effect.Effect<A, E, R>) => {
  const warnings: Array<string> = []
  const collect = Logger.make((options) => {
    if (options.logLevel === "Warn") warnings.push(String(options.message))
  })
  return use(warnings).pipe(Effect.provide(Logger.layer([collect])))
}

const names = (list: ReturnType<typeof makeAnnouncedList>) => list.wallets().map((wallet) => wallet.connector.info.name)

describe("the announced list", () => {
  it.effect("malformed or throwing announcements list nothing and are reported once", () =>
    withWarnings((warnings) =>
      Effect.gen(function* () {
        const list = makeAnnouncedList()
        for (const detail of hostileDetails()) expect(yield* list.add(announcement(detail))).toBe(false)
        expect(yield* list.add(null)).toBe(false)
        expect(yield* list.add(throwingProxy())).toBe(false)
        expect(list.wallets()).toEqual([])
        expect(warnings).toHaveLength(1)
      })
    )
  )

  it.effect("the first announcement of an rdns keeps its row: another provider under it is ignored and reported once", () =>
    withWarnings((warnings) =>
      Effect.gen(function* () {
        const list = makeAnnouncedList()
        const honest = provider()
        expect(yield* list.add(announcement({ info: info(), provider: honest }))).toBe(true)
        for (let i = 0; i < 3; i++) {
          const takeover = { info: info({ uuid: `takeover-${i}`, name: "Takeover", rdns: " COM.Honest " }), provider: provider() }
          expect(yield* list.add(announcement(takeover))).toBe(false)
        }
        // The honest wallet announcing itself again (on eip6963:requestProvider) changes nothing and is no conflict.
        expect(yield* list.add(announcement({ info: info(), provider: honest }))).toBe(false)
        expect(names(list)).toEqual(["Honest Wallet"])
        expect(list.wallets()[0]?.provider).toBe(honest)
        expect(warnings).toHaveLength(1)
        expect(warnings[0]).toContain("com.honest")
      })
    )
  )

  it.effect("one row per uuid: 50 wallets announced with one uuid are one wallet", () =>
    withWarnings((warnings) =>
      Effect.gen(function* () {
        const list = makeAnnouncedList()
        for (let i = 0; i < 50; i++) {
          yield* list.add(announcement({ info: info({ uuid: "one", name: `Clone ${i}`, rdns: `com.clone${i}` }), provider: provider() }))
        }
        expect(names(list)).toEqual(["Clone 0"])
        expect(warnings).toHaveLength(1)
      })
    )
  )

  it.effect("an icon that is not a data: image is replaced by a generated one; the identity is copied once", () =>
    Effect.gen(function* () {
      const list = makeAnnouncedList()
      const remote = info({ uuid: "r", name: "Remote Icon", rdns: "com.remote", icon: "https://icons.example/w.png" })
      yield* list.add(announcement({ info: remote, provider: provider() }))
      const script = info({ uuid: "s", name: "Script Icon", rdns: "com.script", icon: "data:text/html,<script>alert(1)</script>" })
      yield* list.add(announcement({ info: script, provider: provider() }))
      const huge = info({ uuid: "h", name: "Huge Icon", rdns: "com.huge", icon: `data:image/png;base64,${"A".repeat(1_000_000)}` })
      yield* list.add(announcement({ info: huge, provider: provider() }))
      const own: { -readonly [K in keyof Eip6963Info]: Eip6963Info[K] } = info({ uuid: "o", name: "Own Icon", rdns: "com.own" })
      yield* list.add(announcement({ info: own, provider: provider() }))
      // What the announcer changes afterwards does not reach the list.
      own.name = "Renamed Later"
      expect(list.wallets().map((wallet) => [wallet.connector.info.name, wallet.connector.info.imageUrl?.slice(0, 26)])).toEqual([
        ["Remote Icon", "data:image/svg+xml,%3Csvg%"],
        ["Script Icon", "data:image/svg+xml,%3Csvg%"],
        ["Huge Icon", "data:image/svg+xml,%3Csvg%"],
        ["Own Icon", ICON.slice(0, 26)]
      ])
      // Generated icons differ from wallet to wallet.
      expect(walletIcon(remote.icon, "com.remote", remote.name)).not.toBe(walletIcon(remote.icon, "com.other", remote.name))
    })
  )

  it("a Wallet Standard wallet's icon follows the same rule: a remote one is generated, never fetched", () => {
    const wallet = (icon: string) =>
      makeWalletStandardConnector({ version: "1.0.0", name: "Remote Sol", icon: icon as `data:image/png;base64,${string}`, chains: [], features: {}, accounts: [] })
    expect(wallet("https://icons.example/sol.png").info.imageUrl).toMatch(/^data:image\/svg\+xml,/)
    expect(wallet(ICON).info.imageUrl).toBe(ICON)
  })

  it.effect("at most 1,000 announced wallets are listed", () =>
    withWarnings((warnings) =>
      Effect.gen(function* () {
        const list = makeAnnouncedList()
        for (let i = 0; i < 1_010; i++) {
          yield* list.add(announcement({ info: info({ uuid: `u${i}`, name: `W ${i}`, rdns: `com.w${i}` }), provider: provider() }))
        }
        expect(list.wallets()).toHaveLength(1_000)
        expect(warnings).toHaveLength(1)
      })
    )
  )
})

describe("the page's announced wallets", () => {
  const dispatch = (detail: unknown) => window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail }))

  it.effect("hostile announcements and a window.ethereum that throws break nothing; a burst is one update", () =>
    Effect.gen(function* () {
      const honest = provider()
      const answer = () => dispatch({ info: info(), provider: honest })
      window.addEventListener("eip6963:requestProvider", answer)
      Object.defineProperty(window, "ethereum", {
        configurable: true,
        get: () => {
          throw new Error("hostile window.ethereum")
        }
      })
      try {
        yield* Effect.scoped(
          Effect.gen(function* () {
            const source = yield* browserEip155Source({ enableEIP6963: true })
            // The wallet that answered the request is listed before the source is handed over.
            expect((yield* SubscriptionRef.get(source)).map((c) => c.info.name)).toEqual(["Honest Wallet"])
            const updates: Array<ReadonlyArray<Connector>> = []
            const watcher = yield* SubscriptionRef.changes(source).pipe(
              Stream.drop(1),
              Stream.runForEach((list) => Effect.sync(() => updates.push(list))),
              Effect.forkChild
            )
            yield* Effect.yieldNow
            for (const detail of hostileDetails()) expect(() => dispatch(detail)).not.toThrow()
            dispatch({ info: info({ uuid: "takeover", name: "Takeover" }), provider: provider() })
            for (let i = 0; i < 500; i++) dispatch({ info: info({ uuid: `m${i}`, name: `Many ${i}`, rdns: `com.many${i}` }), provider: provider() })
            for (let turn = 0; turn < 5; turn++) yield* Effect.yieldNow
            yield* TestClock.adjust("16 millis")
            yield* Fiber.interrupt(watcher)
            expect(updates).toHaveLength(1)
            expect(updates[0]?.map((c) => c.info.name)).toEqual(["Honest Wallet", ...Array.from({ length: 500 }, (_, i) => `Many ${i}`)])
            expect(updates[0]?.[0]?.info.type).toBe("ANNOUNCED")
          })
        )
      } finally {
        window.removeEventListener("eip6963:requestProvider", answer)
        Reflect.deleteProperty(window, "ethereum")
      }
    })
  )

  it.effect("window.ethereum that is not an announced wallet is listed as the browser wallet", () =>
    Effect.gen(function* () {
      const legacy = provider()
      Object.defineProperty(window, "ethereum", { configurable: true, value: legacy })
      try {
        const list = yield* Effect.scoped(Effect.flatMap(browserEip155Source({ enableEIP6963: true }), SubscriptionRef.get))
        expect(list.map((c) => [c.info.id, c.info.type])).toEqual([["injected", "INJECTED"]])
      } finally {
        Reflect.deleteProperty(window, "ethereum")
      }
    })
  )
})
