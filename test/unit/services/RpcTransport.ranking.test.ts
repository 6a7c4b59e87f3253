import { describe, expect, it } from "vitest"
import {
  addSample,
  answered,
  DEFAULT_RANKING,
  failed,
  rank,
  type Sample,
  scoreOf
} from "../../../src/services/RpcTransport/ranking"

const times = (n: number, sample: Sample): Array<Sample> => Array.from({ length: n }, () => sample)
const addAnswer = (samples: ReadonlyArray<Sample>, sample: Sample) => addSample(samples, sample)

describe("RPC endpoint ranking: score = 0.7 × stability + 0.3 × (1 − latency / 1000 ms)", () => {
  it.each<[string, ReadonlyArray<Sample>, number, number, number | undefined]>([
    ["no sample yet: reachable, speed unknown", [], 0.7, 1, undefined],
    ["always answered instantly", times(10, answered(0)), 1, 1, 0],
    ["always answered in 100 ms", times(10, answered(100)), 0.97, 1, 100],
    ["always answered in 500 ms", times(10, answered(500)), 0.85, 1, 500],
    ["answers as slow as the time-out are worth no latency", times(10, answered(1000)), 0.7, 1, 1000],
    ["slower than the time-out counts as the time-out", times(3, answered(4000)), 0.7, 1, 4000],
    ["only failures", times(10, failed), 0, 0, undefined],
    ["half failed, the rest in 200 ms", [...times(5, failed), ...times(5, answered(200))], 0.59, 0.5, 200],
    ["latency is the mean of the answers only", [answered(100), failed, answered(300), failed], 0.35 + 0.24, 0.5, 200],
    ["nine answers in 50 ms and one failure", [...times(9, answered(50)), failed], 0.63 + 0.285, 0.9, 50]
  ])("%s", (_, samples, score, stability, latencyMs) => {
    const result = scoreOf(samples)
    expect(result.score).toBeCloseTo(score, 10)
    expect(result.stability).toBeCloseTo(stability, 10)
    expect(result.latencyMs).toBe(latencyMs)
  })

  it("keeps the last 10 samples, dropping the oldest", () => {
    let samples: ReadonlyArray<Sample> = []
    for (let i = 1; i <= 12; i++) samples = addSample(samples, answered(i))
    expect(samples).toHaveLength(DEFAULT_RANKING.sampleCount)
    expect(samples[0]).toEqual(answered(3))
    expect(samples.at(-1)).toEqual(answered(12))
    expect(scoreOf(addSample(samples, failed)).stability).toBeCloseTo(0.9, 10)
  })

  const order = (endpoints: ReadonlyArray<{ url: string; samples: ReadonlyArray<Sample> }>) =>
    rank(endpoints).map((endpoint) => endpoint.url)

  it.each<[string, ReadonlyArray<{ url: string; samples: ReadonlyArray<Sample> }>, ReadonlyArray<string>]>([
    ["nothing sampled: the configured order", [{ url: "a", samples: [] }, { url: "b", samples: [] }, { url: "c", samples: [] }], ["a", "b", "c"]],
    [
      "equal scores keep the configured order",
      [{ url: "a", samples: [answered(20)] }, { url: "b", samples: [answered(20)] }],
      ["a", "b"]
    ],
    [
      "the faster of two stable endpoints first",
      [{ url: "slow", samples: times(5, answered(400)) }, { url: "fast", samples: times(5, answered(40)) }],
      ["fast", "slow"]
    ],
    [
      "a dead primary falls below an unsampled secondary",
      [{ url: "dead", samples: [failed] }, { url: "unknown", samples: [] }],
      ["unknown", "dead"]
    ],
    [
      "an answering endpoint stays above an unsampled one",
      [{ url: "unknown", samples: [] }, { url: "answering", samples: [answered(900)] }],
      ["answering", "unknown"]
    ],
    [
      "stability outweighs speed: one failure in ten costs more than 200 ms",
      [
        { url: "fast-flaky", samples: [...times(9, answered(10)), failed] },
        { url: "slower-stable", samples: times(10, answered(200)) }
      ],
      ["slower-stable", "fast-flaky"]
    ],
    [
      "a stable but slow endpoint beats a fast one failing half the time",
      [
        { url: "flaky", samples: [...times(5, answered(1)), ...times(5, failed)] },
        { url: "slow", samples: times(10, answered(900)) }
      ],
      ["slow", "flaky"]
    ],
    [
      "a primary that answered its last 10 pings has its older failures forgotten",
      [
        { url: "recovered", samples: times(10, answered(30)).reduce(addAnswer, times(10, failed) as ReadonlyArray<Sample>) },
        { url: "other", samples: times(10, answered(60)) }
      ],
      ["recovered", "other"]
    ]
  ])("%s", (_, endpoints, expected) => {
    expect(order(endpoints)).toEqual(expected)
  })

  it("reports each endpoint's score and configured place", () => {
    const ranked = rank([
      { url: "a", samples: [failed] },
      { url: "b", samples: [answered(0)] }
    ])
    expect(ranked).toEqual([
      { url: "b", samples: [answered(0)], score: 1, stability: 1, latencyMs: 0, configuredIndex: 1 },
      { url: "a", samples: [failed], score: 0, stability: 0, latencyMs: undefined, configuredIndex: 0 }
    ])
  })
})
