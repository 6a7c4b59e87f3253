import {
  AccountRole,
  type Address,
  address,
  airdropFactory,
  appendTransactionMessageInstruction,
  appendTransactionMessageInstructions,
  assertIsTransactionWithBlockhashLifetime,
  createKeyPairSignerFromBytes,
  createSolanaRpc,
  createSolanaRpcSubscriptions,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase58Decoder,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  getTransactionEncoder,
  type Instruction,
  getSignatureFromTransaction,
  isSolanaError,
  type KeyPairSigner,
  lamports,
  pipe,
  type Rpc,
  type RpcSubscriptions,
  type Signature,
  type SignatureBytes,
  sendAndConfirmTransactionFactory,
  setTransactionMessageFeePayerSigner,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransactionMessageWithSigners,
  SOLANA_ERROR__JSON_RPC__SERVER_ERROR_SEND_TRANSACTION_PREFLIGHT_FAILURE,
  SOLANA_ERROR__TRANSACTION_ERROR__INSUFFICIENT_FUNDS_FOR_RENT,
  SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM,
  SOLANA_ERROR__JSON_RPC__INVALID_PARAMS,
  type SolanaRpcApi,
  type SolanaRpcSubscriptionsApi,
  compileTransaction,
  setTransactionMessageFeePayer,
  verifySignature,
  getPublicKeyFromAddress
} from "@solana/kit"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import WebSocket from "ws"
import type { Started } from "../../server/src/lib/Started"
import { type SolanaInfo, startSolana, transferSolInstruction } from "../../devstack/solana"
import { devSolanaKey } from "../../devstack/solana/keys"
import {
  createAssociatedTokenIdempotentInstruction,
  findAssociatedTokenAddress,
  TOKEN_PROGRAM,
  transferCheckedInstruction
} from "../../devstack/solana/token"
import { makeSolanaTestWallet } from "../../devstack/wallet/solana/testWallet"

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

