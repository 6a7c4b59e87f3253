/** A bare socket speaking the relay's JSON-RPC, for the relay tests: frames the real clients never send, and what the relay answers. */
import { randomUUID } from "node:crypto"
import { Effect } from "effect"
import WebSocket from "ws"
import { generateClientSeed, signRelayJwt } from "../../../src/services/walletconnect/protocol/relayJwt"

/** The URL a client with this key connects with: its auth JWT for the relay at `url` (`aud`), valid from `now`. */
export const authenticated = async (url: string, seed = generateClientSeed(), options: { aud?: string; now?: number } = {}) =>
  `${url}/?auth=${await Effect.runPromise(signRelayJwt(seed, { aud: options.aud ?? url, sub: randomUUID(), now: options.now ?? Date.now() }))}&projectId=devstack`

/** A bare socket speaking the relay's JSON-RPC, to send what real clients never would. */
export const rawClient = async (url: string, seed = generateClientSeed()) => {
  const socket = new WebSocket(await authenticated(url, seed))
  const frames: Array<string> = []
  const unclaimed: Array<string> = []
  const waiters: Array<{ test: (frame: string) => boolean; resolve: (frame: string) => void }> = []
  socket.on("message", (data) => {
    const frame = String(data)
    frames.push(frame)
    const waiter = waiters.find((w) => w.test(frame))
    if (waiter) {
      waiters.splice(waiters.indexOf(waiter), 1)
      waiter.resolve(frame)
    } else {
      unclaimed.push(frame)
    }
  })
  await new Promise((resolve, reject) => socket.once("open", resolve).once("error", reject))
  const next = (test: (frame: string) => boolean): Promise<string> => {
    const seen = unclaimed.find(test)
    if (seen !== undefined) {
      unclaimed.splice(unclaimed.indexOf(seen), 1)
      return Promise.resolve(seen)
    }
    return new Promise((resolve) => waiters.push({ test, resolve }))
  }
  /** Sends `text` and resolves with the reply carrying `id` (as raw text). */
  const call = (id: string, text: string): Promise<string> => {
    socket.send(text)
    return next((frame) => frame.startsWith(`{"id":${id},`))
  }
  const close = () => new Promise<void>((resolve) => socket.once("close", () => resolve()).close())
  return { socket, frames, next, call, close }
}

