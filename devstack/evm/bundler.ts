/**
 * The devstack's bundler: the server's own (`server/src/bundler`) on the local chains, submitting from the dev key
 * the EVM part funded, its paymaster sponsoring every operation up to 3 M gas.
 */
import { type BundlerInfo, startBundler } from "../../server/src/bundler/index"
import type { Started } from "../../server/src/lib/Started"
import type { EvmInfo } from "./index"

/** Starts the bundler on 127.0.0.1 (a port the OS chooses) for every chain of `evm`. */
export const startDevBundler = (evm: EvmInfo): Promise<Started<BundlerInfo>> => {
  const first = evm.chains[0]
  if (first === undefined) throw new Error("the bundler needs a local chain")
  const aa = first.contracts.accountAbstraction
  return startBundler({
    chains: evm.chains.map((chain) => ({ chainId: chain.chainId, rpcUrls: [chain.rpcUrl] })),
    entryPoint: aa.entryPoint,
    privateKey: aa.bundler.privateKey,
    paymaster: {
      address: aa.paymaster,
      signerKey: aa.paymasterSigner.privateKey,
      policy: { sponsor: "all", senders: [], maxGasPerOp: 3_000_000n },
      validForSeconds: 600
    }
  })
}
