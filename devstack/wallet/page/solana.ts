/**
 * The Solana side of the dev wallets: a dev key that signs with @solana/kit (WebCrypto, so the same code runs in a
 * page and in Node) and sends through the local Solana RPC. `makeSolanaDevKey` works on bytes (the demo's Wallet
 * Standard wallet uses it); `makeSolanaDevSigner` answers WalletConnect's `solana_*` requests over it, in
 * WalletConnect's formats: base58 messages and signatures, base64 wire transactions (the test wallet page and the
 * Node tests' dev wallet use it).
 */
import {
  type Address,
  createKeyPairSignerFromBytes,
  getBase58Decoder,
  getBase58Encoder,
  getBase64EncodedWireTransaction,
  getBase64Encoder,
  getTransactionDecoder,
  type KeyPairSigner,
  partiallySignTransaction,
  type ReadonlyUint8Array,
  type SignatureBytes,
  signBytes,
  type Transaction
} from "@solana/kit"
import { Schema } from "effect"
import { ProviderRpcError } from "../testWallet"

const SendOptions = Schema.Struct({
  skipPreflight: Schema.optionalKey(Schema.Boolean),
  preflightCommitment: Schema.optionalKey(Schema.Literals(["processed", "confirmed", "finalized"])),
  maxRetries: Schema.optionalKey(Schema.Number),
  minContextSlot: Schema.optionalKey(Schema.Number)
})
/** The `sendTransaction` options a dapp may pass along. */
export type SendOptions = typeof SendOptions.Type

/** A dev key: signs messages and transactions, sends transactions to the local Solana RPC. */
export interface SolanaDevKey {
  readonly address: Address
  /** The ed25519 signature of `message`. */
  readonly signMessage: (message: ReadonlyUint8Array) => Promise<SignatureBytes>
  /** `transaction` with this key's signature added; fails with 4100 when the transaction does not ask for it. */
  readonly signTransaction: (transaction: Transaction) => Promise<Transaction>
  /** Sends a signed transaction; resolves with its signature (base58) once the RPC accepted it. */
  readonly sendTransaction: (transaction: Transaction, options?: SendOptions) => Promise<string>
}

/** Reads wire bytes as a transaction; unreadable bytes are the dapp's mistake (-32602). */
export const decodeTransactionBytes = (bytes: ReadonlyUint8Array): Transaction => {
  try {
    return getTransactionDecoder().decode(bytes)
  } catch (error) {
    throw new ProviderRpcError(-32602, `Not a Solana transaction: ${error instanceof Error ? error.message : String(error)}`)
  }
}

const base58 = { encode: getBase58Encoder(), decode: getBase58Decoder() }

/**
 * The dev key of `secretKey` (base58 of 64 bytes, seed then public key, as `solana-keygen` writes it), sending
 * through the Solana JSON-RPC at `rpcUrl`.
 */
export const makeSolanaDevKey = async (secretKey: string, rpcUrl: string): Promise<SolanaDevKey> => {
  const signer: KeyPairSigner = await createKeyPairSignerFromBytes(base58.encode.encode(secretKey))
  let rpcId = 1
  return {
    address: signer.address,
    signMessage: (message) => signBytes(signer.keyPair.privateKey, message),
    signTransaction: async (transaction) => {
      if (!(signer.address in transaction.signatures)) {
        throw new ProviderRpcError(4100, `The transaction does not ask ${signer.address}, this wallet's account, to sign it.`)
      }
      return partiallySignTransaction([signer.keyPair], transaction)
    },
    sendTransaction: async (transaction, options) => {
      const wire = getBase64EncodedWireTransaction(transaction)
      const response = await fetch(rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: rpcId++, method: "sendTransaction", params: [wire, { ...options, encoding: "base64" }] })
      })
      const body = (await response.json()) as { result?: unknown; error?: { code: number; message: string; data?: unknown } }
      if (body.error !== undefined) throw new ProviderRpcError(body.error.code, body.error.message, body.error.data)
      if (typeof body.result !== "string") throw new ProviderRpcError(-32603, "The Solana RPC answered sendTransaction without a signature.")
      return body.result
    }
  }
}

