/**
 * Reading a Bitcoin network through an Esplora-style HTTP API — the API of mempool.space and blockstream.info, and of
 * the devstack's regtest node — at the network's URLs (the host's `customRpcUrls` first): address UTXOs and stats,
 * a transaction's status, fee estimates, and broadcasting a raw transaction. Each attempt is bound in time; an
 * endpoint that cannot be reached or fails (5xx) gives way to the next; a 4xx is the node's answer and is final
 * (a refused transaction says why). Answers are decoded with Schemas.
 */
import { Duration, Effect, Schema } from "effect"
import * as HttpClient from "effect/http/HttpClient"
import * as HttpClientRequest from "effect/http/HttpClientRequest"
import type { CaipNetwork } from "../../domain/Network"
import { bodyProblemText, readTextCapped } from "../httpBody"
import { TaggedError } from "../../domain/taggedError"

/** One attempt at one endpoint gives up after this long. */
export const ESPLORA_ATTEMPT_TIMEOUT_MS = 10_000

/** No endpoint of the network answered. */
export class EsploraUnreachable extends TaggedError<EsploraUnreachable>()("EsploraUnreachable", {
  reason: Schema.String
}) {}

/** An endpoint answered with a refusal (4xx) or with something that is not the expected answer. */
export class EsploraAnswer extends TaggedError<EsploraAnswer>()("EsploraAnswer", {
  status: Schema.Number,
  body: Schema.String
}) {
  override get message() {
    return this.body
  }
}

/** Why an Esplora read failed. */
export type EsploraError = EsploraUnreachable | EsploraAnswer

/** A transaction's place in the chain. */
export const TxStatus = Schema.Struct({
  confirmed: Schema.Boolean,
  block_height: Schema.optionalKey(Schema.Number),
  block_hash: Schema.optionalKey(Schema.String)
})
/** A transaction's place in the chain. */
export type TxStatus = typeof TxStatus.Type

/** An unspent output of an address. */
export const Utxo = Schema.Struct({
  txid: Schema.String.pipe(Schema.check(Schema.isPattern(/^[0-9a-f]{64}$/))),
  vout: Schema.Number.pipe(Schema.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0))),
  value: Schema.Number.pipe(Schema.check(Schema.isInt(), Schema.isGreaterThanOrEqualTo(0))),
  status: TxStatus
})
/** An unspent output of an address. */
export type Utxo = typeof Utxo.Type

const Stats = Schema.Struct({ funded_txo_sum: Schema.Number, spent_txo_sum: Schema.Number })

/** What an address received and spent, in blocks and waiting. */
export const AddressStats = Schema.Struct({ chain_stats: Stats, mempool_stats: Stats })
/** What an address received and spent. */
export type AddressStats = typeof AddressStats.Type

/** Fee rates in sat/vB by confirmation target (blocks). */
export const FeeEstimates = Schema.Record(Schema.String, Schema.Number)

/** The Esplora reads of the bip122 family. */
export interface Esplora {
  readonly utxos: (network: CaipNetwork, address: string) => Effect.Effect<ReadonlyArray<Utxo>, EsploraError>
  /** The address's balance in satoshis, waiting transactions included. */
  readonly balance: (network: CaipNetwork, address: string) => Effect.Effect<bigint, EsploraError>
  readonly txStatus: (network: CaipNetwork, txid: string) => Effect.Effect<TxStatus, EsploraError>
  /** The fee rate (sat/vB) for a confirmation within a few blocks; at least 1. */
  readonly feeRate: (network: CaipNetwork) => Effect.Effect<number, EsploraError>
  /** Broadcasts a raw transaction (hex); the txid. */
  readonly broadcast: (network: CaipNetwork, hex: string) => Effect.Effect<string, EsploraError>
}

const MAX_ERROR_BODY = 300

