/**
 * The injected Solana test wallet of the browser tests: keys and signing stay in Node (the devstack's Solana test
 * wallet over the local Solana RPC); every page of the context gets `wallet-runtime/testing`'s Wallet Standard Solana
 * wallet, registered before any page script runs, over a backend that forwards each call to Node. Bytes cross as
 * base64; errors are rethrown in the page as a `WalletStandardError` with their code.
 */
import type { BrowserContext } from "playwright-core"
import {
  makeSolanaTestWallet,
  type SolanaTestWallet,
  type SolanaTestWalletOptions
} from "../../../devstack/wallet/solana/testWallet"
import { base64Of, bytesOf, installPageWallet, noMethod } from "./pageWallet"

// The page half: the Wallet Standard object over a backend that asks Node.
const body = (walletOptions: { readonly name?: string; readonly icon?: string }) => `
const backend = {
  connect: (silent) => call("connect", [silent]),
  disconnect: () => call("disconnect", []),
  signMessage: async (account, message) => fromBase64(await call("signMessage", [account, toBase64(message)])),
  signTransaction: async (account, transaction, chain) =>
    fromBase64(await call("signTransaction", [account, toBase64(transaction), chain ?? null])),
  signAndSendTransaction: async (account, transaction, chain, options) =>
    fromBase64(await call("signAndSendTransaction", [account, toBase64(transaction), chain, options ?? null])),
  onAccountsChanged: (listener) => { listeners.add(listener); return () => listeners.delete(listener) }
}
registerStandardWallet(createSolanaStandardWallet(backend, ${JSON.stringify(walletOptions)}))
`

// Runs one backend call the page forwarded; the arguments are what the page script above sends.
const run = async (wallet: SolanaTestWallet, method: string, args: ReadonlyArray<unknown>): Promise<unknown> => {
  const { backend } = wallet
  const [first, second, third, fourth] = args
  const account = String(first)
  switch (method) {
    case "connect":
      return backend.connect(first === true)
    case "disconnect":
      return backend.disconnect()
    case "signMessage":
      return base64Of(await backend.signMessage(account, bytesOf(second)))
    case "signTransaction":
      return base64Of(await backend.signTransaction(account, bytesOf(second), typeof third === "string" ? third : undefined))
    case "signAndSendTransaction":
      return base64Of(
        await backend.signAndSendTransaction(
          account,
          bytesOf(second),
          String(third),
          typeof fourth === "object" && fourth !== null ? fourth : undefined
        )
      )
    default:
      throw noMethod(method)
  }
}

/**
 * Installs the wallet in every page of the context (before any page script runs); returns the Node-side wallet.
 * `options` are the Node wallet's; its `name` (default "Solana Test Wallet") and `icon` are what the page shows.
 */
export const installInjectedSolanaWallet = async (
  context: BrowserContext,
  options: SolanaTestWalletOptions
): Promise<SolanaTestWallet> => {
  const wallet = makeSolanaTestWallet(options)
  await installPageWallet(context, {
    binding: "__wrSolanaWalletRequest",
    emit: "__wrSolanaWalletEmit",
    imports: ["createSolanaStandardWallet", "registerStandardWallet", "WalletStandardError"],
    toError: "(reply) => new WalletStandardError(reply.code, reply.message)",
    body: body({
      ...(options.name === undefined ? {} : { name: options.name }),
      ...(options.icon === undefined ? {} : { icon: options.icon })
    }),
    run: (method, args) => run(wallet, method, args),
    fallbackCode: -32603,
    subscribe: (emit) => wallet.backend.onAccountsChanged((accounts) => emit(accounts))
  })
  return wallet
}
