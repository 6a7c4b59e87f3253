import { Schema } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Address,
  createPublicClient,
  createWalletClient,
  encodeFunctionData,
  http,
  parseEther,
  parseUnits,
  type PublicClient
} from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { BalanceResponse, HistoryResponse, Identity, JsonRpcResponseBody } from "../../src/domain/Api"
import type { Transaction } from "../../src/domain/Portfolio"
import type { RuntimeConfig } from "../../devstack/config"
import { erc20Abi, erc721Abi, noReturnTokenAbi } from "../../devstack/evm/abis"
import type { EvmInfo } from "../../devstack/evm/index"
import { devChain } from "../../devstack/evm/chains"
import type { Started } from "../../server/src/lib/Started"
import { type DevstackInfo, startDevstack } from "../../devstack/main"
import { startServices } from "../../devstack/services"
import { fixedPrices } from "../../server/src/services/prices"

// Three transactions per history page, so paging is exercised with a handful of transfers.
const PAGE = 3

let stack: Started<DevstackInfo>
let config: RuntimeConfig
let evm: EvmInfo
let servicesUrl: string
let projectId: string

const chain = (chainId: number) => {
  const found = evm.chains.find((c) => c.chainId === chainId)
  if (found === undefined) throw new Error(`chain ${chainId} is not running`)
  return found
}
const token = (chainId: number, symbol: string): Address => {
  const found = chain(chainId).contracts.tokens.find((t) => t.symbol === symbol)
  if (found === undefined) throw new Error(`no ${symbol} on ${chainId}`)
  return found.address
}
const devKey = (index: number) => {
  const account = evm.accounts[index]
  if (account === undefined) throw new Error(`no dev account ${index}`)
  return account.privateKey
}

const clients = (chainId: number, privateKey: `0x${string}`) => {
  const { rpcUrl } = chain(chainId)
  const viemChain = devChain(chainId, rpcUrl)
  const account = privateKeyToAccount(privateKey)
  return {
    account,
    wallet: createWalletClient({ account, chain: viemChain, transport: http(rpcUrl) }),
    reader: createPublicClient({ chain: viemChain, transport: http(rpcUrl) }) as PublicClient
  }
}

const mined = async (reader: PublicClient, hash: `0x${string}`) => {
  const receipt = await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 })
  expect(receipt.status).toBe("success")
  return receipt
}

const api = async (path: string, init?: RequestInit) => {
  const separator = path.includes("?") ? "&" : "?"
  return fetch(`${servicesUrl}${path}${separator}projectId=${projectId}`, init)
}
const history = async (address: string, query: Record<string, string> = {}): Promise<typeof HistoryResponse.Type> => {
  const response = await api(`/v1/account/${address}/history?${new URLSearchParams(query)}`)
  expect(response.status).toBe(200)
  return Schema.decodeUnknownSync(HistoryResponse)(await response.json())
}
const balances = async (address: string, query: Record<string, string> = {}): Promise<typeof BalanceResponse.Type> => {
  const response = await api(`/v1/account/${address}/balance?${new URLSearchParams({ currency: "usd", ...query })}`)
  expect(response.status).toBe(200)
  return Schema.decodeUnknownSync(BalanceResponse)(await response.json())
}
const symbolsOf = (tx: Transaction) => tx.transfers.map((t) => t.fungible_info?.symbol ?? t.nft_info?.name)

/** The page the stack is told it serves (as `npm start` tells it the demo's origin). */
const APP_ORIGIN = "http://localhost:5173"

beforeAll(async () => {
  stack = await startDevstack({ parts: ["evm", "services"], historyPageSize: PAGE, appOrigins: [APP_ORIGIN] })
  config = stack.info.config
  if (stack.info.evm === undefined || config.services === null) throw new Error("evm and services must run")
  evm = stack.info.evm
  servicesUrl = config.services.url
  projectId = config.services.defaultProjectId
})

afterAll(async () => {
  await stack?.stop()
})

