/**
 * On-ramp (`src/domain/http/onramp.ts`): this server has no on-ramp provider yet, so every one of its endpoints
 * answers the declared 501, in words, after the usual project check and input decoding. Swaps: `swaps/convertApi.ts`.
 */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { NotImplemented } from "../../../src/domain/http/errors"
import { ServicesApi } from "../../../src/domain/http/ServicesApi"

const onramp = () => Effect.fail(new NotImplemented({ error: "On-ramp is not available on this server" }))

/** The on-ramp endpoints, each a 501. */
export const OnrampGroupLive = HttpApiBuilder.group(ServicesApi, "onramp", (handlers) =>
  handlers.handle("url", onramp).handle("options", onramp).handle("quote", onramp)
)
