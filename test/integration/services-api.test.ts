/**
 * The services' HTTP API as a server serves it: `/openapi.json` is a valid OpenAPI 3.1 document (checked with an
 * independent validator of the OpenAPI schemas) describing every endpoint of the declaration; every group refuses an
 * unknown query or body field and a wrong type with a 400 naming the field; the literal `/v1/sessions/nonce` wins over
 * `/v1/sessions/:address`; a chain whose node cannot be reached is a 502 naming no upstream address; and swaps and
 * on-ramp, declared but without a provider here, answer their declared 501.
 */
import { createServer } from "node:net"
import { Validator } from "@seriousme/openapi-schema-validator"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { CaipNetworkId } from "../../src/domain/Caip"
import { ServicesApi } from "../../src/domain/http/ServicesApi"
import type { Started } from "../../server/src/lib/Started"
import { type ServicesInfo, startServices } from "../../server/src/services/index"
import { devProjects } from "../../server/src/services/projects"

const PROJECT = "devstack-project"
const ACCOUNT = "eip155:31337:0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
const ADDRESS = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
// Valid bodies, each test case changing one field.
const event = { eventId: "e1", url: "http://127.0.0.1/", domain: "127.0.0.1", timestamp: 1, props: { event: "MODAL_OPEN" } }
const registration = { coin_type: 0x8000_0000 + 31337, address: ADDRESS, message: "{}", signature: "0x" }
const quote = { purchaseCurrency: "ETH", paymentCurrency: "USD", amount: "100", network: "eip155:1" }

let services: Started<ServicesInfo>
let document: Record<string, unknown>

beforeAll(async () => {
  services = await startServices({ projects: devProjects })
  const response = await fetch(`${services.info.url}/openapi.json`)
  expect(response.status).toBe(200)
  document = (await response.json()) as Record<string, unknown>
})

afterAll(async () => {
  await services?.stop()
})

const send = (method: "GET" | "POST", path: string, body?: unknown) =>
  fetch(`${services.info.url}${path}`, {
    method,
    headers: { "content-type": "application/json" },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })

/** The words of a refusal: `error`, or the name service's first `reasons` description. */
const refusal = async (response: Response): Promise<readonly [number, string]> => {
  const body = (await response.json()) as { readonly error?: string; readonly reasons?: ReadonlyArray<{ readonly description: string }> }
  return [response.status, body.error ?? body.reasons?.[0]?.description ?? ""]
}

describe("/openapi.json", () => {
  it("validates against the OpenAPI 3.1 schema, and the validator refuses the same document with a wrong field", async () => {
    const validator = new Validator()
    const result = await validator.validate(document)
    expect(result.errors).toBeUndefined()
    expect(result.valid).toBe(true)
    expect(validator.version).toBe("3.1")

    // A misspelt field in one operation: the document is no longer OpenAPI, and the validator says where.
    const paths = document["paths"] as Record<string, Record<string, Record<string, unknown>>>
    const getWallets = paths["/getWallets"]?.["get"]
    const misspelt = { ...document, paths: { ...paths, "/getWallets": { get: { ...getWallets, summmary: "misspelt" } } } }
    const refused = await new Validator().validate(misspelt)
    expect(refused.valid).toBe(false)
    expect(JSON.stringify(refused.errors)).toContain("summmary")

    // Checked as 3.1, not leniently: the same document does not pass as OpenAPI 3.0 (its schemas use 3.1 keywords).
    expect((await new Validator().validate({ ...document, openapi: "3.0.3" })).valid).toBe(false)
  })

  it("describes every endpoint of the declared API, by method and path", () => {
    const paths = document["paths"] as Record<string, Record<string, { readonly operationId?: string }>>
    const declared = Object.values(ServicesApi.groups).flatMap((group) =>
      Object.values(group.endpoints).map((endpoint) => ({
        operationId: `${group.identifier}.${endpoint.identifier}`,
        method: endpoint.method.toLowerCase(),
        path: endpoint.path.replace(/:(\w+)/g, "{$1}")
      }))
    )
    expect(declared.length).toBeGreaterThanOrEqual(33)
    for (const { operationId, method, path } of declared) {
      expect({ operationId, found: paths[path]?.[method]?.operationId }).toEqual({ operationId, found: operationId })
    }
  })
})

