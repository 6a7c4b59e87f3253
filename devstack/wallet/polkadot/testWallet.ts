/**
 * The Polkadot test wallet in Node: @polkadot/keyring dev accounts (//Alice and //Bob sr25519, //Charlie ed25519 by
 * default), signing as the polkadot-js extension signs (bytes wrapped in `<Bytes>…</Bytes>`; transaction payloads
 * SCALE-encoded and signed with the key type's byte in front), and a visitor scripted by the test (approve or refuse
 * each prompt, pick another account, revoke the site). Its {@link PolkadotWalletBackend} is what the `injectedWeb3`
 * entry of `extension.ts` runs over, here in Node or in a page through `test/e2e/support/injectedPolkadotWallet.ts`.
 * Its keys are public dev keys: never give it a real key.
 */
import { Keyring } from "@polkadot/keyring"
import type { KeyringPair } from "@polkadot/keyring/types"
import { bnToU8a, compactToU8a, hexToBn, hexToU8a, u8aConcat, u8aEq, u8aToHex, u8aWrapBytes } from "@polkadot/util"
import { blake2AsU8a, cryptoWaitReady, decodeAddress } from "@polkadot/util-crypto"
import {
  createInjectedWeb3Extension,
  type InjectedAccount,
  type InjectedExtension,
  type PolkadotWalletBackend,
  type SignPayloadInput
} from "./extension"

/** What the scripted visitor answers to a prompt. */
export type Approval = "approve" | "reject"

/** The backend calls that prompt the visitor. */
export type PolkadotPromptMethod = "enable" | "signRaw" | "signPayload"

/** A dev account of the wallet: its derivation from the dev phrase and key type. */
export interface PolkadotDevAccount {
  readonly uri: string
  readonly type: "sr25519" | "ed25519"
  readonly name: string
}

/** The default accounts: //Alice and //Bob (sr25519), //Charlie (ed25519). */
export const POLKADOT_DEV_ACCOUNTS: ReadonlyArray<PolkadotDevAccount> = [
  { uri: "//Alice", type: "sr25519", name: "Alice" },
  { uri: "//Bob", type: "sr25519", name: "Bob" },
  { uri: "//Charlie", type: "ed25519", name: "Charlie (ed25519)" }
]

/** Options of {@link makePolkadotTestWallet}. */
export interface PolkadotTestWalletOptions {
  /** Default {@link POLKADOT_DEV_ACCOUNTS}. */
  readonly accounts?: ReadonlyArray<PolkadotDevAccount>
  /** Decides each prompt; by default every prompt is approved (see also `setApproval`). */
  readonly approve?: (method: PolkadotPromptMethod, appName: string) => Approval | Promise<Approval>
  /** The site is already let in, as after an earlier visit: `enable` answers without asking. */
  readonly authorised?: boolean
}

/** The Node test wallet: its backend, its `injectedWeb3` entry, and controls for tests. */
export interface PolkadotTestWallet {
  readonly backend: PolkadotWalletBackend
  /** The `injectedWeb3` entry over {@link backend}, for tests that run the app side in Node. */
  readonly extension: InjectedExtension
  /** Every backend call (`enable`, `accounts`, `signRaw`, `signPayload`), in order. */
  readonly requests: ReadonlyArray<string>
  /** The names the site gave when it asked to be let in. */
  readonly appNames: ReadonlyArray<string>
  readonly authorised: boolean
  /** The keyring pairs, in the wallet's order (for verifying signatures). */
  readonly pairs: ReadonlyArray<KeyringPair>
  /** The generic (prefix 42) address of the account the site sees first. */
  readonly address: () => string
  readonly setApproval: (approval: Approval) => void
  /** The visitor picks another account: it is listed first, and an enabled site hears the change. */
  readonly selectAccount: (index: number) => void
  /** The visitor removes the site: it hears no accounts, and must ask again. */
  readonly revoke: () => void
}

const rejected = (word: "Rejected" | "Cancelled") => new Error(word)
const invalid = (message: string) => Object.assign(new Error(message), { code: -32602 })

const hexField = (payload: SignPayloadInput, field: string): Uint8Array => {
  const value = payload[field]
  if (typeof value !== "string" || !/^0x[0-9a-fA-F]*$/.test(value)) throw invalid(`The payload's ${field} is not hex.`)
  return hexToU8a(value)
}

/**
 * The bytes a wallet signs for a transaction payload (`ExtrinsicPayload` v4): the call, then each signed extension's
 * extra, then each one's additional data, in the payload's `signedExtensions` order; hashed with blake2-256 when
 * longer than 256 bytes. Written here for the standard extensions (the test wallet has no chain metadata); one it
 * does not know is refused.
 */
