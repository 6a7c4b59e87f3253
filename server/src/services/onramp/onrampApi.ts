/**
 * The on-ramp endpoints (`src/domain/http/onramp.ts`) over the services' `OnrampProvider`: its options, quotes and page
 * URL in the declared shapes, its refusals a 400 in its words. A server without an on-ramp provider answers each
 * endpoint with the declared 501, after the usual project check and input decoding.
 */
import { Effect, Option } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { BadRequest, NotImplemented } from "../../../../src/domain/http/errors"
import { ServicesApi } from "../../../../src/domain/http/ServicesApi"
import { OnrampProvider } from "./OnrampProvider"

const absent = () => Effect.fail(new NotImplemented({ error: "On-ramp is not available on this server" }))
const refused = (error: { readonly reason: string }) => new BadRequest({ error: error.reason })

/** The on-ramp endpoints, answered by the `OnrampProvider` when the server has one. */
export const OnrampGroupLive = HttpApiBuilder.group(ServicesApi, "onramp", (handlers) =>
  Effect.map(Effect.serviceOption(OnrampProvider), (found) =>
    Option.match(found, {
      onNone: () => handlers.handle("url", absent).handle("options", absent).handle("quote", absent),
      onSome: (provider) =>
        handlers
          .handle("url", ({ payload }) => Effect.map(Effect.mapError(provider.url(payload), refused), (url) => ({ url })))
          .handle("options", () => provider.options)
          .handle("quote", ({ payload }) => Effect.mapError(provider.quote(payload), refused))
    })
  )
)