describe("every group decodes its input with its Schemas", () => {
  type Case = readonly [what: string, request: () => Promise<Response>, field: string]
  const cases: ReadonlyArray<Case> = [
    ["catalogue: unknown query field", () => send("GET", `/getWallets?projectId=${PROJECT}&colour=red`), "colour"],
    ["catalogue: wrong type", () => send("GET", `/getWallets?projectId=${PROJECT}&entries=many`), "entries"],
    ["images: unknown query field", () => send("GET", `/public/getTokenImage/WUSD?size=2`), "size"],
    ["analytics: unknown body field", () => send("POST", `/e?projectId=${PROJECT}`, { ...event, extra: 1 }), "extra"],
    ["analytics: wrong type", () => send("POST", `/e?projectId=${PROJECT}`, { ...event, timestamp: "now" }), "timestamp"],
    ["blockchain: unknown query field", () => send("GET", `/v1/account/${ADDRESS}/balance?projectId=${PROJECT}&fiat=usd`), "fiat"],
    ["blockchain: wrong type", () => send("GET", `/v1/account/${ADDRESS}/history?projectId=${PROJECT}&chainId=31337`), "chainId"],
    [
      "blockchain: unknown body field",
      () => send("POST", `/v1/fungible/price?projectId=${PROJECT}`, { projectId: PROJECT, currency: "usd", addresses: [], extra: 1 }),
      "extra"
    ],
    [
      "blockchain: wrong body type",
      () => send("POST", `/v1/fungible/price?projectId=${PROJECT}`, { projectId: PROJECT, currency: "usd", addresses: "all" }),
      "addresses"
    ],
    ["names: unknown query field", () => send("GET", `/v1/profile/reverse/${ADDRESS}?projectId=${PROJECT}&zone=wallet.test`), "zone"],
    [
      "names: unknown body field",
      () => send("POST", `/v1/profile/account?projectId=${PROJECT}`, { ...registration, extra: 1 }),
      "extra"
    ],
    ["names: wrong type", () => send("POST", `/v1/profile/account?projectId=${PROJECT}`, { ...registration, coin_type: "one" }), "coin_type"],
    ["sessions: unknown query field", () => send("GET", `/v1/sessions/${ACCOUNT}?projectId=${PROJECT}&all=1`), "all"],
    [
      "sessions: unknown body field",
      () => send("POST", `/v1/sessions/${ACCOUNT}/revoke?projectId=${PROJECT}`, { pci: "p", signature: "s", reason: "x" }),
      "reason"
    ],
    ["sessions: wrong type", () => send("POST", `/v1/sessions/${ACCOUNT}/revoke?projectId=${PROJECT}`, { pci: 7, signature: "s" }), "pci"],
    [
      "RPC proxy: unknown query field",
      () => send("POST", `/v1/?chainId=eip155:31337&projectId=${PROJECT}&node=2`, { jsonrpc: "2.0", id: 1, method: "eth_chainId" }),
      "node"
    ],
    [
      "RPC proxy: wrong type",
      () => send("GET", `/v1/?chainId=eip155:31337&projectId=${PROJECT}&method=eth_getBalance&params=${encodeURIComponent('{"a":1}')}`),
      "params"
    ],
    ["swaps: unknown query field", () => send("GET", `/v1/convert/gas-price?projectId=${PROJECT}&chainId=eip155:1&speed=fast`), "speed"],
    ["swaps: wrong type", () => send("GET", `/v1/convert/tokens?projectId=${PROJECT}&chainId=1`), "chainId"],
    [
      "on-ramp: unknown body field",
      () => send("POST", `/v1/onramp/quote?projectId=${PROJECT}`, { ...quote, discount: "10" }),
      "discount"
    ],
    ["on-ramp: wrong type", () => send("POST", `/v1/onramp/quote?projectId=${PROJECT}`, { ...quote, amount: 10 }), "amount"]
  ]

  it("answers an unknown field or a wrong type with a 400 that names the field", async () => {
    for (const [what, request, field] of cases) {
      const [status, words] = await refusal(await request())
      expect({ what, status }).toEqual({ what, status: 400 })
      expect({ what, words }).toEqual({ what, words: expect.stringContaining(`["${field}"]`) })
    }
  })
})