describe("SPL tokens on the local Solana JSON-RPC", () => {
  let solana: Started<SolanaInfo>
  let rpc: Rpc<SolanaRpcApi>
  let rpcSubscriptions: RpcSubscriptions<SolanaRpcSubscriptionsApi>
  let sender: KeyPairSigner
  let mint: Address
  const WSUSD = 1_000_000n

  const tokenBalance = async (owner: Address) => {
    const accounts = await rpc.getTokenAccountsByOwner(owner, { mint }, { encoding: "jsonParsed" }).send()
    return accounts.value.reduce((sum, { account }) => sum + BigInt(account.data.parsed.info.tokenAmount.amount), 0n)
  }

  const signed = async (payer: KeyPairSigner, instructions: ReadonlyArray<Instruction>) => {
    const { value: latest } = await rpc.getLatestBlockhash().send()
    const transaction = await signTransactionMessageWithSigners(
      pipe(
        createTransactionMessage({ version: 0 }),
        (m) => setTransactionMessageFeePayerSigner(payer, m),
        (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
        (m) => appendTransactionMessageInstructions(instructions, m)
      )
    )
    assertIsTransactionWithBlockhashLifetime(transaction)
    return transaction
  }

  // The receiver's account is created in the same transaction when missing (CreateIdempotent), then TransferChecked.
  const sendTokens = async (from: KeyPairSigner, to: Address, amount: bigint) => {
    const source = await findAssociatedTokenAddress(from.address, mint)
    const destination = await findAssociatedTokenAddress(to, mint)
    const transaction = await signed(from, [
      createAssociatedTokenIdempotentInstruction({ payer: from.address, associatedToken: destination, owner: to, mint }),
      transferCheckedInstruction({ source, mint, destination, authority: from.address, amount, decimals: 6 })
    ])
    await sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions })(transaction, { commitment: "confirmed" })
    return getSignatureFromTransaction(transaction)
  }

  beforeAll(async () => {
    solana = await startSolana()
    rpc = createSolanaRpc(solana.info.rpcUrl)
    rpcSubscriptions = createSolanaRpcSubscriptions(solana.info.wsUrl)
    const first = solana.info.funded[0]
    const token = solana.info.tokens[0]
    if (!first || !token) throw new Error("the local Solana RPC gave no funded key or no token")
    sender = await createKeyPairSignerFromBytes(getBase58Encoder().encode(first.secretKey))
    mint = address(token.address)
  })

  afterAll(async () => {
    await solana.stop()
  })

  it("creates WSUSD at the same mint on every run and gives each dev key 10000 in its associated token account", async () => {
    expect(solana.info.tokens).toEqual([{ address: mint, name: "Wallet Runtime Solana USD", symbol: "WSUSD", decimals: 6 }])
    const again = await startSolana({ fundedKeys: 1 })
    try {
      expect(again.info.tokens[0]?.address).toBe(mint)
    } finally {
      await again.stop()
    }
    expect(solana.info.funded.map((key) => key.address)).toEqual([0, 1, 2].map((i) => devSolanaKey(i).address))

    for (const key of solana.info.funded) {
      const owner = address(key.address)
      const { value } = await rpc.getTokenAccountsByOwner(owner, { mint }, { encoding: "jsonParsed" }).send()
      expect(value).toHaveLength(1)
      expect(value[0]?.pubkey).toBe(await findAssociatedTokenAddress(owner, mint))
      expect(value[0]?.account).toMatchObject({
        owner: TOKEN_PROGRAM,
        space: 165n,
        data: {
          program: "spl-token",
          space: 165n,
          parsed: {
            type: "account",
            info: {
              mint,
              owner,
              state: "initialized",
              isNative: false,
              tokenAmount: { amount: "10000000000", decimals: 6, uiAmount: 10000, uiAmountString: "10000" }
            }
          }
        }
      })
    }

    const supply = await rpc.getTokenSupply(mint).send()
    expect(supply.value).toEqual({ amount: "30000000000", decimals: 6, uiAmount: 30000, uiAmountString: "30000" })
    const mintAccount = await rpc.getAccountInfo(mint, { encoding: "jsonParsed" }).send()
    expect(mintAccount.value?.data).toMatchObject({
      program: "spl-token",
      parsed: { type: "mint", info: { decimals: 6, supply: "30000000000", isInitialized: true, freezeAuthority: null } }
    })
  })

  it("answers the token methods in every encoding kit asks for, and with the validators' errors", async () => {
    const ata = await findAssociatedTokenAddress(sender.address, mint)
    const byProgram = await rpc.getTokenAccountsByOwner(sender.address, { programId: TOKEN_PROGRAM }, { encoding: "base64" }).send()
    expect(byProgram.value.map((a) => a.pubkey)).toEqual([ata])
    const [data, encoding] = byProgram.value[0]?.account.data ?? []
    expect(encoding).toBe("base64")
    expect(Buffer.from(data ?? "", "base64")).toHaveLength(165)

    const many = await rpc.getMultipleAccounts([mint, ata, sender.address], { encoding: "jsonParsed" }).send()
    expect(many.value.map((a) => (a && "parsed" in a.data ? a.data.parsed.type : a?.data))).toEqual(["mint", "account", ["", "base64"]])

    const balance = await rpc.getTokenAccountBalance(ata).send()
    expect(balance.value.uiAmountString).toBe(String(Number(await tokenBalance(sender.address)) / 1e6))

    const errorOf = (send: () => Promise<unknown>) => send().then(() => undefined, (e: unknown) => e)
    const notToken = await errorOf(() => rpc.getTokenAccountBalance(sender.address).send())
    expect(isSolanaError(notToken, SOLANA_ERROR__JSON_RPC__INVALID_PARAMS)).toBe(true)
    expect((notToken as Error).message).toContain("not a Token account")
    const unknownProgram = await errorOf(() =>
      rpc.getTokenAccountsByOwner(sender.address, { programId: address("11111111111111111111111111111111") }).send()
    )
    expect((unknownProgram as Error).message).toContain("unrecognized Token program id")
    const noMint = await errorOf(() => rpc.getTokenSupply(sender.address).send())
    expect((noMint as Error).message).toContain("not a Token mint")
  })

  it("sends WSUSD to a new wallet, creating its token account in the same transaction, and reports it as validators do", async () => {
    const receiver = await generateKeyPairSigner()
    const before = await tokenBalance(sender.address)
    const signature = await sendTokens(sender, receiver.address, 12_500_000n)

    expect(await tokenBalance(receiver.address)).toBe(12_500_000n)
    expect(await tokenBalance(sender.address)).toBe(before - 12_500_000n)

    const tx = await rpc.getTransaction(signature, { encoding: "jsonParsed", maxSupportedTransactionVersion: 0 }).send()
    const keys = tx?.transaction.message.accountKeys.map((k) => k.pubkey) ?? []
    const source = await findAssociatedTokenAddress(sender.address, mint)
    const destination = await findAssociatedTokenAddress(receiver.address, mint)
    expect(tx?.transaction.message.instructions).toMatchObject([
      {
        program: "spl-associated-token-account",
        programId: "ATokenGPvbdGVxr1b2hvZbsiqW5xWH25efTNsLJA8knL",
        parsed: {
          type: "createIdempotent",
          info: { source: sender.address, account: destination, wallet: receiver.address, mint, tokenProgram: TOKEN_PROGRAM }
        }
      },
      {
        program: "spl-token",
        programId: TOKEN_PROGRAM,
        parsed: {
          type: "transferChecked",
          info: {
            source,
            destination,
            mint,
            authority: sender.address,
            // kit reads every number of a parsed instruction as a bigint.
            tokenAmount: { amount: "12500000", decimals: 6n, uiAmount: 12.5, uiAmountString: "12.5" }
          }
        }
      }
    ])
    // The receiver's account did not exist before: it has a post balance only.
    expect(tx?.meta?.preTokenBalances).toEqual([
      {
        accountIndex: keys.indexOf(source),
        mint,
        owner: sender.address,
        programId: TOKEN_PROGRAM,
        uiTokenAmount: expect.objectContaining({ amount: String(before) })
      }
    ])
    expect(tx?.meta?.postTokenBalances).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ accountIndex: keys.indexOf(destination), owner: receiver.address, uiTokenAmount: expect.objectContaining({ amount: "12500000" }) }),
        expect.objectContaining({ accountIndex: keys.indexOf(source), uiTokenAmount: expect.objectContaining({ amount: String(before - 12_500_000n) }) })
      ])
    )
    // The account creation's own calls are there too (the System Program's createAccount among them).
    const inner = tx?.meta?.innerInstructions?.flatMap((group) => group.instructions) ?? []
    expect(inner).toEqual(
      expect.arrayContaining([expect.objectContaining({ program: "system", parsed: expect.objectContaining({ type: "createAccount" }) })])
    )

    // Sending again to the same wallet: CreateIdempotent leaves its account as it is.
    await sendTokens(sender, receiver.address, 500_000n)
    expect(await tokenBalance(receiver.address)).toBe(13_000_000n)
  })

  it("parses a plain SPL transfer, and a transfer beyond the balance lands failed with its fee and moves no token", async () => {
    const receiver = devSolanaKey(1).address
    const source = await findAssociatedTokenAddress(sender.address, mint)
    const destination = await findAssociatedTokenAddress(receiver, mint)
    const plainTransfer = (amount: bigint): Instruction => {
      const data = new Uint8Array(9)
      data[0] = 3
      new DataView(data.buffer).setBigUint64(1, amount, true)
      return {
        programAddress: TOKEN_PROGRAM,
        accounts: [
          { address: source, role: AccountRole.WRITABLE },
          { address: destination, role: AccountRole.WRITABLE },
          { address: sender.address, role: AccountRole.READONLY_SIGNER }
        ],
        data
      }
    }
    const ok = await signed(sender, [plainTransfer(WSUSD)])
    await sendAndConfirmTransactionFactory({ rpc, rpcSubscriptions })(ok, { commitment: "confirmed" })
    const parsed = await rpc
      .getTransaction(getSignatureFromTransaction(ok), { encoding: "jsonParsed", maxSupportedTransactionVersion: 0 })
      .send()
    expect(parsed?.transaction.message.instructions[0]).toMatchObject({
      program: "spl-token",
      parsed: { type: "transfer", info: { source, destination, authority: sender.address, amount: "1000000" } }
    })

    const tokensBefore = await tokenBalance(sender.address)
    const solBefore = (await rpc.getBalance(sender.address).send()).value
    const tooMuch = await signed(sender, [plainTransfer(tokensBefore + 1n)])
    const preflight = await rpc
      .sendTransaction(getBase64EncodedWireTransaction(tooMuch), { encoding: "base64" })
      .send()
      .then(() => undefined, (e: unknown) => e)
    expect(isSolanaError((preflight as Error).cause, SOLANA_ERROR__INSTRUCTION_ERROR__CUSTOM)).toBe(true)

    const signature = await rpc
      .sendTransaction(getBase64EncodedWireTransaction(tooMuch), { encoding: "base64", skipPreflight: true })
      .send()
    const failed = await rpc.getTransaction(signature, { encoding: "jsonParsed", maxSupportedTransactionVersion: 0 }).send()
    expect(failed?.meta?.err).toEqual({ InstructionError: [0n, { Custom: 1n }] })
    expect(await tokenBalance(sender.address)).toBe(tokensBefore)
    expect((await rpc.getBalance(sender.address).send()).value).toBe(solBefore - FEE)
  })
})

