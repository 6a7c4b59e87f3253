/**
 * The sign-in sessions the local services keep, as the browser tests of sign-in with the wallet read them: asked of
 * the services with the demo's project and origin, as the demo's page would.
 */
import type { DevstackInfo } from "../../../devstack/main"

/** A session the services keep: its id and the message signed. */
export interface ServiceSession {
  readonly pci: string
  readonly message: string
}

/** The sessions the services of `stack` keep for `caipAddress` (CAIP-10), asked from the demo at `demoUrl`. */
export const serviceSessions = async (stack: DevstackInfo, demoUrl: string, caipAddress: string): Promise<ReadonlyArray<ServiceSession>> => {
  const services = stack.config.services
  if (services === null) throw new Error("the stack has no services")
  const response = await fetch(`${services.url}/v1/sessions/${encodeURIComponent(caipAddress)}?projectId=${services.defaultProjectId}`, {
    headers: { origin: new URL(demoUrl).origin }
  })
  const body = (await response.json()) as { sessions?: ReadonlyArray<ServiceSession> }
  if (body.sessions === undefined) throw new Error(`The services answered ${response.status}: ${JSON.stringify(body)}`)
  return body.sessions
}
