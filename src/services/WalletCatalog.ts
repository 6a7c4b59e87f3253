/**
 * WalletCatalog: the wallet list of the modal from `GET /getWallets` (spec 7.3). Nothing is asked before the list
 * is first needed (the modal opens); then pages of 40 arrive one at a time and a page once fetched is never
 * fetched again. Search trims the input and waits 300 ms after the last keystroke, then asks for up to 100.
 * The Connect view's 4 featured or recommended wallets put the host's `featuredWalletIds` first. The host's
 * include/exclude ids and custom wallets apply everywhere, and a wallet the visitor has installed (same id or
 * rdns as an injected or announced connector) appears once, as installed. When the service cannot be reached
 * the bundled list stands in, so the modal is never empty offline.
 *
 * The service's state is in the runtime's core from the start (the views read it); the code that fills it
 * (`WalletCatalogLive.ts`) is fetched with `import()` when the list is first needed, with its own call of
 * `GET /getWallets` (`catalogueWallets.ts`) rather than the services' derived client: the first open's critical path
 * fetches no further chunk before its first request (~0.3 MiB less heap).
 */
import { Context, Effect, Layer, Scope, SubscriptionRef } from "effect"
import type * as HttpClient from "effect/http/HttpClient"
import type { WalletCatalogEntry } from "../domain/Wallet"
import { catalogImageUrl } from "./catalogImages"
import { Config } from "./Config"
import type { Connectors } from "./connectors/Connectors"
import { generatedIcon } from "./generatedIcon"
import { lazyFront } from "./lazyFront"
import type { Notifications } from "./Notifications"
import {
  customWalletEntry,
  initialWalletCatalogState,
  type WalletCatalogLoader,
  type WalletCatalogService,
  type WalletCatalogState,
  type WalletListing
} from "./walletCatalogState"

export {
  type CatalogSource,
  customWalletEntry,
  initialWalletCatalogState,
  type WalletCatalogState,
  type WalletListing,
  type WalletSearchState
} from "./walletCatalogState"

/** The wallet catalogue. */
export class WalletCatalog extends Context.Service<WalletCatalog, WalletCatalogService>()("wallet-runtime/WalletCatalog") {
  /**
   * The catalogue at `Config.endpoints.walletCatalog`, over the HttpClient in context. Its state and icon URLs exist
   * from the start; the code that fills them is fetched on the first load, search or preload, with the services it
   * needs taken now.
   */
  static readonly layer: Layer.Layer<WalletCatalog, never, Config | Notifications | Connectors | HttpClient.HttpClient> =
    Layer.effect(WalletCatalog)(
      Effect.gen(function* () {
        const config = yield* Config
        const baseUrl = config.endpoints.walletCatalog
        const projectId = config.projectId

        const imageUrl = (wallet: WalletCatalogEntry): string | undefined => {
          if (wallet.image_url !== undefined && wallet.image_url !== "") return wallet.image_url
          if (wallet.image_id === "") return undefined
          return catalogImageUrl(baseUrl, projectId, "/getWalletImage", wallet.image_id)
        }

        const custom = (config.customWallets ?? []).map(customWalletEntry)
        const customListings: ReadonlyArray<WalletListing> = custom.map((wallet) => ({
          wallet,
          imageUrl: wallet.image_url ?? generatedIcon(wallet.id, wallet.name),
          installed: undefined
        }))

        const state = yield* SubscriptionRef.make<WalletCatalogState>({ ...initialWalletCatalogState, custom: customListings })
        const { front } = yield* lazyFront<WalletCatalogLoader, Config | Notifications | Connectors | HttpClient.HttpClient | Scope.Scope>(
          Effect.flatMap(
            Effect.promise(() => import("./WalletCatalogLive")),
            (module) => module.makeWalletCatalog({ state, imageUrl, customListings })
          ),
          { load: 0, loadNextPage: 0, search: 1, preloadImage: 1 }
        )
        return { ...front, state, imageUrl }
      })
    )
}
