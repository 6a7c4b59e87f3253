/**
 * How the API's handlers run the services' promise-based reads of the chains (balances, the index, token metadata,
 * Solana): a refusal they throw on purpose (a `BadRequest` for a cursor the service did not give) is the route's
 * failure, a chain's node that fails a 502, and anything else a defect — a database failure among them, which the
 * API answers with a 503 (`RequestErrors`).
 */
import { Effect } from "effect"
import { BadGateway, BadRequest } from "../../../src/domain/http/errors"
import { isNodeFailure, type JsonRpcError, NodeUnreachable } from "../lib/jsonRpc"

// The 502 of a chain whose node failed, saying why without the node's URL.
const chainFailed = (error: NodeUnreachable | JsonRpcError): BadGateway =>
  new BadGateway({
    error:
      error instanceof NodeUnreachable
        ? `The chain's node could not be read: ${error.reason}`
        : `The chain's node answered an error: ${error.message}`
  })

/** Runs `read` (a promise over the chains) as a route's effect; see the module's comment for what its failures become. */
export const readChains = <A>(read: () => Promise<A>): Effect.Effect<A, BadRequest | BadGateway> =>
  Effect.tryPromise({ try: read, catch: (error) => error }).pipe(
    Effect.catch((error) =>
      error instanceof BadRequest
        ? Effect.fail(error)
        : isNodeFailure(error)
          ? Effect.fail(chainFailed(error))
          : Effect.die(error)
    )
  )
