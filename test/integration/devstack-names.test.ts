/**
 * The name endpoints of the devstack services against real anvil chains and the services' database: registering a
 * name with a real signature by an EOA, by the ERC-1271 account deployed at start and by an undeployed ERC-6492
 * account; reading it back (record, reverse, identity, suggestions); every refusal with its words; and the names
 * surviving a restart of the services on the same database. The suite runs on the embedded PGlite, and again on a
 * real Postgres: a throw-away cluster (`test/support/postgres.ts`), or the one of `DATABASE_URL` when it is set.
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { createPublicClient, type Hex, http, type LocalAccount } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type DatabaseOptions, startDatabase } from "../../server/src/db/index"
import type { EvmChain, EvmInfo } from "../../devstack/evm/index"
import { devChain } from "../../devstack/evm/chains"
import { deployedSmartAccount, type SmartAccountSigner, undeployedSmartAccount } from "../../devstack/evm/smartAccounts"
import type { Started } from "../../server/src/lib/Started"
import { type DevstackInfo, startDevstack } from "../../devstack/main"
import { type ServicesInfo, startServices } from "../../devstack/services"
import {
  Identity,
  NameErrorBody,
  nameErrorDescription,
  NameRecordResponse,
  NameSuggestionsResponse,
  ReverseNamesResponse
} from "../../src/domain/Api"
import { NameMessageJson } from "../../src/domain/Names"
import { type RunningPostgres, startPostgres } from "../support/postgres"

let stack: Started<DevstackInfo>
let evm: EvmInfo

beforeAll(async () => {
  stack = await startDevstack({ parts: ["evm"] })
  if (stack.info.evm === undefined) throw new Error("the EVM part did not start")
  evm = stack.info.evm
})

afterAll(async () => {
  await stack?.stop()
})

/** The services of the suite running now, on its database; restarted by the last test. */
let services: Started<ServicesInfo> | undefined

const startNames = async (database: DatabaseOptions) => {
  const began = performance.now()
  services = await startServices({ evm, database })
  return performance.now() - began
}

const chain = (chainId: number): EvmChain => {
  const found = evm.chains.find((c) => c.chainId === chainId)
  if (found === undefined) throw new Error(`chain ${chainId} is not running`)
  return found
}
const dev = (index: number): LocalAccount => {
  const account = evm.accounts[index]
  if (account === undefined) throw new Error(`no dev account ${index}`)
  return privateKeyToAccount(account.privateKey)
}
const coinType = (chainId: number) => 0x8000_0000 + chainId

const url = (path: string) => `${services?.info.url}${path}${path.includes("?") ? "&" : "?"}projectId=devstack-project`
const get = (path: string) => fetch(url(path))
const json = async <A>(schema: Schema.Codec<A, unknown>, response: Response): Promise<A> =>
  Schema.decodeUnknownSync(schema)(await response.json())
/** The words a refusal gives, as the client reads them (`nameErrorDescription`). */
const refusal = async (response: Response) => [response.status, nameErrorDescription(await json(NameErrorBody, response))]

type Signer = LocalAccount | SmartAccountSigner
const encodeMessage = Schema.encodeSync(NameMessageJson)
const nowS = () => Math.floor(Date.now() / 1000)

