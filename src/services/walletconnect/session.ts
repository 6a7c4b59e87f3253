/**
 * The WalletConnect session: our own sign client (`./protocol`, made here on first need), pairing with its URI
 * replaced before it expires, the session's eip155, solana, polkadot and bip122 providers, and the sessions a connect
 * or restore gives. This module is itself fetched only when the visitor chooses WalletConnect or a stored session is
 * restored, so a page pays nothing for it before.
 */
import { Clock, Deferred, Effect, Fiber, FiberSet, Option, PubSub, Scope, Semaphore, Stream, SubscriptionRef } from "effect"
import * as KeyValueStore from "effect/persistence/KeyValueStore"
import type { Account } from "../../domain/Account"
import { alertForServiceError } from "../../domain/alerts"
import type { ChainNamespace } from "../../domain/Caip"
import { PAIRING_EXPIRY_MARGIN_MS, PAIRING_LIFETIME_MS } from "../../domain/constants"
import { fromBase58, fromBase64, toBase58, toBase64 } from "../../domain/encoding"
import { SomethingWentWrong, WalletConnectConnectorMissing } from "../../domain/errors"
import type { CaipNetwork, NetworkChainId } from "../../domain/Network"
import type { HostOptions } from "../../domain/Options"
import { walletErrorOf } from "../../domain/walletErrors"
import type { FamilySession, WalletEvent } from "../connectors/Connector"
import type { Eip1193Provider } from "../eip155/eip1193"
import type { BitcoinAccountAddress, BitcoinProvider } from "../bip122/provider"
import type { PolkadotProvider } from "../polkadot/provider"
import type { SolanaProvider } from "../solana/provider"
import { proposalNamespaces } from "./namespaces"
import { type AuthenticateRequest, authenticateRequest, type CacaoLike, oneClickChains, signedMessages } from "./oneClick"
import { encodeRecap, formatAuthMessage, makeRecap, recapOf } from "./protocol/cacao"
import { type AuthenticateAsk, type DappClient, type DappError, makeDappClient } from "./protocol/dapp"
import type { SocketConstructor } from "./protocol/relay"
import { primitives } from "./protocol/primitives"
import { registerAttestation } from "./protocol/verify"
import { type OneClickSigned, type SessionContext, type WalletConnectSession, WalletConnectRequestFailed } from "./types"

const chainReferenceOf = (value: unknown): number | undefined => {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value : ""
  const reference = text.includes(":") ? text.slice(text.lastIndexOf(":") + 1) : text
  if (/^0x[0-9a-fA-F]+$/.test(reference)) return Number.parseInt(reference, 16)
  return /^\d+$/.test(reference) ? Number(reference) : undefined
}

const addressOf = (caipAccount: string): string => caipAccount.slice(caipAccount.lastIndexOf(":") + 1)

/** The CAIP-2 network of a CAIP-10 account (`namespace:reference`). */
const networkIdOf = (caipAccount: string): string => caipAccount.slice(0, caipAccount.lastIndexOf(":"))

const defaultMetadata = (): NonNullable<HostOptions["metadata"]> => {
  const origin = typeof location === "undefined" ? "http://127.0.0.1" : location.origin
  const name = typeof document === "undefined" || document.title === "" ? origin : document.title
  return { name, description: name, url: origin, icons: [] }
}

/** The origin Verify attests: the page's own (a host without a page, in Node, gives its metadata's URL). */
const pageOrigin = (metadataUrl: string): string => {
  if (typeof location !== "undefined") return location.origin
  try {
    return new URL(metadataUrl).origin
  } catch {
    return metadataUrl
  }
}

/** A wire transaction with its first (fee payer's) signature set: for wallets that answer only the signature. */
const withFirstSignature = (wire: Uint8Array, signature: Uint8Array): Uint8Array => {
  // Fewer than 128 signatures: the count is one byte, then 64 bytes each.
  const signed = new Uint8Array(wire)
  signed.set(signature.slice(0, 64), 1)
  return signed
}

