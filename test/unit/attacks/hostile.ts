/** Values a hostile script hands over, shared by the attack tests. */

const refuse = () => {
  throw new Error("hostile read")
}

/** A Proxy (over an object, or an array with `[]`) that throws on every read, key listing and prototype lookup. */
export const throwingProxy = (target: object = {}): object =>
  new Proxy(target, { get: refuse, has: refuse, ownKeys: refuse, getOwnPropertyDescriptor: refuse, getPrototypeOf: refuse })
