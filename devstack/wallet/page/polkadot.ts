/**
 * The test wallet's Polkadot side: the Polkadot test wallet's dev accounts (`../polkadot/testWallet`: //Alice and
 * //Bob sr25519, //Charlie ed25519) answering WalletConnect's `polkadot_signMessage` `{ address, message }` and
 * `polkadot_signTransaction` `{ address, transactionPayload }` (shapes in src/services/walletconnect/namespaces.ts)
 * as the polkadot-js extension signs: bytes wrapped once in `<Bytes>…</Bytes>`, a payload SCALE-encoded with the key
 * type's byte before the signature. Signing needs no chain, so any `polkadot:` network a dapp asks for is served,
 * the account written in that network's SS58 format. Used by the page and by the Node tests' dev wallet
 * (`test/integration/support/walletKit.ts`).
 */
import { stringToHex } from "@polkadot/util"
import { encodeSs58, ss58PrefixOf } from "../../../src/services/polkadot/ss58"
import { ProviderRpcError } from "../testWallet"
import { createPolkadotTestWallet, POLKADOT_DEV_ACCOUNTS, type PolkadotTestWallet } from "../polkadot/testWallet"

/** `polkadot` methods the wallet approves in a session; both wait for the visitor. */
export const polkadotSessionMethods = ["polkadot_signMessage", "polkadot_signTransaction"] as const

/** A dev account the page offers: its index, derivation (`//Alice`) and key type. */
export interface PolkadotPageAccount {
  readonly index: number
  readonly uri: string
  readonly type: "sr25519" | "ed25519"
}

/** The dev accounts, in the wallet's order. */
export const polkadotPageAccounts: ReadonlyArray<PolkadotPageAccount> = POLKADOT_DEV_ACCOUNTS.map((account, index) => ({
  index,
  uri: account.uri,
  type: account.type
}))

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null

/** Answers one of WalletConnect's Polkadot methods with `wallet`'s keys (the visitor has approved it). */
export const answerPolkadot = async (wallet: PolkadotTestWallet, method: string, params: unknown): Promise<unknown> => {
  if (!isRecord(params) || typeof params["address"] !== "string") throw new ProviderRpcError(-32602, `${method}: an address is required.`)
  switch (method) {
    case "polkadot_signMessage": {
      const message = params["message"]
      if (typeof message !== "string") throw new ProviderRpcError(-32602, "polkadot_signMessage: a message is required.")
      // The text or its hex bytes, as wallets take it; the bytes are signed wrapped in <Bytes>…</Bytes>.
      const data = /^0x([0-9a-fA-F]{2})*$/.test(message) ? message : stringToHex(message)
      return { signature: (await wallet.backend.signRaw({ address: params["address"], data, type: "bytes" })).signature }
    }
    case "polkadot_signTransaction": {
      const payload = params["transactionPayload"]
      if (!isRecord(payload)) throw new ProviderRpcError(-32602, "polkadot_signTransaction: a transactionPayload is required.")
      const signed = await wallet.backend.signPayload({ ...payload, address: String(payload["address"]), method: String(payload["method"]) })
      return { signature: signed.signature }
    }
    default:
      throw new ProviderRpcError(4200, `The wallet does not answer ${method}.`)
  }
}

/** The page's Polkadot signer: the dev accounts' addresses on a network, and answers to approved requests. */
export interface PolkadotDevSigner {
  /** Account `index`'s address in the SS58 format of `polkadot:<genesis ref>` `chain`. */
  readonly addressOn: (index: number, chain: string) => string
  readonly request: (method: string, params: unknown) => Promise<unknown>
}

/** Loads the keyring's crypto (WASM) and makes the signer; the page asks for it the first time Polkadot is used. */
export const makePolkadotDevSigner = async (): Promise<PolkadotDevSigner> => {
  // The page asks the visitor itself: the test wallet is let in once and approves what it is given.
  const wallet = await createPolkadotTestWallet({ authorised: true })
  return {
    addressOn: (index, chain) => encodeSs58(wallet.pairs[index]!.publicKey, ss58PrefixOf({ id: chain.slice(chain.indexOf(":") + 1) })),
    request: (method, params) => answerPolkadot(wallet, method, params)
  }
}
