/**
 * A scripted wallet for tests, in any family the product speaks: its connector (what the Connectors registry
 * lists), the providers it hands each family (an EIP-1193 provider and a Solana provider answering from the script,
 * so even the real adapters can run over them), a way to make it act on its own, and a record of what was asked
 * of it. `makeFakeChainAdapter` gives a family's adapter over such wallets without any chain.
 */
import { Effect, PubSub, Stream } from "effect"
import type { Account } from "../../domain/Account"
import type { ChainNamespace } from "../../domain/Caip"
import { DisconnectFailed, SomethingWentWrong } from "../../domain/errors"
import { FeatureUnavailable } from "../../domain/featureUnavailable"
import { familySupports } from "../../domain/familyFeatures"
import { FAMILY_NAMES } from "../../domain/familyFeaturesText"
import type { NetworkChainId } from "../../domain/Network"
import type { ConnectorType } from "../../domain/Wallet"
import { toBase64 } from "../../domain/encoding"
import type { BitcoinProvider } from "../bip122/provider"
import type { ChainAdapter, SendError, SignError, SwitchError } from "../ChainAdapter"
import type { ConnectError, Connector, FamilyProvider, FamilySession, ProvidedNamespace, WalletEvent } from "../connectors/Connector"
import type { PolkadotProvider } from "../polkadot/provider"

/** A family the fake wallet serves: its accounts (the one in use first) and its chain. */
export interface FakeFamily {
  accounts: ReadonlyArray<Account>
  chainId: NetworkChainId
}

/** How a fake wallet behaves; every field can be changed while a test runs. */
export interface FakeWalletScript {
  families: Partial<Record<ProvidedNamespace, FakeFamily>>
  /** Whether the wallet still authorises the site on reconnect. */
  authorised: boolean
  /** A failure the next connects return. */
  connectError: ConnectError | undefined
  /** Connects wait for this before answering (a wallet whose prompt is still open); `undefined` answers at once. */
  connectGate: Promise<void> | undefined
  /** Reconnects wait for this before answering (a wallet that is slow to answer at start). */
  reconnectGate: Promise<void> | undefined
  /** Switches, signatures, sends and raw requests wait for this before answering (a prompt left open). */
  answerGate: Promise<void> | undefined
  switchError: SwitchError | undefined
  disconnectError: DisconnectFailed | undefined
  signError: SignError | undefined
  sendError: SendError | undefined
  /** What raw requests answer (by default null): e.g. a batch's status for `wallet_getCallsStatus`. */
  requestAnswer: ((method: string, params: unknown) => unknown) | undefined
}

/** A fake wallet: its connector, its script, a way to make it act, and the calls made to it. */
export interface FakeWallet {
  readonly connector: Connector
  readonly script: FakeWalletScript
  /** Makes the wallet do something on its own (change account or chain, disconnect). */
  readonly emit: (event: WalletEvent) => Effect.Effect<void>
  /** Many events fired in one task, as a wallet's callbacks fire them (a burst of `accountsChanged`). */
  readonly emitBurst: (events: ReadonlyArray<WalletEvent>) => Effect.Effect<void>
  /** Calls made, in order, e.g. `connect:injected`, `switch:eip155:31338`, `sign:hello`, `disconnect`. */
  readonly calls: Array<string>
}

/** What a fake wallet is made with. */
export interface FakeWalletOptions extends Partial<Omit<FakeWalletScript, "families">> {
  readonly id?: string | undefined
  readonly name?: string | undefined
  readonly type?: ConnectorType | undefined
  readonly rdns?: string | undefined
  readonly imageUrl?: string | undefined
  readonly families: Partial<Record<ProvidedNamespace, FakeFamily>>
}

const wallets = new WeakMap<object, { readonly wallet: FakeWallet; readonly namespace: ProvidedNamespace }>()

const waitFor = (gate: Promise<void> | undefined) => (gate === undefined ? Effect.void : Effect.promise(() => gate))

const fakeSignature = (address: string, message: string) => `signed(${address}):${message}`

