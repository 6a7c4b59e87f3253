/**
 * A Bitcoin wallet in the shape of the Wallet Standard: `standard:connect` / `disconnect` / `events` and the
 * `bitcoin:` features the runtime looks for (`src/services/bip122/walletStandardFeatures.ts`), built over a small
 * {@link BitcoinWalletBackend} that holds the keys and asks the visitor. Browser-safe (no `node:` imports, nothing
 * touches `window` at import, no chain library): the Node test wallet and the page of the browser tests share it.
 */
import type { IdentifierString, Wallet, WalletAccount, WalletIcon } from "@wallet-standard/base"
import {
  BITCOIN_FEATURES,
  type BitcoinPurpose,
  type BitcoinSendTransferInput,
  type BitcoinSignMessageInput,
  type BitcoinSignTransactionInput,
  type BitcoinWalletFeatures
} from "../../../src/services/bip122/walletStandardFeatures"
import {
  type StandardChangeProperties,
  type StandardConnectFeature,
  type StandardDisconnectFeature,
  type StandardEventsFeature,
  WalletStandardError
} from "../solana/standardWallet"

export { registerStandardWallet, WalletStandardError } from "../solana/standardWallet"

/** The Wallet Standard chain of the devstack's regtest node. */
export const BITCOIN_REGTEST_CHAIN = "bitcoin:regtest"

/** An address the wallet gives a site: its public key (hex) and purpose. */
export interface BitcoinWalletAddress {
  readonly address: string
  readonly publicKey: string
  readonly purpose: BitcoinPurpose
}

/** What the wallet object needs from the side that holds the keys and asks the visitor. */
export interface BitcoinWalletBackend {
  /** The addresses the site may use; `silent`: only if already authorised (else none), never a prompt. */
  readonly connect: (silent: boolean) => Promise<ReadonlyArray<BitcoinWalletAddress>>
  readonly disconnect: () => Promise<void>
  /** The BIP-322 simple signature of `message` by `address`: the `to_sign` witness, serialised. */
  readonly signMessage: (address: string, message: Uint8Array) => Promise<Uint8Array>
  /** `psbt` with the given inputs signed by the given addresses. */
  readonly signPsbt: (
    psbt: Uint8Array,
    inputs: ReadonlyArray<{ readonly address: string; readonly indexes: ReadonlyArray<number>; readonly sigHash?: number | undefined }>,
    chain: string
  ) => Promise<Uint8Array>
  /** Builds, signs and broadcasts a payment from `address`; its txid. */
  readonly sendTransfer: (
    address: string,
    recipients: ReadonlyArray<{ readonly address: string; readonly amount: bigint }>,
    chain: string
  ) => Promise<string>
  /** Calls `listener` when the wallet itself changes the addresses the site sees; returns the unsubscribe. */
  readonly onAccountsChanged: (listener: (addresses: ReadonlyArray<BitcoinWalletAddress>) => void) => () => void
}

/** Options of {@link createBitcoinStandardWallet}. */
export interface BitcoinStandardWalletOptions {
  /** Default "Bitcoin Test Wallet". */
  readonly name?: string
  readonly icon?: WalletIcon
  /** Leave out features, to stand for wallets that lack them (e.g. `bitcoin:sendTransfer`: PSBTs only). */
  readonly without?: ReadonlyArray<string>
}

/** The default icon: a generated square, no third-party logo. */
export const BITCOIN_TEST_WALLET_ICON: WalletIcon = `data:image/svg+xml;base64,${btoa(
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="8" fill="#f7931a"/><path d="M12 8v16M15 8v3m0 10v3M11 11h7a3 3 0 0 1 0 6h-7m0 0h8a3 3 0 0 1 0 6h-8" stroke="#fff" stroke-width="2" fill="none"/></svg>'
)}`

const fromHex = (text: string): Uint8Array => Uint8Array.from(text.match(/../g) ?? [], (byte) => parseInt(byte, 16))