describe("the Solana test wallet (Node)", () => {
  let solana: Started<SolanaInfo>
  let rpc: Rpc<SolanaRpcApi>

  const transferMessage = async (from: Address, to: Address, amount: bigint) => {
    const { value: latest } = await rpc.getLatestBlockhash().send()
    const message = pipe(
      createTransactionMessage({ version: 0 }),
      (m) => setTransactionMessageFeePayer(from, m),
      (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
      (m) => appendTransactionMessageInstruction(transferSolInstruction(from, to, amount), m)
    )
    return new Uint8Array(getTransactionEncoder().encode(compileTransaction(message)))
  }

  beforeAll(async () => {
    solana = await startSolana()
    rpc = createSolanaRpc(solana.info.rpcUrl)
  })

  afterAll(async () => {
    await solana.stop()
  })

  it("gives nothing to a silent connect until the site is authorised, then the dev key's account", async () => {
    const testWallet = makeSolanaTestWallet({ rpcUrl: solana.info.rpcUrl })
    const connect = testWallet.wallet.features["standard:connect"].connect
    expect((await connect({ silent: true })).accounts).toEqual([])
    expect(testWallet.requests).toEqual(["standard:connect"])

    const { accounts } = await connect()
    expect(accounts.map((a) => a.address)).toEqual([devSolanaKey(0).address])
    expect(testWallet.authorised).toBe(true)
    expect((await connect({ silent: true })).accounts.map((a) => a.address)).toEqual([devSolanaKey(0).address])

    const remembered = makeSolanaTestWallet({ rpcUrl: solana.info.rpcUrl, authorised: true })
    expect((await remembered.wallet.features["standard:connect"].connect({ silent: true })).accounts).toHaveLength(1)
    expect(remembered.requests).toEqual(["standard:connect"])
  })

  it("signs a message that verifies with the account's ed25519 key", async () => {
    const testWallet = makeSolanaTestWallet({ rpcUrl: solana.info.rpcUrl })
    const [account] = (await testWallet.wallet.features["standard:connect"].connect()).accounts
    if (!account) throw new Error("no account")
    const message = new TextEncoder().encode("Sign in to the demo")
    const [output] = await testWallet.wallet.features["solana:signMessage"].signMessage({ account, message })
    expect(output?.signatureType).toBe("ed25519")
    const key = await getPublicKeyFromAddress(address(account.address))
    expect(await verifySignature(key, output?.signature as SignatureBytes, message)).toBe(true)
    expect(await verifySignature(key, output?.signature as SignatureBytes, new TextEncoder().encode("other"))).toBe(false)
  })

  it("signs and sends a SOL transfer that lands on the local RPC", async () => {
    const testWallet = makeSolanaTestWallet({ rpcUrl: solana.info.rpcUrl })
    const [account] = (await testWallet.wallet.features["standard:connect"].connect()).accounts
    if (!account) throw new Error("no account")
    const receiver = (await generateKeyPairSigner()).address
    const before = (await rpc.getBalance(address(account.address)).send()).value
    const [output] = await testWallet.wallet.features["solana:signAndSendTransaction"].signAndSendTransaction({
      account,
      chain: "solana:localnet",
      transaction: await transferMessage(address(account.address), receiver, 2n * SOL)
    })
    const signature = getBase58Decoder().decode(output?.signature ?? new Uint8Array())
    const [status] = (await rpc.getSignatureStatuses([signature as Signature]).send()).value
    expect(status?.err).toBeNull()
    expect((await rpc.getBalance(receiver).send()).value).toBe(2n * SOL)
    expect((await rpc.getBalance(address(account.address)).send()).value).toBe(before - 2n * SOL - FEE)
  })

  it("refuses with code 4001 when the visitor says no, and signs nothing", async () => {
    const testWallet = makeSolanaTestWallet({ rpcUrl: solana.info.rpcUrl })
    const connect = testWallet.wallet.features["standard:connect"].connect
    testWallet.setApproval("reject")
    await expect(connect()).rejects.toMatchObject({ code: 4001, message: "User rejected the request." })
    expect(testWallet.authorised).toBe(false)

    testWallet.setApproval("approve")
    const [account] = (await connect()).accounts
    if (!account) throw new Error("no account")
    testWallet.setApproval("reject")
    const receiver = (await generateKeyPairSigner()).address
    await expect(
      testWallet.wallet.features["solana:signAndSendTransaction"].signAndSendTransaction({
        account,
        chain: "solana:localnet",
        transaction: await transferMessage(address(account.address), receiver, SOL)
      })
    ).rejects.toMatchObject({ code: 4001 })
    expect((await rpc.getBalance(receiver).send()).value).toBe(0n)
  })

  it("tells the site when the visitor picks another account or disconnects it in the wallet", async () => {
    const testWallet = makeSolanaTestWallet({ rpcUrl: solana.info.rpcUrl })
    const changes: Array<ReadonlyArray<string>> = []
    testWallet.wallet.features["standard:events"].on("change", ({ accounts }) => changes.push((accounts ?? []).map((a) => a.address)))
    await testWallet.wallet.features["standard:connect"].connect()
    testWallet.selectAccount(1)
    expect(testWallet.wallet.accounts.map((a) => a.address)).toEqual([devSolanaKey(1).address])
    testWallet.revoke()
    expect(changes).toEqual([[devSolanaKey(0).address], [devSolanaKey(1).address], []])
    expect(testWallet.wallet.accounts).toEqual([])
  })
})
