/** A running part of the local stack: what it exposes, and how to stop it (idempotent, waits until ports are free). */
export interface Started<Info> {
  readonly info: Info
  readonly stop: () => Promise<void>
}
