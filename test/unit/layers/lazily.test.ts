import { describe, expect, it } from "@effect/vitest"
import { Context, Effect, Layer, Ref } from "effect"
import { lazily } from "../../../src/layers/lazily"

class Built extends Context.Service<Built, Ref.Ref<number>>()("test/Built") {}

class Greeter extends Context.Service<
  Greeter,
  { readonly greet: (name: string) => Effect.Effect<string>; readonly count: Effect.Effect<number> }
>()("test/Greeter") {}

// A Greeter whose building is counted in `Built`, and whose calls are counted by the instance built.
const counted = Layer.effect(Greeter)(
  Effect.gen(function* () {
    yield* Ref.update(yield* Built, (n) => n + 1)
    const calls = yield* Ref.make(0)
    return {
      greet: (name: string) => Effect.as(Ref.update(calls, (n) => n + 1), `hello ${name}`),
      count: Ref.get(calls)
    }
  })
)

describe("lazily", () => {
  it.effect("builds the service on the first use of a member, once, and forwards every member to that one", () =>
    Effect.gen(function* () {
      const built = yield* Ref.make(0)
      const context = yield* Layer.build(lazily(Greeter, counted, { greet: 1, count: 0 }).pipe(Layer.provide(Layer.succeed(Built, built))))
      const greeter = Context.get(context, Greeter)
      expect(yield* Ref.get(built)).toBe(0)
      expect(yield* greeter.greet("Ada")).toBe("hello Ada")
      expect(yield* Ref.get(built)).toBe(1)
      expect(yield* greeter.greet("Bo")).toBe("hello Bo")
      expect(yield* greeter.count).toBe(2)
      expect(yield* Ref.get(built)).toBe(1)
    }).pipe(Effect.scoped)
  )
})
