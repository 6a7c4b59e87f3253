/**
 * Bitcoin wallets of the page as connectors, one per wallet: wallets registered through the Wallet Standard with
 * the `bitcoin:` features (`../bip122/walletStandardFeatures.ts`), and sats-connect-style providers
 * (`window.btc_providers` entries, and a bare `window.BitcoinProvider`) answering `request(method, params)` with
 * JSON-RPC objects. Each hands the bip122 adapter a BitcoinProvider; the accounts are the wallet's payment and
 * ordinals addresses, the host's default account type first (payment unless set, spec 6). A wallet that also
 * registers Solana features or announces EVM under the same name is merged into one row by the Connectors
 * registry. Finding them loads no chain library; this module is fetched only for hosts that configure bip122.
 */
import { getWallets } from "@wallet-standard/app"
import type { IdentifierString, Wallet, WalletAccount } from "@wallet-standard/base"
import { Effect, type Scope, Stream, SubscriptionRef } from "effect"
import type { Account, AccountType } from "../../domain/Account"
import { fromBase64, toBase64 } from "../../domain/encoding"
import { SomethingWentWrong } from "../../domain/errors"
import type { CaipNetwork } from "../../domain/Network"
import { walletKeyOf } from "../../domain/Wallet"
import { fromWalletError } from "../../domain/walletErrors"
import { type BitcoinNetworkKind, bitcoinNetworkKindOf } from "../../domain/bitcoinNetwork"
import type { BitcoinAccountAddress, BitcoinProvider } from "../bip122/provider"
import {
  BITCOIN_FEATURES,
  type BitcoinConnectFeature,
  type BitcoinPurpose,
  type BitcoinSendTransferFeature,
  type BitcoinSignMessageFeature,
  type BitcoinSignTransactionFeature
} from "../bip122/walletStandardFeatures"
import { generatedIcon, walletIcon } from "../generatedIcon"
import type { Connector, FamilySession, WalletEvent } from "./Connector"
import type { ConnectorSource } from "./Connectors"
import {
  accountsOfAnswer,
  firstOutput,
  fromWallet,
  type GivenAccount,
  givenAccounts,
  isAccountOf,
  type StandardConnect,
  standardAccountChanges,
  standardConnectorInfo,
  standardDisconnect,
  standardFeature as feature
} from "./standardWallet"

/** What Bitcoin connectors are made with. */
export interface BitcoinConnectorOptions {
  /** The host's default Bitcoin account type (`defaultAccountTypes.bip122`): that purpose's address is used first. */
  readonly accountType?: AccountType | undefined
}

const PURPOSES: ReadonlyArray<BitcoinPurpose> = ["payment", "ordinals"]

/** The accounts as the product lists them, the preferred purpose first. */
export const accountsOf = (addresses: ReadonlyArray<BitcoinAccountAddress>, accountType: AccountType | undefined): ReadonlyArray<Account> => {
  const first: BitcoinPurpose = accountType === "ordinals" ? "ordinals" : "payment"
  const sorted = [...addresses].sort((a, b) => Number(b.purpose === first) - Number(a.purpose === first))
  return sorted.map((entry) => ({ address: entry.address, type: entry.purpose }))
}

// A taproot address (witness v1, bech32m `…1p…`) is an ordinals address when the wallet does not say.
const purposeByKind = (address: string): BitcoinPurpose => (/^(bc|tb|bcrt)1p/i.test(address) ? "ordinals" : "payment")

type AddressRules = typeof import("../../domain/bitcoinAddress")
// Bitcoin's address rules (bech32/bech32m and base58check with their checksums), fetched with the first connect or
// restore (the adapter needs them then too), so that listing wallets stays light. Until then no address is taken.
let addressRules: AddressRules | undefined
const loadAddressRules = Effect.tryPromise({
  try: async () => (addressRules ??= await import("../../domain/bitcoinAddress")),
  catch: () => new SomethingWentWrong({ reason: "Bitcoin's address rules could not be loaded" })
})

// An address of the network, decoded by Bitcoin's rules (checksums, the network's prefix or version byte), not only
// its prefix: `bcrt1qzzzzzzz` is no address.
const onNetwork = (address: string, network: CaipNetwork): boolean =>
  addressRules?.isBitcoinAddress(address, bitcoinNetworkKindOf(network.caipNetworkId)) === true

const KINDS: ReadonlyArray<BitcoinNetworkKind> = ["mainnet", "testnet", "regtest"]
// An address of some Bitcoin network (an account change does not say which network it is for).
const isAnyBitcoinAddress = (address: string): boolean => KINDS.some((kind) => addressRules?.isBitcoinAddress(address, kind) === true)

