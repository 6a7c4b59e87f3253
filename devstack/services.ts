/**
 * The services server of the local stack: the server's services (`server/src/services`) plus what only the local
 * world has, the test wallet page at `/test-wallet/` (a real WalletConnect wallet over the dev accounts) built from
 * `devstack/wallet/page/`. Tests and `startDevstack` start the services through here.
 */
import type { Started } from "../server/src/lib/Started"
import { devProjects } from "../server/src/services/projects"
import { type ServicesInfo, type ServicesOptions, startServices as startServerServices } from "../server/src/services/index"
import type { DevAccount } from "./evm/accounts"
import type { EvmChain } from "./evm/index"
import { makePageBuilder } from "./wallet/page/build"
import { testWalletRoutes } from "./wallet/page/serve"

export type { ServicesInfo }

/** What the local stack's services need: the server's options, plus the test wallet page's. */
export interface DevServicesOptions extends Omit<ServicesOptions, "extraRoutes" | "stopExtra" | "evm"> {
  /** The anvil chains and their dev accounts (the page signs with their keys). */
  readonly evm?: { readonly chains: ReadonlyArray<EvmChain>; readonly accounts: ReadonlyArray<DevAccount> }
  /** The WalletConnect relay the test wallet page connects to (`ws://…`). */
  readonly relayUrl?: string
  /**
   * Build the test wallet page at start when its sources changed since the last build (in a child process: the
   * start does not wait). Otherwise it is built on its first visit, so tests that never open it never build it.
   */
  readonly buildTestWalletAtStart?: boolean
}

/** Starts the services server, serving the test wallet page at `/test-wallet/` unless `testWalletUrl` names another. */
export const startServices = (opts: DevServicesOptions = {}): Promise<Started<ServicesInfo>> => {
  // The local stack's tests read the analytics events back.
  if (opts.testWalletUrl !== undefined) return startServerServices({ recordedEvents: true, ...opts })
  const page = makePageBuilder()
  const projects = opts.projects
  return startServerServices({
    recordedEvents: true,
    ...opts,
    extraRoutes: () => {
      if (opts.buildTestWalletAtStart === true) page.latest()
      return testWalletRoutes(page, () => ({
        relayUrl: opts.relayUrl ?? null,
        projectId: (projects ?? devProjects)[0]?.projectId ?? "",
        accounts: opts.evm?.accounts ?? [],
        chains: (opts.evm?.chains ?? []).map((chain) => ({
          chainId: chain.chainId,
          caipNetworkId: chain.caipNetworkId,
          rpcUrl: chain.rpcUrl
        })),
        solana: opts.solana === undefined ? undefined : { caipNetworkId: opts.solana.caipNetworkId, rpcUrl: opts.solana.rpcUrl }
      }))
    },
    stopExtra: () => page.stop()
  })
}
