/**
 * The development test wallet: an in-page EIP-1193 wallet over the local chains, announced through EIP-6963 like a
 * browser extension, so a newcomer with no wallet extension can connect at once. Turned on from the demo's page; it
 * approves every prompt after asking the visitor with the browser's confirm dialog.
 */
import { makeTestWallet, readableMessage } from "../../devstack/wallet/testWallet"
import type { DemoStack } from "./config"

const describe = (method: string, params: unknown): string => {
  const list = Array.isArray(params) ? params : []
  if (method === "personal_sign" && typeof list[0] === "string") return `Sign this message?\n\n${readableMessage(list[0])}`
  if (method === "eth_sendTransaction") return `Send this transaction?\n\n${JSON.stringify(list[0], null, 2)}`
  if (method === "eth_requestAccounts") return "Connect the development wallet to this site?"
  return `Approve ${method}?`
}

/** Installs and announces the development wallet (call before the wallet runtime starts). */
export const installDevWallet = (stack: DemoStack): void => {
  const chains = stack.chains.map((chain) => ({ chainId: chain.chainId, name: `Local Chain ${chain.chainId}`, rpcUrl: chain.rpcUrl }))
  const wallet = makeTestWallet({
    privateKeys: stack.devPrivateKeys,
    chains,
    chainId: chains[0]?.chainId ?? 31337,
    identity: { name: "Dev Test Wallet", rdns: "dev.wallet-runtime.devwallet" },
    approve: (method, params) => (window.confirm(describe(method, params)) ? "approve" : "reject")
  })
  const announce = () =>
    window.dispatchEvent(
      new CustomEvent("eip6963:announceProvider", { detail: Object.freeze({ info: wallet.identity, provider: wallet }) })
    )
  window.addEventListener("eip6963:requestProvider", announce)
  announce()
}