/** The accounts the wallet gives for `network` (addresses of another network left out). */
const sessionOf = (
  addresses: ReadonlyArray<BitcoinAccountAddress>,
  network: CaipNetwork,
  provider: BitcoinProvider,
  options: BitcoinConnectorOptions
): ReadonlyArray<FamilySession> => {
  const accounts = accountsOf(
    addresses.filter((entry) => onNetwork(entry.address, network)),
    options.accountType
  )
  return accounts.length === 0 ? [] : [{ accounts, chainId: network.id, provider: { namespace: "bip122", provider } }]
}

// ---------------------------------------------------------------------------------------------------------------
// The Wallet Standard

type Connect = BitcoinConnectFeature["bitcoin:connect"]
type SignMessage = BitcoinSignMessageFeature["bitcoin:signMessage"]
type SignTransaction = BitcoinSignTransactionFeature["bitcoin:signTransaction"]
type SendTransfer = BitcoinSendTransferFeature["bitcoin:sendTransfer"]

/** Whether a registered wallet is one the bip122 family can use: it connects Bitcoin addresses and signs or sends. */
export const isBitcoinWallet = (wallet: Wallet): boolean =>
  fromWallet(
    wallet,
    () =>
      typeof wallet.name === "string" &&
      feature<Connect>(wallet, BITCOIN_FEATURES.connect, "connect") !== undefined &&
      (feature<SignMessage>(wallet, BITCOIN_FEATURES.signMessage, "signMessage") !== undefined ||
        feature<SignTransaction>(wallet, BITCOIN_FEATURES.signTransaction, "signTransaction") !== undefined ||
        feature<SendTransfer>(wallet, BITCOIN_FEATURES.sendTransfer, "sendTransfer") !== undefined)
  ) === true

const isBitcoinAccount = isAccountOf("bitcoin:")

/** The id of a Wallet Standard wallet's Bitcoin connector. */
export const bitcoinStandardConnectorId = (name: string): string => `wallet-standard:${walletKeyOf({ name })}:bip122`

/**
 * The wallet's `bitcoin:` features as a BitcoinProvider. `purposes` remembers which address the wallet gave for
 * which purpose (the extension answers in the order asked).
 */
export const walletStandardBitcoinProvider = (wallet: Wallet, purposes: Map<string, BitcoinPurpose>): BitcoinProvider => {
  const accountOf = (address: string): WalletAccount => {
    const account = wallet.accounts.find((a) => a.address === address)
    if (account === undefined) throw Object.assign(new Error(`The wallet no longer has the account ${address}`), { code: 4100 })
    return account
  }
  const first = firstOutput
  const signTransaction = feature<SignTransaction>(wallet, BITCOIN_FEATURES.signTransaction, "signTransaction")
  const sendTransfer = feature<SendTransfer>(wallet, BITCOIN_FEATURES.sendTransfer, "sendTransfer")
  return {
    getAccountAddresses: async () =>
      givenAccounts(() => wallet.accounts).filter(isBitcoinAccount).map((account) => ({
        address: account.address,
        ...(account.publicKey !== undefined && account.publicKey.length > 0
          ? { publicKey: Array.from(account.publicKey, (b) => b.toString(16).padStart(2, "0")).join("") }
          : {}),
        purpose: purposes.get(account.address) ?? purposeByKind(account.address)
      })),
    signMessage: async (address, message) => {
      const signMessage = feature<SignMessage>(wallet, BITCOIN_FEATURES.signMessage, "signMessage")
      if (signMessage === undefined) throw Object.assign(new Error("This wallet cannot sign messages."), { code: 4200 })
      const output = first(await signMessage.signMessage({ account: accountOf(address), message: new TextEncoder().encode(message) }))
      return toBase64(output.signature)
    },
    signPsbt:
      signTransaction === undefined
        ? undefined
        : async (psbt, inputs, chain) =>
            first(
              await signTransaction.signTransaction({
                psbt,
                chain: chain as IdentifierString,
                inputsToSign: inputs.map((entry) => ({
                  account: accountOf(entry.address),
                  signingIndexes: [...entry.indexes],
                  ...(entry.sigHash !== undefined ? { sigHash: entry.sigHash } : {})
                }))
              })
            ).signedPsbt,
    sendTransfer:
      sendTransfer === undefined
        ? undefined
        : async (from, recipient, amount, chain) =>
            first(await sendTransfer.sendTransfer({ account: accountOf(from), chain: chain as IdentifierString, recipients: [{ address: recipient, amount }] }))
              .txid
  }
}

