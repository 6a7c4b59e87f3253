/**
 * The local explorer's pages against the real devstack (anvil with the dev tokens and collectibles, the local Solana,
 * the services server): after real transfers, a transaction's page says what the chain says (status, block, from,
 * to, value, the decoded Transfer logs), a pending one says pending until it is mined, an address, an NFT and a
 * token have their pages; a hash or network the stack does not have is a 404 page, and hostile text in the path is
 * a 400 page that shows it escaped.
 */
import {
  address as toSolanaAddress,
  appendTransactionMessageInstructions,
  createKeyPairSignerFromBytes,
  createSolanaRpc,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  pipe,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners
} from "@solana/kit"
import { createPublicClient, createWalletClient, http, parseEther, parseUnits, type PublicClient } from "viem"
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { erc20Abi, erc721Abi } from "../../devstack/evm/abis"
import { devChain } from "../../devstack/evm/chains"
import { type EvmInfo, startEvm } from "../../devstack/evm/index"
import type { Started } from "../../server/src/lib/Started"
import { type ServicesInfo, startServices } from "../../devstack/services"
import { type SolanaInfo, startSolana, transferSolInstruction } from "../../devstack/solana"

const CHAIN = "eip155:31337"

let evm: Started<EvmInfo>
let solana: Started<SolanaInfo>
let services: Started<ServicesInfo>

interface Page {
  readonly status: number
  readonly html: string
  readonly headers: Headers
  /** The page's labelled values, as text. */
  readonly fields: Readonly<Record<string, string>>
  /** The items of the list labelled `label`, as text. */
  readonly list: (label: string) => ReadonlyArray<string>
}

const textOf = (html: string) =>
  html
    .replace(/<br>/g, " ")
    .replace(/<[^>]*>/g, "")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .trim()

/** A page of the explorer, read as a visitor reads it. */
const open = async (path: string): Promise<Page> => {
  const response = await fetch(`${services.info.url}${path}`, { redirect: "manual" })
  const html = await response.text()
  const fields = Object.fromEntries([...html.matchAll(/<dt>(.*?)<\/dt><dd>(.*?)<\/dd>/g)].map((m) => [textOf(m[1] ?? ""), textOf(m[2] ?? "")]))
  const list = (label: string) => {
    const body = html.match(new RegExp(`<ul class="rows" aria-label="${label}">(.*?)</ul>`))?.[1] ?? ""
    return [...body.matchAll(/<li>(.*?)<\/li>/g)].map((m) => textOf(m[1] ?? ""))
  }
  return { status: response.status, html, headers: response.headers, fields, list }
}

beforeAll(async () => {
  const [startedEvm, startedSolana] = await Promise.all([startEvm({ chainIds: [31337] }), startSolana()])
  evm = startedEvm
  solana = startedSolana
  services = await startServices({
    evm: evm.info,
    solana: { caipNetworkId: solana.info.caipNetworkId, rpcUrl: solana.info.rpcUrl, tokens: solana.info.tokens }
  })
})

afterAll(async () => {
  await services?.stop()
  await Promise.all([evm?.stop(), solana?.stop()])
})

