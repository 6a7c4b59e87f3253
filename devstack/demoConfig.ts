/**
 * What the demo page is told about the running stack, and how it is told: an inline script in its HTML (so the
 * page makes no request to learn its ports). Used by the demo's Vite dev server and by the static server of the
 * browser tests and benchmarks.
 */
import type { RuntimeConfig } from "./config"
import { EXPLORER_PATH } from "../server/src/services/explorerHtml"
import { devNameSuffix } from "./names"

/** The local Solana network as the demo page sees it. */
export interface DemoSolanaConfig {
  readonly caipNetworkId: string
  readonly rpcUrl: string
  /** Solana dev key 0 (base58 of its 64 bytes), for the development wallet: public knowledge, local use only. */
  readonly devSecretKey: string
  /** The test SPL tokens the local Solana RPC creates (mint address, name, symbol, decimals). */
  readonly tokens: ReadonlyArray<{ readonly address: string; readonly name: string; readonly symbol: string; readonly decimals: number }>
}

/** The part of the runtime config the demo page needs. */
export interface DemoStackConfig {
  readonly projectId: string
  readonly servicesUrl: string
  readonly rpcProxyUrl: string
  readonly relayUrl: string | null
  /** The embedded wallet's frame origin (`endpoints.frame`); null when the stack runs without it. */
  readonly frameUrl: string | null
  readonly chains: ReadonlyArray<{ readonly chainId: number; readonly rpcUrl: string }>
  readonly devPrivateKeys: ReadonlyArray<string>
  /** Null when the stack runs without its Solana part. */
  readonly solana: DemoSolanaConfig | null
  /** The suffix of the local names service's account names (the runtime's `nameSuffix` option). */
  readonly nameSuffix: string
  /** The local block explorer: a network's explorer is `{explorerUrl}/{caip2}` (its `blockExplorers` entry). */
  readonly explorerUrl: string
  /** The regtest node (`bip122:0f9188f1…`, its Esplora-style API); null when the stack runs without its Bitcoin part. */
  readonly bitcoin: DemoBitcoinConfig | null
}

/** The local regtest node as the demo page sees it. */
export interface DemoBitcoinConfig {
  readonly caipNetworkId: string
  readonly url: string
  /** Bitcoin dev key 0 (funded at start), for the development wallet: public knowledge, local use only. */
  readonly devKey: DemoBitcoinDevKey | null
}

/** A Bitcoin dev key set as the development wallet holds it (hex keys, regtest addresses). */
export interface DemoBitcoinDevKey {
  readonly paymentPrivateKey: string
  readonly paymentPublicKey: string
  readonly paymentAddress: string
  readonly ordinalsPrivateKey: string
  readonly ordinalsPublicKey: string
  readonly ordinalsAddress: string
}

const demoBitcoin = (bitcoin: RuntimeConfig["bitcoin"]): DemoBitcoinConfig | null => {
  if (bitcoin === undefined || bitcoin === null) return null
  const key = bitcoin.funded[0]
  return {
    caipNetworkId: bitcoin.caipNetworkId,
    url: bitcoin.url,
    devKey:
      key === undefined
        ? null
        : {
            paymentPrivateKey: key.paymentPrivateKey,
            paymentPublicKey: key.paymentPublicKey,
            paymentAddress: key.paymentAddress,
            ordinalsPrivateKey: key.ordinalsPrivateKey,
            ordinalsPublicKey: key.ordinalsPublicKey,
            ordinalsAddress: key.ordinalsAddress
          }
  }
}

const demoSolana = (solana: RuntimeConfig["solana"]): DemoSolanaConfig | null => {
  const devKey = solana?.funded[0]
  if (solana === null || devKey === undefined) return null
  return {
    caipNetworkId: solana.caipNetworkId,
    rpcUrl: solana.rpcUrl,
    devSecretKey: devKey.secretKey,
    tokens: solana.tokens.map(({ address, name, symbol, decimals }) => ({ address, name, symbol, decimals }))
  }
}

/** The demo's view of a running stack (needs its EVM chains and services; Solana when it runs). */
export const demoStackConfig = (config: RuntimeConfig): DemoStackConfig => {
  if (config.evm === null || config.services === null) throw new Error("the demo needs the evm and services parts")
  return {
    projectId: config.services.defaultProjectId,
    servicesUrl: config.services.url,
    rpcProxyUrl: config.services.rpcProxyUrl,
    relayUrl: config.relay?.url ?? null,
    frameUrl: config.embedded?.frameUrl ?? null,
    chains: config.evm.chains.map((chain) => ({ chainId: chain.chainId, rpcUrl: chain.rpcUrl })),
    devPrivateKeys: config.evm.accounts.slice(0, 2).map((account) => account.privateKey),
    solana: demoSolana(config.solana),
    nameSuffix: devNameSuffix,
    explorerUrl: `${config.services.url}${EXPLORER_PATH}`,
    bitcoin: demoBitcoin(config.bitcoin)
  }
}

/** The marker in the demo's index.html that the config script replaces. */
export const DEMO_CONFIG_MARKER = "<!--devstack-config-->"

/**
 * The config as a JSON data block (`type="application/json"`, read by the page, never run): the page needs no inline
 * script, so it passes a strict `script-src 'self'`. `<` is escaped so no value can close the element.
 */
export const demoConfigScript = (stack: DemoStackConfig): string =>
  `<script type="application/json" id="devstack-config">${JSON.stringify(stack).replace(/</g, "\\u003c")}</script>`

/** The demo's HTML with the config injected. */
export const injectDemoConfig = (html: string, stack: DemoStackConfig): string =>
  html.replace(DEMO_CONFIG_MARKER, demoConfigScript(stack))
