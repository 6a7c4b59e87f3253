import { Schema } from "effect"
import { CaipNetworkId } from "../../src/domain/Caip"
import type { Started } from "../../server/src/lib/Started"
import { type DevAccount, devAccounts } from "./accounts"
import { startAnvil } from "./anvil"
import { devChainIds } from "./chains"
import { type DevContracts, deployContracts } from "./deploy"

/** One running local EVM chain with its deployed contracts. */
export interface EvmChain {
  readonly chainId: number
  readonly caipNetworkId: CaipNetworkId
  readonly rpcUrl: string
  readonly pid: number
  readonly contracts: DevContracts
}

/** What the EVM part exposes: its chains and the funded dev accounts (the same on every chain). */
export interface EvmInfo {
  readonly chains: ReadonlyArray<EvmChain>
  readonly accounts: ReadonlyArray<DevAccount>
}

/** Starts one anvil per chain id (31337 and 31338 by default) and deploys the dev contracts on each. */
export const startEvm = async (opts: { readonly chainIds?: ReadonlyArray<number> } = {}): Promise<Started<EvmInfo>> => {
  const accounts = devAccounts()
  const chainIds = opts.chainIds ?? devChainIds
  const started = await Promise.allSettled(chainIds.map((chainId) => startAnvil({ chainId })))
  const running = started.flatMap((result) => (result.status === "fulfilled" ? [result.value] : []))
  const stop = async () => {
    await Promise.all(running.map((anvil) => anvil.stop()))
  }
  try {
    const failed = started.find((result) => result.status === "rejected")
    if (failed !== undefined) throw failed.reason
    const chains = await Promise.all(
      running.map(async ({ info }): Promise<EvmChain> => ({
        chainId: info.chainId,
        caipNetworkId: Schema.decodeSync(CaipNetworkId)(`eip155:${info.chainId}`),
        rpcUrl: info.rpcUrl,
        pid: info.pid,
        contracts: await deployContracts(info.chainId, info.rpcUrl, accounts)
      }))
    )
    return { info: { chains, accounts }, stop }
  } catch (error) {
    await stop()
    throw error
  }
}
