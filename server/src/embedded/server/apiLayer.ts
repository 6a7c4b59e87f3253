/** The wallet server's API on the app's router: every group's handlers behind the middlewares, with `/openapi.json`. */
import { Layer } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { WalletServerApi } from "../WalletServerApi"
import {
  FarcasterGroupLive,
  FarcasterRelayGroupLive,
  LoginGroupLive,
  ProjectGroupLive,
  ROUTE_TIMEOUT_MS,
  SessionGroupLive,
  SocialGroupLive
} from "./handlers"
import { ProjectCheckLive, SessionAuthLive, walletRequestErrorsLayer } from "./middleware"
import { KeyExportGroupLive } from "./exportGrants"
import { PasskeyGroupLive } from "./passkeys"
import { KeySharesGroupLive } from "./shares"

/** The wallet server's API on the app's router, with `/openapi.json`. Needs the {@link WalletServerEnv}. */
export const walletServerApiLayer = HttpApiBuilder.layer(WalletServerApi, { openapiPath: "/openapi.json" }).pipe(
  Layer.provide(
    Layer.mergeAll(LoginGroupLive, SocialGroupLive, FarcasterGroupLive, FarcasterRelayGroupLive, PasskeyGroupLive, SessionGroupLive, ProjectGroupLive, KeySharesGroupLive, KeyExportGroupLive).pipe(
      Layer.provide(Layer.mergeAll(ProjectCheckLive, SessionAuthLive, walletRequestErrorsLayer({ timeout: ROUTE_TIMEOUT_MS })))
    )
  )
)
