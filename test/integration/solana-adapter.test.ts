/**
 * The solana adapter against the devstack's Solana RPC (litesvm, SPL Token): the ChainAdapter contract with the
 * Node Solana test wallet reached as the product reaches it (its Wallet Standard object → `walletStandardProvider`)
 * and every read through the product's RpcTransport; then what only Solana does — a wallet that can only sign (the
 * adapter broadcasts), raw signing of transactions, and the services' history of what was just sent.
 */
import {
  type Address,
  address,
  appendTransactionMessageInstruction,
  appendTransactionMessageInstructions,
  compileTransaction,
  createKeyPairSignerFromBytes,
  createSolanaRpc,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase58Decoder,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  getPublicKeyFromAddress,
  getTransactionDecoder,
  type Instruction,
  type KeyPairSigner,
  pipe,
  type Rpc,
  type SignatureBytes,
  type SolanaRpcApi,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  signTransaction,
  verifySignature
} from "@solana/kit"
import type { Wallet } from "@wallet-standard/base"
import { Effect, Layer, ManagedRuntime, Schema } from "effect"
import * as FetchHttpClient from "effect/http/FetchHttpClient"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Started } from "../../server/src/lib/Started"
import { type ServicesInfo, startServices } from "../../devstack/services"
import { type SolanaInfo, startSolana, transferSolInstruction } from "../../devstack/solana"
import { createAccountInstruction } from "../../devstack/solana/keys"
import {
  createAssociatedTokenIdempotentInstruction,
  findAssociatedTokenAddress,
  initializeMint2Instruction,
  MINT_SIZE,
  mintToInstruction,
  TOKEN_2022_PROGRAM
} from "../../devstack/solana/token"
import { makeSolanaTestWallet, type SolanaTestWallet } from "../../devstack/wallet/solana/testWallet"
import { HistoryResponse } from "../../src/domain/Api"
import { type CaipNetwork } from "../../src/domain/Network"
import { localSolana, withDefaultRpcUrls } from "../../src/domain/networks"
import { decodeOptionsSync } from "../../src/domain/Options"
import type { Transaction } from "../../src/domain/Portfolio"
import type { AccountSession, ChainAdapter, ReadRpc } from "../../src/services/ChainAdapter"
import { Config } from "../../src/services/Config"
import { walletStandardProvider } from "../../src/services/connectors/walletStandard"
import { RpcTransport } from "../../src/services/RpcTransport/RpcTransport"
import { makeSolanaAdapter } from "../../src/services/solana/SolanaAdapter"
import { chainAdapterContract, type TokenUnderTest } from "./support/chainAdapterContract"

const SOL = 1_000_000_000n
const FEE = 5000n

let solana: Started<SolanaInfo>
let services: Started<ServicesInfo>
let transport: ManagedRuntime.ManagedRuntime<RpcTransport, never>
let reads: ReadRpc
let rpc: Rpc<SolanaRpcApi>
let network: CaipNetwork
let wsusd: TokenUnderTest
let testWallet: SolanaTestWallet

const utf8 = (text: string) => new TextEncoder().encode(text)

const adapterWith = (token?: TokenUnderTest): ChainAdapter =>
  makeSolanaAdapter({
    reads,
    tokenOf: (of) => (token !== undefined && of.caipNetworkId === network.caipNetworkId ? { address: token.address, symbol: token.symbol } : undefined)
  })

/** The wallet connected to the site through its Wallet Standard `standard:connect`, handed to the adapter. */
const sessionOf = async (wallet: Wallet, name: string): Promise<AccountSession> => {
  const connect = (wallet.features["standard:connect"] as { connect: () => Promise<{ accounts: ReadonlyArray<{ address: string }> }> }).connect
  const [account] = (await connect()).accounts
  if (account === undefined) throw new Error("the wallet gave no account")
  return { provider: { namespace: "solana", provider: walletStandardProvider(wallet) }, address: account.address, network, walletName: name }
}

const verifies = async (message: Uint8Array, signature: string, signer: string) =>
  verifySignature(await getPublicKeyFromAddress(address(signer)), getBase58Encoder().encode(signature) as SignatureBytes, message)

const lamportsOf = async (owner: string) => (await rpc.getBalance(address(owner)).send()).value

