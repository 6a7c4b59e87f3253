/**
 * When one more request fits a visitor limit's sliding minute (`nextFitsAt` of
 * `server/src/embedded/server/visitorLimits.ts`), the moment a refusal's `Retry-After` names: for each count, one
 * request at that moment fits as the database weighs it (the window's requests, one more, and the window before it by
 * the part of it left), and one a millisecond earlier does not.
 */
import { describe, expect, it } from "@effect/vitest"
import type { WindowCount } from "../../../server/src/embedded/server/store"
import { nextFitsAt } from "../../../server/src/embedded/server/visitorLimits"

const W = 60_000
const T = 1_800_000_000_000

// The database's weighing (`store.countRequest`), written out for one request at `at`.
const fits = (count: WindowCount, at: number, limit: number): boolean => {
  const elapsed = at - count.windowStart.getTime()
  if (elapsed < W) return count.previousHits * (W - elapsed) + (count.hits + 1) * W <= limit * W
  if (elapsed < 2 * W) return count.hits * (2 * W - elapsed) + W <= limit * W
  return true
}

const count = (previousHits: number, hits: number): WindowCount => ({ windowStart: new Date(T), previousHits, hits })

describe("nextFitsAt", () => {
  it.each([
    { what: "the limit's worth at the window's start: (limit - 1) / limit of the next window", previous: 0, hits: 4, limit: 4, after: W + 15_000 },
    { what: "a limit of 3 at once", previous: 0, hits: 3, limit: 3, after: W + 20_000 },
    { what: "a limit of 1: two whole windows", previous: 0, hits: 1, limit: 1, after: 2 * W },
    { what: "the last window full, none of this one's yet: once it weighs one less", previous: 4, hits: 0, limit: 4, after: 15_000 },
    { what: "the last window full, two of this one's: once it weighs a quarter", previous: 4, hits: 2, limit: 4, after: 45_000 },
    { what: "the last window full, three of this one's: the next window's start", previous: 4, hits: 3, limit: 4, after: W },
    { what: "an uneven weight, rounded to the next millisecond", previous: 7, hits: 1, limit: 4, after: 42_858 }
  ])("$what", ({ previous, hits, limit, after }) => {
    const at = nextFitsAt(count(previous, hits), limit, W)
    expect(at - T).toBe(after)
    expect(fits(count(previous, hits), at, limit)).toBe(true)
    expect(fits(count(previous, hits), at - 1, limit)).toBe(false)
  })
})