// Where sessions are kept when the host's settings name no store: the browser's localStorage, else memory.
const browserStore: Effect.Effect<KeyValueStore.KeyValueStore> = Effect.suspend(() => {
  let local: Storage | undefined
  try {
    local = globalThis.localStorage
  } catch {
    local = undefined
  }
  return Effect.provide(Effect.service(KeyValueStore.KeyValueStore), local === undefined ? KeyValueStore.layerMemory : KeyValueStore.layerStorage(() => local))
})

/** The failure a dapp call ends in, as the connector reports it (the wallet's code and words). */
const requestFailed = (error: DappError): WalletConnectRequestFailed =>
  new WalletConnectRequestFailed({
    code: error._tag === "PeerRefused" || error._tag === "SessionUnavailable" ? error.code : undefined,
    message: error._tag === "PeerMessageInvalid" ? error.reason : error.message
  })

/** The one-click ask of a pairing: the site's fields, with a ReCap of the session's eip155 methods as last resource. */
const authenticateAsk = (request: AuthenticateRequest): AuthenticateAsk => {
  const resources = [...(request.resources ?? [])]
  const ours = makeRecap("eip155", "request", request.methods)
  const theirs = recapOf(resources)
  if (theirs !== undefined) resources.pop()
  const merged = theirs === undefined ? ours : { att: { ...theirs.att, eip155: { ...(theirs.att["eip155"] ?? {}), ...ours.att["eip155"] } } }
  resources.push(encodeRecap(merged))
  return {
    chains: request.chains,
    domain: request.domain,
    uri: request.uri,
    nonce: request.nonce,
    statement: request.statement,
    exp: request.exp,
    nbf: request.nbf,
    requestId: request.requestId,
    resources,
    methods: request.methods
  }
}