describe("the explorer's pages of an EVM chain", () => {
  const chain = () => {
    const found = evm.info.chains[0]
    if (found === undefined) throw new Error("chain 31337 is not running")
    return found
  }
  const rpc = (method: string, params: ReadonlyArray<unknown> = []) =>
    fetch(chain().rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }) })

  it("a transaction's page: status, block, from, to, value, and the decoded Transfer logs of ETH, WUSD and an NFT; a revert says failed", async () => {
    const { rpcUrl, contracts } = chain()
    const viemChain = devChain(31337, rpcUrl)
    const reader = createPublicClient({ chain: viemChain, transport: http(rpcUrl) }) as PublicClient
    const sender = privateKeyToAccount(evm.info.accounts[1]?.privateKey ?? "0x")
    const wallet = createWalletClient({ account: sender, chain: viemChain, transport: http(rpcUrl) })
    const receiver = privateKeyToAccount(generatePrivateKey()).address
    const wusd = contracts.tokens.find((t) => t.symbol === "WUSD")?.address ?? "0x"
    const wrc = contracts.collectible.address
    const hashes = {
      eth: await wallet.sendTransaction({ to: receiver, value: parseEther("1.25") }),
      wusd: await wallet.writeContract({ address: wusd, abi: erc20Abi, functionName: "transfer", args: [receiver, parseUnits("12.5", 6)] }),
      nft: await wallet.writeContract({ address: wrc, abi: erc721Abi, functionName: "transferFrom", args: [sender.address, receiver, 5n] }),
      failed: await wallet.writeContract({ address: wrc, abi: erc721Abi, functionName: "transferFrom", args: [sender.address, receiver, 1n], gas: 200_000n })
    }
    for (const hash of Object.values(hashes)) await reader.waitForTransactionReceipt({ hash, pollingInterval: 20 })

    const eth = await open(`/explorer/${CHAIN}/tx/${hashes.eth}`)
    expect(eth.status).toBe(200)
    expect(eth.headers.get("content-type")).toBe("text/html; charset=utf-8")
    const receipt = await reader.getTransactionReceipt({ hash: hashes.eth })
    expect(eth.fields).toMatchObject({
      "Transaction hash": hashes.eth,
      Status: "Confirmed",
      From: sender.address,
      To: receiver,
      Value: "1.25 ETH",
      Call: "Transfer of ETH"
    })
    expect(eth.fields["Block"]).toMatch(new RegExp(`^${receipt.blockNumber} \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d UTC$`))
    expect(eth.fields["Fee"]).toMatch(/^0\.0000\d+ ETH$/)
    expect(eth.list("Token transfers")).toEqual([])
    // Each address links to its page.
    expect(eth.html).toContain(`href="/explorer/${CHAIN}/address/${receiver}"`)

    const token = await open(`/explorer/${CHAIN}/tx/${hashes.wusd}`)
    expect(token.fields).toMatchObject({ Status: "Confirmed", From: sender.address, To: wusd, Value: "0 ETH", Call: "transfer(address,uint256)" })
    expect(token.list("Token transfers")).toEqual([`12.5 WUSD (Wallet Runtime USD) from ${sender.address} to ${receiver}`])

    const nft = await open(`/explorer/${CHAIN}/tx/${hashes.nft}`)
    expect(nft.list("Token transfers")).toEqual([`Wallet Runtime Collectibles #5 (NFT) from ${sender.address} to ${receiver}`])
    expect(nft.html).toContain(`href="/explorer/${CHAIN}/nft/${wrc}/5"`)

    const failed = await open(`/explorer/${CHAIN}/tx/${hashes.failed}`)
    expect(failed.fields["Status"]).toBe("Failed reverted: nothing moved but the fee")
    expect(failed.list("Token transfers")).toEqual([])

    // The receiver's page: what it holds now and the three transactions that reached it, newest first (the refused
    // one names it only in its call data).
    const address = await open(`/explorer/${CHAIN}/address/${receiver.toLowerCase()}`)
    expect(address.fields).toMatchObject({ Address: receiver, Kind: "Account", Balance: "1.25 ETH", "Transactions sent": "0" })
    expect(address.list("Tokens")).toEqual(["12.5 WUSD Wallet Runtime USD"])
    expect(address.list("NFTs")).toEqual(["Wallet Runtime Collectibles #5"])
    const listed = address.list("Transactions")
    expect(listed).toHaveLength(3)
    expect(listed[2]).toMatch(/^0x\w{6}…\w{6} Confirmed block \d+ .* from 0x\w{6}…\w{6} · 1\.25 ETH$/)
    for (const hash of [hashes.nft, hashes.wusd, hashes.eth]) expect(address.html).toContain(`href="/explorer/${CHAIN}/tx/${hash}"`)
    const senderPage = await open(`/explorer/${CHAIN}/address/${sender.address}`)
    expect(senderPage.list("Transactions")[0]).toMatch(/^0x\w{6}…\w{6} Failed block \d+/)

    // A contract's page names its token.
    expect((await open(`/explorer/${CHAIN}/address/${wusd}`)).fields["Kind"]).toBe("Contract — Wallet Runtime USD (WUSD)")
  })

  it("a pending transaction's page says pending, and confirmed once it is mined", async () => {
    const { rpcUrl } = chain()
    const viemChain = devChain(31337, rpcUrl)
    const wallet = createWalletClient({ account: privateKeyToAccount(evm.info.accounts[2]?.privateKey ?? "0x"), chain: viemChain, transport: http(rpcUrl) })
    await rpc("evm_setAutomine", [false])
    try {
      const hash = await wallet.sendTransaction({ to: evm.info.accounts[3]?.address ?? "0x", value: parseEther("0.5"), gas: 21_000n })
      const pending = await open(`/explorer/${CHAIN}/tx/${hash}`)
      expect(pending.status).toBe(200)
      expect(pending.fields).toMatchObject({ Status: "Pending waiting to be included in a block", Block: "Not yet", Fee: "Not yet", Value: "0.5 ETH" })
      await rpc("evm_mine")
      const mined = await open(`/explorer/${CHAIN}/tx/${hash}`)
      expect(mined.fields["Status"]).toBe("Confirmed")
      expect(mined.fields["Block"]).toMatch(/^\d+ /)
      // Pages are never cached: the same address shows the change.
      expect(mined.headers.get("cache-control")).toBe("no-store")
    } finally {
      await rpc("evm_setAutomine", [true])
    }
  })

  it("an NFT's page: its collection, picture and holder; a token id the collection does not have is a 404 page", async () => {
    const { contracts } = chain()
    const wrc = contracts.collectible.address
    const owner = evm.info.accounts[2]?.address ?? ""
    const page = await open(`/explorer/${CHAIN}/nft/${wrc}/7`)
    expect(page.status).toBe(200)
    expect(page.html).toContain("<h1>Wallet Runtime Collectibles #7</h1>")
    expect(page.fields).toMatchObject({ Collection: "Wallet Runtime Collectibles WRC", Contract: wrc, "Token ID": "7", Owner: owner })
    const image = page.html.match(/<img src="([^"]+)"/)?.[1] ?? ""
    expect(image).toBe(`${services.info.url}/public/getAssetImage/nft-31337-${wrc}-7`)
    expect((await fetch(image)).headers.get("content-type")).toMatch(/^image\/svg\+xml/)

    const spam = await open(`/explorer/${CHAIN}/nft/${contracts.spamCollectible.address}/3`)
    expect(spam.fields["Flag"]).toBe("On the stack's spam list: wallets hide it")

    const missing = await open(`/explorer/${CHAIN}/nft/${wrc}/999`)
    expect(missing.status).toBe(404)
    expect(textOf(missing.html)).toContain(`Local Chain A has no token #999 in${wrc}`)
  })

  it("a token's page: name, symbol, decimals and supply", async () => {
    const wusd = chain().contracts.tokens.find((t) => t.symbol === "WUSD")?.address ?? ""
    const page = await open(`/explorer/${CHAIN}/token/${wusd}`)
    expect(page.fields).toMatchObject({ Name: "Wallet Runtime USD", Symbol: "WUSD", Standard: "ERC-20", Decimals: "6" })
    expect(Number(page.fields["Total supply"])).toBeGreaterThan(0)
    expect((await open(`/explorer/${CHAIN}/token/${chain().contracts.collectible.address}`)).fields["Standard"]).toBe("ERC-721 (NFTs)")
    expect((await open(`/explorer/${CHAIN}/token/0x000000000000000000000000000000000000dEaD`)).status).toBe(404)
  })
})

