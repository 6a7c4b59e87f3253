/**
 * Swaps and on-ramp (`src/domain/http/convert.ts`, `onramp.ts`): this server has no swap or on-ramp provider yet, so
 * every one of their endpoints answers the declared 501, in words, after the usual project check and input decoding.
 */
import { Effect } from "effect"
import { HttpApiBuilder } from "effect/http-api"
import { NotImplemented } from "../../../src/domain/http/errors"
import { ServicesApi } from "../../../src/domain/http/ServicesApi"

const swaps = () => Effect.fail(new NotImplemented({ error: "Swaps are not available on this server" }))
const onramp = () => Effect.fail(new NotImplemented({ error: "On-ramp is not available on this server" }))

/** The swap endpoints, each a 501. */
export const ConvertGroupLive = HttpApiBuilder.group(ServicesApi, "convert", (handlers) =>
  handlers
    .handle("tokens", swaps)
    .handle("quotes", swaps)
    .handle("allowance", swaps)
    .handle("gasPrice", swaps)
    .handle("buildTransaction", swaps)
    .handle("buildApprove", swaps)
)

/** The on-ramp endpoints, each a 501. */
export const OnrampGroupLive = HttpApiBuilder.group(ServicesApi, "onramp", (handlers) =>
  handlers.handle("url", onramp).handle("options", onramp).handle("quote", onramp)
)
