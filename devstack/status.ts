import type { RuntimeConfig } from "./config"
import { escapeHtml } from "../server/src/lib/html"
import { EXPLORER_PATH } from "../server/src/services/explorerHtml"

/** The endpoints of a running stack as labelled rows, for the console and the status page. */
export const endpointRows = (config: RuntimeConfig): ReadonlyArray<readonly [string, string]> => {
  const rows: Array<readonly [string, string]> = []
  const services = config.services
  if (services !== null) {
    rows.push(["services", `${services.url}  (wallet catalogue, blockchain API; ${services.url}/ lists the endpoints)`])
    rows.push(["projectId", `${services.defaultProjectId}  (also ${services.projects.filter((p) => p.projectId !== services.defaultProjectId).map((p) => p.projectId).join(", ")})`])
  }
  for (const chain of config.evm?.chains ?? []) {
    const proxy = services === null ? "" : `  proxy ${services.rpcProxyUrl}?chainId=${chain.caipNetworkId}&projectId=${services.defaultProjectId}`
    rows.push([chain.caipNetworkId, `${chain.rpcUrl}${proxy}`])
  }
  const first = config.evm?.chains[0]
  if (first !== undefined) {
    rows.push([
      "contracts",
      `${first.tokens.map((t) => `${t.symbol} ${t.address}`).join("  ")}  ${first.collectible.symbol} (ERC-721) ${first.collectible.address}  ${first.spamCollectible.symbol} (ERC-721, spam) ${first.spamCollectible.address}  (same on every chain)`
    ])
  }
  const account = config.evm?.accounts[0]
  if (account !== undefined) {
    rows.push(["dev account", `${account.address}  key ${account.privateKey}  (${config.evm?.accounts.length ?? 0} accounts of "${config.evm?.mnemonic}")`])
  }
  if (config.solana !== null) {
    rows.push(["solana", `${config.solana.rpcUrl}  ws ${config.solana.wsUrl}  (${config.solana.caipNetworkId}, ${config.solana.funded.length} funded keys)`])
  }
  const bitcoin = config.bitcoin
  if (bitcoin !== undefined && bitcoin !== null) {
    const key = bitcoin.funded[0]
    rows.push(["bitcoin", `${bitcoin.url}  (${bitcoin.caipNetworkId} regtest, Esplora-style API; ${bitcoin.funded.length} funded keys${key === undefined ? "" : `, e.g. ${key.paymentAddress}`})`])
  }
  if (config.relay !== null) rows.push(["relay", config.relay.url])
  if (config.bundler !== undefined && config.bundler !== null) {
    rows.push(["bundler", `${config.bundler.url}/rpc/{chainId}  (ERC-4337, EntryPoint v0.8; its paymaster sponsors every operation)`])
  }
  if (config.mail !== null) rows.push(["mail", `smtp ${config.mail.smtpHost}:${config.mail.smtpPort}  inbox ${config.mail.inboxUrl}`])
  if (config.embedded !== undefined && config.embedded !== null) {
    rows.push(["embedded wallet", `${config.embedded.frameUrl}  (the email wallet's frame site and wallet server; codes go to the mail inbox)`])
  }
  for (const idp of config.identity?.providers ?? []) {
    rows.push([`login: ${idp.provider}`, `${idp.issuer}  (local ${idp.kind === "oidc" ? "OpenID Connect" : "OAuth 2"} provider: pick or type an account)`])
  }
  if (config.farcaster !== undefined && config.farcaster !== null) {
    rows.push(["login: farcaster", `${config.farcaster.clientUrl}  (test Farcaster client: paste the modal's link, sign in as a test user; id registry ${config.farcaster.idRegistry} on ${config.farcaster.caipNetworkId})`])
  }
  if (services !== null) rows.push(["explorer", `${services.url}${EXPLORER_PATH}  (the local chains' transactions, addresses, NFTs)`])
  if (services !== null) rows.push(["test wallet", services.testWalletUrl])
  if (services?.onrampUrl !== undefined) rows.push(["on-ramp page", services.onrampUrl])
  if (config.demo !== null) rows.push([config.demo.kind === "vite" ? "demo" : "status", config.demo.url])
  return rows
}

/** The status page `npm start` serves until the demo app exists: every endpoint of the stack. */
export const statusPageHtml = (config: RuntimeConfig): string =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>wallet-runtime devstack</title><style>body{font:15px/1.5 system-ui,sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem;color:#1b1f24}code{background:#f1f3f5;padding:0 .25rem;border-radius:4px;word-break:break-all}td,th{padding:.3rem .75rem .3rem 0;text-align:left;vertical-align:top}</style></head><body><h1>wallet-runtime devstack</h1><p>The demo app is not built yet; the local stack is up (started in ${config.startupMs} ms, pid ${config.pid}). Its runtime config is in <code>.devstack/runtime.json</code>.</p><table>${endpointRows(
    config
  )
    .map(([label, value]) => `<tr><th>${escapeHtml(label)}</th><td><code>${escapeHtml(value)}</code></td></tr>`)
    .join("")}</table></body></html>`