/** Makes the Wallet Standard object of a Bitcoin wallet over `backend`. */
export const createBitcoinStandardWallet = (backend: BitcoinWalletBackend, options: BitcoinStandardWalletOptions = {}): Wallet => {
  const chains: ReadonlyArray<IdentifierString> = [BITCOIN_REGTEST_CHAIN]
  const listeners = new Set<(properties: StandardChangeProperties) => void>()
  const accountObjects = new Map<string, WalletAccount>()
  const without = new Set(options.without ?? [])
  const featureNames = Object.values(BITCOIN_FEATURES).filter((name) => !without.has(name))
  let accounts: ReadonlyArray<WalletAccount> = []

  const accountOf = (entry: BitcoinWalletAddress): WalletAccount => {
    let account = accountObjects.get(entry.address)
    if (account === undefined) {
      account = Object.freeze({
        address: entry.address,
        publicKey: fromHex(entry.publicKey),
        chains: [...chains] as WalletAccount["chains"],
        features: [...featureNames] as WalletAccount["features"]
      })
      accountObjects.set(entry.address, account)
    }
    return account
  }
  const setAccounts = (entries: ReadonlyArray<BitcoinWalletAddress>): void => {
    const next = entries.map(accountOf)
    if (next.length === accounts.length && next.every((account, i) => account === accounts[i])) return
    accounts = next
    for (const listener of [...listeners]) listener({ accounts })
  }
  backend.onAccountsChanged(setAccounts)

  const authorised = (account: WalletAccount): string => {
    if (!accounts.some((a) => a.address === account.address)) {
      throw new WalletStandardError(4100, `The account ${account.address} is not connected to this site.`)
    }
    return account.address
  }
  const served = (chain: string): void => {
    if (!chains.includes(chain as IdentifierString)) throw new WalletStandardError(-32602, `The wallet does not serve ${chain}; it serves ${chains.join(", ")}.`)
  }
  const each = async <I, O>(inputs: ReadonlyArray<I>, run: (input: I) => Promise<O>): Promise<ReadonlyArray<O>> => {
    const outputs: Array<O> = []
    for (const input of inputs) outputs.push(await run(input))
    return outputs
  }

  const features: StandardConnectFeature & StandardDisconnectFeature & StandardEventsFeature & BitcoinWalletFeatures = {
    "standard:connect": {
      version: "1.0.0",
      connect: async (input) => {
        setAccounts(await backend.connect(input?.silent === true))
        return { accounts }
      }
    },
    "standard:disconnect": {
      version: "1.0.0",
      disconnect: async () => {
        await backend.disconnect()
        setAccounts([])
      }
    },
    "standard:events": {
      version: "1.0.0",
      on: (_event, listener) => {
        listeners.add(listener)
        return () => {
          listeners.delete(listener)
        }
      }
    },
    "bitcoin:connect": {
      version: "1.0.0",
      connect: async ({ purposes }) => {
        const given = await backend.connect(false)
        setAccounts(given)
        // The extension answers the accounts of the purposes asked, in their order.
        const ordered = purposes.flatMap((purpose) => given.filter((entry) => entry.purpose === purpose).map(accountOf))
        return { accounts: ordered }
      }
    },
    "bitcoin:signMessage": {
      version: "1.0.0",
      signMessage: (...inputs: ReadonlyArray<BitcoinSignMessageInput>) =>
        each(inputs, async ({ account, message }) => ({ signedMessage: message, signature: await backend.signMessage(authorised(account), message) }))
    },
    "bitcoin:signTransaction": {
      version: "1.0.0",
      signTransaction: (...inputs: ReadonlyArray<BitcoinSignTransactionInput>) =>
        each(inputs, async ({ psbt, chain, inputsToSign }) => {
          served(chain)
          const byAccount = inputsToSign.map((entry) => ({ address: authorised(entry.account), indexes: entry.signingIndexes, sigHash: entry.sigHash }))
          return { signedPsbt: await backend.signPsbt(psbt, byAccount, chain) }
        })
    },
    "bitcoin:sendTransfer": {
      version: "1.0.0",
      sendTransfer: (...inputs: ReadonlyArray<BitcoinSendTransferInput>) =>
        each(inputs, async ({ account, chain, recipients }) => {
          served(chain)
          return { txid: await backend.sendTransfer(authorised(account), recipients, chain) }
        })
    }
  }
  for (const name of without) delete (features as Record<string, unknown>)[name]

  return {
    version: "1.0.0",
    name: options.name ?? "Bitcoin Test Wallet",
    icon: options.icon ?? BITCOIN_TEST_WALLET_ICON,
    chains: [...chains] as Wallet["chains"],
    features,
    get accounts() {
      return accounts
    }
  }
}