/** A dev key answering WalletConnect's Solana requests. */
export interface SolanaDevSigner {
  readonly address: Address
  /** Answers one `solana_*` request; fails with a {@link ProviderRpcError} (-32602 bad params, 4100 not our key, the RPC's own code). */
  readonly request: (method: string, params: unknown) => Promise<unknown>
}

const SignMessageParams = Schema.Struct({ message: Schema.String, pubkey: Schema.String })
const SignTransactionParams = Schema.Struct({ transaction: Schema.String })
const SignAllTransactionsParams = Schema.Struct({ transactions: Schema.Array(Schema.String) })
const SignAndSendParams = Schema.Struct({ transaction: Schema.String, sendOptions: Schema.optionalKey(SendOptions) })

const decodeParams = <A>(schema: Schema.ConstraintDecoder<A>, method: string, params: unknown): A => {
  try {
    return Schema.decodeUnknownSync(schema)(params)
  } catch (error) {
    throw new ProviderRpcError(-32602, `${method}: ${error instanceof Error ? error.message : String(error)}`)
  }
}

const fromBase58 = (text: string, what: string): ReadonlyUint8Array => {
  try {
    return base58.encode.encode(text)
  } catch {
    throw new ProviderRpcError(-32602, `${what} is not base58.`)
  }
}

const fromBase64 = (text: string): ReadonlyUint8Array => {
  try {
    return getBase64Encoder().encode(text)
  } catch {
    throw new ProviderRpcError(-32602, "The transaction is not base64.")
  }
}

/** WalletConnect's `solana_*` requests answered with the dev key of `secretKey`, sending through `rpcUrl`. */
export const makeSolanaDevSigner = async (secretKey: string, rpcUrl: string): Promise<SolanaDevSigner> => {
  const key = await makeSolanaDevKey(secretKey, rpcUrl)

  const sign = async (wire: string): Promise<{ readonly signature: string; readonly signed: Transaction }> => {
    const signed = await key.signTransaction(decodeTransactionBytes(fromBase64(wire)))
    const signature = signed.signatures[key.address]
    if (signature === null || signature === undefined) throw new ProviderRpcError(-32603, "The transaction was not signed.")
    return { signature: base58.decode.decode(signature), signed }
  }

  const request = async (method: string, params: unknown): Promise<unknown> => {
    switch (method) {
      case "solana_getAccounts":
      case "solana_requestAccounts":
        return [{ pubkey: key.address }]
      case "solana_signMessage": {
        const { message, pubkey } = decodeParams(SignMessageParams, method, params)
        if (pubkey !== key.address) throw new ProviderRpcError(4100, `${pubkey} is not this wallet's account.`)
        return { signature: base58.decode.decode(await key.signMessage(fromBase58(message, "The message"))) }
      }
      case "solana_signTransaction": {
        const { signature, signed } = await sign(decodeParams(SignTransactionParams, method, params).transaction)
        return { signature, transaction: getBase64EncodedWireTransaction(signed) }
      }
      case "solana_signAllTransactions": {
        const { transactions } = decodeParams(SignAllTransactionsParams, method, params)
        const signed = await Promise.all(transactions.map(sign))
        return { transactions: signed.map((one) => getBase64EncodedWireTransaction(one.signed)) }
      }
      case "solana_signAndSendTransaction": {
        const { transaction, sendOptions } = decodeParams(SignAndSendParams, method, params)
        return { signature: await key.sendTransaction((await sign(transaction)).signed, sendOptions) }
      }
      default:
        throw new ProviderRpcError(4200, `The wallet does not support ${method}.`)
    }
  }

  return { address: key.address, request }
}
