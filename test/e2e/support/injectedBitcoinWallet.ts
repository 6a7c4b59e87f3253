/**
 * The injected Bitcoin test wallet of the browser tests: keys and signing stay in Node (the devstack's Bitcoin test
 * wallet over the regtest node); every page of the context gets `wallet-runtime/testing`'s Wallet Standard Bitcoin
 * wallet, registered before any page script runs, over a backend that forwards each call to Node. Bytes cross as
 * base64 and satoshis as decimal text; errors are rethrown in the page as a `WalletStandardError` with their code.
 */
import type { BrowserContext } from "playwright-core"
import { type BitcoinTestWallet, type BitcoinTestWalletOptions, makeBitcoinTestWallet } from "../../../devstack/wallet/bitcoin/testWallet"
import { base64Of, bytesOf, installPageWallet, noMethod } from "./pageWallet"

/** What the page shows of the wallet: its name, icon and the features it lacks. */
interface PageOptions {
  readonly name?: string
  readonly icon?: string
  readonly without?: ReadonlyArray<string>
}

// The page half: the Wallet Standard object over a backend that asks Node.
const body = (options: PageOptions) => `
const backend = {
  connect: (silent) => call("connect", [silent]),
  disconnect: () => call("disconnect", []),
  signMessage: async (address, message) => fromBase64(await call("signMessage", [address, toBase64(message)])),
  signPsbt: async (psbt, inputs, chain) =>
    fromBase64(await call("signPsbt", [toBase64(psbt), inputs.map((i) => ({ address: i.address, indexes: [...i.indexes], sigHash: i.sigHash ?? null })), chain])),
  sendTransfer: (address, recipients, chain) =>
    call("sendTransfer", [address, recipients.map((r) => ({ address: r.address, amount: String(r.amount) })), chain]),
  onAccountsChanged: (listener) => { listeners.add(listener); return () => listeners.delete(listener) }
}
registerStandardWallet(createBitcoinStandardWallet(backend, ${JSON.stringify(options)}))
`

// Runs one backend call the page forwarded; the arguments are what the page script above sends.
const run = async (wallet: BitcoinTestWallet, method: string, args: ReadonlyArray<unknown>): Promise<unknown> => {
  const { backend } = wallet
  const [first, second, third] = args
  switch (method) {
    case "connect":
      return backend.connect(first === true)
    case "disconnect":
      return backend.disconnect()
    case "signMessage":
      return base64Of(await backend.signMessage(String(first), bytesOf(second)))
    case "signPsbt": {
      const inputs = (Array.isArray(second) ? second : []).map((entry: { address: string; indexes: ReadonlyArray<number>; sigHash: number | null }) => ({
        address: entry.address,
        indexes: entry.indexes,
        ...(entry.sigHash === null ? {} : { sigHash: entry.sigHash })
      }))
      return base64Of(await backend.signPsbt(bytesOf(first), inputs, String(third)))
    }
    case "sendTransfer": {
      const recipients = (Array.isArray(second) ? second : []).map((entry: { address: string; amount: string }) => ({
        address: entry.address,
        amount: BigInt(entry.amount)
      }))
      return backend.sendTransfer(String(first), recipients, String(third))
    }
    default:
      throw noMethod(method)
  }
}

/**
 * Installs the wallet in every page of the context (before any page script runs); returns the Node-side wallet.
 * `options` are the Node wallet's; its `name` (default "Bitcoin Test Wallet"), `icon` and `without` are what the
 * page shows.
 */
export const installInjectedBitcoinWallet = async (context: BrowserContext, options: BitcoinTestWalletOptions): Promise<BitcoinTestWallet> => {
  const wallet = makeBitcoinTestWallet(options)
  await installPageWallet(context, {
    binding: "__wrBitcoinWalletRequest",
    emit: "__wrBitcoinWalletEmit",
    imports: ["createBitcoinStandardWallet", "registerStandardWallet", "WalletStandardError"],
    toError: "(reply) => new WalletStandardError(reply.code, reply.message)",
    body: body({
      ...(options.name === undefined ? {} : { name: options.name }),
      ...(options.icon === undefined ? {} : { icon: options.icon }),
      ...(options.without === undefined ? {} : { without: options.without })
    }),
    run: (method, args) => run(wallet, method, args),
    fallbackCode: -32603,
    subscribe: (emit) => wallet.backend.onAccountsChanged((addresses) => emit(addresses))
  })
  return wallet
}