/** A connector over one Wallet Standard wallet's Bitcoin side. */
export const makeBitcoinStandardConnector = (wallet: Wallet, options: BitcoinConnectorOptions = {}): Connector => {
  const info = standardConnectorInfo(wallet, bitcoinStandardConnectorId(wallet.name), "bip122")
  const purposes = new Map<string, BitcoinPurpose>()
  const provider = walletStandardBitcoinProvider(wallet, purposes)
  const remember = (accounts: ReadonlyArray<GivenAccount>, asked: ReadonlyArray<BitcoinPurpose> | undefined) => {
    const bitcoinAccounts = accounts.filter(isBitcoinAccount)
    // The extension answers in the purposes' order; a wallet that answers otherwise is read by address kind.
    bitcoinAccounts.forEach((account, index) =>
      purposes.set(account.address, asked !== undefined && bitcoinAccounts.length === asked.length ? asked[index]! : (purposes.get(account.address) ?? purposeByKind(account.address)))
    )
  }
  const open = (silent: boolean, networks: ReadonlyArray<CaipNetwork>) =>
    Effect.gen(function* () {
      const network = networks.find((n) => n.chainNamespace === "bip122")
      if (network === undefined) return []
      yield* loadAddressRules
      if (silent) {
        // Restoring: only what the wallet already authorises, never a prompt.
        const standard = feature<StandardConnect>(wallet, "standard:connect", "connect")
        const accounts =
          standard === undefined
            ? givenAccounts(() => wallet.accounts)
            : accountsOfAnswer(yield* Effect.tryPromise({ try: (): Promise<unknown> => standard.connect({ silent: true }), catch: fromWalletError }))
        remember(accounts, undefined)
      } else {
        const connect = feature<Connect>(wallet, BITCOIN_FEATURES.connect, "connect")
        if (connect === undefined) return []
        const answer: unknown = yield* Effect.tryPromise({ try: () => connect.connect({ purposes: PURPOSES }), catch: fromWalletError })
        remember(accountsOfAnswer(answer), PURPOSES)
      }
      const addresses = yield* Effect.promise(() => provider.getAccountAddresses())
      const sessions = sessionOf(addresses, network, provider, options)
      if (sessions.length === 0 && !silent) {
        return yield* new SomethingWentWrong({ reason: `The wallet gave no Bitcoin address of ${network.name}` })
      }
      return sessions
    })
  return {
    info,
    namespaces: ["bip122"],
    memberIds: [],
    connect: (networks) => open(false, networks).pipe(Effect.withSpan("BitcoinStandardConnector.connect")),
    reconnect: (networks) => open(true, networks).pipe(Effect.withSpan("BitcoinStandardConnector.reconnect")),
    disconnect: standardDisconnect(wallet).pipe(Effect.withSpan("BitcoinStandardConnector.disconnect")),
    events: standardAccountChanges(wallet, (accounts): WalletEvent => {
      remember(accounts, undefined)
      const addresses = accounts.filter((account) => isBitcoinAccount(account) && isAnyBitcoinAddress(account.address)).map((account) => ({
        address: account.address,
        purpose: purposes.get(account.address) ?? purposeByKind(account.address)
      }))
      return { _tag: "AccountsChanged", namespace: "bip122", accounts: accountsOf(addresses, options.accountType) }
    })
  }
}

// ---------------------------------------------------------------------------------------------------------------
// sats-connect-style providers

/** A sats-connect-style provider: `request(method, params)` answering a JSON-RPC response object. */
export interface SatsConnectProvider {
  readonly request: (method: string, params?: unknown) => Promise<unknown>
}