describe("routing and the features this server has no provider for", () => {
  it("serves POST /v1/sessions/nonce itself, not as /v1/sessions/:address (which takes a CAIP-10 account)", async () => {
    const nonce = await send("POST", `/v1/sessions/nonce?projectId=${PROJECT}`)
    expect(nonce.status).toBe(200)
    expect(await nonce.json()).toEqual({ nonce: expect.stringMatching(/^[0-9a-f]{32}$/), expiresAt: expect.any(String) })
    // GET has no literal route: `nonce` is then the `:address` of the list, and not an account.
    expect(await refusal(await send("GET", `/v1/sessions/nonce?projectId=${PROJECT}`))).toEqual([400, expect.stringMatching(/^Invalid path/)])
  })

  it("answers every swap and on-ramp endpoint with the declared 501, after checking the project and the input", async () => {
    const swaps = "Swaps are not available on this server"
    const onramp = "On-ramp is not available on this server"
    const tokens = `eip155:1:${ADDRESS}`
    const calls: ReadonlyArray<readonly [() => Promise<Response>, string]> = [
      [() => send("GET", `/v1/convert/tokens?projectId=${PROJECT}&chainId=eip155:1`), swaps],
      [() => send("GET", `/v1/convert/quotes?projectId=${PROJECT}&amount=1&userAddress=${tokens}&from=${tokens}&to=${tokens}&gasPrice=1`), swaps],
      [() => send("GET", `/v1/convert/allowance?projectId=${PROJECT}&tokenAddress=${tokens}&userAddress=${tokens}`), swaps],
      [() => send("GET", `/v1/convert/gas-price?projectId=${PROJECT}&chainId=eip155:1`), swaps],
      [
        () =>
          send("POST", `/v1/convert/build-transaction?projectId=${PROJECT}`, {
            projectId: PROJECT,
            amount: "1",
            eip155: { slippage: 1 },
            from: tokens,
            to: tokens,
            userAddress: tokens,
            disableEstimate: true
          }),
        swaps
      ],
      [() => send("GET", `/v1/convert/build-approve?projectId=${PROJECT}&userAddress=${tokens}&from=${tokens}&to=${tokens}`), swaps],
      [
        () =>
          send("POST", `/v1/generators/onrampurl?projectId=${PROJECT}`, {
            destinationWallets: [{ address: ADDRESS, blockchains: ["eip155:1"] }],
            partnerUserId: "visitor",
            defaultExperience: "buy"
          }),
        onramp
      ],
      [() => send("GET", `/v1/onramp/options?projectId=${PROJECT}`), onramp],
      [() => send("POST", `/v1/onramp/quote?projectId=${PROJECT}`, quote), onramp]
    ]
    for (const [call, words] of calls) expect(await refusal(await call())).toEqual([501, words])
    // The project is checked first, as on every route.
    const unknown = await send("GET", "/v1/onramp/options?projectId=not-a-project")
    expect([unknown.status, await unknown.text()]).toEqual([401, "Unauthorized: invalid key"])
  })
})

/** A loopback port nothing listens on: one the OS gave, closed again. */
const closedPort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))))
    })
  })

describe("a chain whose node cannot be reached", () => {
  it("is a 502 in words from the RPC proxy and the account endpoints, never naming the node's address", async () => {
    const port = await closedPort()
    const collection = (n: number, name: string) => ({ address: `0x${String(n).padStart(40, "0")}` as const, name, symbol: name })
    const down = await startServices({
      projects: devProjects,
      evm: {
        chains: [
          {
            chainId: 31337,
            caipNetworkId: "eip155:31337" as CaipNetworkId,
            rpcUrl: `http://127.0.0.1:${port}`,
            contracts: { tokens: [], collectible: collection(1, "C"), spamCollectible: collection(2, "S") }
          }
        ]
      }
    })
    try {
      const call = (method: "GET" | "POST", path: string, body?: unknown) =>
        fetch(`${down.info.url}${path}`, { method, ...(body === undefined ? {} : { body: JSON.stringify(body) }) })
      const answers = [
        await call("POST", `/v1/?chainId=31337&projectId=${PROJECT}`, { jsonrpc: "2.0", id: 1, method: "eth_chainId" }),
        await call("GET", `/v1/?chainId=eip155:31337&projectId=${PROJECT}&method=eth_blockNumber`),
        await call("GET", `/v1/account/${ADDRESS}/balance?projectId=${PROJECT}`),
        await call("GET", `/v1/account/${ADDRESS}/history?projectId=${PROJECT}`),
        await call("GET", `/v1/account/${ADDRESS}/nfts?projectId=${PROJECT}`)
      ]
      for (const answer of answers) {
        const [status, words] = await refusal(answer)
        expect(status).toBe(502)
        expect(words).toMatch(/^The chain's node (did not answer|could not be read)/)
        expect(words).not.toContain(String(port))
      }
    } finally {
      await down.stop()
    }
  })
})
