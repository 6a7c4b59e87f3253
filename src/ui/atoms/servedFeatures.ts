/**
 * What the services serve on a network, for the Account view's feature buttons: whether their swap endpoints swap on
 * it and whether their on-ramp provider delivers on it (their lists in `/v1/supported-chains`, from the host's config,
 * asked once per runtime), so Swap and Buy show only where they can work.
 */
import { Effect } from "effect"
import * as Atom from "effect/reactivity/Atom"
import type { ServedFeatures } from "../../domain/accountFeatures"
import { onrampSupported, swapsSupported } from "../../domain/Api"
import { BlockchainApi } from "../../services/BlockchainApi"
import { walletRuntimeAtom } from "./runtime"

/** Neither Swap nor Buy: outside EVM, while unknown, or when the services cannot say. */
export const NOTHING_SERVED: ServedFeatures = { swaps: false, onramp: false }

/** What the services serve on a network (CAIP-2): `Initial` while unknown, {@link NOTHING_SERVED} when they cannot say. */
export const servedFeaturesAtom = Atom.family((caipNetworkId: string) =>
  Atom.withServerValueInitial(
    walletRuntimeAtom.atom(
      caipNetworkId.startsWith("eip155:")
        ? Effect.flatMap(BlockchainApi, (api) => api.supportedChains).pipe(
            Effect.map((chains): ServedFeatures => ({ swaps: swapsSupported(chains, caipNetworkId), onramp: onrampSupported(chains, caipNetworkId) })),
            Effect.orElseSucceed(() => NOTHING_SERVED)
          )
        : Effect.succeed(NOTHING_SERVED)
    )
  )
)
