/**
 * WalletConnect in the eip155 family: its connector joins the page's wallets in the provider directory, so the
 * eip155 adapter connects, restores, signs, sends, switches and disconnects through the session as through any
 * EIP-1193 wallet.
 */
import { Effect, Option, type Scope, Stream, SubscriptionRef } from "effect"
import type { ConnectorInfo } from "../../domain/Wallet"
import { Config } from "../Config"
import { type Eip155Adapter, makeEip155Adapter, type ReadRpc } from "../eip155/Eip155Adapter"
import { makeBrowserDirectory, type ProviderDirectory } from "../eip155/ProviderDirectory"
import { RpcTransport } from "../RpcTransport/RpcTransport"
import { WalletConnect } from "./WalletConnect"

/** The directory's wallets plus WalletConnect (first, as spec point 9 orders connectors) when it is configured. */
export const withWalletConnect = (
  directory: ProviderDirectory,
  walletConnect: WalletConnect["Service"]
): Effect.Effect<ProviderDirectory, never, Scope.Scope> =>
  Effect.gen(function* () {
    const wc = walletConnect.connector
    if (wc === undefined) return directory
    const merged = (list: ReadonlyArray<ConnectorInfo>): ReadonlyArray<ConnectorInfo> => [wc, ...list.filter((c) => c.id !== wc.id)]
    const connectors = yield* SubscriptionRef.make<ReadonlyArray<ConnectorInfo>>(merged(yield* SubscriptionRef.get(directory.connectors)))
    yield* SubscriptionRef.changes(directory.connectors).pipe(
      Stream.runForEach((list) => SubscriptionRef.set(connectors, merged(list))),
      Effect.forkScoped
    )
    const result: ProviderDirectory = {
      connectors,
      provider: (id: string) => (id === wc.id ? Option.some(walletConnect.provider) : directory.provider(id))
    }
    return result
  })

/** The eip155 adapter over a directory plus WalletConnect, reading through `reads`. */
export const makeEip155AdapterWithWalletConnect = (options: {
  readonly directory: ProviderDirectory
  readonly reads: ReadRpc
}): Effect.Effect<Eip155Adapter, never, Scope.Scope | WalletConnect> =>
  Effect.gen(function* () {
    const walletConnect = yield* WalletConnect
    const directory = yield* withWalletConnect(options.directory, walletConnect)
    return yield* makeEip155Adapter({ directory, reads: options.reads })
  })

/**
 * The browser's eip155 adapter with WalletConnect: the page's wallets, WalletConnect, and reads through the RPC
 * transport. It replaces `eip155BrowserAdapter` where the runtime provides the `WalletConnect` service.
 */
export const eip155BrowserAdapterWithWalletConnect: Effect.Effect<
  Eip155Adapter,
  never,
  Scope.Scope | Config | RpcTransport | WalletConnect
> = Effect.gen(function* () {
  const config = yield* Config
  const transport = yield* RpcTransport
  const directory = yield* makeBrowserDirectory({ enableEIP6963: config.enableEIP6963 })
  return yield* makeEip155AdapterWithWalletConnect({
    directory,
    reads: (network, method, params) => transport.request(network, { method, params })
  })
})
