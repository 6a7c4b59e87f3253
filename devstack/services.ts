/**
 * The services server of the local stack: the server's services (`server/src/services`) with the local world's data
 * — the dev projects, the prices of the first local chain's Uniswap v2 pools (`evm/poolPrices.ts`), the generated
 * catalogue (`catalogue.ts`), the `.wallet.test` names with their seed names (`names.ts`), the analytics events
 * readable back — plus the test wallet page at `/test-wallet/` (a real WalletConnect wallet over the dev accounts)
 * built from `devstack/wallet/page/`. Tests and `startDevstack` start
 * the services through here.
 */
import type { Started } from "../server/src/lib/Started"
import { fixedPrices, LOCAL_USD_PRICES } from "../server/src/services/prices"
import { poolPrices } from "./evm/poolPrices"
import { liquidityAccount } from "./evm/uniswap"
import { startOnrampPage } from "./onramp/index"
import { localOnrampProvider } from "../server/src/services/onramp/local"
import { ONRAMP_DEFAULT_SETTINGS } from "../server/src/config/schema"
import { devProjects } from "../server/src/services/projects"
import { type ServicesInfo as ServerServicesInfo, type ServicesOptions, startServices as startServerServices } from "../server/src/services/index"
import { makeCatalogue } from "./catalogue"
import type { DevAccount } from "./evm/accounts"
import type { EvmChain } from "./evm/index"
import { devNames } from "./names"
import { makePageBuilder } from "./wallet/page/build"
import { testWalletRoutes } from "./wallet/page/serve"

/** What the local stack's services expose: the server's info, and the test wallet page. */
export interface ServicesInfo extends ServerServicesInfo {
  /** The test wallet page (ends with `/`): the catalogue's "Devstack Test Wallet" entries link to it. */
  readonly testWalletUrl: string
  /** The local on-ramp's page (`onramp/`), when EVM chains run. */
  readonly onrampUrl: string | undefined
}

/** What the local stack's services need: the server's options (the local data by default), plus the test wallet page's. */
export interface DevServicesOptions extends Omit<ServicesOptions, "extraRoutes" | "extraPages" | "stopExtra" | "evm" | "catalogue" | "projects"> {
  /** The anvil chains and their dev accounts (the page signs with their keys; the first four hold the seed names). */
  readonly evm?: { readonly chains: ReadonlyArray<EvmChain>; readonly accounts: ReadonlyArray<DevAccount> }
  /** The projects (default the dev projects, `devProjects`). */
  readonly projects?: ServicesOptions["projects"]
  /** The WalletConnect relay the test wallet page connects to (`ws://…`). */
  readonly relayUrl?: string
  /**
   * Build the test wallet page at start when its sources changed since the last build (in a child process: the
   * start does not wait). Otherwise it is built on its first visit, so tests that never open it never build it.
   */
  readonly buildTestWalletAtStart?: boolean
}

const TEST_WALLET_PATH = "/test-wallet/"

/** Starts the services server with the local stack's data, serving the test wallet page at `/test-wallet/`. */
export const startServices = async (opts: DevServicesOptions = {}): Promise<Started<ServicesInfo>> => {
  const page = makePageBuilder()
  const projects = opts.projects ?? devProjects
  const chains = opts.evm?.chains ?? []
  const prices = chains[0] === undefined ? fixedPrices(LOCAL_USD_PRICES) : poolPrices(chains[0])
  // The local on-ramp's page, on an origin of its own, delivering on the local chains from the liquidity account.
  const onramp = chains.length === 0 ? undefined : await startOnrampPage({ chains })
  const started = await startServerServices({
    // The local stack's tests read the analytics events back; its projects are public.
    recordedEvents: true,
    listProjectsOnIndex: true,
    // The first local chain's pools price ETH and the stablecoins; without a chain, the fixed table.
    prices,
    ...(onramp === undefined
      ? {}
      : {
          onrampProvider: localOnrampProvider({
            pageUrl: onramp.info.url,
            prices,
            // The server's defaults (spec 9's fallback), delivering from the liquidity account.
            settings: { ...ONRAMP_DEFAULT_SETTINGS, depositors: [liquidityAccount.address] },
            assets: [
              { symbol: "ETH", name: "Ether", decimals: 18, networks: chains.map((c) => c.caipNetworkId) },
              { symbol: "WUSD", name: "Wallet Runtime USD", decimals: 6, networks: chains.map((c) => c.caipNetworkId) },
              { symbol: "WUSDT", name: "Wallet Runtime Tether", decimals: 6, networks: chains.map((c) => c.caipNetworkId) }
            ]
          })
        }),
    names: devNames(opts.evm?.accounts ?? []),
    ...opts,
    // Every local chain swaps through its own Uniswap v2 (`evm/uniswap.ts`).
    ...(opts.evm === undefined
      ? {}
      : { evm: { chains: opts.evm.chains.map((chain) => ({ ...chain, swap: { uniswapV2Router: chain.contracts.uniswap.router } })) } }),
    projects,
    catalogue: (baseUrl) =>
      makeCatalogue({
        imageBase: `${baseUrl}/getWalletImage`,
        testWalletUrl: `${baseUrl}${TEST_WALLET_PATH}`,
        ...(opts.solana === undefined ? {} : { localSolana: opts.solana.caipNetworkId })
      }),
    extraRoutes: () => {
      if (opts.buildTestWalletAtStart === true) page.latest()
      return testWalletRoutes(page, () => ({
        relayUrl: opts.relayUrl ?? null,
        projectId: projects[0]?.projectId ?? "",
        accounts: opts.evm?.accounts ?? [],
        chains: (opts.evm?.chains ?? []).map((chain) => ({
          chainId: chain.chainId,
          caipNetworkId: chain.caipNetworkId,
          rpcUrl: chain.rpcUrl
        })),
        solana: opts.solana === undefined ? undefined : { caipNetworkId: opts.solana.caipNetworkId, rpcUrl: opts.solana.rpcUrl }
      }))
    },
    extraPages: [[`GET ${TEST_WALLET_PATH}`, "the test wallet page: a WalletConnect wallet with the dev accounts"]],
    stopExtra: async () => {
      await Promise.all([page.stop(), onramp?.stop()])
    }
  }).catch(async (error: unknown) => {
    await onramp?.stop()
    throw error
  })
  return {
    info: { ...started.info, testWalletUrl: `${started.info.url}${TEST_WALLET_PATH}`, onrampUrl: onramp?.info.url },
    stop: started.stop
  }
}
