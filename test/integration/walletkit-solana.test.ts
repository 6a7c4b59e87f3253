/**
 * One WalletConnect session serving both chain families: a dapp-side universal provider proposes `eip155` and
 * `solana` to the dev walletkit wallet (test/integration/support/walletKit.ts) over our relay; Solana transactions
 * land on the local Solana RPC.
 */
import {
  type Address,
  appendTransactionMessageInstruction,
  compileTransaction,
  createSolanaRpc,
  createTransactionMessage,
  generateKeyPairSigner,
  getBase58Decoder,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  getPublicKeyFromAddress,
  getTransactionDecoder,
  pipe,
  type Rpc,
  type Signature,
  type SignatureBytes,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  type SolanaRpcApi,
  verifySignature
} from "@solana/kit"
import { type Hex, stringToHex, verifyMessage } from "viem"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { devAccounts } from "../../devstack/evm/accounts"
import type { Started } from "../../server/src/lib/Started"
import { type RelayInfo, startRelay } from "../../server/src/relay"
import { type SolanaInfo, startSolana } from "../../devstack/solana"
import { devSolanaKey, transferSolInstruction } from "../../devstack/solana/keys"
import { initSignClientDapp, type SignClientDapp } from "./support/signClientDapp"
import { type DevWalletKit, startDevWalletKit } from "./support/walletKit"

// Without it, WalletConnect's Verify waits forever for the hosted verify server (offline here).
process.env.IS_VITEST = "true"

const EVM_CHAIN = "eip155:31337"
const SOL = 1_000_000_000n
const FEE = 5000n
const SOLANA_METHODS = [
  "solana_signMessage",
  "solana_signTransaction",
  "solana_signAllTransactions",
  "solana_signAndSendTransaction",
  "solana_getAccounts",
  "solana_requestAccounts"
]

type Dapp = SignClientDapp

let relay: Started<RelayInfo>
let solana: Started<SolanaInfo>
let rpc: Rpc<SolanaRpcApi>
let wallet: DevWalletKit
const dapps: Array<Dapp> = []

beforeAll(async () => {
  ;[relay, solana] = await Promise.all([startRelay(), startSolana()])
  rpc = createSolanaRpc(solana.info.rpcUrl)
  const evmKey = devAccounts(1)[0]?.privateKey
  if (evmKey === undefined) throw new Error("no EVM dev key")
  wallet = await startDevWalletKit({
    relayUrl: relay.info.url,
    // Signing a message needs no node: nothing listens at this address and nothing is read from it.
    evm: { privateKeys: [evmKey], chains: [{ chainId: 31337, name: "Local Chain 31337", rpcUrl: "http://127.0.0.1:9" }], chainId: 31337 },
    solana: { rpcUrl: solana.info.rpcUrl, caipNetworkId: solana.info.caipNetworkId }
  })
})

afterAll(async () => {
  for (const dapp of dapps) {
    await dapp.close()
  }
  await wallet?.close()
  await Promise.all([relay?.stop(), solana?.stop()])
})

const makeDapp = async (): Promise<Dapp> => {
  const dapp = await initSignClientDapp({ relayUrl: relay.info.url, name: "Two-family dapp" })
  dapps.push(dapp)
  dapp.on("display_uri", (uri: string) => void wallet.pair(uri))
  return dapp
}

const solanaNamespace = () => ({
  chains: [solana.info.caipNetworkId],
  methods: SOLANA_METHODS,
  events: ["accountsChanged", "chainChanged"],
  // Reads go to the local Solana RPC, never to a hosted one.
  rpcMap: { [solana.info.caipNetworkId]: solana.info.rpcUrl }
})