/** Makes the session; the sign client is made on first need and lives as long as the scope. */
export const makeSession = (context: SessionContext): Effect.Effect<WalletConnectSession, never, Scope.Scope> =>
  Effect.gen(function* () {
    const { options, settings, projectId, served, pairing, alerts, events, signIn } = context
    const scope = yield* Effect.scope
    const runPromise = yield* FiberSet.makeRuntimePromise<never>()
    const raised = new Set<string>()
    // The page's curve primitives are chosen now (WebCrypto asked whether it has X25519 and Ed25519; nothing leaves
    // the page), so the first pairing does not wait for it.
    yield* Effect.forkIn(Effect.ignore(Effect.tryPromise(primitives)), scope)
    let client: DappClient | undefined
    let running: Fiber.Fiber<ReadonlyArray<OneClickSigned>, WalletConnectConnectorMissing | WalletConnectRequestFailed> | undefined
    let runningToken: object | undefined
    let restart: Deferred.Deferred<void> | undefined
    // The EVM chain the session is used on (the wallet's switches and chainChanged events move it).
    let eip155Chain: number | undefined
    // The Solana network the session is used on (Solana wallets have no chain of their own to report).
    let solanaChain: string | undefined
    // The Polkadot network the session is used on (its accounts are written in that network's format).
    let polkadotChain: string | undefined
    // The Bitcoin network the session is used on (addresses differ by network).
    let bitcoinChain: string | undefined

    const publish = (event: WalletEvent) => PubSub.publishUnsafe(events, event)

    // The relay refused this app (origin not allowed, invalid key, token not yet valid): one alert of each kind.
    const reportRefusal = (message: string) => {
      const alert = alertForServiceError(message)
      if (alert === undefined || raised.has(alert.id)) return
      raised.add(alert.id)
      PubSub.publishUnsafe(alerts, alert)
    }

    const sessionAccounts = (namespace: ChainNamespace): ReadonlyArray<string> =>
      (client?.session()?.namespaces[namespace]?.accounts ?? []).filter((a, i, all) => all.indexOf(a) === i)

    const hasSession = () => served.some((namespace) => sessionAccounts(namespace).length > 0)

    const init = Effect.gen(function* () {
      if (served.length === 0 || projectId === "") return yield* new WalletConnectConnectorMissing()
      const WebSocketClass = settings.WebSocket ?? (globalThis.WebSocket as unknown as SocketConstructor | undefined)
      if (WebSocketClass === undefined) return yield* new WalletConnectRequestFailed({ code: undefined, message: "No WebSocket to reach the relay" })
      const metadata = options.metadata ?? defaultMetadata()
      const verifyUrl = options.endpoints.verify
      const origin = pageOrigin(metadata.url)
      const made = yield* makeDappClient({
        relayUrl: options.endpoints.relay,
        projectId,
        metadata: { ...metadata, icons: [...metadata.icons] },
        store: settings.storage ?? (yield* browserStore),
        storagePrefix: settings.customStoragePrefix,
        WebSocket: WebSocketClass,
        onRefusal: reportRefusal,
        verify:
          verifyUrl === undefined
            ? undefined
            : {
                register: (attestationId) =>
                  registerAttestation(verifyUrl, origin, attestationId).pipe(
                    Effect.catch((error) => Effect.logDebug(`WalletConnect Verify: ${error.message}`))
                  )
              }
      }).pipe(Scope.provide(scope))
      yield* Stream.fromPubSub(made.events).pipe(
        Stream.runForEach((event) =>
          Effect.sync(() => {
            if (event._tag === "SessionDeleted") {
              publish({ _tag: "Disconnected", namespace: undefined })
              Effect.runFork(SubscriptionRef.set(pairing, { _tag: "Idle" }))
              return
            }
            if (event._tag === "SessionUpdated") {
              for (const namespace of served) {
                const accounts = sessionAccounts(namespace).map((a): Account => ({ address: addressOf(a), type: "eoa" }))
                if (accounts.length > 0) publish({ _tag: "AccountsChanged", namespace, accounts })
              }
              return
            }
            // Account changes come with the chain they happened on: that chain's family is the one whose accounts changed.
            const namespace = event.chainId.slice(0, event.chainId.indexOf(":")) as ChainNamespace
            if (event.name === "chainChanged" && namespace === "eip155") {
              const chainId = chainReferenceOf(event.data) ?? chainReferenceOf(event.chainId)
              if (chainId === undefined) return
              eip155Chain = chainId
              publish({ _tag: "ChainChanged", namespace: "eip155", chainId })
              return
            }
            if (!served.includes(namespace) || event.name !== "accountsChanged" || !Array.isArray(event.data)) return
            const accounts: ReadonlyArray<Account> = event.data
              .filter((a): a is string => typeof a === "string")
              .map((a) => ({ address: addressOf(a), type: "eoa" as const }))
            publish({ _tag: "AccountsChanged", namespace, accounts })
          })
        ),
        Effect.forkIn(scope)
      )
      client = made
      return made
    })

    const loading = yield* Semaphore.make(1)
    // Only a made client is kept: a failed start is tried again next time.
    const load = Semaphore.withPermit(loading)(Effect.suspend(() => (client !== undefined ? Effect.succeed(client) : init)))

    // One-click sign-in when the host configured sign-in, its backend can, and the session is eip155 only: a fresh
    // nonce for every URI (the backend's lasts longer than a URI).
    const oneClickRequest = (namespaces: ReturnType<typeof proposalNamespaces>) =>
      Effect.gen(function* () {
        const site = signIn()
        const chains = oneClickChains(namespaces)
        if (site === undefined || chains === undefined) return undefined
        const fields = yield* site.fields(chains)
        return fields === undefined ? undefined : authenticateRequest(fields, namespaces, chains)
      })

    const format = (cacao: CacaoLike) => formatAuthMessage(cacao.p)

    // One pairing attempt: a URI, shown until a wallet approves (with the messages it signed, for a one-click
    // sign-in), or replaced (none) when it expires or on Retry.
    const attempt = (dapp: DappClient, network: CaipNetwork | undefined) =>
      Effect.gen(function* () {
        const again = yield* Deferred.make<void>()
        restart = again
        yield* SubscriptionRef.set(pairing, { _tag: "Pairing" })
        const namespaces = proposalNamespaces(options, network)
        const oneClick = yield* oneClickRequest(namespaces)
        const now = yield* Clock.currentTimeMillis
        const expiresAt = now + PAIRING_LIFETIME_MS - PAIRING_EXPIRY_MARGIN_MS
        const optionalNamespaces = Object.fromEntries(
          Object.entries(namespaces).map(([key, { chains, methods, events: names }]) => [key, { chains, methods, events: names }])
        )
        const made = yield* dapp.pair({
          optionalNamespaces,
          authenticate: oneClick === undefined ? undefined : authenticateAsk(oneClick),
          expiresAt: now + PAIRING_LIFETIME_MS
        }).pipe(Effect.mapError(requestFailed))
        yield* SubscriptionRef.set(pairing, { _tag: "Ready", uri: made.uri, expiresAt })
        const approved = made.approval.pipe(
          Effect.mapError(requestFailed),
          Effect.map(({ cacaos }) => Option.some(signedMessages(cacaos, format)))
        )
        const replaced = Effect.raceFirst(Effect.sleep(expiresAt - now), Deferred.await(again)).pipe(
          Effect.andThen(dapp.dropPairing(made.topic)),
          Effect.as(Option.none<ReadonlyArray<OneClickSigned>>())
        )
        return yield* Effect.raceFirst(approved, replaced)
      })

    const pairOnce = (network: CaipNetwork | undefined) =>
      Effect.gen(function* () {
        const dapp = yield* load
        if (hasSession()) return []
        let approved = yield* attempt(dapp, network)
        while (Option.isNone(approved)) {
          yield* Effect.logDebug("WalletConnect pairing URI replaced")
          approved = yield* attempt(dapp, network)
        }
        yield* SubscriptionRef.set(pairing, { _tag: "Idle" })
        // The wallet signed in while pairing: the sessions are kept before the connect goes on, so the sign-in step
        // after it finds them and asks nothing. Kept once per pairing, whoever joined it.
        if (approved.value.length > 0 && hasSession()) yield* signIn()?.keep(approved.value) ?? Effect.void
        return approved.value
      }).pipe(
        Effect.tapError((error) => SubscriptionRef.set(pairing, { _tag: "Failed", message: error.message })),
        Effect.onInterrupt(() => SubscriptionRef.set(pairing, { _tag: "Idle" })),
        Effect.ensuring(Effect.sync(() => {
          restart = undefined
        }))
      )

    // A second ask while pairing (Retry, a second caller) joins the pairing under way: one URI, one proposal.
    const pair = (network: CaipNetwork | undefined) =>
      Effect.gen(function* () {
        if (running === undefined) {
          const token = {}
          runningToken = token
          running = yield* Effect.forkIn(
            pairOnce(network).pipe(
              Effect.ensuring(Effect.sync(() => {
                if (runningToken === token) running = undefined
              }))
            ),
            scope
          )
        }
        return yield* Fiber.join(running)
      })

    const replaceUri = Effect.suspend(() => (restart === undefined ? Effect.void : Deferred.succeed(restart, undefined))).pipe(
      Effect.asVoid,
      Effect.withSpan("WalletConnect.replaceUri")
    )

    const freshUri = Effect.gen(function* () {
      const state = yield* SubscriptionRef.get(pairing)
      if (state._tag !== "Ready") return undefined
      if ((yield* Clock.currentTimeMillis) < state.expiresAt) return state.uri
      // A sleeping tab may wake after the URI's time: never hand out an expired one.
      yield* replaceUri
      const next = yield* SubscriptionRef.changes(pairing).pipe(
        Stream.filter((s) => s._tag !== "Pairing" && !(s._tag === "Ready" && s.uri === state.uri)),
        Stream.runHead
      )
      return next._tag === "Some" && next.value._tag === "Ready" ? next.value.uri : undefined
    }).pipe(Effect.withSpan("WalletConnect.freshUri"))

    const cancel = Effect.suspend(() => (running === undefined ? Effect.void : Fiber.interrupt(running))).pipe(
      Effect.withSpan("WalletConnect.cancel")
    )

    const disconnect = Effect.gen(function* () {
      yield* cancel
      if (client === undefined) return
      yield* client.disconnect
      yield* SubscriptionRef.set(pairing, { _tag: "Idle" })
    }).pipe(Effect.withSpan("WalletConnect.disconnect"))

    /** A request to the wallet on a chain of the session. */
    const ask = (method: string, params: unknown, chainId: string | undefined) =>
      Effect.gen(function* () {
        const dapp = yield* load.pipe(Effect.mapError((e) => new WalletConnectRequestFailed({ code: 4900, message: e.message })))
        if (dapp.session() === undefined) return yield* new WalletConnectRequestFailed({ code: 4900, message: "WalletConnect session not found" })
        if (chainId === undefined) return yield* new WalletConnectRequestFailed({ code: 4901, message: `No network of the session for ${method}` })
        return yield* dapp.request({ method, params, chainId }).pipe(Effect.mapError(requestFailed))
      })

    const evmChain = () => eip155Chain ?? chainReferenceOf(networkIdOf(sessionAccounts("eip155")[0] ?? ""))
    const evmChains = () => new Set(sessionAccounts("eip155").map((a) => chainReferenceOf(networkIdOf(a))))

    // The session's eip155 side, as any EIP-1193 wallet: requests go to the wallet on the session's current chain;
    // a switch to a chain the session has is made here (the wallet is asked only for another chain).
    const eip155Provider: Eip1193Provider = {
      request: (args) =>
        runPromise(
          Effect.gen(function* () {
            if (args.method === "eth_chainId") return evmChain()
            if (args.method === "eth_accounts" || args.method === "eth_requestAccounts") {
              const chain = evmChain()
              return sessionAccounts("eip155").filter((a) => chainReferenceOf(networkIdOf(a)) === chain).map(addressOf)
            }
            if (args.method === "wallet_switchEthereumChain") {
              const first: unknown = Array.isArray(args.params) ? args.params[0] : undefined
              const target = chainReferenceOf(typeof first === "object" && first !== null ? (first as { chainId?: unknown }).chainId : undefined)
              if (target === undefined) return yield* new WalletConnectRequestFailed({ code: -32602, message: "wallet_switchEthereumChain needs a chainId" })
              if (!evmChains().has(target)) yield* ask(args.method, args.params, `eip155:${evmChain()}`)
              eip155Chain = target
              publish({ _tag: "ChainChanged", namespace: "eip155", chainId: target })
              return null
            }
            return yield* ask(args.method, args.params ?? [], `eip155:${evmChain()}`)
          })
        )
    }

    const solanaRequest = <A>(method: string, params: unknown, pick: (result: Record<string, unknown>) => A | undefined) =>
      runPromise(
        ask(method, params, solanaChain).pipe(
          Effect.flatMap((result) => {
            const value = typeof result === "object" && result !== null ? pick(result as Record<string, unknown>) : undefined
            return value === undefined
              ? Effect.fail(new WalletConnectRequestFailed({ code: undefined, message: `The wallet answered ${method} without its result` }))
              : Effect.succeed(value)
          })
        )
      )

    const text = (value: unknown) => (typeof value === "string" ? value : undefined)

    // The session's solana side: the WalletConnect Solana methods, bytes in and out.
    const solanaProvider: SolanaProvider = {
      signMessage: (account, message) =>
        solanaRequest("solana_signMessage", { message: toBase58(message), pubkey: account }, (r) => fromBase58(text(r["signature"]) ?? "!")),
      signTransaction: (_account, transaction) =>
        solanaRequest("solana_signTransaction", { transaction: toBase64(transaction) }, (r) => {
          const signed = text(r["transaction"])
          if (signed !== undefined) return fromBase64(signed)
          const signature = fromBase58(text(r["signature"]) ?? "!")
          return signature === undefined ? undefined : withFirstSignature(transaction, signature)
        }),
      signAndSendTransaction: (_account, transaction, _chain, sendOptions) =>
        solanaRequest(
          "solana_signAndSendTransaction",
          { transaction: toBase64(transaction), ...(sendOptions !== undefined ? { sendOptions } : {}) },
          (r) => fromBase58(text(r["signature"]) ?? "!")
        ),
      signAllTransactions: (_account, transactions) =>
        solanaRequest("solana_signAllTransactions", { transactions: transactions.map(toBase64) }, (r) => {
          const list = Array.isArray(r["transactions"]) ? r["transactions"].map((t) => fromBase64(String(t))) : undefined
          return list === undefined || list.some((t) => t === undefined) ? undefined : (list as ReadonlyArray<Uint8Array>)
        })
    }

    const polkadotRequest = (method: string, params: unknown) => runPromise(ask(method, params, polkadotChain))

    /** The session's Polkadot addresses on one network (a wallet writes an account in each network's format). */
    const polkadotAccountsOn = (caipNetworkId: string): ReadonlyArray<Account> =>
      sessionAccounts("polkadot")
        .filter((account) => networkIdOf(account) === caipNetworkId)
        .map((account): Account => ({ address: addressOf(account), type: "eoa" }))

    // The session's polkadot side: WalletConnect's two Polkadot methods (see namespaces.ts); the adapter checks answers.
    const polkadotProvider: PolkadotProvider = {
      keyTypeOf: () => undefined,
      signRaw: (input) =>
        input.type === "bytes"
          ? polkadotRequest("polkadot_signMessage", { address: input.address, message: input.data })
          : Promise.reject(Object.assign(new Error("A WalletConnect Polkadot wallet signs messages and transactions, not raw payloads."), { code: 4200 })),
      signPayload: (payload) => polkadotRequest("polkadot_signTransaction", { address: payload.address, transactionPayload: payload }),
      onNetwork: (network) => {
        polkadotChain = network.caipNetworkId
        const accounts = polkadotAccountsOn(network.caipNetworkId)
        if (accounts.length > 0) publish({ _tag: "AccountsChanged", namespace: "polkadot", accounts })
      }
    }

    const bitcoinRequest = <A>(method: string, params: unknown, pick: (result: unknown) => A | undefined) =>
      runPromise(
        ask(method, params, bitcoinChain).pipe(
          Effect.flatMap((result) => {
            const value = pick(result)
            return value === undefined
              ? Effect.fail(new WalletConnectRequestFailed({ code: undefined, message: `The wallet answered ${method} without its result` }))
              : Effect.succeed(value)
          })
        )
      )
    const field = (result: unknown, key: string) =>
      typeof result === "object" && result !== null ? text((result as Record<string, unknown>)[key]) : undefined

    /** The session's Bitcoin addresses on one network: its payment address(es), as WalletConnect accounts are. */
    const bitcoinAccountsOn = (caipNetworkId: string): ReadonlyArray<Account> =>
      sessionAccounts("bip122")
        .filter((account) => networkIdOf(account) === caipNetworkId)
        .map((account): Account => ({ address: addressOf(account), type: "payment" }))

    // The session's bip122 side: WalletConnect's four Bitcoin methods (see namespaces.ts); the adapter checks answers.
    const bitcoinAccount = () => bitcoinAccountsOn(bitcoinChain ?? "")[0]?.address
    const bitcoinProvider: BitcoinProvider = {
      getAccountAddresses: () =>
        bitcoinRequest("getAccountAddresses", { account: bitcoinAccount() }, (result) =>
          Array.isArray(result)
            ? result.flatMap((entry): ReadonlyArray<BitcoinAccountAddress> => {
                const address = field(entry, "address")
                if (address === undefined) return []
                const publicKey = field(entry, "publicKey")
                return [{ address, purpose: field(entry, "intention") === "ordinal" ? "ordinals" : "payment", ...(publicKey !== undefined ? { publicKey } : {}) }]
              })
            : undefined
        ),
      signMessage: (address, message) =>
        bitcoinRequest("signMessage", { account: bitcoinAccount() ?? address, address, message, protocol: "bip322" }, (r) => field(r, "signature")),
      signPsbt: (psbt, inputs) =>
        bitcoinRequest(
          "signPsbt",
          {
            account: bitcoinAccount(),
            psbt: toBase64(psbt),
            signInputs: inputs.flatMap((entry) =>
              entry.indexes.map((index) => ({ address: entry.address, index, sighashTypes: entry.sigHash === undefined ? [] : [entry.sigHash] }))
            ),
            broadcast: false
          },
          (r) => fromBase64(field(r, "psbt") ?? "!")
        ),
      sendTransfer: (from, recipient, amount) =>
        bitcoinRequest("sendTransfer", { account: from, recipientAddress: recipient, amount: amount.toString() }, (r) => field(r, "txid"))
    }

    // The sessions the open WalletConnect session gives, one per family of `networks` it has accounts in.
    const sessionsOf = (networks: ReadonlyArray<CaipNetwork>): ReadonlyArray<FamilySession> => {
      const sessions: Array<FamilySession> = []
      for (const namespace of served) {
        const caipAccounts = sessionAccounts(namespace)
        if (caipAccounts.length === 0) continue
        const wanted = networks.find((network) => network.chainNamespace === namespace)
        const onWanted = wanted !== undefined && caipAccounts.some((a) => networkIdOf(a) === wanted.caipNetworkId)
        const chain = onWanted ? wanted.caipNetworkId : networkIdOf(caipAccounts[0]!)
        const chainId: NetworkChainId = onWanted ? wanted.id : chain.slice(chain.indexOf(":") + 1)
        const accounts = caipAccounts
          .map(addressOf)
          .filter((a, i, all) => all.indexOf(a) === i)
          .map((address): Account => ({ address, type: "eoa" }))
        if (namespace === "eip155") {
          eip155Chain ??= chainReferenceOf(chain)
          sessions.push({ accounts, chainId: evmChain() ?? 0, provider: { namespace, provider: eip155Provider } })
        } else if (namespace === "bip122") {
          bitcoinChain = chain
          sessions.push({ accounts: bitcoinAccountsOn(chain), chainId, provider: { namespace, provider: bitcoinProvider } })
        } else if (namespace === "polkadot") {
          polkadotChain = chain
          sessions.push({ accounts: polkadotAccountsOn(chain), chainId, provider: { namespace, provider: polkadotProvider } })
        } else {
          solanaChain = chain
          sessions.push({ accounts, chainId, provider: { namespace: "solana", provider: solanaProvider } })
        }
      }
      return sessions
    }

    const asConnectError = (error: WalletConnectRequestFailed | WalletConnectConnectorMissing) =>
      error._tag === "WalletConnectConnectorMissing" ? error : walletErrorOf(error.code, error.message)

    return {
      connect: (networks: ReadonlyArray<CaipNetwork>) =>
        Effect.gen(function* () {
          // The wallet starts on the network of the family the visitor is on (the first one asked for). A connect
          // that is stopped (the visitor left the QR code) stops the pairing too: a later approval of that proposal
          // must not be taken by the next connect.
          const before = hasSession()
          yield* pair(networks[0]).pipe(Effect.onInterrupt(() => cancel))
          if (!before) eip155Chain = undefined
          const sessions = sessionsOf(networks)
          if (sessions.length === 0) return yield* new SomethingWentWrong({ reason: "The wallet approved no account" })
          return sessions
        }).pipe(Effect.mapError((error) => (error._tag === "SomethingWentWrong" ? error : asConnectError(error)))),
      reconnect: (networks: ReadonlyArray<CaipNetwork>) =>
        Effect.gen(function* () {
          // Asked on restore: the client is made only then, and an absent session has no accounts.
          yield* load
          return hasSession() ? sessionsOf(networks) : []
        }).pipe(Effect.mapError(asConnectError)),
      disconnect,
      freshUri,
      replaceUri,
      cancel,
      loaded: Effect.sync(() => client !== undefined)
    }
  })
