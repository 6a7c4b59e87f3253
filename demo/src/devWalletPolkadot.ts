/**
 * The development wallet's Polkadot side: an `injectedWeb3` extension (`wallet-runtime/testing`'s) over a backend in
 * the page holding //Alice (sr25519, the dev phrase's public account). The keyring and its crypto (WASM) load the
 * first time the demo asks the extension in, not with the page; each signature waits for the visitor's confirm, and
 * the site's admission is remembered as an extension remembers it. Public dev keys only.
 */
import { createInjectedWeb3Extension, type InjectedExtension, type PolkadotWalletBackend } from "../../devstack/wallet/polkadot/extension"
import type { PolkadotTestWallet } from "../../devstack/wallet/polkadot/testWallet"
import type { AuthorisationStore } from "../../devstack/wallet/testWallet"
import { readableText } from "../../devstack/wallet/page/requests"

/** The key the extension is found under in `window.injectedWeb3`: the runtime names it "Dev Test Wallet". */
export const DEV_WALLET_POLKADOT_KEY = "dev-test-wallet"

const fromHex = (text: string): Uint8Array => Uint8Array.from(text.replace(/^0x/, "").match(/../g) ?? [], (byte) => parseInt(byte, 16))

/** The Polkadot extension over //Alice, asking with `confirm` and remembering the site in `authorisation`. */
export const polkadotExtension = (
  authorisation: AuthorisationStore,
  confirm: (question: string) => boolean = (question) => window.confirm(question)
): InjectedExtension => {
  let loaded: Promise<PolkadotTestWallet> | undefined
  // The devstack's Polkadot test wallet signs as the polkadot-js extension does; it approves what it is given, the
  // prompts are this backend's.
  const wallet = () =>
    (loaded ??= import("../../devstack/wallet/polkadot/testWallet").then(({ createPolkadotTestWallet, POLKADOT_DEV_ACCOUNTS }) =>
      createPolkadotTestWallet({ accounts: POLKADOT_DEV_ACCOUNTS.slice(0, 1), authorised: true })
    ))
  const allowed = () => {
    if (!authorisation.read()) throw Object.assign(new Error("Unable to find account"), { code: 4100 })
  }
  const ask = (question: string, refusal: "Rejected" | "Cancelled") => {
    if (!confirm(question)) throw new Error(refusal)
  }
  const backend: PolkadotWalletBackend = {
    enable: async (appName) => {
      if (!authorisation.read()) {
        ask(`Let ${appName} see the development wallet's Polkadot account (//Alice)?`, "Rejected")
        authorisation.write(true)
      }
      await wallet()
    },
    accounts: async () => (authorisation.read() ? (await wallet()).backend.accounts() : []),
    signRaw: async (input) => {
      allowed()
      const data = /^0x([0-9a-fA-F]{2})*$/.test(input.data) ? fromHex(input.data) : undefined
      // The message as the visitor wrote it: a site may send it already wrapped in <Bytes>…</Bytes> (it is signed so once).
      const text = data === undefined ? undefined : readableText(data)
      const shown = text === undefined ? input.data : text.replace(/^<Bytes>([\s\S]*)<\/Bytes>$/, "$1")
      ask(`Sign this message with ${input.address}?\n\n${shown}`, "Cancelled")
      return (await wallet()).backend.signRaw(input)
    },
    signPayload: async (input) => {
      allowed()
      ask(`Sign this transaction with ${input.address}?\n\nCall: ${input.method}`, "Cancelled")
      return (await wallet()).backend.signPayload(input)
    },
    // The development wallet never changes its account on its own: there is nothing to tell.
    onAccountsChanged: () => () => undefined
  }
  return createInjectedWeb3Extension(backend)
}
