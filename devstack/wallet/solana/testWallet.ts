/**
 * The Solana test wallet in Node: the devstack's Solana dev keys, ed25519 signing with @solana/kit, transactions
 * sent to the local Solana RPC, and a visitor scripted by the test (approve or refuse each prompt, pick another
 * account, disconnect the site from the wallet). Its {@link SolanaWalletBackend} is what the Wallet Standard object
 * of `standardWallet.ts` runs over, here in Node or in a page through `test/e2e/support/injectedSolanaWallet.ts`.
 * Its keys are public dev keys: never give it a real key.
 */
import {
  type Address,
  createKeyPairFromBytes,
  createSolanaRpc,
  getAddressDecoder,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  getTransactionDecoder,
  getTransactionEncoder,
  partiallySignTransaction,
  signBytes
} from "@solana/kit"
import type { WalletIcon } from "@wallet-standard/base"
import { devSolanaKey } from "../../solana/keys"
import {
  createStandardWallet,
  SOLANA_LOCALNET_CHAIN,
  type SolanaWalletBackend,
  type StandardSolanaWallet,
  WalletStandardError
} from "./standardWallet"

/** What the scripted visitor answers to a prompt. */
export type Approval = "approve" | "reject"

/** The backend calls that prompt the visitor, by their Wallet Standard feature name. */
export type SolanaPromptMethod =
  | "standard:connect"
  | "solana:signMessage"
  | "solana:signTransaction"
  | "solana:signAndSendTransaction"

/** What a prompt is about: the account, and the message or wire transaction to sign. */
export interface SolanaPrompt {
  readonly account?: string
  readonly bytes?: Uint8Array
  readonly chain?: string
}

/** Options of {@link makeSolanaTestWallet}. */
export interface SolanaTestWalletOptions {
  /** The local Solana RPC (`startSolana().info.rpcUrl`): where `solana:localnet` transactions are sent. */
  readonly rpcUrl: string
  /** base58 64-byte secret keys (seed then public key); default the dev keys 0, 1 and 2 (`devSolanaKey`). */
  readonly secretKeys?: ReadonlyArray<string>
  /** Decides each prompt; by default every prompt is approved (see also `setApproval`). */
  readonly approve?: (method: SolanaPromptMethod, prompt: SolanaPrompt) => Approval | Promise<Approval>
  /** The site is already authorised, as after an earlier visit: a silent connect gives the account. */
  readonly authorised?: boolean
  /** The Wallet Standard name (default "Solana Test Wallet"). */
  readonly name?: string
  readonly icon?: WalletIcon
}

/** The Node test wallet: its backend, its Wallet Standard object, and controls for tests. */
export interface SolanaTestWallet {
  readonly backend: SolanaWalletBackend
  /** The Wallet Standard object over {@link backend}, for tests that run the app side in Node. */
  readonly wallet: StandardSolanaWallet
  /** Every backend call, by feature name (`standard:connect`, `solana:signMessage`, …), in order. */
  readonly requests: ReadonlyArray<string>
  /** Whether the site is authorised (a silent connect then answers the account). */
  readonly authorised: boolean
  /** The addresses of the wallet's keys, in order. */
  readonly addresses: ReadonlyArray<Address>
  /** The account the site sees when authorised. */
  readonly address: () => Address
  /** Sets how prompts are answered from now on (when no `approve` option decides). */
  readonly setApproval: (approval: Approval) => void
  /** The visitor picks another account in the wallet: an authorised site hears a `change`. */
  readonly selectAccount: (index: number) => void
  /** The visitor disconnects the site in the wallet: it hears a `change` with no accounts. */
  readonly revoke: () => void
}

const base58 = getBase58Encoder()
const addressDecoder = getAddressDecoder()
const transactionDecoder = getTransactionDecoder()
const transactionEncoder = getTransactionEncoder()

const rejected = () => new WalletStandardError(4001, "User rejected the request.")
const unauthorised = () =>
  new WalletStandardError(4100, "The requested account and/or method has not been authorized by the user.")