describe("devstack chains, balances and history", () => {
  it("runs chains 31337 and 31338 with the dev accounts funded and the same contracts on both", async () => {
    expect(evm.chains.map((c) => c.chainId)).toEqual([31337, 31338])
    for (const { chainId } of evm.chains) {
      const { reader } = clients(chainId, devKey(1))
      expect(await reader.getChainId()).toBe(chainId)
      expect(await reader.getBalance({ address: evm.accounts[9]?.address ?? "0x" })).toBe(parseEther("10000"))
      const wusd = token(chainId, "WUSD")
      expect(await reader.readContract({ address: wusd, abi: erc20Abi, functionName: "symbol" })).toBe("WUSD")
      expect(await reader.readContract({ address: wusd, abi: erc20Abi, functionName: "decimals" })).toBe(6)
      const nft = chain(chainId).contracts.collectible
      expect(await reader.readContract({ address: nft.address, abi: erc721Abi, functionName: "ownerOf", args: [1n] })).toBe(
        evm.accounts[0]?.address
      )
    }
    expect(token(31337, "WUSD")).toBe(token(31338, "WUSD"))
  })

  it("shows a native transfer in the receiver's and the sender's history and in the receiver's balance", async () => {
    const receiver = privateKeyToAccount(generatePrivateKey()).address
    const { wallet, reader, account } = clients(31337, devKey(5))
    const hash = await wallet.sendTransaction({ to: receiver, value: parseEther("1.5") })
    await mined(reader, hash)

    const received = await history(receiver)
    expect(received.data).toHaveLength(1)
    expect(received.next).toBeNull()
    const [tx] = received.data
    expect(tx?.id).toBe(hash)
    expect(tx?.metadata).toMatchObject({ chain: "eip155:31337", operationType: "receive", status: "confirmed", sentFrom: account.address, sentTo: receiver })
    expect(tx?.transfers).toEqual([
      expect.objectContaining({ direction: "in", quantity: { numeric: "1.5" }, fungible_info: expect.objectContaining({ symbol: "ETH" }) })
    ])

    const sent = await history(account.address, { chainId: "eip155:31337" })
    expect(sent.data[0]?.id).toBe(hash)
    expect(sent.data[0]?.metadata.operationType).toBe("send")
    expect(sent.data[0]?.transfers[0]?.direction).toBe("out")

    const { balances: held } = await balances(receiver)
    expect(held).toEqual([
      expect.objectContaining({ symbol: "ETH", chainId: "eip155:31337", quantity: { decimals: "18", numeric: "1.5" }, price: 3000, value: 4500 })
    ])
  })

  it("on a chain whose history starts at the head (a public chain's setting), shows what happened since the server started, not before", async () => {
    const { wallet, reader, account } = clients(31338, devKey(6))
    const before = await wallet.sendTransaction({ to: account.address, value: 1n })
    await mined(reader, before)
    const head = await startServices({
      evm: { ...evm, chains: evm.chains.map((c) => ({ ...c, history: "head" as const })) },
      prices: fixedPrices({ ETH: 2500 })
    })
    try {
      const historyOn = async (address: string) => {
        const response = await fetch(`${head.info.url}/v1/account/${address}/history?chainId=eip155:31338&projectId=${projectId}`)
        expect(response.status).toBe(200)
        return Schema.decodeUnknownSync(HistoryResponse)(await response.json()).data.map((tx) => tx.id)
      }
      // The first read fixes where the index starts: nothing of the past shows.
      expect(await historyOn(account.address)).toEqual([])
      const receiver = privateKeyToAccount(generatePrivateKey()).address
      const after = await wallet.sendTransaction({ to: receiver, value: parseEther("2") })
      await mined(reader, after)
      expect(await historyOn(account.address)).toEqual([after])
      expect(await historyOn(receiver)).toEqual([after])
      // Balances are read from the chain whatever the index holds, priced by this server's price source.
      const response = await fetch(`${head.info.url}/v1/account/${receiver}/balance?currency=usd&chainId=eip155:31338&projectId=${projectId}`)
      expect(Schema.decodeUnknownSync(BalanceResponse)(await response.json()).balances).toEqual([
        expect.objectContaining({ symbol: "ETH", quantity: { decimals: "18", numeric: "2" }, price: 2500, value: 5000 })
      ])
    } finally {
      await head.stop()
    }
  })

  it("shows an ERC-20 transfer with the token's symbol, on the chain it happened on only", async () => {
    const receiver = privateKeyToAccount(generatePrivateKey()).address
    const { wallet, reader } = clients(31338, devKey(2))
    const hash = await wallet.writeContract({
      address: token(31338, "WUSD"),
      abi: erc20Abi,
      functionName: "transfer",
      args: [receiver, parseUnits("12.5", 6)]
    })
    await mined(reader, hash)

    const all = await history(receiver)
    expect(all.data.map(symbolsOf)).toEqual([["WUSD"]])
    expect(all.data[0]?.metadata.chain).toBe("eip155:31338")
    expect(all.data[0]?.transfers[0]).toMatchObject({ direction: "in", quantity: { numeric: "12.5" }, value: 12.5, price: 1 })
    expect((await history(receiver, { chainId: "eip155:31337" })).data).toEqual([])

    const { balances: held } = await balances(receiver)
    expect(held.map((b) => [b.chainId, b.symbol, b.quantity.numeric])).toEqual([["eip155:31338", "WUSD", "12.5"]])
    expect((await balances(receiver, { chainId: "eip155:31337" })).balances).toEqual([])
  })

  it("moves the USDT-kind token, whose transfer returns no data, and shows it like any other", async () => {
    const receiver = privateKeyToAccount(generatePrivateKey()).address
    const { wallet, reader, account } = clients(31337, devKey(3))
    const usdt = token(31337, "WUSDT")
    const call = await reader.call({
      account: account.address,
      to: usdt,
      data: encodeFunctionData({ abi: noReturnTokenAbi, functionName: "transfer", args: [receiver, 1n] })
    })
    // The defining trait of the kind: a successful transfer answers no bool at all.
    expect(call.data).toBeUndefined()

    const hash = await wallet.writeContract({ address: usdt, abi: noReturnTokenAbi, functionName: "transfer", args: [receiver, parseUnits("7", 6)] })
    await mined(reader, hash)
    expect(await reader.readContract({ address: usdt, abi: noReturnTokenAbi, functionName: "balanceOf", args: [receiver] })).toBe(
      parseUnits("7", 6)
    )
    expect((await history(receiver)).data.map(symbolsOf)).toEqual([["WUSDT"]])
    expect((await balances(receiver)).balances.map((b) => [b.symbol, b.quantity.numeric])).toEqual([["WUSDT", "7"]])
  })

  it("pages the history newest first with a cursor, NFTs included, without gaps or repeats", async () => {
    const receiver = privateKeyToAccount(generatePrivateKey()).address
    const a = clients(31337, devKey(0))
    const b = clients(31338, devKey(0))
    const hashes = [
      await a.wallet.sendTransaction({ to: receiver, value: parseEther("0.1") }),
      await a.wallet.writeContract({ address: token(31337, "WUSD"), abi: erc20Abi, functionName: "transfer", args: [receiver, 1_000_000n] }),
      await a.wallet.writeContract({
        address: chain(31337).contracts.collectible.address,
        abi: erc721Abi,
        functionName: "transferFrom",
        args: [a.account.address, receiver, 2n]
      }),
      await b.wallet.sendTransaction({ to: receiver, value: parseEther("0.2") })
    ]
    for (const [i, hash] of hashes.entries()) await mined(i === 3 ? b.reader : a.reader, hash)

    const first = await history(receiver)
    expect(first.data).toHaveLength(PAGE)
    expect(first.next).toEqual(expect.any(String))
    const second = await history(receiver, { cursor: first.next ?? "" })
    expect(second.next).toBeNull()
    const ids = [...first.data, ...second.data].map((tx) => tx.id)
    expect(new Set(ids).size).toBe(4)
    expect(new Set(ids)).toEqual(new Set(hashes))
    const minedAt = [...first.data, ...second.data].map((tx) => tx.metadata.minedAt)
    expect([...minedAt].sort().reverse()).toEqual(minedAt)

    const nft = [...first.data, ...second.data].find((tx) => tx.id === hashes[2])
    expect(nft?.metadata.operationType).toBe("receive")
    expect(nft?.transfers).toEqual([
      expect.objectContaining({
        direction: "in",
        quantity: { numeric: "1" },
        nft_info: expect.objectContaining({ name: "Wallet Runtime Collectibles #2", flags: { is_spam: false } })
      })
    ])
    const preview = nft?.transfers[0]?.nft_info?.content?.preview?.url ?? ""
    // Used as an <img src>, so it needs no projectId.
    const image = await fetch(preview)
    expect(image.headers.get("content-type")).toBe("image/svg+xml")
  })

  it("names the first dev accounts and prices known tokens", async () => {
    const alice = evm.accounts[0]?.address ?? ""
    const identity = Schema.decodeUnknownSync(Identity)(await (await api(`/v1/identity/${alice}`)).json())
    expect(identity.name).toBe("alice.wallet.test")
    expect(identity.avatar).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/public\/getAssetImage\/avatar-alice$/)
    const stranger = privateKeyToAccount(generatePrivateKey()).address
    expect(await (await api(`/v1/identity/${stranger}`)).json()).toEqual({ name: null, avatar: null })

    const response = await api("/v1/fungible/price", {
      method: "POST",
      body: JSON.stringify({
        projectId,
        currency: "usd",
        addresses: [`eip155:31337:${token(31337, "WUSD")}`, "eip155:31338:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee", `eip155:31337:${stranger}`]
      })
    })
    const { fungibles } = (await response.json()) as { fungibles: ReadonlyArray<{ symbol: string; price: number }> }
    expect(fungibles.map((f) => [f.symbol, f.price])).toEqual([
      ["WUSD", 1],
      ["ETH", 3000]
    ])

    const supported = await (await api("/v1/supported-chains")).json()
    // Both local chains run Uniswap v2: both are swap networks.
    expect(supported).toEqual({ http: ["eip155:31337", "eip155:31338"], ws: [], swaps: ["eip155:31337", "eip155:31338"], onramp: ["eip155:31337", "eip155:31338"] })
  })
})

