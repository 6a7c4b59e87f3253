/**
 * The development wallet's Bitcoin side: `wallet-runtime/testing`'s Wallet Standard Bitcoin wallet over a backend in
 * the page holding the stack's Bitcoin dev key 0 (a P2WPKH payment and a P2TR ordinals address on regtest). It signs
 * messages with BIP-322 simple, signs PSBT inputs it owns, and sends by building and signing a transaction with
 * btc-signer from the payment address's UTXOs on the stack's regtest node, then broadcasting it there; each after the
 * visitor's confirm. Public dev keys on a local chain only.
 */
import { hex } from "@scure/base"
import { p2tr, p2wpkh, RawWitness, SigHash, Transaction } from "@scure/btc-signer"
import { pubSchnorr } from "@scure/btc-signer/utils.js"
import { toSign } from "../../server/src/bitcoin/bip322"
import { REGTEST } from "../../devstack/bitcoin/keys"
import { regtestRecipient, sendOnRegtest } from "../../devstack/wallet/bitcoin/regtestTransfer"
import {
  BITCOIN_REGTEST_CHAIN,
  type BitcoinWalletAddress,
  type BitcoinWalletBackend,
  WalletStandardError
} from "../../devstack/wallet/bitcoin/standardWallet"
import { readableText } from "../../devstack/wallet/page/requests"
import type { AuthorisationStore } from "../../devstack/wallet/testWallet"
import type { DemoStack } from "./config"

/** The stack's Bitcoin part as the development wallet needs it: the node's API and a dev key. */
export type DevBitcoin = NonNullable<DemoStack["bitcoin"]> & { readonly devKey: NonNullable<NonNullable<DemoStack["bitcoin"]>["devKey"]> }

const rejected = () => new WalletStandardError(4001, "User rejected the request.")
const unauthorised = () => new WalletStandardError(4100, "The requested account and/or method has not been authorized by the user.")

/** Satoshis as BTC text, for the prompt. */
const btc = (sats: bigint): string => {
  const whole = sats / 100_000_000n
  const fraction = (sats % 100_000_000n).toString().padStart(8, "0").replace(/0+$/, "")
  return fraction === "" ? `${whole} BTC` : `${whole}.${fraction} BTC`
}

/** The Bitcoin backend over `bitcoin.devKey`, asking with `confirm` and remembering the site in `authorisation`. */
export const bitcoinBackend = (
  bitcoin: DevBitcoin,
  authorisation: AuthorisationStore,
  confirm: (question: string) => boolean = (question) => window.confirm(question)
): BitcoinWalletBackend => {
  const { devKey } = bitcoin
  const api = bitcoin.url.replace(/\/+$/, "")
  const payment = {
    address: devKey.paymentAddress,
    privateKey: hex.decode(devKey.paymentPrivateKey),
    script: p2wpkh(hex.decode(devKey.paymentPublicKey), REGTEST).script
  }
  const ordinals = {
    address: devKey.ordinalsAddress,
    privateKey: hex.decode(devKey.ordinalsPrivateKey),
    internalKey: hex.decode(devKey.ordinalsPublicKey),
    script: p2tr(hex.decode(devKey.ordinalsPublicKey), undefined, REGTEST).script
  }
  const addresses: ReadonlyArray<BitcoinWalletAddress> = [
    { address: payment.address, publicKey: devKey.paymentPublicKey, purpose: "payment" },
    { address: ordinals.address, publicKey: devKey.ordinalsPublicKey, purpose: "ordinals" }
  ]
  const ask = (question: string) => {
    if (!confirm(question)) throw rejected()
  }
  const keyOf = (address: string): Uint8Array => {
    if (!authorisation.read()) throw unauthorised()
    if (address === payment.address) return payment.privateKey
    if (address === ordinals.address) return ordinals.privateKey
    throw new WalletStandardError(4100, `The wallet has no key for ${address}.`)
  }
  const served = (chain: string) => {
    if (chain !== BITCOIN_REGTEST_CHAIN) throw new WalletStandardError(-32602, `The wallet does not serve ${chain}.`)
  }

  return {
    connect: async (silent) => {
      if (!authorisation.read()) {
        if (silent) return []
        ask("Connect the development wallet's Bitcoin addresses to this site?")
        authorisation.write(true)
      }
      return addresses
    },
    disconnect: async () => authorisation.write(false),
    signMessage: async (address, message) => {
      const privateKey = keyOf(address)
      ask(`Sign this message with ${address}?\n\n${readableText(message) ?? `0x${hex.encode(message)}`}`)
      // BIP-322 simple: the witness of the virtual transaction spending the address's commitment to the message.
      const taproot = address === ordinals.address
      const tx = toSign(taproot ? ordinals.script : payment.script, message, taproot ? pubSchnorr(privateKey) : undefined)
      tx.signIdx(privateKey, 0, [taproot ? SigHash.DEFAULT : SigHash.ALL])
      tx.finalizeIdx(0)
      return RawWitness.encode(tx.getInput(0).finalScriptWitness ?? [])
    },
    signPsbt: async (psbt, inputs, chain) => {
      served(chain)
      const keys = inputs.map((entry) => ({ ...entry, privateKey: keyOf(entry.address) }))
      let tx: Transaction
      try {
        tx = Transaction.fromPSBT(psbt)
      } catch {
        throw new WalletStandardError(-32602, "The wallet cannot read this PSBT.")
      }
      const listed = keys.map((entry) => `${entry.address}: input${entry.indexes.length === 1 ? "" : "s"} ${entry.indexes.join(", ")}`)
      ask(`Sign this transaction (${tx.inputsLength} inputs, ${tx.outputsLength} outputs)?\n\n${listed.join("\n")}`)
      for (const entry of keys) {
        for (const index of entry.indexes) {
          // A taproot input of the ordinals address needs its internal key, which the wallet knows.
          if (entry.address === ordinals.address && tx.getInput(index).tapInternalKey === undefined) {
            tx.updateInput(index, { tapInternalKey: ordinals.internalKey })
          }
          tx.signIdx(entry.privateKey, index, entry.sigHash === undefined ? undefined : [entry.sigHash])
        }
      }
      return tx.toPSBT()
    },
    sendTransfer: async (address, recipients, chain) => {
      served(chain)
      keyOf(address)
      if (address !== payment.address) throw new WalletStandardError(-32602, "The wallet sends from its payment address.")
      const [recipient, ...more] = recipients
      if (recipient === undefined || more.length > 0) throw new WalletStandardError(-32602, "The wallet sends to one recipient at a time.")
      regtestRecipient(recipient.address)
      ask(`Send this transaction?\n\nTo: ${recipient.address}\nAmount: ${btc(recipient.amount)}\nFrom: ${payment.address}`)
      const text = await sendOnRegtest(api, payment, recipient.address, recipient.amount)
      return text
    },
    // The development wallet never changes its addresses on its own: there is nothing to tell.
    onAccountsChanged: () => () => undefined
  }
}