describe("the explorer's pages of the Solana network", () => {
  it("a signature's page: confirmed, the fee payer, the SOL moved; the receiver's account page lists it", async () => {
    const rpc = createSolanaRpc(solana.info.rpcUrl)
    const payer = await createKeyPairSignerFromBytes(getBase58Encoder().encode(solana.info.funded[1]?.secretKey ?? ""))
    const receiver = (await generateKeyPairSigner()).address
    const { value: latest } = await rpc.getLatestBlockhash().send()
    const transaction = await signTransactionMessageWithSigners(
      pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayerSigner(payer, m),
        (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
        (m) => appendTransactionMessageInstructions([transferSolInstruction(payer.address, receiver, 1_500_000_000n)], m)
      )
    )
    await rpc.sendTransaction(getBase64EncodedWireTransaction(transaction), { encoding: "base64" }).send()
    const signature = getSignatureFromTransaction(transaction)

    const network = solana.info.caipNetworkId
    const page = await open(`/explorer/${network}/tx/${signature}`)
    expect(page.status).toBe(200)
    expect(page.fields).toMatchObject({ Signature: signature, Status: "Confirmed finalized", "Fee payer": payer.address })
    expect(page.fields["Fee"]).toMatch(/^0\.0000\d+ SOL$/)
    expect(page.list("SOL transfers")).toEqual([`1.5 SOL from ${payer.address} to ${receiver}`])

    const account = await open(`/explorer/${network}/account/${receiver}`)
    expect(account.fields).toMatchObject({ Address: receiver, Balance: "1.5 SOL" })
    expect(account.html).toContain(`href="/explorer/${network}/tx/${signature}"`)
    // The dev key holds the stack's SPL token.
    expect((await open(`/explorer/${network}/address/${toSolanaAddress(payer.address)}`)).list("Tokens")[0]).toMatch(/^[\d.]+ WSUSD token account/)

    const unknown = (await generateKeyPairSigner()).address
    const missing = await open(`/explorer/${network}/tx/${"1".repeat(64)}`)
    expect(missing.status).toBe(404)
    expect(textOf(missing.html)).toContain("Transaction not found")
    expect((await open(`/explorer/${network}/account/${unknown}`)).fields["Balance"]).toBe("0 SOL")
  })
})