const tokenBalanceOf = async (owner: string, mint: string) => {
  const { value } = await rpc.getTokenAccountsByOwner(address(owner), { mint: address(mint) }, { encoding: "jsonParsed" }).send()
  return value.reduce((sum, entry) => sum + BigInt(entry.account.data.parsed.info.tokenAmount.amount), 0n)
}

/** An unsigned SOL transfer from `from`, as wire bytes (base64), built by the dapp side. */
const transferWire = async (from: string, to: string, amount: bigint) => {
  const { value: latest } = await rpc.getLatestBlockhash().send()
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(address(from), m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
    (m) => appendTransactionMessageInstruction(transferSolInstruction(address(from), address(to), amount), m)
  )
  return getBase64EncodedWireTransaction(compileTransaction(message))
}

const freshAddress = async (): Promise<Address> => (await generateKeyPairSigner()).address

/** Signs `instructions` with `signers` (the first pays) and lands them on the local RPC. */
const land = async (signers: ReadonlyArray<KeyPairSigner>, instructions: ReadonlyArray<Instruction>) => {
  const { value: latest } = await rpc.getLatestBlockhash().send()
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(signers[0]!.address, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
    (m) => appendTransactionMessageInstructions(instructions, m)
  )
  const signed = await signTransaction(signers.map((signer) => signer.keyPair), compileTransaction(message))
  return rpc.sendTransaction(getBase64EncodedWireTransaction(signed), { encoding: "base64" }).send()
}

/** A token account's balance read from its raw bytes (the amount is the u64 after the mint and the owner). */
const rawTokenBalanceOf = async (account: Address) => {
  const { value } = await rpc.getAccountInfo(account, { encoding: "base64" }).send()
  if (value === null) return 0n
  const data = getBase64Encoder().encode(value.data[0])
  return new DataView(data.buffer, data.byteOffset).getBigUint64(64, true)
}

beforeAll(async () => {
  solana = await startSolana()
  const token = solana.info.tokens[0]
  if (token === undefined) throw new Error("the local Solana RPC made no token")
  services = await startServices({
    solana: { caipNetworkId: solana.info.caipNetworkId, rpcUrl: solana.info.rpcUrl, tokens: solana.info.tokens }
  })
  network = withDefaultRpcUrls(localSolana, { http: [solana.info.rpcUrl], webSocket: [solana.info.wsUrl] })
  transport = ManagedRuntime.make(
    RpcTransport.layer.pipe(Layer.provide(Config.layer(decodeOptionsSync({ networks: [network] }))), Layer.provide(FetchHttpClient.layer))
  )
  const service = await transport.runPromise(Effect.service(RpcTransport))
  reads = (of, method, params) => service.request(of, { method, params })
  rpc = createSolanaRpc(solana.info.rpcUrl)
  wsusd = { label: "WSUSD (SPL Token)", address: token.address, symbol: token.symbol, decimals: token.decimals }
  testWallet = makeSolanaTestWallet({ rpcUrl: solana.info.rpcUrl })
})

afterAll(async () => {
  await transport?.dispose()
  await services?.stop()
  await solana?.stop()
})

describe("solana adapter: the ChainAdapter contract against the local Solana RPC", () => {
  it("the product's Local Solana is the devstack's network", () => {
    expect(network.caipNetworkId).toBe(solana.info.caipNetworkId)
  })

  chainAdapterContract({
    adapter: adapterWith,
    network: () => network,
    session: () => sessionOf(testWallet.wallet, testWallet.wallet.name),
    setApproval: (approval) => testWallet.setApproval(approval),
    walletRequests: () => testWallet.requests,
    sendRequestName: "solana:signAndSendTransaction",
    verifySignature: (message, signature, signer) => verifies(utf8(message), signature, signer),
    freshReceiver: freshAddress,
    // Above the rent minimum (0.00089 SOL) a new account needs.
    nativeAmount: SOL / 100n,
    tokens: () => [wsusd],
    tokenAmount: 12_500_000n,
    chainBalance: (owner, token) => (token === undefined ? lamportsOf(owner) : tokenBalanceOf(owner, token)),
    // Below the rent minimum for a new account, sent without preflight: it lands, fails, and only the fee is charged.
    sendFailing: (adapter, session) =>
      Effect.gen(function* () {
        const wire = yield* Effect.promise(async () => transferWire(session.address, await freshAddress(), 1_000n))
        const answer = yield* adapter.request(session, "solana_signAndSendTransaction", {
          transaction: wire,
          sendOptions: { skipPreflight: true }
        })
        return (answer as { signature: string }).signature
      }),
    failureReason: /InsufficientFundsForRent/,
    // Checked before any transaction is built: the wallet is never asked.
    invalidReceiver: {
      to: "not-a-solana-address",
      error: "SendFormInvalid",
      says: /^Please enter a valid amount and receiver address$/,
      promptsWallet: false
    },
    rawRequest: {
      method: "solana_signMessage",
      params: (session) => ({ message: getBase58Decoder().decode(utf8("raw hello")), pubkey: session.address }),
      verify: (result, session) => verifies(utf8("raw hello"), (result as { signature: string }).signature, session.address)
    },
    unsupportedMethod: "eth_sendTransaction"
  })
})

