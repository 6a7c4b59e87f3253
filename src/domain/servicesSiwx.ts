/**
 * `servicesSiwx()`: the host's choice of sign-in on our services, apart from the sign-in Schemas (`Siwx.ts`) so that
 * a host page calling it at start pulls in nothing of the runtime's core.
 */

/** The sign-in the runtime does on our services (no host backend): `siwx: servicesSiwx({ required: true })`. */
export interface ServicesSiwx {
  readonly _tag: "ServicesSiwx"
  /** The statement of the message; default 'Sign in to {metadata.name}'. */
  readonly statement?: string | undefined
  /** How long a session lasts, in seconds; default 7 days. */
  readonly expiresInSeconds?: number | undefined
  readonly required?: boolean | undefined
  /** Revoke the session when the wallet disconnects; default true. */
  readonly signOutOnDisconnect?: boolean | undefined
}

/**
 * Sign-in on the services the runtime already talks to (`endpoints.blockchainApi`): the service gives the nonce,
 * checks the signature (EOA, ERC-1271, ERC-6492; ed25519 on Solana) and keeps the session.
 *
 * @example
 * ```tsx
 * <WalletRuntimeProvider options={{ ...options, siwx: servicesSiwx({ required: true }) }} />
 * ```
 */
export const servicesSiwx = (options: Omit<ServicesSiwx, "_tag"> = {}): ServicesSiwx => ({ _tag: "ServicesSiwx", ...options })