/** A registration as the client sends it: the message text signed by `signer`, unless a part is overridden. */
const registration = async (
  signer: Signer,
  name: string,
  opts: { readonly chainId?: number; readonly coinType?: number; readonly timestamp?: number; readonly signature?: Hex; readonly attributes?: Record<string, string> } = {}
) => {
  const message = encodeMessage({ name, attributes: opts.attributes ?? {}, timestamp: opts.timestamp ?? nowS() })
  return {
    coin_type: opts.coinType ?? coinType(opts.chainId ?? 31337),
    address: signer.address,
    message,
    signature: opts.signature ?? (await signer.signMessage({ message }))
  }
}
const post = (body: unknown) =>
  fetch(url("/v1/profile/account"), { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
const register = async (signer: Signer, name: string, opts: Parameters<typeof registration>[2] = {}) => post(await registration(signer, name, opts))

const record = async (name: string) => get(`/v1/profile/account/${encodeURIComponent(name)}`)
const reverse = async (address: string) => (await json(ReverseNamesResponse, await get(`/v1/profile/reverse/${address}`))).names.map((r) => r.name)
const identity = async (address: string) => json(Identity, await get(`/v1/identity/${address}`))
const suggestions = async (label: string) =>
  (await json(NameSuggestionsResponse, await get(`/v1/profile/suggestions/${label}?zone=wallet.test`))).suggestions

// Salts of undeployed accounts no other test file uses on these chains.
const undeployed = (salt: number) => undeployedSmartAccount({ factory: chain(31337).contracts.smartAccounts.factory, owner: dev(7), salt })

// The names the suite registers: on a Postgres kept between runs, they are removed first so each run starts clean.
const suiteNames = ["erin", "contract-account", "counterfactual", "alice-two", "frank"].map((label) => `${label}.wallet.test`)

const namesSuite = (database: () => DatabaseOptions, fresh: boolean) => {
  beforeAll(async () => {
    const options = database()
    if (!fresh) {
      const db = await startDatabase(options)
      await db.info.run(
        Effect.flatMap(SqlClient.SqlClient, (sql) => sql`DELETE FROM account_names WHERE ${sql.in("name", suiteNames)}`)
      )
      await db.stop()
    }
    console.log(`services on ${"url" in options ? "Postgres" : "a fresh PGlite"} started in ${(await startNames(options)).toFixed(0)} ms`)
  })

  afterAll(async () => {
    await services?.stop()
    services = undefined
  })

  it("serves the seed names: a record on every chain, by full name or label, in reverse and identity", async () => {
    const alice = dev(0).address
    const response = await record("alice.wallet.test")
    expect(response.status).toBe(200)
    expect(await json(NameRecordResponse, response)).toEqual({
      name: "alice.wallet.test",
      addresses: { [coinType(31337)]: { address: alice }, [coinType(31338)]: { address: alice } },
      attributes: {}
    })
    expect((await json(NameRecordResponse, await record("Alice"))).name).toBe("alice.wallet.test")
    expect(await reverse(alice.toLowerCase())).toEqual(["alice.wallet.test"])
    expect(await reverse(dev(8).address)).toEqual([])
    expect(await refusal(await record("nobody-here.wallet.test"))).toEqual([404, "Name nobody-here.wallet.test is not registered"])
  })

  it("registers a name signed by an EOA: record, reverse, identity and suggestions all say it is taken", async () => {
    const erin = dev(4)
    const response = await register(erin, "erin.wallet.test", { attributes: { bio: "hello" } })
    expect(response.status).toBe(200)
    // Signed by the address's own key: the name is the address's on every chain of the stack.
    const registered = {
      name: "erin.wallet.test",
      addresses: { [coinType(31337)]: { address: erin.address }, [coinType(31338)]: { address: erin.address } },
      attributes: { bio: "hello" }
    }
    expect(await json(NameRecordResponse, response)).toEqual(registered)
    expect(await json(NameRecordResponse, await record("erin.wallet.test"))).toEqual(registered)
    expect(await reverse(erin.address)).toEqual(["erin.wallet.test"])
    expect(await identity(erin.address)).toEqual({ name: "erin.wallet.test", avatar: `${services?.info.url}/public/getAssetImage/avatar-erin` })
    expect(await suggestions("erin")).toEqual([
      { name: "erin.wallet.test", registered: true },
      { name: "erin1.wallet.test", registered: false },
      { name: "erin2.wallet.test", registered: false },
      { name: "erin3.wallet.test", registered: false }
    ])
  })

  it("registers a name for the deployed ERC-1271 account (on the second chain) and for an undeployed ERC-6492 account", async () => {
    const deployed = deployedSmartAccount(chain(31338).contracts.smartAccounts.deployed.address, dev(0))
    const contract = await register(deployed, "contract-account.wallet.test", { chainId: 31338 })
    expect(contract.status).toBe(200)
    expect((await json(NameRecordResponse, contract)).addresses).toEqual({ [coinType(31338)]: { address: deployed.address } })
    expect(await identity(deployed.address)).toMatchObject({ name: "contract-account.wallet.test" })
    // A contract account is the signer's only where its signature was checked.
    expect((await json(NameRecordResponse, await record("contract-account.wallet.test"))).addresses).toEqual({
      [coinType(31338)]: { address: deployed.address }
    })

    const counterfactual = undeployed(9001)
    const wrapped = await register(counterfactual, "counterfactual.wallet.test")
    expect(wrapped.status).toBe(200)
    expect(await reverse(counterfactual.address)).toEqual(["counterfactual.wallet.test"])
    expect((await json(NameRecordResponse, await record("counterfactual.wallet.test"))).addresses).toEqual({
      [coinType(31337)]: { address: counterfactual.address }
    })
    // Checked in a simulated call: the account is still not on the chain.
    const reader = createPublicClient({ chain: devChain(31337, chain(31337).rpcUrl), transport: http(chain(31337).rpcUrl) })
    expect(await reader.getCode({ address: counterfactual.address })).toBeUndefined()
  })

  it("lets an address hold several names, its newest one being its name; a seed name stays last", async () => {
    const alice = dev(0)
    expect((await register(alice, "alice-two.wallet.test")).status).toBe(200)
    expect(await reverse(alice.address)).toEqual(["alice-two.wallet.test", "alice.wallet.test"])
    expect(await identity(alice.address)).toMatchObject({ name: "alice-two.wallet.test" })
    expect((await suggestions("alice")).slice(0, 2)).toEqual([
      { name: "alice.wallet.test", registered: true },
      { name: "alice1.wallet.test", registered: false }
    ])
  })

  it("refuses a taken name, an invalid name, a bad signature, a stale or future message, an unknown chain and a chain id ≥ 2^31", async () => {
    const frank = dev(5)
    const cases: ReadonlyArray<readonly [string, () => Promise<Response>, number, string | RegExp]> = [
      ["registered name", () => register(frank, "erin.wallet.test"), 409, "Name already taken"],
      ["seed name", () => register(frank, "dave.wallet.test"), 409, "Name already taken"],
      ["same name in capitals", () => register(frank, "ERIN.wallet.test"), 409, "Name already taken"],
      ["short label", () => register(frank, "abc.wallet.test"), 400, "Invalid name abc.wallet.test: A name has at least 4 characters"],
      ["underscore", () => register(frank, "frank_1.wallet.test"), 400, "Invalid name frank_1.wallet.test: A name has only letters, digits and hyphens"],
      ["other suffix", () => register(frank, "frank.other.test"), 400, "Invalid name frank.other.test: a name here ends with .wallet.test"],
      ["bare label", () => register(frank, "frank"), 400, "Invalid name frank: a name here ends with .wallet.test"],
      [
        "another key's signature",
        async () => register(frank, "frank.wallet.test", { signature: await dev(6).signMessage({ message: "anything" }) }),
        401,
        "Invalid signature"
      ],
      ["not a signature", () => register(frank, "frank.wallet.test", { signature: "0x1234" }), 401, "Invalid signature"],
      ["stale message", () => register(frank, "frank.wallet.test", { timestamp: nowS() - 11 * 60 }), 400, "Message expired: sign a new registration message"],
      [
        "future message",
        () => register(frank, "frank.wallet.test", { timestamp: nowS() + 5 * 60 }),
        400,
        "Message timestamp is in the future: check the device's clock"
      ],
      [
        "unknown chain",
        () => register(frank, "frank.wallet.test", { coinType: coinType(1) }),
        400,
        "Unknown chain 1: this service registers names on chains 31337, 31338"
      ],
      [
        "chain id ≥ 2^31",
        () => register(frank, "frank.wallet.test", { coinType: 0x8000_0000 + 2 ** 31 }),
        400,
        "Invalid coin type 4294967296: the chain id must be below 2147483648"
      ],
      ["not an EVM coin type", () => register(frank, "frank.wallet.test", { coinType: 60 }), 400, /^Unsupported coin type 60/],
      ["not JSON", () => post({ coin_type: coinType(31337), address: frank.address, message: "frank", signature: "0x" }), 400, /^Invalid message/],
      ["missing fields", () => post({ address: frank.address }), 400, /^Invalid registration: /]
    ]
    for (const [what, sent, status, words] of cases) {
      const [gotStatus, gotWords] = await refusal(await sent())
      expect([what, gotStatus]).toEqual([what, status])
      expect([what, gotWords]).toEqual([what, typeof words === "string" ? words : expect.stringMatching(words)])
    }
    // The message is what was signed: another name in the same signed envelope is not the signer's.
    const signed = await registration(frank, "frank.wallet.test")
    expect(await refusal(await post({ ...signed, message: signed.message.replace("frank", "frank-x") }))).toEqual([401, "Invalid signature"])
    // Another address cannot borrow a signature.
    expect(await refusal(await post({ ...signed, address: dev(6).address }))).toEqual([401, "Invalid signature"])
    // None of the refused names was registered.
    expect(await refusal(await record("frank.wallet.test"))).toEqual([404, "Name frank.wallet.test is not registered"])
    expect(await reverse(frank.address)).toEqual([])
  })

  it("answers suggestions only under its zone and for valid labels", async () => {
    expect(await refusal(await get("/v1/profile/suggestions/frank?zone=example.eth"))).toEqual([
      400,
      "Unknown zone example.eth: this service's names end with .wallet.test"
    ])
    expect(await refusal(await get("/v1/profile/suggestions/ab?zone=wallet.test"))).toEqual([400, "Invalid name ab: A name has at least 4 characters"])
    expect((await suggestions("frank.wallet.test"))[0]).toEqual({ name: "frank.wallet.test", registered: false })
  })

  it("keeps registered names across a restart of the services on the same database", async () => {
    await services?.stop()
    services = undefined
    console.log(`services restarted on the same database in ${(await startNames(database())).toFixed(0)} ms`)
    expect((await json(NameRecordResponse, await record("erin.wallet.test"))).addresses).toEqual({
      [coinType(31337)]: { address: dev(4).address },
      [coinType(31338)]: { address: dev(4).address }
    })
    expect(await reverse(dev(0).address)).toEqual(["alice-two.wallet.test", "alice.wallet.test"])
    expect(await identity(dev(4).address)).toMatchObject({ name: "erin.wallet.test" })
    expect(await reverse(undeployed(9001).address)).toEqual(["counterfactual.wallet.test"])
    expect(await refusal(await register(dev(5), "erin.wallet.test"))).toEqual([409, "Name already taken"])
    expect((await register(dev(5), "frank.wallet.test")).status).toBe(200)
  })
}

describe("devstack names on PGlite (the default database)", () => {
  const root = mkdtempSync(join(tmpdir(), "wallet-runtime-names-"))
  afterAll(() => rmSync(root, { recursive: true, force: true }))
  namesSuite(() => ({ dataDir: join(root, "pglite") }), true)
})

const databaseUrl = process.env["DATABASE_URL"] || undefined
describe(
  databaseUrl === undefined
    ? "devstack names on a real Postgres (a throw-away cluster of test/support/postgres.ts)"
    : "devstack names on the Postgres of DATABASE_URL",
  () => {
    let postgres: RunningPostgres | undefined
    beforeAll(async () => {
      if (databaseUrl !== undefined) return
      const began = performance.now()
      postgres = await startPostgres()
      console.log(`Postgres cluster started in ${(performance.now() - began).toFixed(0)} ms`)
    })
    // Registered before the suite's own afterAll, so it runs after it (hooks unwind as a stack): services stop first.
    afterAll(async () => {
      await postgres?.stop()
    })
    namesSuite(() => ({ url: databaseUrl ?? postgres?.url ?? "" }), databaseUrl === undefined)
  }
)
