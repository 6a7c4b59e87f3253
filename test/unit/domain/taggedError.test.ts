import { describe, expect, it } from "@effect/vitest"
import { Effect, Exit, Option, Schema } from "effect"
import { TaggedError } from "../../../src/domain/taggedError"

class Refused extends TaggedError<Refused>()("Refused", {
  code: Schema.Number,
  reason: Schema.optionalKey(Schema.String)
}) {
  override get message() {
    return `Refused (${this.code})`
  }
}

class Empty extends TaggedError<Empty>()("Empty", {}) {}

describe("TaggedError", () => {
  it("makes errors with their tag, name, fields and message, as Schema.TaggedError's do", () => {
    const error = new Refused({ code: 4001 })
    expect(error).toBeInstanceOf(Error)
    expect(error._tag).toBe("Refused")
    expect(error.name).toBe("Refused")
    expect(error.code).toBe(4001)
    expect("reason" in error).toBe(false)
    expect(error.message).toBe("Refused (4001)")
    expect(new Empty()._tag).toBe("Empty")
  })

  it.effect("fails as a yieldable error", () =>
    Effect.gen(function* () {
      const error = yield* Effect.flip(Effect.gen(function* () {
        return yield* new Refused({ code: 1 })
      }))
      expect(error).toBeInstanceOf(Refused)
      expect(error.code).toBe(1)
    })
  )

  it.effect("is its own Schema: encodes to its tag and fields, decodes to an instance of the class", () =>
    Effect.gen(function* () {
      expect(Schema.isSchema(Refused)).toBe(true)
      const encoded = yield* Schema.encodeEffect(Refused)(new Refused({ code: 5000, reason: "no" }))
      expect(encoded).toEqual({ _tag: "Refused", code: 5000, reason: "no" })
      const decoded = yield* Schema.decodeUnknownEffect(Refused)(JSON.parse(JSON.stringify(encoded)))
      expect(decoded).toBeInstanceOf(Refused)
      expect(decoded.message).toBe("Refused (5000)")
      expect(Schema.is(Refused)(decoded)).toBe(true)
      expect(Schema.is(Refused)({ _tag: "Refused", code: 5000 })).toBe(false)
      const wrong = yield* Effect.exit(Schema.decodeUnknownEffect(Refused)({ _tag: "Refused", code: "5000" }))
      expect(Exit.isFailure(wrong)).toBe(true)
    })
  )

  it.effect("is a member of unions, which tell the errors apart by their tag", () =>
    Effect.gen(function* () {
      const either = Schema.Union([Refused, Empty])
      expect(yield* Schema.decodeUnknownEffect(either)({ _tag: "Empty" })).toBeInstanceOf(Empty)
      expect(yield* Schema.decodeUnknownEffect(either)({ _tag: "Refused", code: 2 })).toBeInstanceOf(Refused)
    })
  )

  it("checks its input in make, makeOption and makeEffect, as a Schema class does", () => {
    expect(Refused.make({ code: 3 })).toBeInstanceOf(Refused)
    expect(() => Refused.make({ code: "3" } as never)).toThrow()
    expect(Option.isSome(Refused.makeOption({ code: 3 }))).toBe(true)
    expect(Option.isNone(Refused.makeOption({ code: "3" } as never))).toBe(true)
    expect(Exit.isFailure(Effect.runSyncExit(Refused.makeEffect({ code: "3" } as never)))).toBe(true)
  })
})
