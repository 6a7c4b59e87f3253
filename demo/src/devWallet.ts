/**
 * The development test wallet: one in-page wallet over the local networks, found as a browser extension is found —
 * announced through EIP-6963 for the EVM chains, registered through the Wallet Standard for Solana and for Bitcoin
 * (regtest, `./devWalletBitcoin`), and put in `window.injectedWeb3` for Polkadot (//Alice, `./devWalletPolkadot`),
 * under one name, so the product lists one multi-chain wallet. Turned on from the demo's page; it asks the visitor with the
 * browser's confirm dialog before it connects, signs or sends, and, like an extension, remembers across reloads that
 * the visitor let the demo connect (in the page's localStorage) until the demo disconnects.
 */
import { getBase58Decoder, getBase58Encoder, getTransactionEncoder } from "@solana/kit"
import type { SolanaSignAndSendTransactionOptions } from "@solana/wallet-standard-features"
import type { WalletIcon } from "@wallet-standard/base"
import type { Field } from "../../devstack/wallet/page/requests"
import { describeSolanaTransactionBytes, readableText } from "../../devstack/wallet/page/requests"
import { decodeTransactionBytes, makeSolanaDevKey, type SendOptions, type SolanaDevKey } from "../../devstack/wallet/page/solana"
import {
  createStandardWallet,
  registerStandardWallet,
  type SolanaWalletBackend,
  WalletStandardError
} from "../../devstack/wallet/solana/standardWallet"
import { delegationQuestion, EIP7702_AUTHORIZATION, SIMPLE_7702_ACCOUNT } from "../../devstack/wallet/calls7702"
import { type AuthorisationStore, makeTestWallet, readableMessage } from "../../devstack/wallet/testWallet"
import { createBitcoinStandardWallet } from "../../devstack/wallet/bitcoin/standardWallet"
import { injectWeb3Extension } from "../../devstack/wallet/polkadot/extension"
import type { DemoStack } from "./config"
import { bitcoinBackend } from "./devWalletBitcoin"
import { DEV_WALLET_POLKADOT_KEY, polkadotExtension } from "./devWalletPolkadot"
import { localChainA, localChainB } from "../../src/domain/networks"

/** The wallet's name, the same in EIP-6963 and in the Wallet Standard: one wallet, two chain families. */
export const DEV_WALLET_NAME = "Dev Test Wallet"

/** The page's localStorage keys under which the wallet remembers that the demo may see its accounts, per family. */
export const DEV_WALLET_AUTHORISATION_KEYS = {
  eip155: "devwallet:eip155:authorised",
  solana: "devwallet:solana:authorised",
  bip122: "devwallet:bip122:authorised",
  polkadot: "devwallet:polkadot:authorised"
} as const

// An authorisation kept in `storage` under `key`, as an extension keeps the sites it lets see its accounts.
const storedAuthorisation = (storage: Storage, key: string): AuthorisationStore => ({
  read: () => storage.getItem(key) === "authorised",
  write: (authorised) => (authorised ? storage.setItem(key, "authorised") : storage.removeItem(key))
})

const describe = (method: string, params: unknown): string => {
  const list = Array.isArray(params) ? params : []
  if (method === "personal_sign" && typeof list[0] === "string") return `Sign this message?\n\n${readableMessage(list[0])}`
  if (method === "eth_sendTransaction") return `Send this transaction?\n\n${JSON.stringify(list[0], null, 2)}`
  if (method === "eth_requestAccounts") return "Connect the development wallet to this site?"
  if (method === "wallet_sendCalls") return `Send these calls together?\n\n${JSON.stringify(list[0], null, 2)}`
  if (method === EIP7702_AUTHORIZATION) {
    const { address, chainId } = params as { readonly address: string; readonly chainId: number }
    return delegationQuestion(address, [localChainA, localChainB].find((network) => network.id === chainId)?.name ?? `chain ${chainId}`)
  }
  return `Approve ${method}?`
}

const fieldsText = (fields: ReadonlyArray<Field>): string => fields.map((field) => `${field.label}: ${field.value}`).join("\n")

