/**
 * The eip155 adapter of a browser page: the wallets the page announces (EIP-6963) or injects, and reads through the
 * product's RPC transport (the host's RPCs first, ranked by latency and stability).
 */
import { Effect, type Scope } from "effect"
import { Config } from "../Config"
import { RpcTransport } from "../RpcTransport/RpcTransport"
import { type Eip155Adapter, makeEip155Adapter } from "./Eip155Adapter"
import { makeBrowserDirectory } from "./ProviderDirectory"

/** The eip155 adapter over the page's wallets and the RPC transport. */
export const eip155BrowserAdapter: Effect.Effect<Eip155Adapter, never, Scope.Scope | Config | RpcTransport> = Effect.gen(
  function* () {
    const config = yield* Config
    const transport = yield* RpcTransport
    const directory = yield* makeBrowserDirectory({ enableEIP6963: config.enableEIP6963 })
    return yield* makeEip155Adapter({
      directory,
      reads: (network, method, params) => transport.request(network, { method, params })
    })
  }
)
