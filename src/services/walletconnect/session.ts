/**
 * The WalletConnect session: the universal provider (imported here, on first need), pairing with its URI replaced
 * before it expires, the session's eip155, solana, polkadot and bip122 providers, and the sessions a connect or restore gives. This
 * module is itself fetched only when the visitor chooses WalletConnect or a stored session is restored, so a page
 * pays nothing for it before.
 */
import { Clock, Deferred, Effect, Exit, Fiber, FiberSet, Option, PubSub, Scope, Semaphore, Stream, SubscriptionRef } from "effect"
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
import { type OneClickSigned, type SessionContext, type WalletConnectSession, WalletConnectRequestFailed } from "./types"

/** The part of the universal provider used here (its own types fail under exactOptionalPropertyTypes). */
export interface UniversalProviderLike {
  session?: { readonly topic: string; readonly namespaces: Record<string, { readonly accounts: Array<string> }> } | undefined
  readonly client: {
    readonly core: {
      readonly relayer: { readonly on: (event: string, listener: (error: unknown) => void) => unknown }
      /** WalletConnect's Verify: `register` attests each proposal and request through an iframe of `verifyUrlV3`. */
      readonly verify?: { register: (params: { id: string; decryptedId: string }) => Promise<string | undefined>; verifyUrlV3?: string }
    }
    /** The text a CACAO's signer signed (WalletConnect's CAIP-122 format, the one its wallets sign). */
    formatAuthMessage(params: { request: CacaoLike["p"]; iss: string }): string
  }
  request<T = unknown>(args: { method: string; params?: unknown }, chain?: string): Promise<T>
  connect(params: { optionalNamespaces: Record<string, unknown> }): Promise<unknown>
  /** One-click sign-in: pairs with `wc_sessionAuthenticate` and, for wallets without it, a session proposal beside. */
  authenticate(params: AuthenticateRequest): Promise<{ readonly auths?: ReadonlyArray<CacaoLike> | undefined }>
  disconnect(): Promise<void>
  cleanupPendingPairings(options?: { deletePairings?: boolean }): Promise<void>
  on(event: string, listener: (...args: Array<any>) => void): void
}

const errorOf = (error: unknown): { readonly code: number | undefined; readonly message: string } => {
  const record = typeof error === "object" && error !== null ? (error as Record<string, unknown>) : {}
  const code = typeof record["code"] === "number" ? record["code"] : undefined
  const message = typeof record["message"] === "string" ? record["message"] : String(error)
  return { code, message }
}

const chainReferenceOf = (value: unknown): number | undefined => {
  const text = typeof value === "number" ? String(value) : typeof value === "string" ? value : ""
  const reference = text.includes(":") ? text.slice(text.lastIndexOf(":") + 1) : text
  if (/^0x[0-9a-fA-F]+$/.test(reference)) return Number.parseInt(reference, 16)
  return /^\d+$/.test(reference) ? Number(reference) : undefined
}

const addressOf = (caipAccount: string): string => caipAccount.slice(caipAccount.lastIndexOf(":") + 1)

/** The CAIP-2 network of a CAIP-10 account (`namespace:reference`). */
const networkIdOf = (caipAccount: string): string => caipAccount.slice(0, caipAccount.lastIndexOf(":"))

/**
 * WalletConnect's Verify runs only against a server the host names (`endpoints.verify`): the SDK otherwise loads an
 * iframe from its own hosted server for every proposal and request and waits up to 5 s for it (offline, or under a
 * Content-Security-Policy without that host, every QR code and every request is 5 s late), a request to a host the
 * options did not name. Without a server the wallet sees this site as not verified ("unknown"), as with any dapp
 * whose domain Verify does not know.
 */
export const applyVerifySetting = (provider: UniversalProviderLike, server: string | undefined): void => {
  const verify = provider.client.core.verify
  if (verify === undefined) return
  if (server === undefined) verify.register = async () => undefined
  else verify.verifyUrlV3 = `${server.replace(/\/+$/, "")}/v3`
}

const defaultMetadata = (): NonNullable<HostOptions["metadata"]> => {
  const origin = typeof location === "undefined" ? "http://127.0.0.1" : location.origin
  const name = typeof document === "undefined" || document.title === "" ? origin : document.title
  return { name, description: name, url: origin, icons: [] }
}

