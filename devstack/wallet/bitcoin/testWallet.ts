/**
 * The Bitcoin test wallet in Node: the devstack's Bitcoin dev keys (a P2WPKH payment address and a P2TR ordinals
 * address on regtest), BIP-322 message signatures, PSBT signing, and `sendTransfer` that builds and signs a real
 * transaction from the UTXOs the devstack's regtest node gives it and broadcasts it there; plus a visitor scripted
 * by the test (approve or refuse each prompt, disconnect the site). Its {@link BitcoinWalletBackend} is what the
 * Wallet Standard object of `standardWallet.ts` runs over, here in Node or in a page through
 * `test/e2e/support/injectedBitcoinWallet.ts`. Its keys are public dev keys: never give it a real key.
 */
import { hex } from "@scure/base"
import { p2wpkh, Transaction } from "@scure/btc-signer"
import type { Wallet } from "@wallet-standard/base"
import { signBip322 } from "../../../server/src/bitcoin/bip322"
import { type BitcoinDevKey, devBitcoinKey, REGTEST } from "../../bitcoin/keys"
import { regtestRecipient, sendOnRegtest } from "./regtestTransfer"
import {
  BITCOIN_REGTEST_CHAIN,
  type BitcoinStandardWalletOptions,
  type BitcoinWalletAddress,
  type BitcoinWalletBackend,
  createBitcoinStandardWallet,
  WalletStandardError
} from "./standardWallet"

/** What the scripted visitor answers to a prompt. */
export type Approval = "approve" | "reject"

/** The prompts, by their feature name. */
export type BitcoinPromptMethod = "bitcoin:connect" | "bitcoin:signMessage" | "bitcoin:signTransaction" | "bitcoin:sendTransfer"

/** Options of {@link makeBitcoinTestWallet}. */
export interface BitcoinTestWalletOptions extends BitcoinStandardWalletOptions {
  /** The regtest node's Esplora-style API (`startBitcoin().info.url`): UTXOs are read and transfers broadcast there. */
  readonly apiUrl: string
  /** The dev key set (default 0). */
  readonly keyIndex?: number
  /** Decides each prompt; by default every prompt is approved (see also `setApproval`). */
  readonly approve?: (method: BitcoinPromptMethod) => Approval | Promise<Approval>
  /** The site is already authorised, as after an earlier visit: a silent connect gives the addresses. */
  readonly authorised?: boolean
}

/** The Node test wallet: its backend, its Wallet Standard object, and controls for tests. */
export interface BitcoinTestWallet {
  readonly backend: BitcoinWalletBackend
  readonly wallet: Wallet
  readonly key: BitcoinDevKey
  /** Every backend call by feature name, in order. */
  readonly requests: ReadonlyArray<string>
  /** Every prompt shown to the visitor, in order (a silent connect shows none). */
  readonly prompts: ReadonlyArray<BitcoinPromptMethod>
  readonly authorised: boolean
  /** The transactions it broadcast (txids), in order. */
  readonly sent: ReadonlyArray<string>
  readonly setApproval: (approval: Approval) => void
  /** The visitor picks another dev key set in the wallet: an authorised site hears a `change` with its addresses. */
  readonly selectKey: (index: number) => void
  /** The visitor disconnects the site in the wallet: it hears a `change` with no accounts. */
  readonly revoke: () => void
}

const rejected = () => new WalletStandardError(4001, "User rejected the request.")
const unauthorised = () => new WalletStandardError(4100, "The requested account and/or method has not been authorized by the user.")

/** A dev key set's keys, scripts and the addresses the wallet gives a site. */
const keysOf = (key: BitcoinDevKey) => {
  const addresses: ReadonlyArray<BitcoinWalletAddress> = [
    { address: key.paymentAddress, publicKey: key.paymentPublicKey, purpose: "payment" },
    { address: key.ordinalsAddress, publicKey: key.ordinalsPublicKey, purpose: "ordinals" }
  ]
  return {
    key,
    addresses,
    payment: { address: key.paymentAddress, privateKey: hex.decode(key.paymentPrivateKey), script: p2wpkh(hex.decode(key.paymentPublicKey), REGTEST).script },
    ordinals: { address: key.ordinalsAddress, privateKey: hex.decode(key.ordinalsPrivateKey), internalKey: hex.decode(key.ordinalsPublicKey) }
  }
}

