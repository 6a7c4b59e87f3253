/**
 * `promise`'s outcome, or the error `timedOut()` makes once `ms` have passed first. The timer is cleared when the
 * promise settles, so a finished wait keeps no process alive; the promise itself runs on (its caller stops what it
 * opens, if it must).
 *
 * @example
 * await within(server.listening, 5_000, () => new Error("the server did not listen within 5000 ms"))
 */
export const within = <A>(promise: Promise<A>, ms: number, timedOut: () => Error): Promise<A> =>
  new Promise<A>((resolve, reject) => {
    const timer = setTimeout(() => reject(timedOut()), ms)
    promise.then(
      (value) => {
        clearTimeout(timer)
        resolve(value)
      },
      (error: unknown) => {
        clearTimeout(timer)
        reject(error)
      }
    )
  })