describe("the explorer's refusals", () => {
  it("a hash, a network or a token the stack does not have: a 404 page that says so", async () => {
    const hash = `0x${"ab".repeat(32)}`
    const page = await open(`/explorer/${CHAIN}/tx/${hash}`)
    expect(page.status).toBe(404)
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8")
    expect(page.html).toContain("<h1>Transaction not found</h1>")
    expect(textOf(page.html)).toContain(`Local Chain A has no transaction${hash}`)

    const network = await open(`/explorer/eip155:999/tx/${hash}`)
    expect(network.status).toBe(404)
    expect(network.html).toContain("<h1>Network not found</h1>")
    // It lists the networks it does have.
    expect(network.list("Networks")).toEqual([`Local Chain A ${CHAIN}`, `Local Solana ${solana.info.caipNetworkId}`])
  })

  it("hostile text in the path: a 400 page showing it escaped, never as markup", async () => {
    const hostile = [
      `/explorer/${CHAIN}/tx/${encodeURIComponent("<script>alert(1)</script>")}`,
      `/explorer/${encodeURIComponent('"><img src=x onerror=alert(1)>')}/tx/0x00`,
      `/explorer/${CHAIN}/address/${encodeURIComponent("0x<svg onload=alert(1)>")}`,
      `/explorer/${CHAIN}/nft/${evm.info.chains[0]?.contracts.collectible.address}/${encodeURIComponent('1" onmouseover="alert(1)')}`,
      `/explorer/${CHAIN}/token/${encodeURIComponent("<b>x</b>")}`,
      `/explorer/${solana.info.caipNetworkId}/account/${encodeURIComponent("<iframe src=javascript:alert(1)>")}`,
      `/explorer/${CHAIN}/search?q=${encodeURIComponent("<script>alert(1)</script>")}`
    ]
    for (const path of hostile) {
      const page = await open(path)
      expect(page.status, path).toBe(400)
      expect(page.html, path).toContain("<h1>Not understood</h1>")
      expect(page.html, path).not.toMatch(/<(script|img|svg|b|iframe)[\s>]|onmouseover="/)
      expect(page.html, path).toMatch(/&lt;|&quot;/)
      // The pages run no script at all, whatever they show.
      expect(page.headers.get("content-security-policy"), path).toContain("default-src 'none'")
    }
    expect((await open(`/explorer/${CHAIN}/tx/${encodeURIComponent("<script>alert(1)</script>")}`)).html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;")
  })

  it("the network page's search leads to the transaction or address asked, and the index lists the networks", async () => {
    const address = evm.info.accounts[0]?.address ?? ""
    const search = await open(`/explorer/${CHAIN}/search?q=${address.toLowerCase()}`)
    expect(search.status).toBe(302)
    expect(search.headers.get("location")).toBe(`/explorer/${CHAIN}/address/${address}`)
    const network = await open(`/explorer/${CHAIN}`)
    expect(network.fields["Network id"]).toBe(CHAIN)
    expect(Number(network.fields["Latest block"])).toBeGreaterThan(0)
    expect((await open("/explorer")).list("Networks")).toHaveLength(2)
  })
})