describe("devstack RPC proxy and projectId allow-list", () => {
  const rpc = async (chainId: string, body: unknown) => {
    const response = await api(`/v1/?chainId=${chainId}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) })
    return { status: response.status, body: (await response.json()) as unknown }
  }

  it("forwards single calls, batches and GET calls to the chain named by CAIP-2 id or number", async () => {
    expect(await rpc("eip155:31338", { jsonrpc: "2.0", id: 7, method: "eth_chainId" })).toEqual({
      status: 200,
      body: { jsonrpc: "2.0", id: 7, result: "0x7a6a" }
    })
    const address = evm.accounts[4]?.address ?? ""
    const direct = await clients(31337, devKey(4)).reader.getBalance({ address: evm.accounts[4]?.address ?? "0x" })
    const batch = await rpc("31337", [
      { jsonrpc: "2.0", id: 1, method: "eth_chainId", params: [] },
      { jsonrpc: "2.0", id: 2, method: "eth_getBalance", params: [address, "latest"] }
    ])
    const answers = Schema.decodeUnknownSync(JsonRpcResponseBody)(batch.body)
    expect(answers).toEqual([
      { jsonrpc: "2.0", id: 1, result: "0x7a69" },
      { jsonrpc: "2.0", id: 2, result: `0x${direct.toString(16)}` }
    ])
    const viaGet = await api(`/v1/?chainId=eip155:31337&method=eth_chainId&params=[]`)
    expect(await viaGet.json()).toEqual({ jsonrpc: "2.0", id: 1, result: "0x7a69" })
    expect(await rpc("eip155:31337", { jsonrpc: "2.0", id: 3, method: "no_such_method" })).toMatchObject({
      status: 200,
      body: { id: 3, error: { code: expect.any(Number) } }
    })
  })

  it("answers the spec's texts for an unknown projectId and for an origin off the allow-list", async () => {
    const path = `${servicesUrl}/v1/supported-chains`
    const unknown = await fetch(`${path}?projectId=not-a-project`)
    expect(unknown.status).toBe(401)
    expect(await unknown.text()).toBe("Unauthorized: invalid key")

    const foreign = await fetch(`${path}?projectId=${projectId}`, { headers: { origin: "https://elsewhere.example" } })
    expect(foreign.status).toBe(403)
    expect(await foreign.text()).toBe("Unauthorized: origin not allowed")

    const locked = await fetch(`${path}?projectId=devstack-origin-locked`, { headers: { origin: "http://127.0.0.1:5173" } })
    expect(locked.status).toBe(403)
    expect(await locked.text()).toBe("Unauthorized: origin not allowed")

    // The stack's dev project takes the app origins it was given, not any local page.
    const app = await fetch(path, { headers: { origin: APP_ORIGIN, "x-project-id": projectId } })
    expect(app.status).toBe(200)
    expect(app.headers.get("access-control-allow-origin")).toBe(APP_ORIGIN)
    const otherLocalPage = await fetch(path, { headers: { origin: "http://127.0.0.1:5174", "x-project-id": projectId } })
    expect(otherLocalPage.status).toBe(403)
    expect(await otherLocalPage.text()).toBe("Unauthorized: origin not allowed")

    const rpcUnknown = await fetch(`${servicesUrl}/v1/?chainId=eip155:31337&projectId=nope`, { method: "POST", body: "{}" })
    expect(await rpcUnknown.text()).toBe("Unauthorized: invalid key")
    expect(config.services?.projects.map((p) => p.projectId)).toContain("devstack-origin-locked")
  })

  it("answers every malformed request with a 4xx and a clear JSON message, and keeps serving", async () => {
    const address = evm.accounts[0]?.address ?? ""
    const cases: ReadonlyArray<readonly [string, string, string | undefined, RegExp]> = [
      ["GET", `/v1/account/0x1234/balance?projectId=${projectId}`, undefined, /Invalid path: .*EVM address/],
      ["GET", `/v1/account/${address}/balance?projectId=${projectId}&chainId=eip155`, undefined, /Invalid query: Invalid CAIP-2 network id: eip155/],
      ["GET", `/v1/account/${address}/balance?projectId=${projectId}&currency=eur`, undefined, /Invalid query: .*"usd".*currency/],
      ["GET", `/v1/account/${address}/history?projectId=${projectId}&cursor=yesterday`, undefined, /Invalid cursor/],
      ["GET", `/v1/identity/not-an-address?projectId=${projectId}`, undefined, /Invalid path/],
      ["POST", `/v1/fungible/price?projectId=${projectId}`, "{not json", /Invalid body: not valid JSON/],
      ["POST", `/v1/fungible/price?projectId=${projectId}`, JSON.stringify({ currency: "usd", addresses: ["nope"] }), /Invalid body: .*CAIP-10/],
      ["POST", `/v1/?chainId=eip155:31337&projectId=${projectId}`, JSON.stringify({ method: "eth_chainId" }), /Invalid body/],
      ["POST", `/v1/?chainId=eip155:1&projectId=${projectId}`, JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" }), /Unsupported chainId eip155:1/],
      ["GET", `/v1/?chainId=eip155:31337&projectId=${projectId}`, undefined, /Missing method/],
      ["GET", `/v1/?projectId=${projectId}`, undefined, /Invalid query: .*chainId/],
      ["GET", `/getWallets?projectId=${projectId}&entries=1000`, undefined, /Invalid query: .*between 1 and 100.*entries/],
      ["GET", `/getWallets?projectId=${projectId}&badge_type=gold`, undefined, /Invalid query: .*badge_type/],
      ["GET", `/getWalletImage/nope?projectId=${projectId}`, undefined, /No wallet image with id nope/],
      ["GET", `/public/getTokenImage/${encodeURIComponent("<svg>")}?projectId=${projectId}`, undefined, /Invalid path: .*image id/],
      ["POST", `/e?projectId=${projectId}`, JSON.stringify({ eventId: 1 }), /Invalid body/],
      ["GET", "/v1/supported-chains", undefined, /Missing projectId/],
      ["DELETE", `/v1/supported-chains?projectId=${projectId}`, undefined, /Method DELETE is not allowed/],
      ["GET", "/no/such/endpoint", undefined, /No endpoint GET \/no\/such\/endpoint/]
    ]
    for (const [method, path, body, message] of cases) {
      const response = await fetch(`${servicesUrl}${path}`, { method, ...(body === undefined ? {} : { body }) })
      expect({ path, status: response.status >= 400 && response.status < 500 }).toEqual({ path, status: true })
      expect(response.headers.get("content-type")).toMatch(/^application\/json/)
      const { error } = (await response.json()) as { error: string }
      expect(error).toMatch(message)
    }
    expect((await api("/v1/supported-chains")).status).toBe(200)
  })
})