/** A transfer of `lamports` from the wallet's Solana account to `to`, unsigned, as a dapp builds it. */
const transfer = async (to: Address, lamports: bigint): Promise<string> => {
  const from = wallet.solana?.address
  if (from === undefined) throw new Error("the wallet has no Solana account")
  const { value: latest } = await rpc.getLatestBlockhash().send()
  const message = pipe(
    createTransactionMessage({ version: 0 }),
    (m) => setTransactionMessageFeePayer(from, m),
    (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
    (m) => appendTransactionMessageInstruction(transferSolInstruction(from, to, lamports), m)
  )
  return getBase64EncodedWireTransaction(compileTransaction(message))
}

/** Whether the wallet's signature over the transaction `wire` (base64) is valid. */
const signedByWallet = async (wire: string): Promise<boolean> => {
  const address = wallet.solana?.address as Address
  const transaction = getTransactionDecoder().decode(getBase64Encoder().encode(wire))
  const signature = transaction.signatures[address]
  if (signature === null || signature === undefined) return false
  return verifySignature(await getPublicKeyFromAddress(address), signature, transaction.messageBytes)
}

const balance = async (address: Address) => (await rpc.getBalance(address).send()).value

describe("a walletkit wallet answering eip155 and solana in one WalletConnect session", () => {
  let dapp: Dapp
  let evmAddress: Hex
  let solanaAddress: Address

  it("approves a proposal of both families with the EVM dev account and Solana dev key 0", async () => {
    dapp = await makeDapp()
    const session = await dapp.connect({
      optionalNamespaces: {
        eip155: {
          chains: [EVM_CHAIN],
          methods: ["personal_sign"],
          events: ["accountsChanged", "chainChanged"],
          rpcMap: { "31337": "http://127.0.0.1:9" }
        },
        solana: solanaNamespace()
      }
    })
    evmAddress = wallet.evm?.address() as Hex
    solanaAddress = devSolanaKey(0).address
    expect(solanaAddress).toBe(solana.info.funded[0]?.address)
    expect(session?.namespaces["eip155"]?.accounts).toEqual([`${EVM_CHAIN}:${evmAddress}`])
    expect(session?.namespaces["solana"]?.accounts).toEqual([`${solana.info.caipNetworkId}:${solanaAddress}`])
    expect(session?.namespaces["solana"]?.methods).toEqual(SOLANA_METHODS)
  })

  it("signs a Solana message with the dev key (ed25519)", async () => {
    const message = new TextEncoder().encode("Sign in to the two-family dapp, nonce 7")
    const { signature } = await dapp.request<{ signature: string }>(
      { method: "solana_signMessage", params: { message: getBase58Decoder().decode(message), pubkey: solanaAddress } },
      solana.info.caipNetworkId
    )
    const bytes = getBase58Encoder().encode(signature) as SignatureBytes
    expect(await verifySignature(await getPublicKeyFromAddress(solanaAddress), bytes, message)).toBe(true)
  })

  it("signs and sends a SOL transfer that lands on the local Solana RPC", async () => {
    const to = (await generateKeyPairSigner()).address
    const before = await balance(solanaAddress)
    const { signature } = await dapp.request<{ signature: string }>(
      { method: "solana_signAndSendTransaction", params: { transaction: await transfer(to, SOL / 2n), sendOptions: { preflightCommitment: "confirmed" } } },
      solana.info.caipNetworkId
    )
    const { value: statuses } = await rpc.getSignatureStatuses([signature as Signature]).send()
    expect(statuses[0]).toMatchObject({ err: null, confirmationStatus: "finalized" })
    expect(await balance(to)).toBe(SOL / 2n)
    expect(await balance(solanaAddress)).toBe(before - SOL / 2n - FEE)
  })

  it("signs a transaction without sending it, and the dapp can send it itself", async () => {
    const to = (await generateKeyPairSigner()).address
    const { signature, transaction } = await dapp.request<{ signature: string; transaction: string }>(
      { method: "solana_signTransaction", params: { transaction: await transfer(to, SOL / 4n) } },
      solana.info.caipNetworkId
    )
    expect(await signedByWallet(transaction)).toBe(true)
    expect(await balance(to)).toBe(0n)
    const sent = await rpc.sendTransaction(transaction as Parameters<typeof rpc.sendTransaction>[0], { encoding: "base64" }).send()
    expect(sent).toBe(signature)
    expect(await balance(to)).toBe(SOL / 4n)
  })

  it("signs several transactions at once", async () => {
    const [a, b] = await Promise.all([generateKeyPairSigner(), generateKeyPairSigner()])
    const { transactions } = await dapp.request<{ transactions: ReadonlyArray<string> }>(
      { method: "solana_signAllTransactions", params: { transactions: [await transfer(a.address, SOL), await transfer(b.address, SOL)] } },
      solana.info.caipNetworkId
    )
    expect(transactions).toHaveLength(2)
    for (const transaction of transactions) expect(await signedByWallet(transaction)).toBe(true)
  })

  it("signs an EVM message in the same session", async () => {
    const message = "The same session, the other family"
    const signature = await dapp.request<Hex>({ method: "personal_sign", params: [stringToHex(message), evmAddress] }, EVM_CHAIN)
    expect(await verifyMessage({ address: evmAddress, message, signature })).toBe(true)
  })

  it("brings the wallet's refusal of a Solana request to the dapp as code 5000", async () => {
    wallet.setApproval("reject")
    try {
      const message = getBase58Decoder().decode(new TextEncoder().encode("refuse me"))
      await expect(
        dapp.request({ method: "solana_signMessage", params: { message, pubkey: solanaAddress } }, solana.info.caipNetworkId)
      ).rejects.toMatchObject({ code: 5000 })
      await expect(dapp.request({ method: "personal_sign", params: [stringToHex("refuse me"), evmAddress] }, EVM_CHAIN)).rejects.toMatchObject({
        code: 5000
      })
    } finally {
      wallet.setApproval("approve")
    }
  })

  it("disconnecting ends the session for both families, on both sides", async () => {
    const deleted = wallet.deleted()
    await dapp.disconnect()
    for (let i = 0; i < 200 && wallet.deleted() === deleted; i++) await new Promise((resolve) => setTimeout(resolve, 25))
    expect(wallet.deleted()).toBe(deleted + 1)
    expect(Object.keys(wallet.kit.getActiveSessions())).toEqual([])
    await expect(dapp.request({ method: "solana_getAccounts", params: {} }, solana.info.caipNetworkId)).rejects.toThrow()
    await expect(dapp.request({ method: "personal_sign", params: ["0x00", evmAddress] }, EVM_CHAIN)).rejects.toThrow()
  })

  it("approves a proposal that requires solana alone with the Solana account only", async () => {
    const only = await makeDapp()
    const session = await only.connect({ namespaces: { solana: solanaNamespace() } })
    expect(Object.keys(session?.namespaces ?? {})).toEqual(["solana"])
    expect(session?.namespaces["solana"]?.accounts).toEqual([`${solana.info.caipNetworkId}:${solanaAddress}`])
  })
})
