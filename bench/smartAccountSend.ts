/**
 * Smart-account send bench: the demo's production build on the local stack with the bundler part, the embedded
 * wallet logged in by email with its smart account in front; the time from a click on Approve (ApproveTransaction of a
 * 0.01 ETH send) to the page showing the receipt ("confirmed in block"): the frame, the wallet server signing the user
 * operation, the paymaster's sponsorship, the bundler's simulation and bundle, anvil's block, the receipt read back.
 * Figures, not assertions.
 *
 * Run: npx tsx bench/smartAccountSend.ts
 */
import { pathToFileURL } from "node:url"
import { createPublicClient, createWalletClient, http, parseEther } from "viem"
import { privateKeyToAccount } from "viem/accounts"
import { foundry } from "viem/chains"
import { withDemo } from "../test/e2e/support/demo"
import { connectedAddress, emailLogin } from "../test/e2e/support/embeddedLogin"

const RUNS = 5

const median = (values: ReadonlyArray<number>): number => {
  const sorted = [...values].sort((a, b) => a - b)
  const middle = Math.floor(sorted.length / 2)
  return sorted.length % 2 === 1 ? (sorted[middle] ?? 0) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2
}

// Runs in the page: clicks the modal's Approve, resolves with the ms until the demo's transaction line shows a receipt
// other than `previous` (each run's block is a new one).
const APPROVE_TO_RECEIPT = `(previous) => new Promise((resolve, reject) => {
  const approve = [...document.querySelectorAll("[role=dialog] button")].find((b) => b.textContent === "Approve")
  if (approve === undefined) { reject(new Error("no Approve button")); return }
  const line = () => document.querySelector("[data-testid=transaction]")?.textContent ?? ""
  const done = () => line().includes("confirmed in block") && line() !== previous
  const start = performance.now()
  const observer = new MutationObserver(() => { if (done()) { observer.disconnect(); resolve(performance.now() - start) } })
  observer.observe(document, { subtree: true, childList: true, characterData: true })
  approve.click()
})`

/** The bench's row: click Approve → receipt shown, median of {@link RUNS} sponsored sends from the smart account. */
export const smartAccountSendRows = () =>
  withDemo(["evm", "bundler", "solana", "mail", "services", "embedded"], async ({ stack, url, browser }) => {
    const page = browser.page
    const evm = stack.config.evm
    const chain = evm?.chains.find((c) => c.chainId === 31337)
    if (evm === null || evm === undefined || chain === undefined || stack.mail === null || stack.mail === undefined) throw new Error("no EVM chain or mail sink")
    await page.goto(url)
    await emailLogin(page, stack.mail, "bench-smart@example.com")
    const smart = await connectedAddress(page)
    const reader = createPublicClient({ chain: foundry, transport: http(chain.rpcUrl) })
    const funder = createWalletClient({ account: privateKeyToAccount(evm.accounts[0]!.privateKey as `0x${string}`), chain: foundry, transport: http(chain.rpcUrl) })
    await reader.waitForTransactionReceipt({ hash: await funder.sendTransaction({ to: smart, value: parseEther("1") }), timeout: 20_000 })
    const times: Array<number> = []
    // The first send also deploys the account: timed apart from the others.
    for (let run = 0; run <= RUNS; run++) {
      const previous = (await page.getByTestId("transaction").textContent()) ?? ""
      await page.getByRole("button", { name: "Send", exact: true }).click()
      await page.getByRole("dialog").getByRole("heading", { name: "Approve this transaction" }).waitFor({ timeout: 20_000 })
      times.push(await page.evaluate(`(${APPROVE_TO_RECEIPT})(${JSON.stringify(previous)})`) as number)
      await page.getByRole("dialog").waitFor({ state: "detached", timeout: 20_000 })
    }
    const [first, ...rest] = times
    return [
      { metric: "smart-account send, first (deploys the account): click Approve → receipt", measured: `${(first ?? 0).toFixed(1)} ms`, target: "—", peers: "" },
      { metric: `smart-account send (click Approve → receipt), sponsored, local stack (median of ${RUNS})`, measured: `${median(rest).toFixed(1)} ms`, target: "—", peers: "" }
    ]
  })

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) console.table(await smartAccountSendRows())