/** Makes a Bitcoin test wallet over a dev key set. */
export const makeBitcoinTestWallet = (options: BitcoinTestWalletOptions): BitcoinTestWallet => {
  let current = keysOf(devBitcoinKey(options.keyIndex ?? 0))
  const listeners = new Set<(addresses: ReadonlyArray<BitcoinWalletAddress>) => void>()
  const requests: Array<string> = []
  const prompts: Array<BitcoinPromptMethod> = []
  const sent: Array<string> = []
  let authorised = options.authorised ?? false
  let approval: Approval = "approve"
  const api = options.apiUrl.replace(/\/+$/, "")

  const ask = async (method: BitcoinPromptMethod) => {
    prompts.push(method)
    const answer = options.approve !== undefined ? await options.approve(method) : approval
    if (answer === "reject") throw rejected()
  }
  const keyOf = (address: string) => {
    if (!authorised) throw unauthorised()
    if (address === current.payment.address) return current.payment.privateKey
    if (address === current.ordinals.address) return current.ordinals.privateKey
    throw new WalletStandardError(4100, `The wallet has no key for ${address}.`)
  }
  const served = (chain: string) => {
    if (chain !== BITCOIN_REGTEST_CHAIN) throw new WalletStandardError(-32602, `The wallet does not serve ${chain}.`)
  }

  const backend: BitcoinWalletBackend = {
    connect: async (silent) => {
      requests.push("bitcoin:connect")
      if (!authorised) {
        if (silent) return []
        await ask("bitcoin:connect")
        authorised = true
      }
      return current.addresses
    },
    disconnect: async () => {
      requests.push("standard:disconnect")
      authorised = false
    },
    signMessage: async (address, message) => {
      requests.push("bitcoin:signMessage")
      const privateKey = keyOf(address)
      await ask("bitcoin:signMessage")
      return new Uint8Array(Buffer.from(signBip322(address, REGTEST, privateKey, message), "base64"))
    },
    signPsbt: async (psbt, inputs, chain) => {
      requests.push("bitcoin:signTransaction")
      served(chain)
      const keys = inputs.map((entry) => ({ ...entry, privateKey: keyOf(entry.address) }))
      await ask("bitcoin:signTransaction")
      let tx: Transaction
      try {
        tx = Transaction.fromPSBT(psbt)
      } catch {
        throw new WalletStandardError(-32602, "The wallet cannot read this PSBT.")
      }
      for (const entry of keys) {
        for (const index of entry.indexes) {
          // A taproot input of the ordinals address needs its internal key, which the wallet knows.
          if (entry.address === current.ordinals.address && tx.getInput(index).tapInternalKey === undefined) {
            tx.updateInput(index, { tapInternalKey: current.ordinals.internalKey })
          }
          tx.signIdx(entry.privateKey, index, entry.sigHash === undefined ? undefined : [entry.sigHash])
        }
      }
      return tx.toPSBT()
    },
    sendTransfer: async (address, recipients, chain) => {
      requests.push("bitcoin:sendTransfer")
      served(chain)
      keyOf(address)
      const { payment } = current
      if (address !== payment.address) throw new WalletStandardError(-32602, "The wallet sends from its payment address.")
      const [recipient, ...more] = recipients
      if (recipient === undefined || more.length > 0) throw new WalletStandardError(-32602, "The wallet sends to one recipient at a time.")
      regtestRecipient(recipient.address)
      await ask("bitcoin:sendTransfer")
      const text = await sendOnRegtest(api, payment, recipient.address, recipient.amount)
      sent.push(text)
      return text
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
    wallet: createBitcoinStandardWallet(backend, options),
    get key() {
      return current.key
    },
    requests,
    prompts,
    get authorised() {
      return authorised
    },
    sent,
    setApproval: (next) => {
      approval = next
    },
    selectKey: (index) => {
      current = keysOf(devBitcoinKey(index))
      if (authorised) for (const listener of [...listeners]) listener(current.addresses)
    },
    revoke: () => {
      authorised = false
      for (const listener of [...listeners]) listener([])
    }
  }
}