/** An Esplora client over `http` at the URLs `urlsOf` gives for a network, tried in order. */
export const makeEsplora = (http: HttpClient.HttpClient, urlsOf: (network: CaipNetwork) => ReadonlyArray<string>): Esplora => {
  const attempt = (
    base: string,
    request: (url: string) => HttpClientRequest.HttpClientRequest,
    path: string
  ): Effect.Effect<string, EsploraError> => {
    const url = `${base.replace(/\/+$/, "")}${path}`
    return http.execute(request(url)).pipe(
      Effect.mapError((error) => new EsploraUnreachable({ reason: `${url}: ${error.message}` })),
      Effect.flatMap((response) =>
        readTextCapped(response).pipe(
          Effect.mapError((problem) => new EsploraUnreachable({ reason: `${url}: ${bodyProblemText(problem)}` })),
          Effect.flatMap((text): Effect.Effect<string, EsploraError> => {
            if (response.status >= 200 && response.status < 300) return Effect.succeed(text)
            if (response.status >= 500) return Effect.fail(new EsploraUnreachable({ reason: `${url}: HTTP ${response.status}` }))
            return Effect.fail(new EsploraAnswer({ status: response.status, body: text.slice(0, MAX_ERROR_BODY) }))
          })
        )
      ),
      Effect.timeoutOrElse({
        duration: Duration.millis(ESPLORA_ATTEMPT_TIMEOUT_MS),
        orElse: (): Effect.Effect<string, EsploraError> =>
          Effect.fail(new EsploraUnreachable({ reason: `${url}: no answer in ${ESPLORA_ATTEMPT_TIMEOUT_MS} ms` }))
      }),
      // Trace headers would turn every simple GET into a CORS preflight.
      Effect.provideService(HttpClient.TracerPropagationEnabled, false)
    )
  }

  /** The first endpoint that answers; a refusal (4xx) is an answer. */
  const call = (
    network: CaipNetwork,
    request: (url: string) => HttpClientRequest.HttpClientRequest,
    path: string
  ): Effect.Effect<string, EsploraError> =>
    Effect.suspend((): Effect.Effect<string, EsploraError> => {
      const urls = urlsOf(network)
      if (urls.length === 0) return Effect.fail(new EsploraUnreachable({ reason: `${network.name} has no Bitcoin API URL` }))
      const [first, ...rest] = urls
      return rest.reduce(
        (previous: Effect.Effect<string, EsploraError>, url) =>
          // catchIf, not catchTag: see BitcoinAdapter's waitForTransaction (catchTag would join every host's first click).
          Effect.catchIf(previous, (error) => error._tag === "EsploraUnreachable", () => attempt(url, request, path)),
        attempt(first!, request, path)
      )
    })

  const get = <A>(network: CaipNetwork, path: string, schema: Schema.Codec<A, unknown>) =>
    call(network, (url) => HttpClientRequest.get(url), path).pipe(
      Effect.flatMap((text) =>
        Schema.decodeUnknownEffect(Schema.fromJsonString(schema))(text).pipe(
          Effect.mapError((issue) => new EsploraAnswer({ status: 200, body: `Unexpected answer for ${path}: ${issue.message}`.slice(0, MAX_ERROR_BODY) }))
        )
      )
    )

  return {
    utxos: (network, address) => get(network, `/address/${encodeURIComponent(address)}/utxo`, Schema.Array(Utxo)),
    balance: (network, address) =>
      Effect.map(get(network, `/address/${encodeURIComponent(address)}`, AddressStats), (stats) =>
        BigInt(stats.chain_stats.funded_txo_sum - stats.chain_stats.spent_txo_sum + stats.mempool_stats.funded_txo_sum - stats.mempool_stats.spent_txo_sum)
      ),
    txStatus: (network, txid) => get(network, `/tx/${encodeURIComponent(txid)}/status`, TxStatus),
    feeRate: (network) =>
      Effect.map(get(network, "/fee-estimates", FeeEstimates), (rates) => {
        // The rate for the next few blocks: target 3 when given, else the nearest target above it, else 1 sat/vB.
        const targets = Object.keys(rates).map(Number).filter((target) => Number.isFinite(target)).sort((a, b) => a - b)
        const target = targets.find((t) => t >= 3) ?? targets[targets.length - 1]
        const rate = target === undefined ? 1 : (rates[String(target)] ?? 1)
        return Math.max(1, rate)
      }),
    broadcast: (network, hex) =>
      call(network, (url) => HttpClientRequest.post(url).pipe(HttpClientRequest.bodyText(hex, "text/plain")), "/tx").pipe(
        Effect.map((text) => text.trim())
      )
  }
}
