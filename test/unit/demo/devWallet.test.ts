// @vitest-environment happy-dom
/**
 * The demo's development wallet as a page finds it (EIP-6963 and the Wallet Standard), over the page's localStorage:
 * each `load()` installs it again, as a reload does, so what survives is what the wallet remembered.
 */
import { getPublicKeyFromAddress, type SignatureBytes, verifySignature } from "@solana/kit"
import { signatureVerify } from "@polkadot/util-crypto"
import { Transaction } from "@scure/btc-signer"
import { getWallets } from "@wallet-standard/app"
import { beforeEach, describe, expect, it } from "vitest"
import type { DemoStack } from "../../../demo/src/config"
import { DEV_WALLET_AUTHORISATION_KEYS, DEV_WALLET_NAME, installDevWallet } from "../../../demo/src/devWallet"
import { verifyBip322 } from "../../../server/src/bitcoin/bip322"
import { devBitcoinKey, REGTEST } from "../../../devstack/bitcoin/keys"
import { devAccounts } from "../../../devstack/evm/accounts"
import { devSolanaKey } from "../../../devstack/solana/keys"
import type { InjectedExtension } from "../../../devstack/wallet/polkadot/extension"
import type { StandardSolanaWallet } from "../../../devstack/wallet/solana/standardWallet"
import type { BitcoinWalletFeatures } from "../../../src/services/bip122/walletStandardFeatures"
import type { StandardFeatures } from "../../../src/services/fakes/standardWallet"
import type { TestWallet, WalletIdentity } from "../../../devstack/wallet/testWallet"

const [account0] = devAccounts(1)
const ALICE = account0?.address ?? ""
const SOLANA_ADDRESS = devSolanaKey(0).address
const BITCOIN_KEY = devBitcoinKey(0)
// //Alice's generic (prefix 42) address.
const POLKADOT_ALICE = "5GrwvaEF5zXb26Fz9rcQpDWS57CtERHpNehXCPcNoHGKutQY"

// Nothing here reaches a node: connecting, remembering and signing messages are the wallet's own.
const stack: DemoStack = {
  projectId: "devstack-project",
  servicesUrl: "http://127.0.0.1:9",
  rpcProxyUrl: "http://127.0.0.1:9/v1/",
  relayUrl: null,
  chains: [{ chainId: 31337, rpcUrl: "http://127.0.0.1:9" }],
  devPrivateKeys: account0 === undefined ? [] : [account0.privateKey],
  solana: {
    caipNetworkId: "solana:AuCF5cjfQuAmAvgqiCQAJBTxY1RURhk6",
    rpcUrl: "http://127.0.0.1:9",
    devSecretKey: devSolanaKey(0).secretKey,
    tokens: []
  },
  bitcoin: {
    caipNetworkId: "bip122:0f9188f13cb7b2c71f2a335e3a4fc328",
    url: "http://127.0.0.1:9/bitcoin",
    devKey: BITCOIN_KEY
  }
}

let prompts: Array<string> = []
let answer = true

beforeEach(() => {
  localStorage.clear()
  prompts = []
  answer = true
  window.confirm = (question?: string) => {
    prompts.push(question ?? "")
    return answer
  }
})

/** Installs the wallet as a page load does; returns what the page then finds through EIP-6963 and the Wallet Standard. */
const load = () => {
  let announced: { readonly info: WalletIdentity; readonly provider: TestWallet } | undefined
  const listen = (event: Event) => {
    announced = (event as CustomEvent<{ readonly info: WalletIdentity; readonly provider: TestWallet }>).detail
  }
  window.addEventListener("eip6963:announceProvider", listen)
  installDevWallet(stack)
  window.removeEventListener("eip6963:announceProvider", listen)
  // Earlier loads registered too (one page here, many "reloads"): the newest is this load's.
  const standard = getWallets()
    .get()
    .filter((wallet) => wallet.name === DEV_WALLET_NAME && "solana:signMessage" in wallet.features)
    .at(-1) as StandardSolanaWallet | undefined
  const bitcoin = getWallets()
    .get()
    .filter((wallet) => wallet.name === DEV_WALLET_NAME && "bitcoin:connect" in wallet.features)
    .at(-1) as { readonly name: string; readonly icon: string; readonly features: StandardFeatures & BitcoinWalletFeatures } | undefined
  const polkadot = (window as unknown as { injectedWeb3?: Record<string, InjectedExtension> }).injectedWeb3?.["dev-test-wallet"]
  if (announced === undefined || standard === undefined || bitcoin === undefined || polkadot === undefined) {
    throw new Error("the development wallet was not found")
  }
  return { info: announced.info, provider: announced.provider, standard, bitcoin, polkadot }
}

