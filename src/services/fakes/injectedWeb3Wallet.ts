/**
 * A Polkadot wallet in the shape of a polkadot-js extension, for tests (`wallet-runtime/testing`): the
 * `window.injectedWeb3[key]` entry a dapp finds, whose `enable(appName)` answers
 * `{ accounts: { get, subscribe }, signer: { signRaw, signPayload } }`, built over a small
 * {@link PolkadotWalletBackend} that holds the keys and asks the visitor (the devstack's test wallet signs with
 * @polkadot/keyring dev accounts in Node; a host brings its own signer). Browser-safe (no `node:` imports, no
 * polkadot-js, nothing touches `window` at import).
 */

/** An account as an extension lists it (polkadot-js `InjectedAccount`). */
export interface InjectedAccount {
  readonly address: string
  readonly name?: string
  readonly type?: "sr25519" | "ed25519" | "ecdsa" | "ethereum"
  readonly genesisHash?: string | null
}

/** What polkadot-js's `signRaw` takes. */
export interface SignRawInput {
  readonly address: string
  readonly data: string
  readonly type: "bytes" | "payload"
}

/** What polkadot-js's `signPayload` takes (`SignerPayloadJSON`), as far as a wallet reads it. */
export interface SignPayloadInput {
  readonly address: string
  readonly method: string
  readonly [field: string]: unknown
}

/** A signer's answer (`SignerResult` without its id, which the extension adds). */
export interface SignatureAnswer {
  readonly signature: string
  readonly signedTransaction?: string
}

/**
 * What the extension needs from the side that holds the keys and asks the visitor. Refusals are thrown as
 * polkadot-js throws them: `new Error("Rejected")` for the site, `new Error("Cancelled")` for a signature.
 */
export interface PolkadotWalletBackend {
  /** Lets the site in (asking the visitor unless it was let in before); throws when refused. */
  readonly enable: (appName: string) => Promise<void>
  /** The accounts the site may see. */
  readonly accounts: () => Promise<ReadonlyArray<InjectedAccount>>
  readonly signRaw: (input: SignRawInput) => Promise<SignatureAnswer>
  readonly signPayload: (input: SignPayloadInput) => Promise<SignatureAnswer>
  /** Calls `listener` when the accounts the site sees change; returns the unsubscribe. */
  readonly onAccountsChanged: (listener: (accounts: ReadonlyArray<InjectedAccount>) => void) => () => void
}

/** The `injectedWeb3` entry of an extension. */
export interface InjectedExtension {
  readonly version: string
  readonly enable: (appName: string) => Promise<{
    readonly accounts: {
      readonly get: () => Promise<ReadonlyArray<InjectedAccount>>
      readonly subscribe: (listener: (accounts: ReadonlyArray<InjectedAccount>) => void) => () => void
    }
    readonly signer: {
      readonly signRaw: (input: SignRawInput) => Promise<SignatureAnswer & { readonly id: number }>
      readonly signPayload: (input: SignPayloadInput) => Promise<SignatureAnswer & { readonly id: number }>
    }
  }>
}

/** The key the test wallet is found under in `window.injectedWeb3` by default. */
export const POLKADOT_TEST_WALLET_KEY = "polkadot-test-wallet"

/** Makes the `injectedWeb3` entry of a wallet over `backend`. */
export const createInjectedWeb3Extension = (backend: PolkadotWalletBackend, version = "0.1.0"): InjectedExtension => {
  let requestId = 0
  const withId = async (answer: Promise<SignatureAnswer>) => ({ id: ++requestId, ...(await answer) })
  return {
    version,
    enable: async (appName) => {
      await backend.enable(appName)
      return {
        accounts: {
          get: () => backend.accounts(),
          // As polkadot-js does, a subscriber hears the current accounts at once, then every change.
          subscribe: (listener) => {
            void backend.accounts().then(listener, () => undefined)
            return backend.onAccountsChanged(listener)
          }
        },
        signer: {
          signRaw: (input) => withId(backend.signRaw(input)),
          signPayload: (input) => withId(backend.signPayload(input))
        }
      }
    }
  }
}

/** Puts `extension` in the page's `window.injectedWeb3` under `key`, as an extension's injected script does. */
export const injectWeb3Extension = (extension: InjectedExtension, key: string = POLKADOT_TEST_WALLET_KEY): void => {
  const page = window as unknown as { injectedWeb3?: Record<string, unknown> }
  page.injectedWeb3 ??= {}
  page.injectedWeb3[key] = extension
}
