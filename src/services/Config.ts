/**
 * Config: the host options after decoding, every default applied. Every service reads options from here, never
 * from the raw object the host passed.
 */
import { Context, Layer } from "effect"
import type { ChainNamespace } from "../domain/Caip"
import type { CaipNetwork } from "../domain/Network"
import type { HostOptions } from "../domain/Options"

/** The decoded host options. */
export class Config extends Context.Service<Config, HostOptions>()("wallet-runtime/Config") {
  /** Config from options that were already decoded. */
  static readonly layer = (options: HostOptions): Layer.Layer<Config> => Layer.succeed(Config)(options)
}

/** The requested networks of one chain family, in the host's order. */
export const networksOf = (options: Pick<HostOptions, "networks">, namespace: ChainNamespace): ReadonlyArray<CaipNetwork> =>
  options.networks.filter((network) => network.chainNamespace === namespace)

/** The chain families the host configured, in the order their first network appears. */
export const namespacesOf = (options: Pick<HostOptions, "networks">): ReadonlyArray<ChainNamespace> => [
  ...new Set(options.networks.map((network) => network.chainNamespace))
]
