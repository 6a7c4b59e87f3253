/**
 * A sign-in backend a host passes as `siwx`, kept in memory, for the services' unit tests: sessions as a host keeps
 * them, and `calls` says what the runtime asked of it.
 */
import type { CaipNetworkId } from "../../../src/domain/Caip"
import type { SiwxConfig, SiwxMessageInput, SiwxSession } from "../../../src/domain/Siwx"

// An expiry no test reaches.
const FAR_FUTURE = "2100-01-01T00:00:00.000Z"

/** A session of `address` on `chainId` as the backend below makes it (`extra` over its message fields). */
export const sessionFor = (chainId: CaipNetworkId, address: string, extra: Partial<SiwxSession["data"]> = {}): SiwxSession => ({
  data: { domain: "shop.test", uri: "https://shop.test", version: "1", chainId, accountAddress: address, nonce: "abcdefgh1", issuedAt: "1970-01-01T00:00:00.000Z", expirationTime: FAR_FUTURE, ...extra },
  message: `sign in ${address} on ${chainId}`,
  signature: "0xsigned"
})

/** A host backend kept in memory; `calls` says what the runtime asked of it. */
export const hostBackend = (options: { readonly required?: boolean; readonly sessions?: ReadonlyArray<SiwxSession>; readonly createMessage?: SiwxConfig["createMessage"] } = {}) => {
  const calls: Array<string> = []
  const sessions: Array<SiwxSession> = [...(options.sessions ?? [])]
  const config: SiwxConfig = {
    createMessage:
      options.createMessage ??
      (async (input: SiwxMessageInput) => {
        calls.push(`create:${input.chainId}`)
        const session = sessionFor(input.chainId, input.accountAddress)
        return { ...session.data, toString: () => session.message }
      }),
    addSession: async (session) => {
      calls.push(`add:${session.data.chainId}:${session.signature.slice(0, 6)}`)
      sessions.push(session)
    },
    revokeSession: async (chainId, address) => {
      calls.push(`revoke:${chainId}`)
      sessions.splice(0, sessions.length, ...sessions.filter((s) => !(s.data.chainId === chainId && s.data.accountAddress === address)))
    },
    setSessions: async () => undefined,
    getSessions: async (chainId, address) => {
      calls.push(`get:${chainId}`)
      return sessions.filter((s) => s.data.chainId === chainId && s.data.accountAddress.toLowerCase() === address.toLowerCase())
    },
    getRequired: () => options.required === true
  }
  return { config, calls, sessions }
}