/** A wire transaction with its first (fee payer's) signature set: for wallets that answer only the signature. */
const withFirstSignature = (wire: Uint8Array, signature: Uint8Array): Uint8Array => {
  // Fewer than 128 signatures: the count is one byte, then 64 bytes each.
  const signed = new Uint8Array(wire)
  signed.set(signature.slice(0, 64), 1)
  return signed
}

/** Makes the session; the universal provider is loaded on first need and lives as long as the scope. */
export const makeSession = (context: SessionContext): Effect.Effect<WalletConnectSession, never, Scope.Scope> =>
  Effect.gen(function* () {
    const { options, settings, projectId, served, pairing, alerts, events, signIn } = context
    const scope = yield* Effect.scope
    const runPromise = yield* FiberSet.makeRuntimePromise<never>()
    const raised = new Set<string>()
    let universal: UniversalProviderLike | undefined
    let onUri: ((uri: string) => void) | undefined
    let onRefused: ((error: WalletConnectRequestFailed) => void) | undefined
    let running: Fiber.Fiber<ReadonlyArray<OneClickSigned>, WalletConnectConnectorMissing | WalletConnectRequestFailed> | undefined
    let runningToken: object | undefined
    let restart: Deferred.Deferred<void> | undefined
    // The Solana network the session is used on (Solana wallets have no chain of their own to report).
    let solanaChain: string | undefined
    // The Polkadot network the session is used on (its accounts are written in that network's format).
    let polkadotChain: string | undefined
    // The Bitcoin network the session is used on (addresses differ by network).
    let bitcoinChain: string | undefined

    const publish = (event: WalletEvent) => PubSub.publishUnsafe(events, event)

    const reportError = (error: unknown) => {
      const alert = alertForServiceError(errorOf(error).message)
      if (alert === undefined) return
      // The relay refuses this app: the pairing under way cannot succeed, so it fails now instead of waiting.
      onRefused?.(new WalletConnectRequestFailed({ code: undefined, message: errorOf(error).message }))
      if (raised.has(alert.id)) return
      raised.add(alert.id)
      PubSub.publishUnsafe(alerts, alert)
    }

    const fail = (error: unknown) => {
      reportError(error)
      const { code, message } = errorOf(error)
      return new WalletConnectRequestFailed({ code, message })
    }

    const init = Effect.gen(function* () {
      if (served.length === 0 || projectId === "") return yield* new WalletConnectConnectorMissing()
      const { UniversalProvider } = yield* Effect.tryPromise({
        try: () => import("@walletconnect/universal-provider"),
        catch: (error) => new WalletConnectRequestFailed({ code: undefined, message: `Unable to load WalletConnect: ${errorOf(error).message}` })
      })
      const metadata = options.metadata ?? defaultMetadata()
      const provider = yield* Effect.tryPromise({
        try: () =>
          UniversalProvider.init({
            projectId,
            relayUrl: options.endpoints.relay,
            metadata: { ...metadata, icons: [...metadata.icons] },
            logger: settings.logger ?? (options.debug ? "info" : "silent"),
            telemetryEnabled: false,
            ...(settings.customStoragePrefix !== undefined ? { customStoragePrefix: settings.customStoragePrefix } : {}),
            ...(settings.storageOptions !== undefined ? { storageOptions: { ...settings.storageOptions } } : {})
          }) as Promise<unknown> as Promise<UniversalProviderLike>,
        catch: fail
      })
      applyVerifySetting(provider, options.endpoints.verify)
      provider.on("display_uri", (uri: string) => onUri?.(uri))
      // Account changes come with the chain they happened on: that chain's family is the one whose accounts changed.
      provider.on("session_event", (payload: { params?: { chainId?: unknown; event?: { name?: unknown; data?: unknown } } }) => {
        const chainId = typeof payload.params?.chainId === "string" ? payload.params.chainId : ""
        const namespace = chainId.slice(0, chainId.indexOf(":")) as ChainNamespace
        const event = payload.params?.event
        if (!served.includes(namespace) || event?.name !== "accountsChanged" || !Array.isArray(event.data)) return
        const accounts: ReadonlyArray<Account> = event.data
          .filter((a): a is string => typeof a === "string")
          .map((a) => ({ address: addressOf(a), type: "eoa" as const }))
        publish({ _tag: "AccountsChanged", namespace, accounts })
      })
      provider.on("chainChanged", (chain: unknown) => {
        if (typeof chain === "string" && chain.includes(":") && !chain.startsWith("eip155:")) return
        const chainId = chainReferenceOf(chain)
        if (chainId !== undefined) publish({ _tag: "ChainChanged", namespace: "eip155", chainId })
      })
      provider.on("disconnect", () => {
        publish({ _tag: "Disconnected", namespace: undefined })
        Effect.runFork(SubscriptionRef.set(pairing, { _tag: "Idle" }))
      })
      provider.client.core.relayer.on("relayer_error", reportError)
      universal = provider
      yield* Scope.addFinalizer(
        scope,
        Effect.promise(async () => {
          const core = (provider.client as unknown as { core: { relayer: { transportClose?: () => Promise<void> }; heartbeat?: { stop?: () => void } } }).core
          await core.relayer.transportClose?.().catch(() => undefined)
          core.heartbeat?.stop?.()
        })
      )
      return provider
    })

    const loading = yield* Semaphore.make(1)
    // Only a loaded provider is kept: a failed load (the chunk or the relay unreachable) is tried again next time.
    const load = Semaphore.withPermit(loading)(Effect.suspend(() => (universal !== undefined ? Effect.succeed(universal) : init)))

    const sessionAccounts = (provider: UniversalProviderLike, namespace: ChainNamespace): ReadonlyArray<string> =>
      (provider.session?.namespaces[namespace]?.accounts ?? []).filter((a, i, all) => all.indexOf(a) === i)

    const hasSession = (provider: UniversalProviderLike) => served.some((namespace) => sessionAccounts(provider, namespace).length > 0)

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

    const format = (provider: UniversalProviderLike) => (cacao: CacaoLike) =>
      provider.client.formatAuthMessage({ request: cacao.p, iss: cacao.p.iss })

    // One pairing attempt: a URI, shown until a wallet approves (with the messages it signed, for a one-click
    // sign-in), or replaced (none) when it expires or on Retry.
    const attempt = (provider: UniversalProviderLike, network: CaipNetwork | undefined) =>
      Effect.gen(function* () {
        const uri = yield* Deferred.make<string>()
        const again = yield* Deferred.make<void>()
        restart = again
        const refused = yield* Deferred.make<never, WalletConnectRequestFailed>()
        onUri = (value) => Deferred.doneUnsafe(uri, Exit.succeed(value))
        onRefused = (error) => Deferred.doneUnsafe(refused, Exit.fail(error))
        yield* SubscriptionRef.set(pairing, { _tag: "Pairing" })
        const expiry = Effect.gen(function* () {
          const value = yield* Deferred.await(uri)
          const now = yield* Clock.currentTimeMillis
          const expiresAt = now + PAIRING_LIFETIME_MS - PAIRING_EXPIRY_MARGIN_MS
          yield* SubscriptionRef.set(pairing, { _tag: "Ready", uri: value, expiresAt })
          yield* Effect.sleep(expiresAt - now)
        })
        const namespaces = proposalNamespaces(options, network)
        const oneClick = yield* oneClickRequest(namespaces)
        const approved: Effect.Effect<ReadonlyArray<OneClickSigned>, WalletConnectRequestFailed> =
          oneClick === undefined
            ? Effect.tryPromise({ try: () => provider.connect({ optionalNamespaces: namespaces }), catch: fail }).pipe(Effect.as([]))
            : // A refusal arrives as the wallet's bare message ("User rejected."): a refusal in walletErrorOf's words.
              Effect.tryPromise({ try: () => provider.authenticate(oneClick), catch: fail }).pipe(
                Effect.map((result) => signedMessages(result.auths, format(provider)))
              )
        return yield* Effect.raceFirst(
          Effect.raceFirst(Effect.map(approved, Option.some), Deferred.await(refused)),
          Effect.as(Effect.raceFirst(expiry, Deferred.await(again)), Option.none<ReadonlyArray<OneClickSigned>>())
        )
      })

    const pairOnce = (network: CaipNetwork | undefined) =>
      Effect.gen(function* () {
        const provider = yield* load
        if (hasSession(provider)) return []
        let approved = yield* attempt(provider, network)
        while (Option.isNone(approved)) {
          yield* Effect.logDebug("WalletConnect pairing URI replaced")
          approved = yield* attempt(provider, network)
        }
        yield* SubscriptionRef.set(pairing, { _tag: "Idle" })
        // The approved proposal's pairing has served: it is not kept for another session.
        yield* Effect.promise(() => provider.cleanupPendingPairings({ deletePairings: true }))
        // The wallet signed in while pairing: the sessions are kept before the connect goes on, so the sign-in step
        // after it finds them and asks nothing. Kept once per pairing, whoever joined it.
        if (approved.value.length > 0 && hasSession(provider)) yield* signIn()?.keep(approved.value) ?? Effect.void
        return approved.value
      }).pipe(
        Effect.tapError((error) => SubscriptionRef.set(pairing, { _tag: "Failed", message: error.message })),
        Effect.onInterrupt(() => SubscriptionRef.set(pairing, { _tag: "Idle" })),
        Effect.ensuring(Effect.sync(() => {
          onUri = undefined
          onRefused = undefined
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
      const provider = universal
      if (provider === undefined) return
      if (provider.session !== undefined) yield* Effect.promise(() => provider.disconnect().catch(() => undefined))
      yield* Effect.promise(() => provider.cleanupPendingPairings({ deletePairings: true }))
      yield* SubscriptionRef.set(pairing, { _tag: "Idle" })
    }).pipe(Effect.withSpan("WalletConnect.disconnect"))

    const currentChain = (provider: UniversalProviderLike) =>
      Effect.tryPromise({ try: () => provider.request<unknown>({ method: "eth_chainId" }), catch: fail }).pipe(
        Effect.map(chainReferenceOf)
      )

    const onSession = <A>(run: (provider: UniversalProviderLike) => Effect.Effect<A, WalletConnectRequestFailed>) =>
      Effect.gen(function* () {
        const provider = yield* load
        if (provider.session === undefined) {
          return yield* new WalletConnectRequestFailed({ code: 4900, message: "WalletConnect session not found" })
        }
        return yield* run(provider)
      })

    // The session's eip155 side, as any EIP-1193 wallet: requests go to the wallet on the session's current chain.
    const eip155Provider: Eip1193Provider = {
      request: (args) =>
        runPromise(
          onSession((provider) =>
            Effect.gen(function* () {
              const chainId = yield* currentChain(provider)
              if (args.method === "eth_chainId") return chainId
              return yield* Effect.tryPromise({
                try: () =>
                  provider.request(
                    args.params === undefined ? { method: args.method } : { method: args.method, params: args.params },
                    chainId === undefined ? undefined : `eip155:${chainId}`
                  ),
                catch: fail
              })
            })
          )
        )
    }

    const solanaRequest = <A>(method: string, params: unknown, pick: (result: Record<string, unknown>) => A | undefined) =>
      runPromise(
        onSession((provider) =>
          Effect.tryPromise({ try: () => provider.request<unknown>({ method, params }, solanaChain), catch: fail }).pipe(
            Effect.flatMap((result) => {
              const value = typeof result === "object" && result !== null ? pick(result as Record<string, unknown>) : undefined
              return value === undefined
                ? Effect.fail(new WalletConnectRequestFailed({ code: undefined, message: `The wallet answered ${method} without its result` }))
                : Effect.succeed(value)
            })
          )
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

    const polkadotRequest = (method: string, params: unknown) =>
      runPromise(onSession((provider) => Effect.tryPromise({ try: () => provider.request<unknown>({ method, params }, polkadotChain), catch: fail })))

    /** The session's Polkadot addresses on one network (a wallet writes an account in each network's format). */
    const polkadotAccountsOn = (provider: UniversalProviderLike, caipNetworkId: string): ReadonlyArray<Account> =>
      sessionAccounts(provider, "polkadot")
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
        const accounts = universal === undefined ? [] : polkadotAccountsOn(universal, network.caipNetworkId)
        if (accounts.length > 0) publish({ _tag: "AccountsChanged", namespace: "polkadot", accounts })
      }
    }

    const bitcoinRequest = <A>(method: string, params: unknown, pick: (result: unknown) => A | undefined) =>
      runPromise(
        onSession((provider) =>
          Effect.tryPromise({ try: () => provider.request<unknown>({ method, params }, bitcoinChain), catch: fail }).pipe(
            Effect.flatMap((result) => {
              const value = pick(result)
              return value === undefined
                ? Effect.fail(new WalletConnectRequestFailed({ code: undefined, message: `The wallet answered ${method} without its result` }))
                : Effect.succeed(value)
            })
          )
        )
      )
    const field = (result: unknown, key: string) =>
      typeof result === "object" && result !== null ? text((result as Record<string, unknown>)[key]) : undefined

    /** The session's Bitcoin addresses on one network: its payment address(es), as WalletConnect accounts are. */
    const bitcoinAccountsOn = (provider: UniversalProviderLike, caipNetworkId: string): ReadonlyArray<Account> =>
      sessionAccounts(provider, "bip122")
        .filter((account) => networkIdOf(account) === caipNetworkId)
        .map((account): Account => ({ address: addressOf(account), type: "payment" }))

    // The session's bip122 side: WalletConnect's four Bitcoin methods (see namespaces.ts); the adapter checks answers.
    const bitcoinAccount = () => (universal === undefined ? undefined : bitcoinAccountsOn(universal, bitcoinChain ?? "")[0]?.address)
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
    const sessionsOf = (provider: UniversalProviderLike, networks: ReadonlyArray<CaipNetwork>) =>
      Effect.gen(function* () {
        const sessions: Array<FamilySession> = []
        for (const namespace of served) {
          const caipAccounts = sessionAccounts(provider, namespace)
          if (caipAccounts.length === 0) continue
          const wanted = networks.find((network) => network.chainNamespace === namespace)
          const accounts = caipAccounts
            .map(addressOf)
            .filter((a, i, all) => all.indexOf(a) === i)
            .map((address): Account => ({ address, type: "eoa" }))
          if (namespace === "eip155") {
            const chainId = yield* currentChain(provider).pipe(Effect.orElseSucceed(() => undefined))
            const fallback = chainReferenceOf(networkIdOf(caipAccounts[0]!))
            sessions.push({ accounts, chainId: chainId ?? fallback ?? 0, provider: { namespace, provider: eip155Provider } })
          } else if (namespace === "bip122") {
            const onWanted = wanted !== undefined && caipAccounts.some((a) => networkIdOf(a) === wanted.caipNetworkId)
            bitcoinChain = onWanted ? wanted.caipNetworkId : networkIdOf(caipAccounts[0]!)
            const chainId: NetworkChainId = onWanted ? wanted.id : bitcoinChain.slice(bitcoinChain.indexOf(":") + 1)
            sessions.push({ accounts: bitcoinAccountsOn(provider, bitcoinChain), chainId, provider: { namespace, provider: bitcoinProvider } })
          } else if (namespace === "polkadot") {
            const onWanted = wanted !== undefined && caipAccounts.some((a) => networkIdOf(a) === wanted.caipNetworkId)
            polkadotChain = onWanted ? wanted.caipNetworkId : networkIdOf(caipAccounts[0]!)
            const chainId: NetworkChainId = onWanted ? wanted.id : polkadotChain.slice(polkadotChain.indexOf(":") + 1)
            sessions.push({ accounts: polkadotAccountsOn(provider, polkadotChain), chainId, provider: { namespace, provider: polkadotProvider } })
          } else {
            const onWanted = wanted !== undefined && caipAccounts.some((a) => networkIdOf(a) === wanted.caipNetworkId)
            solanaChain = onWanted ? wanted.caipNetworkId : networkIdOf(caipAccounts[0]!)
            const chainId: NetworkChainId = onWanted ? wanted.id : solanaChain.slice(solanaChain.indexOf(":") + 1)
            sessions.push({ accounts, chainId, provider: { namespace: "solana", provider: solanaProvider } })
          }
        }
        return sessions
      })

    const asConnectError = (error: WalletConnectRequestFailed | WalletConnectConnectorMissing) =>
      error._tag === "WalletConnectConnectorMissing" ? error : walletErrorOf(error.code, error.message)

    return {
      connect: (networks: ReadonlyArray<CaipNetwork>) =>
        Effect.gen(function* () {
          // The wallet starts on the network of the family the visitor is on (the first one asked for). A connect
          // that is stopped (the visitor left the QR code) stops the pairing too: a later approval of that proposal
          // must not be taken by the next connect.
          yield* pair(networks[0]).pipe(Effect.onInterrupt(() => cancel))
          const provider = yield* load
          const sessions = yield* sessionsOf(provider, networks)
          if (sessions.length === 0) return yield* new SomethingWentWrong({ reason: "The wallet approved no account" })
          return sessions
        }).pipe(Effect.mapError((error) => (error._tag === "SomethingWentWrong" ? error : asConnectError(error)))),
      reconnect: (networks: ReadonlyArray<CaipNetwork>) =>
        Effect.gen(function* () {
          // Asked on restore: the library loads only then, and an absent session has no accounts.
          const provider = yield* load
          return hasSession(provider) ? yield* sessionsOf(provider, networks) : []
        }).pipe(Effect.mapError(asConnectError)),
      disconnect,
      freshUri,
      replaceUri,
      cancel,
      loaded: Effect.sync(() => universal !== undefined)
    }
  })
