/** Atoms of the networks: requested and active networks, and the switch action. */
import { Effect } from "effect"
import * as AsyncResult from "effect/reactivity/AsyncResult"
import * as Atom from "effect/reactivity/Atom"
import type { CaipNetwork } from "../../domain/Network"
import { Networks, type NetworksState } from "../../services/Networks"
import { mapAtom, stateAtom, walletRuntimeAtom } from "./runtime"

/** The requested networks and the active one of each family. */
export const networksStateAtom = stateAtom(Effect.map(Networks, (n) => n.state))

/** The network in front (of the active family), once the runtime runs. */
export const activeNetworkAtom: Atom.Atom<CaipNetwork | undefined> = mapAtom(networksStateAtom, (result) => {
  const state: NetworksState | undefined = AsyncResult.getOrElse(result, () => undefined)
  return state?.active[state.activeNamespace]
})

/** The requested networks, in the host's order. */
export const requestedNetworksAtom: Atom.Atom<ReadonlyArray<CaipNetwork>> = mapAtom(networksStateAtom, (result) =>
  AsyncResult.getOrElse(AsyncResult.map(result, (state) => state.requested), () => [])
)

/** Switches to a network by CAIP-2 id. */
export const switchNetworkFn = walletRuntimeAtom.fn((caipNetworkId: string) =>
  Effect.flatMap(Networks, (networks) => networks.switchNetwork(caipNetworkId))
)