/** An entry of `window.btc_providers`, as sats-connect lists installed wallets. */
export interface SatsConnectEntry {
  /** Where the provider is, as a path from `window` (`XverseProviders.BitcoinProvider`). */
  readonly id: string
  readonly name: string
  readonly icon?: string | undefined
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null

/** The result of a sats-connect answer, or the wallet's error as a thrown error with its code. */
const resultOf = async (provider: SatsConnectProvider, method: string, params: unknown): Promise<Record<string, unknown>> => {
  const answer = await provider.request(method, params)
  if (isRecord(answer) && isRecord(answer["error"])) {
    const error = answer["error"]
    throw Object.assign(new Error(typeof error["message"] === "string" ? error["message"] : `${method} failed`), {
      code: typeof error["code"] === "number" ? error["code"] : undefined
    })
  }
  const result = isRecord(answer) && "result" in answer ? answer["result"] : answer
  if (Array.isArray(result)) return { addresses: result }
  if (!isRecord(result)) throw new Error(`The wallet answered ${method} with nothing`)
  return result
}

const addressesOf = (result: Record<string, unknown>): ReadonlyArray<BitcoinAccountAddress> =>
  (Array.isArray(result["addresses"]) ? result["addresses"] : []).flatMap((entry): ReadonlyArray<BitcoinAccountAddress> => {
    if (!isRecord(entry) || typeof entry["address"] !== "string") return []
    const purpose = entry["purpose"] === "ordinals" || entry["purpose"] === "payment" ? entry["purpose"] : purposeByKind(entry["address"])
    return [{ address: entry["address"], purpose, ...(typeof entry["publicKey"] === "string" ? { publicKey: entry["publicKey"] } : {}) }]
  })

const METHOD_NOT_FOUND = -32601

/** A sats-connect-style provider as a BitcoinProvider; `known` keeps the addresses the wallet gave. */
export const satsConnectBitcoinProvider = (provider: SatsConnectProvider, known: { addresses: ReadonlyArray<BitcoinAccountAddress> }): BitcoinProvider => ({
  getAccountAddresses: async () => known.addresses,
  signMessage: async (address, message) => {
    const result = await resultOf(provider, "signMessage", { address, message, protocol: "BIP322" })
    if (typeof result["signature"] !== "string") throw new Error("The wallet answered no signature")
    return result["signature"]
  },
  signPsbt: async (psbt, inputs) => {
    const signInputs: Record<string, Array<number>> = {}
    for (const entry of inputs) signInputs[entry.address] = [...(signInputs[entry.address] ?? []), ...entry.indexes]
    const result = await resultOf(provider, "signPsbt", { psbt: toBase64(psbt), signInputs, broadcast: false })
    const signed = typeof result["psbt"] === "string" ? fromBase64(result["psbt"]) : undefined
    if (signed === undefined) throw new Error("The wallet answered no PSBT")
    return signed
  },
  sendTransfer: async (_from, recipient, amount) => {
    if (amount > BigInt(Number.MAX_SAFE_INTEGER)) throw Object.assign(new Error("The amount is too large for this wallet"), { code: -32602 })
    const result = await resultOf(provider, "sendTransfer", { recipients: [{ address: recipient, amount: Number(amount) }] })
    if (typeof result["txid"] !== "string") throw new Error("The wallet answered no transaction id")
    return result["txid"]
  }
})

/** The id of a sats-connect-style provider's connector. */
export const satsConnectConnectorId = (entry: Pick<SatsConnectEntry, "id">): string => `sats-connect:${entry.id}`

/** A connector over one sats-connect-style provider. */
export const makeSatsConnectConnector = (entry: SatsConnectEntry, provider: SatsConnectProvider, options: BitcoinConnectorOptions = {}): Connector => {
  const known: { addresses: ReadonlyArray<BitcoinAccountAddress> } = { addresses: [] }
  const bitcoin = satsConnectBitcoinProvider(provider, known)
  const ask = (method: string, params: unknown) => Effect.tryPromise({ try: () => resultOf(provider, method, params), catch: fromWalletError })
  const open = (silent: boolean, networks: ReadonlyArray<CaipNetwork>) =>
    Effect.gen(function* () {
      const network = networks.find((n) => n.chainNamespace === "bip122")
      if (network === undefined) return []
      yield* loadAddressRules
      if (silent) {
        // Restoring: `wallet_getAccount` answers without a prompt while the site holds the wallet's permission.
        const result = yield* Effect.option(ask("wallet_getAccount", null))
        known.addresses = result._tag === "Some" ? addressesOf(result.value) : []
        return sessionOf(known.addresses, network, bitcoin, options)
      }
      const result = yield* ask("getAddresses", { purposes: PURPOSES }).pipe(
        Effect.catchIf(
          (error) => error._tag === "WalletMethodUnsupported" || (error._tag === "WalletError" && error.code === METHOD_NOT_FOUND),
          () => ask("getAccounts", { purposes: PURPOSES })
        )
      )
      known.addresses = addressesOf(result)
      const sessions = sessionOf(known.addresses, network, bitcoin, options)
      if (sessions.length === 0) return yield* new SomethingWentWrong({ reason: `The wallet gave no Bitcoin address of ${network.name}` })
      return sessions
    })
  return {
    info: {
      id: satsConnectConnectorId(entry),
      name: entry.name,
      type: "INJECTED",
      chain: "bip122",
      chains: [],
      imageUrl: typeof entry.icon === "string" ? walletIcon(entry.icon, entry.name, entry.name) : generatedIcon(entry.name, entry.name)
    },
    namespaces: ["bip122"],
    memberIds: [],
    connect: (networks) => open(false, networks).pipe(Effect.withSpan("SatsConnectConnector.connect")),
    reconnect: (networks) => open(true, networks).pipe(Effect.withSpan("SatsConnectConnector.reconnect")),
    disconnect: Effect.promise(() =>
      Promise.resolve()
        .then(() => provider.request("wallet_renouncePermissions", null))
        .catch(() => undefined)
    ).pipe(
      Effect.tap(() => Effect.sync(() => (known.addresses = []))),
      Effect.asVoid,
      Effect.withSpan("SatsConnectConnector.disconnect")
    ),
    events: Stream.empty
  }
}

/** The providers a page lists the sats-connect way: `window.btc_providers`, then a bare `window.BitcoinProvider`. */
export const satsConnectProvidersOf = (
  page: Record<string, unknown>
): ReadonlyArray<{ readonly entry: SatsConnectEntry; readonly provider: SatsConnectProvider }> => {
  const found: Array<{ readonly entry: SatsConnectEntry; readonly provider: SatsConnectProvider }> = []
  const isProvider = (value: unknown): value is SatsConnectProvider => isRecord(value) && typeof value["request"] === "function"
  // Any script can write these: every read is guarded, and an entry that is not what it says is left out.
  try {
    const listed = page["btc_providers"]
    for (const entry of Array.isArray(listed) ? listed.slice(0, 20) : []) {
      if (!isRecord(entry) || typeof entry["id"] !== "string" || typeof entry["name"] !== "string" || entry["name"].trim() === "") continue
      const provider = entry["id"].split(".").reduce<unknown>((at, key) => (isRecord(at) ? at[key] : undefined), page)
      if (!isProvider(provider) || found.some((known) => known.provider === provider)) continue
      found.push({ entry: { id: entry["id"], name: entry["name"].trim().slice(0, 60), ...(typeof entry["icon"] === "string" ? { icon: entry["icon"] } : {}) }, provider })
    }
    const bare = page["BitcoinProvider"]
    if (isProvider(bare) && !found.some((known) => known.provider === bare)) {
      found.push({ entry: { id: "BitcoinProvider", name: "Bitcoin Wallet" }, provider: bare })
    }
  } catch {
    // A getter that throws: what was found so far is kept.
  }
  return found
}

/** The page's Bitcoin wallets (Wallet Standard and sats-connect), live for as long as the scope lives; empty off the browser. */
export const browserBitcoinSource = (options: BitcoinConnectorOptions = {}): Effect.Effect<ConnectorSource, never, Scope.Scope> =>
  Effect.gen(function* () {
    const connectors = yield* SubscriptionRef.make<ReadonlyArray<Connector>>([])
    if (typeof window === "undefined") return connectors
    const wallets = getWallets()
    const made = new Map<unknown, Connector>()
    const reuse = (key: unknown, make: () => Connector): Connector => {
      const existing = made.get(key)
      if (existing !== undefined) return existing
      const connector = make()
      made.set(key, connector)
      return connector
    }
    const publish = () => {
      // Each wallet is made on its own: one whose getters throw is left out, the others are listed.
      const standard = wallets
        .get()
        .filter(isBitcoinWallet)
        .flatMap((wallet) => {
          const connector = made.get(wallet) ?? fromWallet(wallet, (w) => reuse(w, () => makeBitcoinStandardConnector(w, options)))
          return connector === undefined ? [] : [connector]
        })
      const injected = satsConnectProvidersOf(window as unknown as Record<string, unknown>)
      const next = [
        ...standard,
        // A wallet also registered through the Wallet Standard is listed once, through it.
        ...injected
          .filter(({ entry }) => !standard.some((connector) => walletKeyOf({ name: connector.info.name ?? "" }) === walletKeyOf({ name: entry.name })))
          .map(({ entry, provider }) => reuse(provider, () => makeSatsConnectConnector(entry, provider, options)))
      ]
      for (const key of made.keys()) if (!next.includes(made.get(key)!)) made.delete(key)
      Effect.runSync(SubscriptionRef.set(connectors, next))
    }
    yield* Effect.acquireRelease(
      Effect.sync(() => [wallets.on("register", publish), wallets.on("unregister", publish)]),
      (offs) => Effect.sync(() => offs.forEach((off) => off()))
    )
    publish()
    return connectors
  })
