/**
 * The embedded wallet's RPC against real chains (anvil, the litesvm Solana RPC), the mail sink and PGlite, signed as
 * the frame signs (issue 30: support/frameSigner.ts runs the frame's signing code in node; the server signs nothing):
 * the user's split keys, made by the frame's login step, sign messages and typed data (verified with viem), send ETH
 * (receipt success) and SOL (confirmed), sign Solana messages (ed25519 verified); reads pass through the wallet
 * server's `/api/rpc`; other addresses and methods are refused in the wallet's words.
 */
import { randomBytes } from "node:crypto"
import {
  address,
  appendTransactionMessageInstruction,
  compileTransaction,
  createSolanaRpc,
  createTransactionMessage,
  getBase58Decoder,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  getPublicKeyFromAddress,
  lamports,
  pipe,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type Signature,
  type SignatureBytes,
  verifySignature
} from "@solana/kit"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createPublicClient, createWalletClient, type Hex, http, parseEther, verifyMessage, verifyTypedData } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { type Database, startDatabase } from "../../server/src/db/index"
import { startWalletServer, type WalletServerInfo } from "../../server/src/embedded/server/index"
import { type EvmInfo, startEvm } from "../../devstack/evm/index"
import type { Started } from "../../server/src/lib/Started"
import { type MailInfo, startMail } from "../../devstack/mail/index"
import { type SolanaInfo, startSolana, transferSolInstruction } from "../../devstack/solana/index"
import { frameRpc } from "./support/frameSigner"
import { logInWithKeys, walletApi } from "./support/walletServerClient"

const SOL = 1_000_000_000n
let mail: Started<MailInfo>
let db: Started<Database>
let evm: Started<EvmInfo>
let solana: Started<SolanaInfo>
let server: Started<WalletServerInfo>
let client: ReturnType<typeof walletApi>
let token: string
let user: { readonly evmAddress: Hex; readonly solanaAddress: string }

const chain = () => {
  const found = evm.info.chains[0]
  if (found === undefined) throw new Error("chain 31337 is not running")
  return found
}

let rpc: ReturnType<typeof frameRpc>

beforeAll(async () => {
  ;[mail, db, evm, solana] = await Promise.all([startMail(), startDatabase(), startEvm({ chainIds: [31337] }), startSolana()])
  server = await startWalletServer({
    masterKey: randomBytes(32),
    smtp: { port: mail.info.smtpPort },
    database: db.info,
    chains: {
      evm: [{ caipNetworkId: chain().caipNetworkId, rpcUrl: chain().rpcUrl }],
      solana: { caipNetworkId: solana.info.caipNetworkId, rpcUrl: solana.info.rpcUrl }
    }
  })
  client = walletApi(server.info.url)
  const keys = await logInWithKeys(client, mail.info, `signer-${Date.now()}@example.test`, server.info.url)
  token = keys.token
  user = (await client.call("GET", "/api/user", undefined, { token })).body as typeof user
  rpc = frameRpc(client, server.info.url, token, keys.storage)
})

afterAll(async () => {
  await server?.stop()
  await Promise.all([db?.stop(), mail?.stop(), evm?.stop(), solana?.stop()])
})

