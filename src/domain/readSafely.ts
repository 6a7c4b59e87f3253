/**
 * Reading what a host handed over before it is decoded: a throwing getter or a revoked Proxy must not break the
 * page, only give way to a fallback (the decode then says what is wrong, as a typed error). Pure, no Effect, so the
 * React shell may use it before the runtime's code is there.
 */

/** `read()`, or `fallback` when reading throws. */
export const readSafely = <A>(read: () => A, fallback: A): A => {
  try {
    return read()
  } catch {
    return fallback
  }
}