// The Wallet Standard passes what the app gave; only what the local RPC reads goes along.
const sendOptionsOf = (options: SolanaSignAndSendTransactionOptions | undefined): SendOptions => ({
  ...(options?.skipPreflight === undefined ? {} : { skipPreflight: options.skipPreflight }),
  ...(options?.preflightCommitment === undefined ? {} : { preflightCommitment: options.preflightCommitment }),
  ...(options?.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
  ...(options?.minContextSlot === undefined ? {} : { minContextSlot: options.minContextSlot })
})

/** The Solana half: dev key 0 signs and sends to the local Solana RPC, after the visitor's confirm. */
const solanaBackend = (solana: NonNullable<DemoStack["solana"]>, authorisation: AuthorisationStore): SolanaWalletBackend => {
  // Importing the key into WebCrypto is asynchronous; the wallet must be registered before the app starts.
  const key = makeSolanaDevKey(solana.devSecretKey, solana.rpcUrl)
  const ask = (question: string) => {
    if (!window.confirm(question)) throw new WalletStandardError(4001, "User rejected the request.")
  }
  const signer = async (account: string): Promise<SolanaDevKey> => {
    const devKey = await key
    if (!authorisation.read() || account !== devKey.address) {
      throw new WalletStandardError(4100, "The requested account and/or method has not been authorized by the user.")
    }
    return devKey
  }
  const signed = async (account: string, bytes: Uint8Array, question: string) => {
    const devKey = await signer(account)
    ask(`${question}\n\n${fieldsText(describeSolanaTransactionBytes(bytes))}`)
    return { devKey, transaction: await devKey.signTransaction(decodeTransactionBytes(bytes)) }
  }
  return {
    connect: async (silent) => {
      const devKey = await key
      if (!authorisation.read()) {
        if (silent) return []
        ask("Connect the development wallet's Solana account to this site?")
        authorisation.write(true)
      }
      return [devKey.address]
    },
    disconnect: async () => authorisation.write(false),
    signMessage: async (account, message) => {
      const devKey = await signer(account)
      ask(`Sign this message?\n\n${readableText(message) ?? getBase58Decoder().decode(message)}`)
      return new Uint8Array(await devKey.signMessage(message))
    },
    signTransaction: async (account, bytes) => {
      const { transaction } = await signed(account, bytes, "Sign this transaction?")
      return new Uint8Array(getTransactionEncoder().encode(transaction))
    },
    signAndSendTransaction: async (account, bytes, _chain, options) => {
      const { devKey, transaction } = await signed(account, bytes, "Send this transaction?")
      return new Uint8Array(getBase58Encoder().encode(await devKey.sendTransaction(transaction, sendOptionsOf(options))))
    },
    // The development wallet never changes its account on its own: there is nothing to tell.
    onAccountsChanged: () => () => undefined
  }
}

/** Installs and announces the development wallet (call before the wallet runtime starts). */
export const installDevWallet = (stack: DemoStack): void => {
  const chains = stack.chains.map((chain) => ({
    chainId: chain.chainId,
    name: [localChainA, localChainB].find((network) => network.id === chain.chainId)?.name ?? `Local Chain ${chain.chainId}`,
    rpcUrl: chain.rpcUrl
  }))
  const wallet = makeTestWallet({
    privateKeys: stack.devPrivateKeys,
    chains,
    chainId: chains[0]?.chainId ?? 31337,
    identity: { name: DEV_WALLET_NAME, rdns: "dev.wallet-runtime.devwallet" },
    approve: (method, params) => (window.confirm(describe(method, params)) ? "approve" : "reject"),
    batchExecutor: SIMPLE_7702_ACCOUNT,
    authorised: storedAuthorisation(localStorage, DEV_WALLET_AUTHORISATION_KEYS.eip155)
  })
  const announce = () =>
    window.dispatchEvent(
      new CustomEvent("eip6963:announceProvider", { detail: Object.freeze({ info: wallet.identity, provider: wallet }) })
    )
  window.addEventListener("eip6963:requestProvider", announce)
  announce()

  // The test wallet's icon is a base64 SVG data URL, the form the Wallet Standard asks for.
  const icon = wallet.identity.icon as WalletIcon
  if (stack.solana !== null) {
    registerStandardWallet(
      createStandardWallet(solanaBackend(stack.solana, storedAuthorisation(localStorage, DEV_WALLET_AUTHORISATION_KEYS.solana)), {
        name: DEV_WALLET_NAME,
        icon
      })
    )
  }
  const bitcoin = stack.bitcoin
  if (bitcoin !== undefined && bitcoin !== null && bitcoin.devKey !== undefined && bitcoin.devKey !== null) {
    const backend = bitcoinBackend({ ...bitcoin, devKey: bitcoin.devKey }, storedAuthorisation(localStorage, DEV_WALLET_AUTHORISATION_KEYS.bip122))
    registerStandardWallet(createBitcoinStandardWallet(backend, { name: DEV_WALLET_NAME, icon }))
  }
  // Signing needs no Polkadot node: the extension is there whenever the wallet is on.
  injectWeb3Extension(polkadotExtension(storedAuthorisation(localStorage, DEV_WALLET_AUTHORISATION_KEYS.polkadot)), DEV_WALLET_POLKADOT_KEY)
}