/** Makes a Solana test wallet over the dev keys (or `secretKeys`). */
export const makeSolanaTestWallet = (options: SolanaTestWalletOptions): SolanaTestWallet => {
  const secrets = options.secretKeys ?? [0, 1, 2].map((index) => devSolanaKey(index).secretKey)
  if (secrets.length === 0) throw new Error("a Solana test wallet needs at least one key")
  const secretBytes = secrets.map((secret) => base58.encode(secret))
  const addresses = secretBytes.map((bytes) => addressDecoder.decode(bytes.slice(32)))
  const keyPairs = new Map<number, Promise<CryptoKeyPair>>()
  const keyPair = (index: number): Promise<CryptoKeyPair> => {
    let pair = keyPairs.get(index)
    if (pair === undefined) {
      pair = createKeyPairFromBytes(secretBytes[index] as Uint8Array)
      keyPairs.set(index, pair)
    }
    return pair
  }
  const rpc = createSolanaRpc(options.rpcUrl)
  const listeners = new Set<(accounts: ReadonlyArray<string>) => void>()
  const requests: Array<string> = []
  let current = 0
  let authorised = options.authorised ?? false
  let approval: Approval = "approve"

  const address = (): Address => addresses[current] as Address
  const emit = (accounts: ReadonlyArray<string>) => {
    for (const listener of [...listeners]) listener(accounts)
  }
  const ask = async (method: SolanaPromptMethod, prompt: SolanaPrompt) => {
    const answer = options.approve !== undefined ? await options.approve(method, prompt) : approval
    if (answer === "reject") throw rejected()
  }
  // A site may use only the account it was shown, and only while authorised.
  const signer = (account: string): Promise<CryptoKeyPair> => {
    if (!authorised || account !== address()) throw unauthorised()
    return keyPair(current)
  }
  const readTransaction = (wire: Uint8Array) => {
    try {
      return transactionDecoder.decode(wire)
    } catch {
      throw new WalletStandardError(-32602, "The wallet cannot read this transaction.")
    }
  }
  const sign = async (account: string, wire: Uint8Array) => {
    const transaction = readTransaction(wire)
    if (!(account in transaction.signatures)) {
      throw new WalletStandardError(-32602, `The transaction does not ask ${account} to sign it.`)
    }
    return partiallySignTransaction([await signer(account)], transaction)
  }
  const served = (chain: string | undefined) => {
    if (chain !== undefined && chain !== SOLANA_LOCALNET_CHAIN) {
      throw new WalletStandardError(-32602, `The wallet does not serve ${chain}.`)
    }
  }

  const backend: SolanaWalletBackend = {
    connect: async (silent) => {
      requests.push("standard:connect")
      if (!authorised) {
        if (silent) return []
        await ask("standard:connect", {})
        authorised = true
      }
      return [address()]
    },
    disconnect: async () => {
      requests.push("standard:disconnect")
      authorised = false
    },
    signMessage: async (account, message) => {
      requests.push("solana:signMessage")
      const pair = await signer(account)
      await ask("solana:signMessage", { account, bytes: message })
      return new Uint8Array(await signBytes(pair.privateKey, message))
    },
    signTransaction: async (account, wire, chain) => {
      requests.push("solana:signTransaction")
      served(chain)
      await signer(account)
      await ask("solana:signTransaction", { account, bytes: wire, ...(chain === undefined ? {} : { chain }) })
      return new Uint8Array(transactionEncoder.encode(await sign(account, wire)))
    },
    signAndSendTransaction: async (account, wire, chain, sendOptions) => {
      requests.push("solana:signAndSendTransaction")
      served(chain)
      await signer(account)
      await ask("solana:signAndSendTransaction", { account, bytes: wire, chain })
      const signed = await sign(account, wire)
      await rpc
        .sendTransaction(getBase64EncodedWireTransaction(signed), {
          encoding: "base64",
          ...(sendOptions?.skipPreflight === undefined ? {} : { skipPreflight: sendOptions.skipPreflight }),
          ...(sendOptions?.preflightCommitment === undefined ? {} : { preflightCommitment: sendOptions.preflightCommitment }),
          ...(sendOptions?.maxRetries === undefined ? {} : { maxRetries: BigInt(sendOptions.maxRetries) }),
          ...(sendOptions?.minContextSlot === undefined ? {} : { minContextSlot: BigInt(sendOptions.minContextSlot) })
        })
        .send()
      return new Uint8Array(signed.signatures[account as Address] as Uint8Array)
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
    wallet: createStandardWallet(backend, {
      ...(options.name === undefined ? {} : { name: options.name }),
      ...(options.icon === undefined ? {} : { icon: options.icon })
    }),
    requests,
    get authorised() {
      return authorised
    },
    addresses,
    address,
    setApproval: (next) => {
      approval = next
    },
    selectAccount: (index) => {
      if (index < 0 || index >= addresses.length) throw new Error(`no account ${index}`)
      current = index
      if (authorised) emit([address()])
    },
    revoke: () => {
      authorised = false
      emit([])
    }
  }
}
