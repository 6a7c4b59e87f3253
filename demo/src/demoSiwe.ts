/**
 * The demo's legacy `siweConfig` (the sign-in mode "siwe"), as a host with its own sign-in would write it: the page
 * makes the nonce and the EIP-4361 text, checks the signature with viem (loaded when the first one arrives), and keeps
 * who signed in on this browser. A host would check on its server; the demo has none of its own.
 */
import type { SiweConfig, SiweCreateMessageArgs } from "wallet-runtime"

const SESSION_KEY = "demo:siwe-session"

interface DemoSiweSession {
  readonly address: string
  readonly chainId: number
}

const stored = (): DemoSiweSession | null => {
  const value = localStorage.getItem(SESSION_KEY)
  if (value === null) return null
  const parsed = JSON.parse(value) as Partial<DemoSiweSession>
  return typeof parsed.address === "string" && typeof parsed.chainId === "number" ? { address: parsed.address, chainId: parsed.chainId } : null
}

// EIP-4361's text, field by field.
const siweText = (args: SiweCreateMessageArgs): string =>
  [
    `${args.domain} wants you to sign in with your Ethereum account:`,
    args.address,
    "",
    ...(args.statement === undefined ? [] : [args.statement, ""]),
    `URI: ${args.uri}`,
    `Version: ${args.version}`,
    `Chain ID: ${args.chainId}`,
    `Nonce: ${args.nonce}`,
    `Issued At: ${args.issuedAt}`,
    ...(args.expirationTime === undefined ? [] : [`Expiration Time: ${args.expirationTime}`])
  ].join("\n")

/** The demo's `siweConfig`. */
export const demoSiweConfig = (): SiweConfig => {
  const nonces = new Set<string>()
  return {
    getNonce: async () => {
      const nonce = Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("")
      nonces.add(nonce)
      return nonce
    },
    getMessageParams: async () => ({ statement: "Sign in to the Wallet Runtime demo with its own SIWE configuration." }),
    createMessage: siweText,
    verifyMessage: async ({ message, signature }) => {
      const address = message.split("\n")[1] ?? ""
      const nonce = /^Nonce: (\w+)$/m.exec(message)?.[1] ?? ""
      const chainId = Number(/^Chain ID: (\d+)$/m.exec(message)?.[1] ?? "0")
      if (!nonces.delete(nonce)) return false
      const { verifyMessage } = await import("viem")
      const valid = await verifyMessage({ address: address as `0x${string}`, message, signature: signature as `0x${string}` })
      if (valid) localStorage.setItem(SESSION_KEY, JSON.stringify({ address, chainId }))
      return valid
    },
    getSession: async () => stored(),
    signOut: async () => {
      localStorage.removeItem(SESSION_KEY)
      return true
    }
  }
}