describe("eip155", () => {
  it("answers the account and chain, and passes reads to the chain", async () => {
    expect((await rpc(chain().caipNetworkId, "eth_accounts")).body).toEqual({ result: [user.evmAddress] })
    expect((await rpc(chain().caipNetworkId, "eth_chainId")).body).toEqual({ result: "0x7a69" })
    expect((await rpc(chain().caipNetworkId, "eth_getBalance", [user.evmAddress, "latest"])).body).toEqual({ result: "0x0" })
  })

  it("personal_sign (text and hex) verifies with viem; another address is refused", async () => {
    const signed = await rpc(chain().caipNetworkId, "personal_sign", ["Hello from the embedded wallet", user.evmAddress])
    expect(signed.status).toBe(200)
    expect(
      await verifyMessage({ address: user.evmAddress, message: "Hello from the embedded wallet", signature: signed.body["result"] as Hex })
    ).toBe(true)
    const raw = await rpc(chain().caipNetworkId, "personal_sign", ["0xdeadbeef", user.evmAddress])
    expect(await verifyMessage({ address: user.evmAddress, message: { raw: "0xdeadbeef" }, signature: raw.body["result"] as Hex })).toBe(true)
    const other = await rpc(chain().caipNetworkId, "personal_sign", ["hi", evm.info.accounts[0]?.address])
    expect(other.status).toBe(400)
    expect(other.body).toMatchObject({ code: "rpc_error", rpcCode: 4100 })
  })

  it("eth_signTypedData_v4 (a JSON string, as dapps send it) verifies with viem", async () => {
    const mailTypes = {
      Person: [
        { name: "name", type: "string" },
        { name: "wallet", type: "address" }
      ],
      Mail: [
        { name: "from", type: "Person" },
        { name: "to", type: "Person" },
        { name: "contents", type: "string" }
      ]
    } as const
    const fields = {
      domain: { name: "Mail", version: "1", chainId: 31337, verifyingContract: "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC" },
      primaryType: "Mail",
      message: {
        from: { name: "Cow", wallet: "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826" },
        to: { name: "Bob", wallet: "0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB" },
        contents: "Hello, Bob!"
      }
    } as const
    // Dapps send the domain's type too, as eth_signTypedData_v4 defines it.
    const typedData = {
      ...fields,
      types: {
        EIP712Domain: [
          { name: "name", type: "string" },
          { name: "version", type: "string" },
          { name: "chainId", type: "uint256" },
          { name: "verifyingContract", type: "address" }
        ],
        ...mailTypes
      }
    }
    const signed = await rpc(chain().caipNetworkId, "eth_signTypedData_v4", [user.evmAddress, JSON.stringify(typedData)])
    expect(signed.status).toBe(200)
    expect(await verifyTypedData({ address: user.evmAddress, ...fields, types: mailTypes, signature: signed.body["result"] as Hex })).toBe(true)
  })

  it("eth_sendTransaction of 0.01 ETH to anvil account 1 fills nonce, gas and fees, and its receipt is a success", async () => {
    const funder = evm.info.accounts[0]
    const receiver = evm.info.accounts[1]
    if (funder === undefined || receiver === undefined) throw new Error("no dev accounts")
    const reader = createPublicClient({ transport: http(chain().rpcUrl) })
    // Without funds, the node's own words come back.
    const broke = await rpc(chain().caipNetworkId, "eth_sendTransaction", [
      { from: user.evmAddress, to: receiver.address, value: `0x${parseEther("0.01").toString(16)}` }
    ])
    expect(broke.status).toBe(400)
    expect(broke.body["code"]).toBe("rpc_error")
    expect(String(broke.body["error"])).toMatch(/funds/i)

    const funding = await createWalletClient({ account: privateKeyToAccount(funder.privateKey), transport: http(chain().rpcUrl) }).sendTransaction({
      to: user.evmAddress,
      value: parseEther("1"),
      chain: null
    })
    await reader.waitForTransactionReceipt({ hash: funding })
    const before = await reader.getBalance({ address: receiver.address })
    const sent = await rpc(chain().caipNetworkId, "eth_sendTransaction", [
      { from: user.evmAddress, to: receiver.address, value: `0x${parseEther("0.01").toString(16)}` }
    ])
    expect(sent.status).toBe(200)
    const receipt = await reader.waitForTransactionReceipt({ hash: sent.body["result"] as Hex })
    expect(receipt.status).toBe("success")
    expect(receipt.from.toLowerCase()).toBe(user.evmAddress.toLowerCase())
    expect((await reader.getBalance({ address: receiver.address })) - before).toBe(parseEther("0.01"))
  })

  it("refuses a method outside the lists: method_not_allowed", async () => {
    expect(await rpc(chain().caipNetworkId, "eth_sign", [user.evmAddress, "0x00"])).toEqual({
      status: 400,
      body: { code: "method_not_allowed", error: "Requested RPC call is not allowed" }
    })
    expect((await rpc(chain().caipNetworkId, "wallet_switchEthereumChain", [{ chainId: "0x1" }])).body["code"]).toBe("method_not_allowed")
  })
})