export const signingPayloadOf = (payload: SignPayloadInput): Uint8Array => {
  const extensions = Array.isArray(payload["signedExtensions"]) ? (payload["signedExtensions"] as ReadonlyArray<unknown>) : []
  const compact = (field: string) => compactToU8a(hexToBn(u8aToHex(hexField(payload, field))))
  const u32 = (field: string) => bnToU8a(hexToBn(u8aToHex(hexField(payload, field))), { bitLength: 32, isLe: true })
  const mode = typeof payload["mode"] === "number" ? payload["mode"] : 0
  const extra: Array<Uint8Array> = []
  const additional: Array<Uint8Array> = []
  for (const extension of extensions) {
    switch (extension) {
      case "CheckNonZeroSender":
      case "CheckWeight":
      case "PrevalidateAttests":
        break
      case "CheckSpecVersion":
        additional.push(u32("specVersion"))
        break
      case "CheckTxVersion":
        additional.push(u32("transactionVersion"))
        break
      case "CheckGenesis":
        additional.push(hexField(payload, "genesisHash"))
        break
      case "CheckMortality":
        extra.push(hexField(payload, "era"))
        additional.push(hexField(payload, "blockHash"))
        break
      case "CheckNonce":
        extra.push(compact("nonce"))
        break
      case "ChargeTransactionPayment":
        extra.push(compact("tip"))
        break
      case "ChargeAssetTxPayment":
        extra.push(compact("tip"), typeof payload["assetId"] === "string" ? u8aConcat([1], hexField(payload, "assetId")) : new Uint8Array([0]))
        break
      case "CheckMetadataHash":
        extra.push(new Uint8Array([mode]))
        additional.push(mode === 1 ? u8aConcat([1], hexField(payload, "metadataHash")) : new Uint8Array([0]))
        break
      default:
        throw invalid(`The wallet does not know the signed extension ${String(extension)}.`)
    }
  }
  const encoded = u8aConcat(hexField(payload, "method"), ...extra, ...additional)
  return encoded.length > 256 ? blake2AsU8a(encoded, 256) : encoded
}

/** Makes a Polkadot test wallet over the dev accounts (call after `cryptoWaitReady()`; see {@link createPolkadotTestWallet}). */
export const makePolkadotTestWallet = (options: PolkadotTestWalletOptions = {}): PolkadotTestWallet => {
  const accounts = options.accounts ?? POLKADOT_DEV_ACCOUNTS
  if (accounts.length === 0) throw new Error("a Polkadot test wallet needs at least one account")
  const pairs = accounts.map((account) => new Keyring({ type: account.type, ss58Format: 42 }).addFromUri(account.uri, { name: account.name }))
  const listeners = new Set<(accounts: ReadonlyArray<InjectedAccount>) => void>()
  const requests: Array<string> = []
  const appNames: Array<string> = []
  let order = pairs.map((_, index) => index)
  let authorised = options.authorised ?? false
  let approval: Approval = "approve"

  const listed = (): ReadonlyArray<InjectedAccount> =>
    authorised
      ? order.map((index) => ({ address: pairs[index]!.address, name: accounts[index]!.name, type: accounts[index]!.type, genesisHash: null }))
      : []
  const emit = () => {
    const now = listed()
    for (const listener of [...listeners]) listener(now)
  }
  const ask = async (method: PolkadotPromptMethod, appName: string, refusal: "Rejected" | "Cancelled") => {
    const answer = options.approve !== undefined ? await options.approve(method, appName) : approval
    if (answer === "reject") throw rejected(refusal)
  }
  // A site may use only the accounts it was shown, and only while let in; any address format names the account.
  const pairOf = (address: string): KeyringPair => {
    let key: Uint8Array
    try {
      key = decodeAddress(address)
    } catch {
      throw invalid(`${address} is not an address.`)
    }
    const pair = authorised ? pairs.find((candidate) => u8aEq(candidate.publicKey, key)) : undefined
    if (pair === undefined) throw Object.assign(new Error("Unable to find account"), { code: 4100 })
    return pair
  }

  const backend: PolkadotWalletBackend = {
    enable: async (appName) => {
      requests.push("enable")
      appNames.push(appName)
      if (!authorised) {
        await ask("enable", appName, "Rejected")
        authorised = true
      }
    },
    accounts: async () => {
      requests.push("accounts")
      return listed()
    },
    signRaw: async (input) => {
      requests.push("signRaw")
      const pair = pairOf(input.address)
      if (input.type !== "bytes" && input.type !== "payload") throw invalid("signRaw: type is bytes or payload.")
      if (!/^0x[0-9a-fA-F]*$/.test(input.data)) throw invalid("signRaw: data is not hex.")
      await ask("signRaw", appNames.at(-1) ?? "", "Cancelled")
      const data = hexToU8a(input.data)
      // As the polkadot-js extension: bytes are signed wrapped (never twice), a payload as it is.
      return { signature: u8aToHex(pair.sign(input.type === "bytes" ? u8aWrapBytes(data) : data)) }
    },
    signPayload: async (input) => {
      requests.push("signPayload")
      const pair = pairOf(String(input.address))
      const bytes = signingPayloadOf(input)
      await ask("signPayload", appNames.at(-1) ?? "", "Cancelled")
      return { signature: u8aToHex(pair.sign(bytes, { withType: true })) }
    },
    onAccountsChanged: (listener) => {
      listeners.add(listener)
      return () => {
        listeners.delete(listener)
      }
    }
  }

  return {
    backend,
    extension: createInjectedWeb3Extension(backend),
    requests,
    appNames,
    get authorised() {
      return authorised
    },
    pairs,
    address: () => pairs[order[0]!]!.address,
    setApproval: (next) => {
      approval = next
    },
    selectAccount: (index) => {
      if (index < 0 || index >= pairs.length) throw new Error(`no account ${index}`)
      order = [index, ...order.filter((other) => other !== index)]
      if (authorised) emit()
    },
    revoke: () => {
      authorised = false
      emit()
    }
  }
}

/** Waits for the keyring's crypto (its WASM) and makes a Polkadot test wallet. */
export const createPolkadotTestWallet = async (options: PolkadotTestWalletOptions = {}): Promise<PolkadotTestWallet> => {
  await cryptoWaitReady()
  return makePolkadotTestWallet(options)
}