const refusal = (promise: Promise<unknown>) => promise.then(() => undefined, (error: unknown) => (error as { code?: number }).code)

describe("the demo's development wallet", () => {
  it("is one wallet for both families: the same name and icon through EIP-6963 and the Wallet Standard", () => {
    const { info, standard } = load()
    expect(info.name).toBe("Dev Test Wallet")
    expect(standard.name).toBe("Dev Test Wallet")
    expect(standard.icon).toBe(info.icon)
    expect(Object.keys(standard.features)).toEqual(
      expect.arrayContaining(["standard:connect", "solana:signMessage", "solana:signAndSendTransaction"])
    )
  })

  it("remembers across a reload that the visitor let the demo connect, and asks nothing then", async () => {
    const first = load()
    expect(await first.provider.request({ method: "eth_accounts" })).toEqual([])
    expect(await first.provider.request({ method: "eth_requestAccounts" })).toEqual([ALICE])
    expect(prompts).toEqual(["Connect the development wallet to this site?"])

    const reloaded = load()
    expect(await reloaded.provider.request({ method: "eth_accounts" })).toEqual([ALICE])
    expect(await reloaded.provider.request({ method: "eth_requestAccounts" })).toEqual([ALICE])
    expect(prompts).toHaveLength(1)
  })

  it("forgets it when the demo disconnects (wallet_revokePermissions)", async () => {
    const first = load()
    await first.provider.request({ method: "eth_requestAccounts" })
    await first.provider.request({ method: "wallet_revokePermissions", params: [{ eth_accounts: {} }] })
    expect(await first.provider.request({ method: "eth_accounts" })).toEqual([])

    const reloaded = load()
    expect(await reloaded.provider.request({ method: "eth_accounts" })).toEqual([])
    expect(localStorage.getItem(DEV_WALLET_AUTHORISATION_KEYS.eip155)).toBeNull()
  })

  it("remembers nothing when the visitor refuses to connect", async () => {
    answer = false
    expect(await refusal(load().provider.request({ method: "eth_requestAccounts" }))).toBe(4001)
    expect(await load().provider.request({ method: "eth_accounts" })).toEqual([])
  })

  it("remembers the Solana connection across a reload, and a disconnect forgets it", async () => {
    const first = load()
    expect((await first.standard.features["standard:connect"].connect({ silent: true })).accounts).toEqual([])
    expect(prompts).toEqual([])
    const { accounts } = await first.standard.features["standard:connect"].connect()
    expect(accounts.map((account) => account.address)).toEqual([SOLANA_ADDRESS])
    expect(prompts).toEqual(["Connect the development wallet's Solana account to this site?"])

    const reloaded = load()
    const silent = await reloaded.standard.features["standard:connect"].connect({ silent: true })
    expect(silent.accounts.map((account) => account.address)).toEqual([SOLANA_ADDRESS])
    expect(prompts).toHaveLength(1)

    await reloaded.standard.features["standard:disconnect"].disconnect()
    expect((await load().standard.features["standard:connect"].connect({ silent: true })).accounts).toEqual([])
  })

  it("signs a Solana message with dev key 0 once the visitor agrees, and refuses with 4001 otherwise", async () => {
    const { standard } = load()
    const [account] = (await standard.features["standard:connect"].connect()).accounts
    if (account === undefined) throw new Error("no Solana account")
    const message = new TextEncoder().encode("Sign in to the demo with Solana")

    const [output] = await standard.features["solana:signMessage"].signMessage({ account, message })
    expect(prompts.at(-1)).toBe("Sign this message?\n\nSign in to the demo with Solana")
    const key = await getPublicKeyFromAddress(SOLANA_ADDRESS)
    expect(await verifySignature(key, output?.signature as SignatureBytes, message)).toBe(true)

    answer = false
    expect(await refusal(standard.features["solana:signMessage"].signMessage({ account, message }))).toBe(4001)
  })

  it("has a Bitcoin side under the same name: it connects dev key 0's payment and ordinals addresses once the visitor agrees, and remembers it", async () => {
    const { info, bitcoin } = load()
    expect([bitcoin.name, bitcoin.icon]).toEqual([DEV_WALLET_NAME, info.icon])
    expect((await bitcoin.features["standard:connect"].connect({ silent: true })).accounts).toEqual([])
    expect(prompts).toEqual([])
    const { accounts } = await bitcoin.features["bitcoin:connect"].connect({ purposes: ["payment", "ordinals"] })
    expect(accounts.map((account) => account.address)).toEqual([BITCOIN_KEY.paymentAddress, BITCOIN_KEY.ordinalsAddress])
    expect(prompts).toEqual(["Connect the development wallet's Bitcoin addresses to this site?"])

    const reloaded = load()
    const silent = await reloaded.bitcoin.features["standard:connect"].connect({ silent: true })
    expect(silent.accounts.map((account) => account.address)).toEqual([BITCOIN_KEY.paymentAddress, BITCOIN_KEY.ordinalsAddress])
    expect(prompts).toHaveLength(1)
    await reloaded.bitcoin.features["standard:disconnect"].disconnect()
    expect((await load().bitcoin.features["standard:connect"].connect({ silent: true })).accounts).toEqual([])
  })

  it("signs a Bitcoin message with BIP-322 for the payment and the ordinals address once the visitor agrees, and refuses with 4001 otherwise", async () => {
    const { bitcoin } = load()
    const [payment, ordinals] = (await bitcoin.features["bitcoin:connect"].connect({ purposes: ["payment", "ordinals"] })).accounts
    if (payment === undefined || ordinals === undefined) throw new Error("no Bitcoin accounts")
    const text = "Sign in to the demo with Bitcoin"
    const message = new TextEncoder().encode(text)
    for (const account of [payment, ordinals]) {
      const [output] = await bitcoin.features["bitcoin:signMessage"].signMessage({ account, message })
      expect(prompts.at(-1)).toBe(`Sign this message with ${account.address}?\n\n${text}`)
      const signature = Buffer.from(output?.signature ?? []).toString("base64")
      expect(verifyBip322(account.address, REGTEST, text, signature)).toBe(true)
      expect(verifyBip322(account.address, REGTEST, `${text}.`, signature)).toBe(false)
    }
    answer = false
    expect(await refusal(bitcoin.features["bitcoin:signMessage"].signMessage({ account: payment, message }))).toBe(4001)
  })

  it("sends on regtest after the visitor agrees: a transaction from the node's UTXOs, signed, paying the receiver and the change", async () => {
    const receiver = devBitcoinKey(7).paymentAddress
    const posted: Array<string> = []
    const realFetch = globalThis.fetch
    globalThis.fetch = (async (input: string | URL | Request, init?: RequestInit) => {
      const url = String(input)
      if (url.endsWith(`/address/${BITCOIN_KEY.paymentAddress}/utxo`)) {
        return Response.json([{ txid: "11".repeat(32), vout: 0, value: 5_000_000_000 }])
      }
      if (url.endsWith("/fee-estimates")) return Response.json({ "3": 2 })
      if (url.endsWith("/tx") && init?.method === "POST") {
        posted.push(String(init.body))
        return new Response(Transaction.fromRaw(Buffer.from(String(init.body), "hex")).id)
      }
      return new Response("not found", { status: 404 })
    }) as typeof fetch
    try {
      const { bitcoin } = load()
      const [payment] = (await bitcoin.features["bitcoin:connect"].connect({ purposes: ["payment"] })).accounts
      if (payment === undefined) throw new Error("no payment account")
      answer = false
      const refused = bitcoin.features["bitcoin:sendTransfer"].sendTransfer({
        account: payment,
        chain: "bitcoin:regtest",
        recipients: [{ address: receiver, amount: 50_000_000n }]
      })
      expect(await refusal(refused)).toBe(4001)
      expect(posted).toEqual([])
      answer = true
      const [sent] = await bitcoin.features["bitcoin:sendTransfer"].sendTransfer({
        account: payment,
        chain: "bitcoin:regtest",
        recipients: [{ address: receiver, amount: 50_000_000n }]
      })
      expect(prompts.at(-1)).toBe(`Send this transaction?\n\nTo: ${receiver}\nAmount: 0.5 BTC\nFrom: ${BITCOIN_KEY.paymentAddress}`)
      const tx = Transaction.fromRaw(Buffer.from(posted[0] ?? "", "hex"))
      expect(sent?.txid).toBe(tx.id)
      expect(tx.getOutputAddress(0, REGTEST)).toBe(receiver)
      expect(tx.getOutput(0).amount).toBe(50_000_000n)
      expect(tx.getOutputAddress(1, REGTEST)).toBe(BITCOIN_KEY.paymentAddress)
      expect(tx.getInput(0).finalScriptWitness?.length).toBe(2)
    } finally {
      globalThis.fetch = realFetch
    }
  })

  it("has a Polkadot side in window.injectedWeb3: //Alice, let in once the visitor agrees, and remembered", async () => {
    const { polkadot } = load()
    answer = false
    await expect(polkadot.enable("Wallet Runtime demo")).rejects.toThrow("Rejected")
    answer = true
    const enabled = await polkadot.enable("Wallet Runtime demo")
    expect(prompts.at(-1)).toBe("Let Wallet Runtime demo see the development wallet's Polkadot account (//Alice)?")
    expect((await enabled.accounts.get()).map((account) => [account.address, account.type])).toEqual([[POLKADOT_ALICE, "sr25519"]])
    const asked = prompts.length
    await load().polkadot.enable("Wallet Runtime demo")
    expect(prompts).toHaveLength(asked)
  })

  it("signs a Polkadot message with //Alice (sr25519, <Bytes>-wrapped) once the visitor agrees, and cancels otherwise", async () => {
    const enabled = await load().polkadot.enable("Wallet Runtime demo")
    const text = "Sign in to the demo with Polkadot"
    const data = `0x${Buffer.from(text).toString("hex")}`
    const { signature } = await enabled.signer.signRaw({ address: POLKADOT_ALICE, data, type: "bytes" })
    expect(prompts.at(-1)).toBe(`Sign this message with ${POLKADOT_ALICE}?\n\n${text}`)
    const checked = signatureVerify(text, signature, POLKADOT_ALICE)
    expect([checked.isValid, checked.crypto]).toEqual([true, "sr25519"])
    // A site that wraps the bytes itself is shown the message, and it is signed wrapped once.
    const wrapped = `0x${Buffer.from(`<Bytes>${text}</Bytes>`).toString("hex")}`
    const again = await enabled.signer.signRaw({ address: POLKADOT_ALICE, data: wrapped, type: "bytes" })
    expect(prompts.at(-1)).toBe(`Sign this message with ${POLKADOT_ALICE}?\n\n${text}`)
    expect(signatureVerify(text, again.signature, POLKADOT_ALICE).isValid).toBe(true)
    answer = false
    await expect(enabled.signer.signRaw({ address: POLKADOT_ALICE, data, type: "bytes" })).rejects.toThrow("Cancelled")
  })
})