describe("solana", () => {
  it("solana_signMessage verifies with ed25519 under the user's address", async () => {
    const message = new TextEncoder().encode("Sign in to the embedded wallet")
    const signed = await rpc(solana.info.caipNetworkId, "solana_signMessage", {
      message: getBase58Decoder().decode(message),
      pubkey: user.solanaAddress
    })
    expect(signed.status).toBe(200)
    const signature = getBase58Encoder().encode((signed.body["result"] as { signature: string }).signature)
    const publicKey = await getPublicKeyFromAddress(address(user.solanaAddress))
    expect(await verifySignature(publicKey, signature as SignatureBytes, message)).toBe(true)
    expect(await verifySignature(publicKey, signature as SignatureBytes, new TextEncoder().encode("something else"))).toBe(false)
  })

  it("solana_signAndSendTransaction of a SOL transfer is confirmed on the chain; a transaction it need not sign is refused", async () => {
    const solRpc = createSolanaRpc(solana.info.rpcUrl)
    const owner = address(user.solanaAddress)
    await solRpc.requestAirdrop(owner, lamports(2n * SOL)).send()
    const receiver = address(solana.info.funded[1]?.address ?? "")
    const before = (await solRpc.getBalance(receiver).send()).value
    const transfer = async (payer: typeof owner, amount = SOL / 2n) => {
      const { value: latest } = await solRpc.getLatestBlockhash().send()
      return getBase64EncodedWireTransaction(
        compileTransaction(
          pipe(
            createTransactionMessage({ version: 0 }),
            (m) => setTransactionMessageFeePayer(payer, m),
            (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
            (m) => appendTransactionMessageInstruction(transferSolInstruction(payer, receiver, amount), m)
          )
        )
      )
    }
    const sent = await rpc(solana.info.caipNetworkId, "solana_signAndSendTransaction", { transaction: await transfer(owner) })
    expect(sent.status).toBe(200)
    const signature = (sent.body["result"] as { signature: string }).signature
    const [status] = (await solRpc.getSignatureStatuses([signature as Signature]).send()).value
    expect(status?.err).toBeNull()
    expect((await solRpc.getBalance(receiver).send()).value - before).toBe(SOL / 2n)

    // A transaction signed apart (as the frame signs) and sent through the server's sendTransaction lands as well.
    const signedApart = await rpc(solana.info.caipNetworkId, "solana_signTransaction", { transaction: await transfer(owner, SOL / 4n) })
    const relayed = await rpc(solana.info.caipNetworkId, "sendTransaction", [(signedApart.body["result"] as { transaction: string }).transaction, { encoding: "base64" }])
    expect(relayed.status).toBe(200)
    const [relayedStatus] = (await solRpc.getSignatureStatuses([relayed.body["result"] as Signature]).send()).value
    expect(relayedStatus?.err).toBeNull()
    expect((await solRpc.getBalance(receiver).send()).value - before).toBe((3n * SOL) / 4n)

    const foreign = await rpc(solana.info.caipNetworkId, "solana_signTransaction", {
      transaction: await transfer(address(solana.info.funded[0]?.address ?? ""))
    })
    expect(foreign.status).toBe(400)
    expect(foreign.body["code"]).toBe("rpc_error")
  })

  it("answers the account; an unknown chain is bad_request", async () => {
    expect((await rpc(solana.info.caipNetworkId, "solana_getAccounts")).body).toEqual({ result: [{ pubkey: user.solanaAddress }] })
    expect((await rpc("solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1", "solana_getAccounts")).body["code"]).toBe("bad_request")
  })
})