describe("solana adapter: what only Solana wallets do", () => {
  it("sends SOL and WSUSD through a wallet that can only sign: the adapter broadcasts, and both land", async () => {
    const signOnly = makeSolanaTestWallet({ rpcUrl: solana.info.rpcUrl, secretKeys: [solana.info.funded[1]!.secretKey] })
    const { "solana:signAndSendTransaction": _left, ...features } = signOnly.wallet.features
    const wallet: Wallet = {
      version: signOnly.wallet.version,
      name: "Sign-only Wallet",
      icon: signOnly.wallet.icon,
      chains: signOnly.wallet.chains,
      features,
      get accounts() {
        return signOnly.wallet.accounts
      }
    }
    const session = await sessionOf(wallet, wallet.name)
    expect(session.provider.namespace === "solana" && session.provider.provider.signAndSendTransaction).toBeUndefined()
    const adapter = adapterWith(wsusd)
    const receiver = await freshAddress()
    const before = await lamportsOf(session.address)

    const solSent = await Effect.runPromise(adapter.send(session, { to: receiver, value: SOL / 50n }))
    await Effect.runPromise(adapter.waitForTransaction(solSent, network))
    const tokensSent = await Effect.runPromise(adapter.send(session, { to: receiver, value: 3_000_000n, token: wsusd.address }))
    await Effect.runPromise(adapter.waitForTransaction(tokensSent, network))

    expect(await lamportsOf(receiver)).toBe(SOL / 50n)
    expect(await tokenBalanceOf(receiver, wsusd.address)).toBe(3_000_000n)
    // The sender paid the SOL, two fees and the rent of the receiver's new token account.
    expect(before - (await lamportsOf(session.address)) > SOL / 50n + 2n * FEE).toBe(true)
    expect(signOnly.requests).toEqual(["standard:connect", "solana:signTransaction", "solana:signTransaction"])
  })

  it("signs a transaction without sending it (solana_signTransaction): signed by the account, and the dapp can send it", async () => {
    const session = await sessionOf(testWallet.wallet, testWallet.wallet.name)
    const receiver = await freshAddress()
    const answer = (await Effect.runPromise(
      adapterWith().request(session, "solana_signTransaction", { transaction: await transferWire(session.address, receiver, SOL / 100n) })
    )) as { signature: string; transaction: string }
    const signed = getTransactionDecoder().decode(getBase64Encoder().encode(answer.transaction))
    const signature = signed.signatures[address(session.address)]
    expect(signature).toBeTruthy()
    expect(getBase58Decoder().decode(signature!)).toBe(answer.signature)
    expect(await verifySignature(await getPublicKeyFromAddress(address(session.address)), signature!, signed.messageBytes)).toBe(true)
    expect(await lamportsOf(receiver)).toBe(0n)

    await rpc.sendTransaction(answer.transaction as Parameters<typeof rpc.sendTransaction>[0], { encoding: "base64" }).send()
    await Effect.runPromise(adapterWith().waitForTransaction(answer.signature, network))
    expect(await lamportsOf(receiver)).toBe(SOL / 100n)
  })

  it("a transfer with EVM call data is refused before the wallet is asked", async () => {
    const session = await sessionOf(testWallet.wallet, testWallet.wallet.name)
    const before = testWallet.requests.length
    const refused = await Effect.runPromise(
      Effect.flip(adapterWith().send(session, { to: await freshAddress(), value: SOL / 100n, data: "0x1234" } as never))
    )
    expect(refused._tag).toBe("InvalidWalletParams")
    expect(testWallet.requests.slice(before)).toEqual([])
  })

  it("sends a Token-2022 token to a fresh receiver, creating its token account under that program", async () => {
    const session = await sessionOf(testWallet.wallet, testWallet.wallet.name)
    // A Token-2022 mint of 6 decimals, and 5 of it in the wallet's token account, made by a funded dev key.
    const authority = await createKeyPairSignerFromBytes(getBase58Encoder().encode(solana.info.funded[2]!.secretKey))
    const mint = await generateKeyPairSigner()
    const sender = address(session.address)
    const senderAccount = await findAssociatedTokenAddress(sender, mint.address, TOKEN_2022_PROGRAM)
    const rent = await rpc.getMinimumBalanceForRentExemption(BigInt(MINT_SIZE)).send()
    await land(
      [authority, mint],
      [
        createAccountInstruction({ payer: authority.address, newAccount: mint.address, lamports: rent, space: BigInt(MINT_SIZE), owner: TOKEN_2022_PROGRAM }),
        { ...initializeMint2Instruction({ mint: mint.address, decimals: 6, mintAuthority: authority.address }), programAddress: TOKEN_2022_PROGRAM },
        createAssociatedTokenIdempotentInstruction({
          payer: authority.address,
          associatedToken: senderAccount,
          owner: sender,
          mint: mint.address,
          tokenProgram: TOKEN_2022_PROGRAM
        }),
        { ...mintToInstruction({ mint: mint.address, destination: senderAccount, mintAuthority: authority.address, amount: 5_000_000n }), programAddress: TOKEN_2022_PROGRAM }
      ]
    )
    expect(await rawTokenBalanceOf(senderAccount)).toBe(5_000_000n)

    const receiver = await freshAddress()
    const adapter = adapterWith()
    const sent = await Effect.runPromise(adapter.send(session, { to: receiver, value: 1_500_000n, token: mint.address }))
    await Effect.runPromise(adapter.waitForTransaction(sent, network))
    expect(await rawTokenBalanceOf(await findAssociatedTokenAddress(receiver, mint.address, TOKEN_2022_PROGRAM))).toBe(1_500_000n)
    expect(await rawTokenBalanceOf(senderAccount)).toBe(3_500_000n)
  })

  it("the services' history lists the SOL and WSUSD transfers just sent, newest first, on both sides", async () => {
    const session = await sessionOf(testWallet.wallet, testWallet.wallet.name)
    const adapter = adapterWith(wsusd)
    const receiver = await freshAddress()
    const solSent = await Effect.runPromise(adapter.send(session, { to: receiver, value: SOL / 40n }))
    await Effect.runPromise(adapter.waitForTransaction(solSent, network))
    const tokensSent = await Effect.runPromise(adapter.send(session, { to: receiver, value: 7_250_000n, token: wsusd.address }))
    await Effect.runPromise(adapter.waitForTransaction(tokensSent, network))

    const history = async (owner: string) => {
      const response = await fetch(`${services.info.url}/v1/account/${owner}/history?projectId=devstack-project`)
      expect(response.status).toBe(200)
      return Schema.decodeUnknownSync(HistoryResponse)(await response.json()).data
    }
    const moves = (tx: Transaction | undefined) => tx?.transfers.map((t) => `${t.direction} ${t.quantity.numeric} ${t.fungible_info?.symbol}`)

    const received = await history(receiver)
    expect(received.map((tx) => tx.id)).toEqual([tokensSent, solSent])
    expect(received.map((tx) => [tx.metadata.status, tx.metadata.operationType, tx.metadata.sentFrom, ...(moves(tx) ?? [])])).toEqual([
      ["confirmed", "receive", session.address, "in 7.25 WSUSD"],
      ["confirmed", "receive", session.address, "in 0.025 SOL"]
    ])
    const sent = (await history(session.address)).slice(0, 2)
    expect(sent.map((tx) => [tx.id, tx.metadata.operationType, ...(moves(tx) ?? [])])).toEqual([
      [tokensSent, "send", "out 7.25 WSUSD"],
      [solSent, "send", "out 0.025 SOL"]
    ])
  })
})
