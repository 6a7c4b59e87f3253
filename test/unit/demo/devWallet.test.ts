// @vitest-environment happy-dom
/**
 * The demo's development wallet as a page finds it (EIP-6963 and the Wallet Standard), over the page's localStorage:
 * each `load()` installs it again, as a reload does, so what survives is what the wallet remembered.
 */
import { getPublicKeyFromAddress, type SignatureBytes, verifySignature } from "@solana/kit"
import { getWallets } from "@wallet-standard/app"
import { beforeEach, describe, expect, it } from "vitest"
import type { DemoStack } from "../../../demo/src/config"
import { DEV_WALLET_AUTHORISATION_KEYS, DEV_WALLET_NAME, installDevWallet } from "../../../demo/src/devWallet"
import { devAccounts } from "../../../devstack/evm/accounts"
import { devSolanaKey } from "../../../devstack/solana/keys"
import type { StandardSolanaWallet } from "../../../devstack/wallet/solana/standardWallet"
import type { TestWallet, WalletIdentity } from "../../../devstack/wallet/testWallet"

const [account0] = devAccounts(1)
const ALICE = account0?.address ?? ""
const SOLANA_ADDRESS = devSolanaKey(0).address

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
    .filter((wallet) => wallet.name === DEV_WALLET_NAME)
    .at(-1) as StandardSolanaWallet | undefined
  if (announced === undefined || standard === undefined) throw new Error("the development wallet was not found")
  return { info: announced.info, provider: announced.provider, standard }
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
})
