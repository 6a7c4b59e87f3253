import {
  type Address,
  airdropFactory,
  appendTransactionMessageInstruction,
  assertIsTransactionWithBlockhashLifetime,
  createKeyPairSignerFromBytes,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  getSignatureFromTransaction,
  isSolanaError,
  type KeyPairSigner,
  lamports,
  pipe,
  type Rpc,
  type RpcSubscriptions,
  sendAndConfirmTransactionFactory,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  SOLANA_ERROR__TRANSACTION_ERROR__INSUFFICIENT_FUNDS_FOR_RENT,
  type SolanaRpcApi,
  type SolanaRpcSubscriptionsApi
} from "@solana/kit"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import WebSocket from "ws"
import type { Started } from "../../devstack/lib/Started"
import { type SolanaInfo, startSolana, transferSolInstruction } from "../../devstack/solana"

const SOL = 1_000_000_000n
const FEE = 5000n

describe("local Solana JSON-RPC", () => {
  let solana: Started<SolanaInfo>
  let rpc: Rpc<SolanaRpcApi>
  let rpcSubscriptions: RpcSubscriptions<SolanaRpcSubscriptionsApi>
  let funded: KeyPairSigner

  const balance = async (address: Address) => (await rpc.getBalance(address).send()).value

  const signedTransfer = async (from: KeyPairSigner, to: Address, amount: bigint) => {
    const { value: latest } = await rpc.getLatestBlockhash().send()
    const signed = await signTransactionMessageWithSigners(
      pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayerSigner(from, m),
        (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
        (m) => appendTransactionMessageInstruction(transferSolInstruction(from.address, to, amount), m)
      )
    )
    assertIsTransactionWithBlockhashLifetime(signed)
    return signed
  }

  beforeAll(async () => {
    solana = await startSolana()
    rpc = createSolanaRpc(solana.info.rpcUrl)
    rpcSubscriptions = createSolanaRpcSubscriptions(solana.info.wsUrl)
    const first = solana.info.funded[0]
    if (!first) throw new Error("the local Solana RPC gave no funded key")
    funded = await createKeyPairSignerFromBytes(getBase58Encoder().encode(first.secretKey))
  })

  afterAll(async () => {
    await solana.stop()
  })

  it("starts with funded keys", async () => {
    expect(solana.info.funded).toHaveLength(3)
    for (const key of solana.info.funded) expect(await balance(key.address as Address)).toBe(1000n * SOL)
  })

  it("airdrops, transfers and confirms, and the balances move by the amount and the fee", async () => {
    const alice = await generateKeyPairSigner()
    const bob = await generateKeyPairSigner()
    const airdrop = airdropFactory({ rpc, rpcSubscriptions })
    await airdrop({ recipientAddress: alice.address, lamports: lamports(2n * SOL), commitment: "confirmed" })
    expect(await balance(alice.address)).toBe(2n * SOL)

    const sendAndConfirm = sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions })
    // The same transfer twice: each lands in its own block with its own blockhash, so neither is a duplicate.
    for (let i = 0; i < 2; i++) {
      await sendAndConfirm(await signedTransfer(alice, bob.address, SOL / 10n), { commitment: "confirmed" })
    }
    expect(await balance(bob.address)).toBe(SOL / 5n)
    expect(await balance(alice.address)).toBe(2n * SOL - SOL / 5n - 2n * FEE)
  })

  it("notifies a signature subscription when the transaction lands", async () => {
    const carol = await generateKeyPairSigner()
    const transfer = await signedTransfer(funded, carol.address, SOL)
    const abort = new AbortController()
    const notifications = await rpcSubscriptions
      .signatureNotifications(getSignatureFromTransaction(transfer), { commitment: "confirmed" })
      .subscribe({ abortSignal: abort.signal })

    // kit drops notifications that arrive before the iteration starts: start it first.
    const first = (async () => {
      for await (const notification of notifications) return notification
    })()

    await rpc.sendTransaction(getBase64EncodedWireTransaction(transfer), { encoding: "base64" }).send()
    expect((await first)?.value.err).toBeNull()
    abort.abort()
    expect(await balance(carol.address)).toBe(SOL)
  })

  it("refuses a transfer that would leave a new account below the rent minimum, charging nothing", async () => {
    const dave = await generateKeyPairSigner()
    const before = await balance(funded.address)
    const tooSmall = await signedTransfer(funded, dave.address, 1000n)

    const error = await rpc
      .sendTransaction(getBase64EncodedWireTransaction(tooSmall), { encoding: "base64" })
      .send()
      .then(() => undefined, (e: unknown) => e)
    expect(isSolanaError(error, SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE)).toBe(true)
    expect(isSolanaError((error as Error).cause, SOLANA_ERROR__TRANSACTION_ERROR__INSUFFICIENT_FUNDS_FOR_RENT)).toBe(true)
    expect(await balance(dave.address)).toBe(0n)
    expect(await balance(funded.address)).toBe(before)
  })

  it("keeps a history: signatures per address and transactions with fee, balances and the parsed transfer", async () => {
    const erin = await generateKeyPairSigner()
    const transfer = await signedTransfer(funded, erin.address, 3n * SOL)
    const signature = getSignatureFromTransaction(transfer)
    await sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions })(transfer, { commitment: "confirmed" })

    const history = await rpc.getSignaturesForAddress(erin.address).send()
    expect(history.map((h) => h.signature)).toEqual([signature])
    expect(history[0]).toMatchObject({ err: null, confirmationStatus: "finalized" })

    const tx = await rpc
      .getTransaction(signature, { encoding: "jsonParsed", maxSupportedTransactionVersion: 0 })
      .send()
    expect(tx?.meta?.fee).toBe(FEE)
    expect(tx?.meta?.err).toBeNull()
    const keys = tx?.transaction.message.accountKeys.map((k) => k.pubkey)
    const erinIndex = keys?.indexOf(erin.address) ?? -1
    expect(tx?.meta?.postBalances[erinIndex]).toBe(3n * SOL)
    expect(tx?.transaction.message.instructions[0]).toMatchObject({
      program: "system",
      parsed: { type: "transfer", info: { source: funded.address, destination: erin.address, lamports: 3n * SOL } }
    })
  })

  it("answers bad requests with JSON-RPC errors and keeps serving", async () => {
    const post = (body: string) =>
      fetch(solana.info.rpcUrl, { method: "POST", headers: { "content-type": "application/json" }, body })

    const notJson = await post("{ not json")
    expect(notJson.status).toBe(400)
    expect(await notJson.json()).toMatchObject({ error: { code: -32700 } })

    const noMethod = await post(JSON.stringify({ jsonrpc: "2.0", id: 1 }))
    expect(noMethod.status).toBe(400)
    expect(await noMethod.json()).toMatchObject({ id: 1, error: { code: -32600 } })

    const unknown = await post(JSON.stringify({ jsonrpc: "2.0", id: 2, method: "getEverything", params: [] }))
    expect(await unknown.json()).toMatchObject({ id: 2, error: { code: -32601 } })

    const badAddress = await rpc
      .getBalance("not-an-address" as Address)
      .send()
      .then(() => undefined, (e: unknown) => e)
    expect(isSolanaError(badAddress, -32602)).toBe(true)

    const socket = new WebSocket(solana.info.wsUrl)
    await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject))
    const reply = new Promise<string>((resolve) => socket.once("message", (data) => resolve(String(data))))
    socket.send("garbage")
    expect(JSON.parse(await reply)).toMatchObject({ error: { code: -32700 } })
    await new Promise((resolve) => socket.once("close", resolve).close())

    expect(await rpc.getHealth().send()).toBe("ok")
  })
})
