import { AxeBuilder } from "@axe-core/playwright"
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
  getPublicKeyFromAddress,
  pipe,
  type SignatureBytes,
  setTransactionMessageFeePayer,
  setTransactionMessageLifetimeUsingBlockhash,
  verifySignature
} from "@solana/kit"
import { initSignClientDapp, type SignClientDapp } from "./support/signClientDapp"
import type { Locator, Page } from "playwright-core"
import { createPublicClient, type Hex, http, parseEther, stringToHex, verifyMessage } from "viem"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Started } from "../../server/src/lib/Started"
import { type DevstackInfo, startDevstack } from "../../devstack/main"
import { devSolanaKey, transferSolInstruction } from "../../devstack/solana/keys"
import { type Browser, launchBrowser } from "../e2e/support/browser"

// For the dapp client in this process: WalletConnect's Verify would wait for its hosted server (offline here).
process.env.IS_VITEST = "true"

const DAPP = "Page Test Dapp"
const TWO_FAMILY_DAPP = "Two-family Dapp"
const CHAIN = "eip155:31337"
const SOL = 1_000_000_000n

describe("the devstack's test wallet page", () => {
  let stack: Started<DevstackInfo>
  let browser: Browser
  let page: Page
  let dapp: SignClientDapp
  let twoFamilyDapp: SignClientDapp
  let address: Hex
  const requested: Array<string> = []
  const consoleErrors: Array<string> = []

  beforeAll(async () => {
    stack = await startDevstack({ parts: ["evm", "solana", "relay", "services"] })
    browser = await launchBrowser()
    page = browser.page
    page.on("request", (request) => requested.push(request.url()))
    page.on("console", (message) => {
      if (message.type() === "error") consoleErrors.push(message.text())
    })
    await page.goto(stack.info.config.services?.testWalletUrl ?? "")
    await page.getByRole("status").filter({ hasText: "Ready" }).waitFor()

    const makeDapp = (name: string, prefix: string) =>
      initSignClientDapp({ projectId: stack.info.config.services?.defaultProjectId ?? "", relayUrl: stack.info.config.relay?.url ?? "", name, prefix })
    ;[dapp, twoFamilyDapp] = await Promise.all([makeDapp(DAPP, "test-wallet-page-dapp"), makeDapp(TWO_FAMILY_DAPP, "test-wallet-page-two-family")])
  })

  afterAll(async () => {
    for (const client of [dapp, twoFamilyDapp]) {
      await client?.close()
    }
    await browser?.close()
    await stack?.stop()
  })

  const card = (title: string): Locator => page.getByRole("article", { name: title })
  const textOf = async (locator: Locator): Promise<string> => {
    await locator.waitFor()
    return (await locator.textContent()) ?? ""
  }

  it("pairs from a pasted URI, shows the dapp's proposal and connects with the account chosen", async () => {
    const account1 = stack.info.config.evm?.accounts[1]?.address as Hex
    const uri = new Promise<string>((resolve) => dapp.once("display_uri", resolve))
    const chains = stack.info.config.evm?.chains ?? []
    const connected = dapp.connect({
      optionalNamespaces: {
        eip155: {
          chains: chains.map((chain) => chain.caipNetworkId),
          methods: ["personal_sign", "eth_sendTransaction", "wallet_switchEthereumChain"],
          events: ["accountsChanged", "chainChanged"],
          rpcMap: Object.fromEntries(chains.map((chain) => [String(chain.chainId), chain.rpcUrl]))
        }
      }
    })

    await page.getByLabel("EVM account to share").selectOption("1")
    await page.getByLabel("Pairing URI").fill(await uri)
    await page.getByRole("button", { name: "Connect", exact: true }).click()
    const proposal = card(`${DAPP} asks to connect`)
    const shown = await textOf(proposal)
    expect(shown).toContain("Local Chain A")
    expect(shown).toContain("Local Chain B")
    expect(shown).toContain("personal_sign")
    expect(shown).toContain(account1)
    const { violations } = await new AxeBuilder({ page }).analyze()
    expect(violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`)).toEqual([])
    await proposal.getByRole("button", { name: "Approve" }).click()

    const session = await connected
    expect(session?.namespaces["eip155"]?.accounts).toContain(`${CHAIN}:${account1}`)
    expect(await textOf(page.getByRole("region", { name: "Connected dapps" }).getByRole("article", { name: DAPP }))).toContain(account1)
    address = account1
  })

  it("shows a personal_sign message decoded and answers Approve with the account's signature", async () => {
    const message = "Sign in to the page test, nonce 42"
    const signed = dapp.request<Hex>({ method: "personal_sign", params: [stringToHex(message), address] }, CHAIN)

    const prompt = card("Sign a message")
    const shown = await textOf(prompt)
    expect(shown).toContain(message)
    expect(shown).toContain(DAPP)
    await prompt.getByRole("button", { name: "Approve" }).click()

    const signature = await signed
    expect(await verifyMessage({ address, message, signature })).toBe(true)
    await page.getByRole("listitem").filter({ hasText: `Signed a message for ${DAPP}` }).waitFor()
  })

  it("brings a Reject to the dapp as WalletConnect's code 5000", async () => {
    const outcome = dapp
      .request<Hex>({ method: "personal_sign", params: [stringToHex("please reject"), address] }, CHAIN)
      .then((signature) => ({ signature }), (error: unknown) => ({ error }))
    const prompt = card("Sign a message")
    expect(await textOf(prompt)).toContain("please reject")
    await prompt.getByRole("button", { name: "Reject" }).click()

    expect(await outcome).toMatchObject({ error: { code: 5000 } })
    await prompt.waitFor({ state: "detached" })
  })

  it("shows a transaction's recipient and value, and sends it on the local chain on Approve", async () => {
    const to = stack.info.config.evm?.accounts[5]?.address as Hex
    const sent = dapp.request<Hex>(
      { method: "eth_sendTransaction", params: [{ from: address, to, value: `0x${parseEther("1.5").toString(16)}` }] },
      CHAIN
    )
    const prompt = card("Send a transaction")
    const shown = await textOf(prompt)
    expect(shown).toContain(to)
    expect(shown).toContain("1.5 ETH")
    await prompt.getByRole("button", { name: "Approve" }).click()

    const hash = await sent
    const rpcUrl = stack.info.config.evm?.chains.find((chain) => chain.caipNetworkId === CHAIN)?.rpcUrl ?? ""
    const receipt = await createPublicClient({ transport: http(rpcUrl) }).waitForTransactionReceipt({ hash })
    expect(receipt.status).toBe("success")
    expect(receipt.from.toLowerCase()).toBe(address.toLowerCase())
    expect(receipt.to?.toLowerCase()).toBe(to.toLowerCase())
  })

  it("disconnects a session from the page, and the dapp hears it", async () => {
    const deleted = new Promise<void>((resolve) => dapp.client.once("session_delete", () => resolve()))
    const sessions = page.getByRole("region", { name: "Connected dapps" })
    await sessions.getByRole("article", { name: DAPP }).getByRole("button", { name: "Disconnect" }).click()

    await deleted
    await sessions.getByText("No dapp is connected.").waitFor()
  })

  it("connects a dapp asking for eip155 and solana with both accounts, and signs and sends on Local Solana", async () => {
    const solana = stack.info.config.solana
    if (solana === null) throw new Error("the stack has no Solana part")
    const solanaAddress = devSolanaKey(0).address
    const rpc = createSolanaRpc(solana.rpcUrl)
    await page.getByText(/1000 SOL on Local Solana/).waitFor()
    expect(await page.getByLabel("Solana account to share").inputValue()).toBe("0")

    const uri = new Promise<string>((resolve) => twoFamilyDapp.once("display_uri", resolve))
    const connected = twoFamilyDapp.connect({
      optionalNamespaces: {
        eip155: { chains: [CHAIN], methods: ["personal_sign"], events: ["accountsChanged", "chainChanged"], rpcMap: {} },
        solana: {
          chains: [solana.caipNetworkId],
          methods: ["solana_signMessage", "solana_signAndSendTransaction"],
          events: [],
          rpcMap: { [solana.caipNetworkId]: solana.rpcUrl }
        }
      }
    })
    await page.getByLabel("Pairing URI").fill(await uri)
    await page.getByRole("button", { name: "Connect", exact: true }).click()
    const proposal = card(`${TWO_FAMILY_DAPP} asks to connect`)
    const shown = await textOf(proposal)
    expect(shown).toContain("Local Solana")
    expect(shown).toContain("solana_signMessage")
    expect(shown).toContain(`Solana account #0 (${solanaAddress})`)
    await proposal.getByRole("button", { name: "Approve" }).click()
    const session = await connected
    expect(session?.namespaces["solana"]?.accounts).toEqual([`${solana.caipNetworkId}:${solanaAddress}`])
    expect(session?.namespaces["eip155"]?.accounts[0]).toMatch(/^eip155:31337:0x/)

    const message = "Sign in on Local Solana, nonce 9"
    const signed = twoFamilyDapp.request<{ signature: string }>(
      {
        method: "solana_signMessage",
        params: { message: getBase58Decoder().decode(new TextEncoder().encode(message)), pubkey: solanaAddress }
      },
      solana.caipNetworkId
    )
    const signPrompt = card("Sign a message")
    const signShown = await textOf(signPrompt)
    expect(signShown).toContain(message)
    expect(signShown).toContain("Local Solana")
    await signPrompt.getByRole("button", { name: "Approve" }).click()
    const { signature } = await signed
    const key = await getPublicKeyFromAddress(solanaAddress)
    expect(await verifySignature(key, getBase58Encoder().encode(signature) as SignatureBytes, new TextEncoder().encode(message))).toBe(true)

    const to: Address = (await generateKeyPairSigner()).address
    const { value: latest } = await rpc.getLatestBlockhash().send()
    const transaction = getBase64EncodedWireTransaction(
      compileTransaction(
        pipe(
          createTransactionMessage({ version: 0 }),
          (m) => setTransactionMessageFeePayer(solanaAddress, m),
          (m) => setTransactionMessageLifetimeUsingBlockhash(latest, m),
          (m) => appendTransactionMessageInstruction(transferSolInstruction(solanaAddress, to, SOL / 2n), m)
        )
      )
    )
    const sent = twoFamilyDapp.request<{ signature: string }>(
      { method: "solana_signAndSendTransaction", params: { transaction } },
      solana.caipNetworkId
    )
    const sendPrompt = card("Send a transaction")
    const sendShown = await textOf(sendPrompt)
    expect(sendShown).toContain(to)
    expect(sendShown).toContain("0.5 SOL")
    await sendPrompt.getByRole("button", { name: "Approve" }).click()
    const landed = await sent
    expect(await rpc.getBalance(to).send()).toMatchObject({ value: SOL / 2n })
    await page.getByRole("listitem").filter({ hasText: `Sent transaction ${landed.signature} on Local Solana` }).waitFor()

    const refused = twoFamilyDapp
      .request({ method: "solana_signAndSendTransaction", params: { transaction } }, solana.caipNetworkId)
      .then((result) => ({ result }), (error: unknown) => ({ error }))
    const refusePrompt = card("Send a transaction")
    await refusePrompt.waitFor()
    await refusePrompt.getByRole("button", { name: "Reject" }).click()
    expect(await refused).toMatchObject({ error: { code: 5000 } })

    await twoFamilyDapp.disconnect()
    await page.getByRole("region", { name: "Connected dapps" }).getByText("No dapp is connected.").waitFor()
  })

  it("opens a deep link's URI at once (as the catalogue's entries do), and a rejected proposal fails the dapp's connect", async () => {
    const uri = new Promise<string>((resolve) => dapp.once("display_uri", resolve))
    const outcome = dapp
      .connect({ optionalNamespaces: { eip155: { chains: [CHAIN], methods: ["personal_sign"], events: [] } } })
      .then((session) => ({ session }), (error: unknown) => ({ error }))
    const link = `${stack.info.config.services?.testWalletUrl}wc?uri=${encodeURIComponent(await uri)}`
    await page.goto(link)

    const proposal = card(`${DAPP} asks to connect`)
    await proposal.getByRole("button", { name: "Reject" }).click()
    expect(await outcome).toMatchObject({ error: { code: 5000 } })
    // The used link is gone from the address, so a reload does not pair again.
    expect(new URL(page.url()).searchParams.has("uri")).toBe(false)
  })

  it("a proposal waiting when the page reloads waits again, and approving it after the reload connects the dapp", async () => {
    const uri = new Promise<string>((resolve) => dapp.once("display_uri", resolve))
    const connected = dapp.connect({ optionalNamespaces: { eip155: { chains: [CHAIN], methods: ["personal_sign"], events: [] } } })
    await page.goto(`${stack.info.config.services?.testWalletUrl}wc?uri=${encodeURIComponent(await uri)}`)
    await card(`${DAPP} asks to connect`).waitFor()
    await page.reload()
    await page.getByRole("status").filter({ hasText: "Ready" }).waitFor()
    const proposal = card(`${DAPP} asks to connect`)
    expect(await textOf(proposal)).toContain("Local Chain A")
    await proposal.getByRole("button", { name: "Approve" }).click()
    const session = await connected
    expect(session?.namespaces["eip155"]?.accounts.length).toBeGreaterThan(0)
    address = session!.namespaces["eip155"]!.accounts[0]!.split(":")[2] as Hex
  })

  it("a request waiting when the page reloads waits again, and its approval after the reload reaches the dapp", async () => {
    const message = "Signed after a reload of the wallet"
    const signed = dapp.request<Hex>({ method: "personal_sign", params: [stringToHex(message), address] }, CHAIN)
    await card("Sign a message").waitFor()
    await page.reload()
    await page.getByRole("status").filter({ hasText: "Ready" }).waitFor()
    const prompt = card("Sign a message")
    expect(await textOf(prompt)).toContain(message)
    await prompt.getByRole("button", { name: "Approve" }).click()
    expect(await verifyMessage({ address, message, signature: await signed })).toBe(true)
  })

  it("tried to reach nothing outside the local stack", async () => {
    const outside = requested.filter((url) => !/^(https?|wss?):\/\/127\.0\.0\.1[:/]/.test(url) && !url.startsWith("data:"))
    expect(outside).toEqual([])
    // What the page's Content-Security-Policy blocked never becomes a request: it shows in the console and the log.
    expect(consoleErrors.filter((text) => text.includes("Content Security Policy"))).toEqual([])
    expect(await page.getByRole("region", { name: "Activity" }).textContent()).not.toContain("Blocked a request")
  })
})
