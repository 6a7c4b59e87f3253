/**
 * Endpoint ranking of the RPC transport (spec point 9, "Fallback transport"): each endpoint keeps its last 10
 * samples (a latency in milliseconds, or a failure), and is scored
 *
 *   score = 0.7 × stability + 0.3 × latencyScore
 *   stability    = successful samples / samples
 *   latencyScore = 1 − min(mean latency of the successful samples, reference) / reference, 0 without a success
 *
 * where `reference` is the ping time-out (1000 ms): an answer as slow as a time-out is worth no more than one.
 * Latency is scored against this fixed reference rather than against the slowest endpoint, so an endpoint's score
 * depends on its own samples only and a fast pair is not split as if one of them were slow.
 * An endpoint not sampled yet scores as reachable but of unknown speed (stability 1, latency score 0, i.e. 0.7):
 * below any endpoint that has answered, above one that has only failed.
 * Ranking sorts by score, highest first; equal scores keep the configured order. Pure: no clock, no I/O.
 */
import { RPC_PING_TIMEOUT_MS, RPC_RANKING_SAMPLE_COUNT, RPC_RANKING_WEIGHTS } from "../../domain/constants"

/** One observation of an endpoint: it answered after `latencyMs`, or it failed (error, time-out, bad answer). */
export type Sample = { readonly ok: true; readonly latencyMs: number } | { readonly ok: false }

/** A successful sample. */
export const answered = (latencyMs: number): Sample => ({ ok: true, latencyMs })
/** A failed sample. */
export const failed: Sample = { ok: false }

/** How samples are kept and scored. */
export interface RankingSettings {
  /** Samples kept per endpoint (the oldest is dropped first). */
  readonly sampleCount: number
  /** Latency worth a latency score of 0; the ping time-out. */
  readonly latencyReferenceMs: number
  /** Weights of stability and latency in the score; they sum to 1. */
  readonly weights: { readonly stability: number; readonly latency: number }
}

/** The spec's ranking: 10 samples, 1000 ms reference, stability 0.7 and latency 0.3. */
export const DEFAULT_RANKING: RankingSettings = {
  sampleCount: RPC_RANKING_SAMPLE_COUNT,
  latencyReferenceMs: RPC_PING_TIMEOUT_MS,
  weights: RPC_RANKING_WEIGHTS
}

/** The samples after `sample` was observed: the last `sampleCount` of them. */
export const addSample = (
  samples: ReadonlyArray<Sample>,
  sample: Sample,
  sampleCount: number = DEFAULT_RANKING.sampleCount
): ReadonlyArray<Sample> => [...samples, sample].slice(-sampleCount)

/** An endpoint's score and what it is made of. */
export interface Score {
  /** 0 (only failures) to 1 (always answered, instantly). */
  readonly score: number
  /** Share of samples that succeeded; 1 when there are none yet. */
  readonly stability: number
  /** Mean latency of the successful samples, if any. */
  readonly latencyMs: number | undefined
}

/** Scores one endpoint from its samples (formula in the module comment). */
export const scoreOf = (samples: ReadonlyArray<Sample>, settings: RankingSettings = DEFAULT_RANKING): Score => {
  const { stability: stabilityWeight, latency: latencyWeight } = settings.weights
  if (samples.length === 0) return { score: stabilityWeight, stability: 1, latencyMs: undefined }
  const latencies = samples.flatMap((sample) => (sample.ok ? [sample.latencyMs] : []))
  const stability = latencies.length / samples.length
  if (latencies.length === 0) return { score: 0, stability: 0, latencyMs: undefined }
  const latencyMs = latencies.reduce((sum, value) => sum + value, 0) / latencies.length
  const reference = settings.latencyReferenceMs
  const latencyScore = 1 - Math.min(Math.max(latencyMs, 0), reference) / reference
  return { score: stabilityWeight * stability + latencyWeight * latencyScore, stability, latencyMs }
}

/** An endpoint with its score and its place in the configured order. */
export type Ranked<E> = E & Score & { readonly configuredIndex: number }

/** Endpoints best first: highest score, ties in the configured (input) order. */
export const rank = <E extends { readonly samples: ReadonlyArray<Sample> }>(
  endpoints: ReadonlyArray<E>,
  settings: RankingSettings = DEFAULT_RANKING
): ReadonlyArray<Ranked<E>> =>
  endpoints
    .map((endpoint, configuredIndex): Ranked<E> => ({ ...endpoint, ...scoreOf(endpoint.samples, settings), configuredIndex }))
    .sort((a, b) => b.score - a.score || a.configuredIndex - b.configuredIndex)