/** Makes a fake wallet serving `families`. */
export const makeFakeWallet = (options: FakeWalletOptions): Effect.Effect<FakeWallet> =>
  Effect.gen(function* () {
    const events = yield* PubSub.unbounded<WalletEvent>()
    const id = options.id ?? "injected"
    const script: FakeWalletScript = {
      families: options.families,
      authorised: options.authorised ?? true,
      connectError: options.connectError,
      connectGate: options.connectGate,
      reconnectGate: options.reconnectGate,
      answerGate: options.answerGate,
      switchError: options.switchError,
      disconnectError: options.disconnectError,
      signError: options.signError,
      sendError: options.sendError,
      requestAnswer: options.requestAnswer
    }
    const calls: Array<string> = []
    const namespaces = Object.keys(options.families) as Array<ProvidedNamespace>

    const familyProvider = (namespace: ProvidedNamespace): FamilyProvider => {
      const family = () => script.families[namespace]
      if (namespace === "eip155") {
        const provider = {
          request: async (args: { readonly method: string; readonly params?: unknown }) => {
            const params = Array.isArray(args.params) ? args.params : []
            switch (args.method) {
              case "eth_accounts":
              case "eth_requestAccounts":
                return (family()?.accounts ?? []).map((a) => a.address)
              case "eth_chainId":
                return `0x${Number(family()?.chainId ?? 1).toString(16)}`
              case "personal_sign":
                return fakeSignature(String(params[1]), String(params[0]))
              default:
                throw Object.assign(new Error(`The fake wallet does not answer ${args.method}`), { code: 4200 })
            }
          }
        }
        wallets.set(provider, { wallet, namespace })
        return { namespace, provider }
      }
      if (namespace === "polkadot") {
        // Signatures are the recognisable text, 64 bytes as hex, as polkadot-js signers answer them.
        const hexSignature = (text: string) =>
          `0x${[...new TextEncoder().encode(text.padEnd(64, ".").slice(0, 64))].map((b) => b.toString(16).padStart(2, "0")).join("")}`
        const provider: PolkadotProvider = {
          keyTypeOf: () => "sr25519",
          signRaw: async (input) => ({ id: 1, signature: hexSignature(fakeSignature(input.address, input.data)) }),
          signPayload: async (payload) => ({ id: 1, signature: hexSignature(fakeSignature(payload.address, payload.method)) }),
          onNetwork: () => undefined
        }
        wallets.set(provider, { wallet, namespace })
        return { namespace, provider }
      }
      if (namespace === "bip122") {
        // Signatures are the recognisable text in base64, as Bitcoin wallets answer; no PSBTs, no transfers of its own.
        const provider: BitcoinProvider = {
          getAccountAddresses: async () =>
            (family()?.accounts ?? []).map((account) => ({
              address: account.address,
              purpose: account.type === "ordinals" ? ("ordinals" as const) : ("payment" as const)
            })),
          signMessage: async (address, message) => toBase64(new TextEncoder().encode(fakeSignature(address, message))),
          signPsbt: undefined,
          sendTransfer: undefined
        }
        wallets.set(provider, { wallet, namespace })
        return { namespace, provider }
      }
      const provider = {
        signMessage: async (account: string, message: Uint8Array) =>
          new TextEncoder().encode(fakeSignature(account, new TextDecoder().decode(message)).padEnd(64, ".").slice(0, 64)),
        signTransaction: undefined,
        signAndSendTransaction: undefined,
        signAllTransactions: undefined
      }
      wallets.set(provider, { wallet, namespace })
      return { namespace, provider }
    }

    const sessions = (wanted: ReadonlyArray<ChainNamespace>): ReadonlyArray<FamilySession> =>
      namespaces.flatMap((namespace) => {
        const family = script.families[namespace]
        if (!wanted.includes(namespace) || family === undefined || family.accounts.length === 0) return []
        return [{ accounts: family.accounts, chainId: family.chainId, provider: familyProvider(namespace) }]
      })


    const connector: Connector = {
      info: {
        id,
        name: options.name ?? id,
        type: options.type ?? "INJECTED",
        chain: namespaces[0] ?? "eip155",
        chains: [],
        ...(options.imageUrl !== undefined ? { imageUrl: options.imageUrl } : {}),
        ...(options.rdns !== undefined ? { info: { rdns: options.rdns } } : {})
      },
      namespaces,
      memberIds: [],
      connect: (networks) =>
        Effect.gen(function* () {
          calls.push(`connect:${id}`)
          yield* waitFor(script.connectGate)
          if (script.connectError !== undefined) return yield* Effect.fail(script.connectError)
          const given = sessions(networks.map((network) => network.chainNamespace))
          if (given.length === 0) return yield* new SomethingWentWrong({ reason: "The wallet gave no account" })
          return given
        }),
      reconnect: (networks) =>
        Effect.gen(function* () {
          calls.push(`reconnect:${id}`)
          yield* waitFor(script.reconnectGate)
          return script.authorised ? sessions(networks.map((network) => network.chainNamespace)) : []
        }),
      disconnect: Effect.suspend(() => {
        calls.push("disconnect")
        return script.disconnectError !== undefined ? Effect.fail(script.disconnectError) : Effect.void
      }),
      events: Stream.fromPubSub(events)
    }
    const record = (event: WalletEvent) => {
      const family = event.namespace === undefined ? undefined : script.families[event.namespace as ProvidedNamespace]
      if (family !== undefined && event._tag === "AccountsChanged") family.accounts = event.accounts
      if (family !== undefined && event._tag === "ChainChanged") family.chainId = event.chainId
    }
    const wallet: FakeWallet = {
      connector,
      script,
      calls,
      emit: (event) =>
        Effect.suspend(() => {
          record(event)
          return PubSub.publish(events, event)
        }).pipe(Effect.asVoid),
      emitBurst: (burst) =>
        Effect.sync(() => {
          for (const event of burst) {
            record(event)
            PubSub.publishUnsafe(events, event)
          }
        })
    }
    return wallet
  })

