/**
 * The catalogue's own call of `GET /getWallets` against the services' declaration: it asks the URL HttpApiClient
 * derives for `catalogue.getWallets` (and the derived client itself requests), refuses the answers the declaration
 * refuses, and answers follow the same rules as the derived clients' (they share the bounded client).
 */
import { describe, expect, it } from "@effect/vitest"
import { Effect, Result } from "effect"
import { HttpApiClient } from "effect/http-api"
import type { GetWalletsQuery } from "../../../src/domain/ApiCatalogue"
import type { CaipNetworkId } from "../../../src/domain/Caip"
import { ServicesApi } from "../../../src/domain/http/ServicesApi"
import { makeGetWallets } from "../../../src/services/catalogueWallets"
import { makeServiceCalls } from "../../../src/services/serviceCalls"
import { type FakeAnswer, fakeService } from "../support/fakeHttpClient"

const BASE = "http://catalog.test/cat"
const GET_WALLETS_URL = `${BASE}/getWallets`

const ENTRY = { id: "w1", name: "Amber", image_id: "img-1", chains: ["eip155:31337"] }

/** The catalogue's call and the derived clients over one service whose every answer is `reply`. */
const service = (reply: FakeAnswer) =>
  Effect.map(fakeService(BASE, reply), ({ options, http, alerts }) => ({
    getWallets: makeGetWallets(options),
    derived: makeServiceCalls(options),
    http,
    alerts
  }))

/** The error of a call that must have failed. */
const failureOf = <A, E>(result: Result.Result<A, E>): E => {
  if (Result.isSuccess(result)) throw new Error(`expected a failure, got ${JSON.stringify(result.success)}`)
  return result.failure
}

const chains = (...ids: ReadonlyArray<string>) => ids as ReadonlyArray<CaipNetworkId>

const QUERIES: ReadonlyArray<readonly [string, GetWalletsQuery]> = [
  ["page only", { page: 1 }],
  ["page and entries, with the project and the SDK", { projectId: "p1", st: "wallet-runtime", sv: "0.1.0", page: 3, entries: 40 }],
  [
    "chains, include and exclude lists",
    {
      page: 1,
      entries: 100,
      chains: chains("eip155:31337", "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1"),
      include: ["w1", "w:2"],
      exclude: ["w3"]
    }
  ],
  ["a search with spaces and signs", { page: 1, entries: 100, search: "Amber & co+/?é #1" }],
  ["certified only", { page: 1, entries: 100, search: "a", badge_type: "certified" }]
]

describe("the catalogue's GET /getWallets, without the derived client", () => {
  it.effect("asks the URL HttpApiClient derives from the declaration, for every kind of query, and decodes the answer", () =>
    Effect.gen(function* () {
      const derivedUrl = HttpApiClient.urlBuilder(ServicesApi, { baseUrl: BASE })
      for (const [name, query] of QUERIES) {
        const { getWallets, derived, http } = yield* service({ status: 200, json: { data: [ENTRY], count: 7 } })
        expect(yield* getWallets(query), name).toEqual({ data: [ENTRY], count: 7 })
        yield* derived.call("catalogue", (catalogue) => catalogue.getWallets({ query }))
        const [ours, theirs] = http.requests.map((request) => `${request.method} ${request.url.toString()}`)
        expect(ours, name).toBe(`GET ${derivedUrl.catalogue.getWallets({ query })}`)
        expect(ours, name).toBe(theirs)
        // Optional keys left out are not sent empty.
        expect([...(http.requests[0]?.url.searchParams.keys() ?? [])].sort(), name).toEqual(Object.keys(query).sort())
      }
    })
  )

  it.effect("an answer the declaration refuses is an invalid answer naming the address", () =>
    Effect.gen(function* () {
      const { id: _id, ...withoutId } = ENTRY
      const refused: ReadonlyArray<readonly [string, FakeAnswer]> = [
        ["a negative count", { status: 200, json: { data: [], count: -1 } }],
        ["a count that is not whole", { status: 200, json: { data: [], count: 1.5 } }],
        ["an entry without its id", { status: 200, json: { data: [withoutId], count: 1 } }],
        ["no count", { status: 200, json: { data: [ENTRY] } }],
        ["text that is not JSON", { status: 200, text: "<html>proxy error</html>" }],
        ["a 2xx the declaration does not name", { status: 201, json: { data: [], count: 0 } }]
      ]
      for (const [name, reply] of refused) {
        const { getWallets } = yield* service(reply)
        const error = failureOf(yield* Effect.result(getWallets({ page: 1 })))
        expect(error, name).toMatchObject({ _tag: "ServiceAnswerInvalid", url: GET_WALLETS_URL })
      }
    })
  )

  it.effect("a query the declaration refuses is not sent", () =>
    Effect.gen(function* () {
      const { getWallets, http } = yield* service({ status: 200, json: { data: [], count: 0 } })
      const error = failureOf(yield* Effect.result(getWallets({ page: 1, entries: 1_000 })))
      expect(error).toMatchObject({ _tag: "ServiceUnreachable", url: BASE })
      expect(error.message).toContain("request not sent")
      expect(http.requests).toEqual([])
    })
  )

  // (Its time bound is WalletCatalog.test's: a catalogue that stalls gives way to the bundled list.)
  it.effect("the services' rules hold: no header of ours, 'HTTP status code: N' with its alert, unreachable", () =>
    Effect.gen(function* () {
      const ok = yield* service({ status: 200, json: { data: [], count: 0 } })
      yield* ok.getWallets({ page: 1 })
      expect(ok.http.requests[0]?.headers).toEqual({})

      const key = yield* service({ status: 401, text: "Unauthorized: invalid key" })
      expect(failureOf(yield* Effect.result(key.getWallets({ page: 1 })))).toMatchObject({
        _tag: "HttpStatusError",
        status: 401,
        message: "HTTP status code: 401",
        body: "Unauthorized: invalid key"
      })
      expect(key.alerts).toEqual(["Invalid Project ID"])

      const down = yield* service("unreachable")
      expect(failureOf(yield* Effect.result(down.getWallets({ page: 1 })))).toMatchObject({
        _tag: "ServiceUnreachable",
        url: GET_WALLETS_URL
      })
    })
  )
})
