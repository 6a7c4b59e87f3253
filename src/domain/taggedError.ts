/**
 * Tagged error classes that are Schemas without paying for one until a Schema is used. `Schema.TaggedError` builds its
 * fields' struct when the class is defined and runs the struct's parser on every `new`: with some eighty errors
 * defined in modules every page loads, that is Schema code run and kept on the page (heap after the modal opens)
 * although an error is only encoded or decoded where it crosses a boundary (`CatalogueError`, a host's own codec).
 * Here `new` only assigns the fields, as `Data.TaggedError` does; the struct and the class's codec are built the first
 * time the class is used as a Schema (`ast`, encode, decode, `make`), once per class. Same `_tag`, `name`, fields,
 * message getters, yieldability and encoded form as before.
 */
import { Data, Effect, Option, Pipeable, Schema, SchemaTransformation } from "effect"
import type * as Cause from "effect/Cause"

/** The class `TaggedError` gives: `Schema.TaggedError`'s, but for `extend` (no error here is extended that way). */
export interface TaggedErrorClass<Self, Tag extends string, Fields extends Schema.Struct.Fields>
  extends Omit<Schema.Class<Self, Schema.TaggedStruct<Tag, Fields>, Cause.YieldableError>, "extend"> {
  new (
    ...args: {} extends Schema.TaggedStruct<Tag, Fields>["~type.make.in"]
      ? [props?: Schema.TaggedStruct<Tag, Fields>["~type.make.in"]]
      : [props: Schema.TaggedStruct<Tag, Fields>["~type.make.in"]]
  ): Schema.TaggedStruct<Tag, Fields>["Type"] & Cause.YieldableError
}

// What the shared statics read of the class they are called on (`this`: the error's own class).
type Props = { readonly [key: string]: unknown }

interface ErrorClassOf {
  new (props: Props): object
  readonly identifier: string
  readonly fields: Schema.Struct.Fields
}

interface Built {
  readonly struct: Schema.Struct<Schema.Struct.Fields>
  readonly codec: Schema.Top
}

const built = new WeakMap<ErrorClassOf, Built>()

// The key by which Effect recognises a Schema (`Schema.isSchema`); Schema keeps the constant to itself.
const SCHEMA_TYPE_ID = "~effect/Schema/Schema"


// The struct of `_tag` and the fields, and the class's codec over it (decoding makes an instance of the class), built
// on first use.
const buildOf = (self: ErrorClassOf): Built => {
  const known = built.get(self)
  if (known !== undefined) return known
  const struct = Schema.TaggedStruct(self.identifier, self.fields) as unknown as Schema.Struct<Schema.Struct.Fields>
  const instance = Schema.declare((input: unknown): input is object => input instanceof self, { identifier: self.identifier })
  const codec = struct.pipe(
    Schema.decodeTo(
      instance,
      SchemaTransformation.transform<object, Props>({ decode: (fields) => new self(fields), encode: (error) => error as Props })
    )
  )
  const made = { struct, codec }
  built.set(self, made)
  return made
}

// The statics every error class shares (reached through `this`, so each class's own codec is built once for it):
// what makes a class a Schema, lazily.
class LazyError extends Data.Error<Record<string, unknown>> {
  constructor(props?: object) {
    super({ _tag: (new.target as unknown as ErrorClassOf).identifier, ...props })
  }
  static readonly [SCHEMA_TYPE_ID] = SCHEMA_TYPE_ID
  static get ast() {
    return buildOf(this as unknown as ErrorClassOf).codec.ast
  }
  static pipe() {
    return Pipeable.pipeArguments(this, arguments)
  }
  static rebuild(ast: Schema.Top["ast"]) {
    return buildOf(this as unknown as ErrorClassOf).codec.rebuild(ast)
  }
  static annotate(annotations: Schema.Annotations.Bottom<unknown, readonly []>) {
    return buildOf(this as unknown as ErrorClassOf).codec.annotate(annotations)
  }
  static annotateKey(annotations: Schema.Annotations.Key<unknown>) {
    return buildOf(this as unknown as ErrorClassOf).codec.annotateKey(annotations)
  }
  static check(...checks: Parameters<Schema.Top["check"]>) {
    return buildOf(this as unknown as ErrorClassOf).codec.check(...checks)
  }
  static mapFields(f: (fields: Schema.Struct.Fields) => Schema.Struct.Fields, options?: { readonly unsafePreserveChecks?: boolean | undefined }) {
    return buildOf(this as unknown as ErrorClassOf).struct.mapFields(f, options)
  }
  // The constructors that check their input, as a Schema class's do: the fields through the struct, then the class.
  static make(input?: Props, options?: Schema.MakeOptions) {
    const self = this as unknown as ErrorClassOf
    return new self(buildOf(self).struct.make(input ?? {}, options))
  }
  static makeOption(input?: Props, options?: Schema.MakeOptions) {
    const self = this as unknown as ErrorClassOf
    return Option.map(buildOf(self).struct.makeOption(input ?? {}, options), (fields) => new self(fields))
  }
  static makeEffect(input?: Props, options?: Schema.MakeOptions) {
    const self = this as unknown as ErrorClassOf
    return Effect.map(buildOf(self).struct.makeEffect(input ?? {}, options), (fields) => new self(fields))
  }
}

/**
 * A tagged error class, used as `Schema.TaggedError` is; its Schema is built when first used as one.
 * @example class NotFound extends TaggedError<NotFound>()("NotFound", { id: Schema.String }) {}
 */
export const TaggedError =
  <Self>() =>
  <const Tag extends string, const Fields extends Schema.Struct.Fields>(tag: Tag, fields: Fields): TaggedErrorClass<Self, Tag, Fields> => {
    class Tagged extends LazyError {
      static readonly identifier = tag
      static readonly fields = fields
    }
    Tagged.prototype.name = tag
    // The statics above and LazyError's make it the class the type says; TypeScript cannot see through `this`.
    return Tagged as unknown as TaggedErrorClass<Self, Tag, Fields>
  }