/** What a fake adapter answers besides what its wallets script. */
export interface FakeChainAdapterOptions {
  /** The fee every send costs, in base units; by default 21000 gas at 1 gwei on EVM, 5000 lamports elsewhere. */
  readonly fee?: bigint | undefined
}

/** The fee of a plain EVM transfer at 1 gwei: 21000 gas. */
export const FAKE_EVM_FEE = 21_000n * 1_000_000_000n
/** The fee of a one-signature Solana transaction. */
export const FAKE_SOLANA_FEE = 5_000n

/**
 * A family's adapter over fake wallets: signatures are recognisable (`signed(address):message`), sends give a fake
 * hash and confirm at once, fees are fixed, switches move the wallet's chain; every call is recorded on the wallet
 * (a send as `send:to:value`, then `:token` or `:nft:contract:tokenId` when it moves one).
 */
export const makeFakeChainAdapter = (namespace: ChainNamespace, options: FakeChainAdapterOptions = {}): ChainAdapter => {
  const walletOf = (provider: FamilyProvider) =>
    Effect.suspend(() => {
      const found = wallets.get(provider.provider)
      return found === undefined
        ? Effect.fail(new SomethingWentWrong({ reason: "Not a fake wallet's provider" }))
        : Effect.succeed(found.wallet)
    })
  let sent = 0
  // A family whose chain the product does not read (polkadot) neither sends nor reads there, as its real adapter.
  const chainless = !familySupports(namespace, "send")
  const unavailable = (what: string) =>
    Effect.fail(new FeatureUnavailable({ details: `${what} not available for ${FAMILY_NAMES[namespace]} accounts: this site does not read the ${FAMILY_NAMES[namespace]} chain.` }))
  return {
    namespace,
    switchNetwork: (session, network) =>
      Effect.gen(function* () {
        const wallet = yield* walletOf(session.provider)
        wallet.calls.push(`switch:${network.caipNetworkId}`)
        yield* waitFor(wallet.script.answerGate)
        if (wallet.script.switchError !== undefined) return yield* Effect.fail(wallet.script.switchError)
        const family = wallet.script.families[session.provider.namespace]
        if (family !== undefined) family.chainId = network.id
      }),
    signMessage: (session, message) =>
      Effect.gen(function* () {
        const wallet = yield* walletOf(session.provider).pipe(Effect.orDie)
        wallet.calls.push(`sign:${message}`)
        yield* waitFor(wallet.script.answerGate)
        if (wallet.script.signError !== undefined) return yield* Effect.fail(wallet.script.signError)
        return fakeSignature(session.address, message)
      }),
    send: (session, request) =>
      Effect.gen(function* () {
        if (chainless) return yield* unavailable("Sending is")
        const wallet = yield* walletOf(session.provider)
        const nft = (request as { readonly nft?: { readonly contract: string; readonly tokenId: bigint } }).nft
        const moved = nft !== undefined ? `:nft:${nft.contract}:${nft.tokenId}` : request.token !== undefined ? `:${request.token}` : ""
        wallet.calls.push(`send:${request.to}:${String(request.value ?? 0n)}${moved}`)
        yield* waitFor(wallet.script.answerGate)
        if (wallet.script.sendError !== undefined) return yield* Effect.fail(wallet.script.sendError)
        sent += 1
        return `0x${sent.toString(16).padStart(64, "0")}`
      }),
    estimateFee: () => (chainless ? unavailable("Fees are") : Effect.succeed(options.fee ?? (namespace === "eip155" ? FAKE_EVM_FEE : FAKE_SOLANA_FEE))),
    waitForTransaction: (hash) =>
      chainless ? unavailable("Transaction status is") : Effect.succeed({ namespace, hash, blockNumber: 1n, status: "success" as const }),
    balances: (_address, network) =>
      chainless ? unavailable("Balances are") : Effect.succeed([
        { symbol: network.nativeCurrency.symbol, decimals: network.nativeCurrency.decimals, value: 0n, formatted: "0" }
      ]),
    request: (session, method, params) =>
      Effect.gen(function* () {
        const wallet = yield* walletOf(session.provider)
        wallet.calls.push(`request:${method}`)
        yield* waitFor(wallet.script.answerGate)
        return wallet.script.requestAnswer === undefined ? null : wallet.script.requestAnswer(method, params)
      })
  }
}
