/**
 * An independent dapp for interop tests: WalletConnect's own sign client at its last Apache-2.0 release (2.21.8), a
 * devDependency only. It reads like the universal provider the tests used before (`connect` → session, `request`
 * on a chain, `display_uri`), so a test says what the dapp does, not how the SDK is driven.
 */
import { randomUUID } from "node:crypto"
import { SignClient } from "@walletconnect/sign-client"
import type { SessionTypes } from "@walletconnect/types"

/** A namespace as the tests write them (an `rpcMap` is the universal provider's and is dropped here). */
interface AskedNamespace {
  readonly chains?: ReadonlyArray<string>
  readonly methods: ReadonlyArray<string>
  readonly events: ReadonlyArray<string>
  readonly rpcMap?: Record<string, string>
}

const wire = (namespaces: Record<string, AskedNamespace> | undefined) =>
  Object.fromEntries(
    Object.entries(namespaces ?? {}).map(([key, { chains, methods, events }]) => [
      key,
      { ...(chains === undefined ? {} : { chains: [...chains] }), methods: [...methods], events: [...events] }
    ])
  )

/** The dapp, once made. */
export interface SignClientDapp {
  readonly client: InstanceType<typeof SignClient>
  /** Listens for each pairing URI (`display_uri`), or the next one only (`once`). */
  readonly on: (event: "display_uri", listener: (uri: string) => void) => void
  readonly once: (event: "display_uri", listener: (uri: string) => void) => void
  /** Proposes optional (and required: `namespaces`) namespaces; the session the wallet settles. */
  readonly connect: (ask: { readonly optionalNamespaces?: Record<string, AskedNamespace>; readonly namespaces?: Record<string, AskedNamespace> }) => Promise<SessionTypes.Struct>
  readonly session: () => SessionTypes.Struct | undefined
  readonly request: <T = unknown>(request: { readonly method: string; readonly params?: unknown }, chainId: string) => Promise<T>
  readonly disconnect: () => Promise<void>
  /** Closes its relay connection and timers. */
  readonly close: () => Promise<void>
}

/** Makes sign-client 2.21.8 on the relay at `relayUrl`, its storage in memory under its own prefix. */
export const initSignClientDapp = async (options: {
  readonly relayUrl: string
  readonly projectId?: string
  readonly name?: string
  readonly prefix?: string
}): Promise<SignClientDapp> => {
  const name = options.name ?? "Dapp"
  const client = await SignClient.init({
    projectId: options.projectId ?? "devstack",
    relayUrl: options.relayUrl,
    logger: "silent",
    metadata: { name, description: `${name} under test`, url: "http://127.0.0.1", icons: [] },
    customStoragePrefix: options.prefix ?? `dapp-${randomUUID()}`,
    storageOptions: { database: ":memory:" }
  })
  const listeners: Array<{ readonly listener: (uri: string) => void; readonly once: boolean }> = []
  let current: SessionTypes.Struct | undefined
  client.on("session_delete", ({ topic }) => {
    if (current?.topic === topic) current = undefined
  })
  return {
    client,
    on: (_event, listener) => void listeners.push({ listener, once: false }),
    once: (_event, listener) => void listeners.push({ listener, once: true }),
    connect: async (ask) => {
      const { uri, approval } = await client.connect({ optionalNamespaces: wire(ask.optionalNamespaces), requiredNamespaces: wire(ask.namespaces) })
      if (uri !== undefined) {
        for (const entry of [...listeners]) {
          if (entry.once) listeners.splice(listeners.indexOf(entry), 1)
          entry.listener(uri)
        }
      }
      current = await approval()
      return current
    },
    session: () => current,
    request: <T>(request: { readonly method: string; readonly params?: unknown }, chainId: string) => {
      if (current === undefined) return Promise.reject(new Error("No session"))
      return client.request<T>({ topic: current.topic, chainId, request: { method: request.method, params: request.params ?? [] } })
    },
    disconnect: async () => {
      if (current === undefined) return
      const topic = current.topic
      current = undefined
      await client.disconnect({ topic, reason: { code: 6000, message: "User disconnected." } })
    },
    close: async () => {
      await client.core.relayer.transportClose().catch(() => undefined)
      client.core.heartbeat.stop()
    }
  }
}
