/**
 * Reading an HTTP answer's body with a size cap: a service or RPC endpoint that sends more than we will ever need
 * (a hostile or broken one) fails the call instead of filling the visitor's memory. The cap is checked against the
 * declared `content-length` before anything is read, then against the bytes as they arrive, and reading stops there.
 */
import { Effect, Stream } from "effect"
import type * as HttpClientResponse from "effect/http/HttpClientResponse"

/** Answers of the hosted services and RPC endpoints are refused above this size (4 MiB). */
export const MAX_ANSWER_BYTES = 4 * 1024 * 1024

/** Why a body could not be read: too large (with the cap), or the transport failed while reading it. */
export type BodyProblem =
  | { readonly _tag: "TooLarge"; readonly maxBytes: number }
  | { readonly _tag: "Unreadable"; readonly message: string }

/** Whether a failure is a body problem (and not a transport or time-out error). */
export const isBodyProblem = (value: unknown): value is BodyProblem =>
  typeof value === "object" && value !== null && "_tag" in value && (value._tag === "TooLarge" || value._tag === "Unreadable")

const tooLarge = (maxBytes: number): BodyProblem => ({ _tag: "TooLarge", maxBytes })

/** The words for a problem, as they go into an error's reason. */
export const bodyProblemText = (problem: BodyProblem): string =>
  problem._tag === "TooLarge" ? `the answer is larger than ${problem.maxBytes} bytes` : problem.message

/** The body's bytes, or a problem once more than `maxBytes` are declared or received. */
export const readBytesCapped = (
  response: HttpClientResponse.HttpClientResponse,
  maxBytes: number = MAX_ANSWER_BYTES
): Effect.Effect<Uint8Array<ArrayBuffer>, BodyProblem> => {
  const declared = Number(response.headers["content-length"])
  if (Number.isFinite(declared) && declared > maxBytes) return Effect.fail(tooLarge(maxBytes))
  return response.stream.pipe(
    Stream.mapError((error): BodyProblem => ({ _tag: "Unreadable", message: error.message })),
    Stream.runFoldEffect(
      () => ({ chunks: [] as Array<Uint8Array>, size: 0 }),
      (read, chunk) => {
        read.size += chunk.byteLength
        if (read.size > maxBytes) return Effect.fail(tooLarge(maxBytes))
        read.chunks.push(chunk)
        return Effect.succeed(read)
      }
    ),
    Effect.map(({ chunks, size }) => {
      const bytes = new Uint8Array(size)
      let offset = 0
      for (const chunk of chunks) {
        bytes.set(chunk, offset)
        offset += chunk.byteLength
      }
      return bytes
    })
  )
}

/** The body as text, or a problem once more than `maxBytes` are declared or received. */
export const readTextCapped = (
  response: HttpClientResponse.HttpClientResponse,
  maxBytes: number = MAX_ANSWER_BYTES
): Effect.Effect<string, BodyProblem> =>
  Effect.map(readBytesCapped(response, maxBytes), (bytes) => new TextDecoder().decode(bytes))
