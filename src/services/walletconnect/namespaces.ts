/**
 * What a WalletConnect session asks the wallet for (spec 7.5): one namespace per configured chain family that the
 * protocol serves, with its chains, methods, events and an `rpcMap` of the host's own RPCs (reads never go through a
 * hosted RPC; the wallet is asked only chains, methods and events). Pure: nothing here loads WalletConnect.
 */
import type { CaipNetworkId, ChainNamespace } from "../../domain/Caip"
import type { CaipNetwork } from "../../domain/Network"
import type { HostOptions } from "../../domain/Options"

// The list of served families lives with what the connector and its session share, since the connector (in the core)
// reads it at start; this module, with every family's methods, comes with the session code.
export { WALLET_CONNECT_NAMESPACES } from "./types"

/** Methods a session asks an eip155 wallet for. */
export const EIP155_METHODS: ReadonlyArray<string> = [
  "eth_accounts",
  "eth_requestAccounts",
  "eth_sendRawTransaction",
  "eth_sign",
  "eth_signTransaction",
  "eth_signTypedData",
  "eth_signTypedData_v3",
  "eth_signTypedData_v4",
  "eth_sendTransaction",
  "personal_sign",
  "wallet_switchEthereumChain",
  "wallet_addEthereumChain",
  "wallet_getPermissions",
  "wallet_requestPermissions",
  "wallet_registerOnboarding",
  "wallet_watchAsset",
  "wallet_scanQRCode",
  "wallet_getCallsStatus",
  "wallet_showCallsStatus",
  "wallet_sendCalls",
  "wallet_getCapabilities",
  "wallet_grantPermissions",
  "wallet_revokePermissions",
  "wallet_getAssets"
]

/** Methods a session asks a Solana wallet for. */
export const SOLANA_METHODS: ReadonlyArray<string> = [
  "solana_signMessage",
  "solana_signTransaction",
  "solana_requestAccounts",
  "solana_getAccounts",
  "solana_signAllTransactions",
  "solana_signAndSendTransaction"
]

/**
 * Methods a session asks a Polkadot wallet for. AppKit defines none; ours, in the shapes WalletConnect's Polkadot
 * RPC reference gives them (params decoded with `domain/Requests.ts`):
 * - `polkadot_signMessage` `{ address, message }` → `{ signature }`: `address` an SS58 account of the session,
 *   `message` the text or its 0x-hex bytes (the product sends the hex of `<Bytes>text</Bytes>`; wallets wrap once);
 *   `signature` 0x-hex, 64 bytes for sr25519 and ed25519, 65 for ecdsa.
 * - `polkadot_signTransaction` `{ address, transactionPayload }` → `{ signature }`: `transactionPayload` a
 *   polkadot-js `SignerPayloadJSON`; `signature` 0x-hex led by the key type's byte (00 ed25519, 01 sr25519, 02 ecdsa).
 */
export const POLKADOT_SESSION_METHODS: ReadonlyArray<string> = ["polkadot_signMessage", "polkadot_signTransaction"]

/**
 * Methods a session asks a Bitcoin wallet for (spec 6), in the shapes of WalletConnect's Bitcoin RPC reference:
 * - `getAccountAddresses` `{ account, intentions? }` → `[{ address, publicKey?, path?, intention? }]`;
 * - `signMessage` `{ account, address, message, protocol? }` → `{ address, signature, messageHash? }` (BIP-322 simple for
 *   segwit and taproot addresses, base64);
 * - `signPsbt` `{ account, psbt, signInputs: [{ address, index, sighashTypes }], broadcast? }` → `{ psbt, txid? }`;
 * - `sendTransfer` `{ account, recipientAddress, amount, memo? }` → `{ txid }` (`amount` satoshis as decimal text).
 * `account` is the session's account: its first external payment address.
 */
export const BITCOIN_SESSION_METHODS: ReadonlyArray<string> = ["sendTransfer", "signMessage", "signPsbt", "getAccountAddresses"]

/** Events a session follows in every namespace. */
export const SESSION_EVENTS: ReadonlyArray<string> = ["accountsChanged", "chainChanged"]

const METHODS: Partial<Record<ChainNamespace, ReadonlyArray<string>>> = {
  eip155: EIP155_METHODS,
  solana: SOLANA_METHODS,
  polkadot: POLKADOT_SESSION_METHODS,
  bip122: BITCOIN_SESSION_METHODS
}

/** One namespace of a session proposal, as the connector builds it (only chains, methods and events go on the wire). */
export interface ProposalNamespace {
  chains: Array<CaipNetworkId>
  methods: Array<string>
  events: Array<string>
  rpcMap: Record<string, string>
  defaultChain?: string
}

/** The RPC a network is read through: the host's custom RPC first, else the network's own. */
export const rpcUrlOf = (options: Pick<HostOptions, "customRpcUrls">, network: CaipNetwork): string | undefined =>
  options.customRpcUrls?.[network.caipNetworkId]?.[0]?.url ?? network.rpcUrls.default.http[0]

/**
 * The optional namespaces of a proposal: every configured family WalletConnect serves (all four), its chains
 * in the host's order, `defaultChain` the one to start on when it belongs to the family.
 */
export const proposalNamespaces = (
  options: Pick<HostOptions, "networks" | "customRpcUrls">,
  startOn?: CaipNetwork
): Record<string, ProposalNamespace> => {
  const namespaces: Record<string, ProposalNamespace> = {}
  for (const network of options.networks) {
    const methods = METHODS[network.chainNamespace]
    if (methods === undefined) continue
    const entry = (namespaces[network.chainNamespace] ??= {
      chains: [],
      methods: [...methods],
      events: [...SESSION_EVENTS],
      rpcMap: {}
    })
    entry.chains.push(network.caipNetworkId)
    const rpc = rpcUrlOf(options, network)
    if (rpc !== undefined) entry.rpcMap[String(network.id)] = rpc
  }
  const start = startOn === undefined ? undefined : namespaces[startOn.chainNamespace]
  if (start !== undefined && startOn !== undefined && start.chains.includes(startOn.caipNetworkId)) {
    // The wallet starts on the network the visitor is on: it goes first, and is the provider's default.
    start.chains = [startOn.caipNetworkId, ...start.chains.filter((chain) => chain !== startOn.caipNetworkId)]
    // A namespace's default chain as its reference ("31338"), not its CAIP-2 id.
    start.defaultChain = String(startOn.id)
  }
  return namespaces
}
