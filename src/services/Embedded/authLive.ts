/**
 * The AUTH connector's implementation, fetched on first use: loads the frame (hidden, on the frame origin), and over
 * its bridge connects each family (the frame's user on that family's network), restores ("is connected"), signs out,
 * and hands each family a provider that sends safe methods to the frame at once, asks the visitor first for unsafe
 * ones (ApproveTransaction, through the approval gate), and refuses any other method.
 */
import { Effect, Exit, Option, type Scope } from "effect"
import type { Account, EmbeddedAccountType, EmbeddedWalletUser } from "../../domain/Account"
import type { ChainNamespace } from "../../domain/Caip"
import { fromBase58, fromBase64, toBase58, toBase64 } from "../../domain/encoding"
import { DisconnectFailed, type FrameError, type FrameStepTimedOut, type FrameLoadTimedOut, type FrameNotSet, SomethingWentWrong, UserRejected } from "../../domain/errors"
import { classifyEmbeddedRpcMethod } from "../../domain/Frame"
import { PERMISSION_GRANT_METHODS, PERMISSION_REVOKE_METHODS, permissionTransactionOf } from "../../domain/permissionContext"
import type { CaipNetwork } from "../../domain/Network"
import type { HostOptions } from "../../domain/Options"
import { accountTypeToSwitchTo } from "../../domain/accountTypes"
import { RPC_ERROR_CODES, SECURE_SDK_VERSION_DEFAULT } from "../../domain/constants"
import { walletErrorOf, type WalletRequestError } from "../../domain/walletErrors"
import type { ConnectError, FamilySession, WalletEvent } from "../connectors/Connector"
import type { Eip1193Provider } from "../eip155/eip1193"
import { parseChainId } from "../eip155/eip1193"
import { browserFramePort } from "../FrameBridge/browserPort"
import { FrameBridge, type FrameBridgeService, type FramePort } from "../FrameBridge/FrameBridge"
import { type SolanaProvider, walletStandardChainOf } from "../solana/provider"
import type { Storage } from "../Storage/Storage"
import { eip155ApprovalSummary, printableText } from "./approvalSummary"
import type { ApprovalGate, ApprovalRequest } from "./authState"
import { checkBatch } from "./batchCheck"
import { forgetLogin } from "./loginCache"
import { solanaApprovalSummary } from "./solanaSummary"

/** What the connector hands its implementation. */
export interface AuthLiveOptions {
  readonly config: HostOptions
  readonly storage: Storage["Service"]
  /** The approval gate: the embedded wallet's flows, fetched and built when first run; `undefined` before they are set. */
  readonly gate: () => Effect.Effect<ApprovalGate> | undefined
  readonly emit: (event: WalletEvent) => Effect.Effect<void>
  /** The frame's window side; by default the hidden frame of `endpoints.frame`. Tests give a scripted frame. */
  readonly port?: FramePort | undefined
}

/** The loaded AUTH connector. */
export interface AuthLive {
  readonly bridge: FrameBridgeService
  readonly connect: (networks: ReadonlyArray<CaipNetwork>) => Effect.Effect<ReadonlyArray<FamilySession>, ConnectError>
  readonly reconnect: (networks: ReadonlyArray<CaipNetwork>) => Effect.Effect<ReadonlyArray<FamilySession>, ConnectError>
  readonly disconnect: Effect.Effect<void, DisconnectFailed>
  /**
   * The Account view's switch between the EVM accounts: SET_PREFERRED_ACCOUNT, then the frame's user on the current
   * EVM network; the account in front is theirs from now on (what `eth_accounts` answers). Its accounts, the one in
   * front first.
   */
  readonly setPreferredAccount: (type: EmbeddedAccountType) => Effect.Effect<ReadonlyArray<Account>, { readonly message: string }>
}

type BridgeError = FrameError | FrameStepTimedOut | FrameLoadTimedOut

/** An EIP-1193 error as dApps and our adapters read it: a message and a code. */
const providerError = (code: number, message: string): Error => Object.assign(new Error(message), { code })

/** What the bridge failed with, as a wallet error (the frame's own words; no code crosses the frame). */
const asWalletError = (error: BridgeError): WalletRequestError => walletErrorOf(undefined, error.message)

const thrown = (error: WalletRequestError | { readonly message: string; readonly code?: number }): Error =>
  providerError("code" in error && typeof error.code === "number" ? error.code : RPC_ERROR_CODES.internalError, error.message)

const toConnectError = (error: BridgeError): ConnectError => new SomethingWentWrong({ reason: error.message })

/** The chain id the frame takes for a network: the number for eip155, the CAIP-2 id for the others. */
const frameChainOf = (network: CaipNetwork): string | number =>
  network.chainNamespace === "eip155" ? Number(network.id) : network.caipNetworkId

/** The frame user's accounts, the one in front (the user's `address`) first. */
export const accountsOfUser = (user: Pick<EmbeddedWalletUser, "address" | "accounts">): ReadonlyArray<Account> => {
  const front = user.accounts.filter((account) => account.address.toLowerCase() === user.address.toLowerCase())
  const rest = user.accounts.filter((account) => account.address.toLowerCase() !== user.address.toLowerCase())
  return front.length === 0 ? [{ address: user.address, type: "eoa" }, ...rest] : [...front, ...rest]
}

const isRecord = (value: unknown): value is Readonly<Record<string, unknown>> => typeof value === "object" && value !== null

/** Loads the frame and waits for it to be ready; then the connector's operations over it. */
export const makeAuthLive = (options: AuthLiveOptions): Effect.Effect<AuthLive, FrameLoadTimedOut | FrameNotSet, Scope.Scope> =>
  Effect.gen(function* () {
    const { config, storage, emit } = options
    const firstEvm = config.networks.find((network) => network.chainNamespace === "eip155")
    const port = options.port ?? (yield* browserFramePort({
      frameUrl: config.endpoints.frame,
      projectId: config.projectId ?? "",
      chainId: firstEvm === undefined ? (config.networks[0]?.caipNetworkId ?? "") : String(firstEvm.id),
      version: String(SECURE_SDK_VERSION_DEFAULT),
      enableLogger: config.debug
    }))
    const bridge = yield* FrameBridge.make(port)
    yield* bridge.ready
    const services = yield* Effect.context<never>()
    const run = <A>(effect: Effect.Effect<A, WalletRequestError | { readonly message: string; readonly code?: number }>) =>
      Effect.runPromiseExit(Effect.provideContext(effect, services)).then((exit) => {
        if (Exit.isSuccess(exit)) return exit.value
        const error = Option.getOrUndefined(Exit.findErrorOption(exit))
        throw error !== undefined ? thrown(error) : providerError(RPC_ERROR_CODES.internalError, "The request was stopped.")
      })

    // The network each family is on in the frame (the frame keeps one per family).
    const current: Partial<Record<ChainNamespace, CaipNetwork>> = {}
    const networkOf = (namespace: ChainNamespace, chainId: string | number) =>
      config.networks.find((network) => network.chainNamespace === namespace && String(network.id) === String(chainId))

    const switchFrame = (network: CaipNetwork) =>
      Effect.gen(function* () {
        if (current[network.chainNamespace]?.caipNetworkId === network.caipNetworkId) return
        yield* bridge.request("SWITCH_NETWORK", { chainId: frameChainOf(network) })
        current[network.chainNamespace] = network
      })

    /** Asks the visitor, then the frame (the gate closes the modal, or pops its step, once the frame answered). */
    const approved = <A>(request: ApprovalRequest, ask: Effect.Effect<A, BridgeError>) => {
      const gate = options.gate()
      return gate === undefined
        ? Effect.fail(new UserRejected({ code: RPC_ERROR_CODES.userRejected }))
        : Effect.flatMap(gate, (flows) => flows.approved(request, Effect.mapError(ask, asWalletError)))
    }

    const rpc = (method: string, params: unknown) =>
      Effect.map(bridge.request("RPC_REQUEST", params === undefined ? { method } : { method, params }), (payload) => payload)

    // ERC-7715 grants and revokes are checked and put in words by code fetched on their first request.
    const permissionSummary = (method: string, params: unknown, network: CaipNetwork) =>
      PERMISSION_GRANT_METHODS.includes(method) || PERMISSION_REVOKE_METHODS.includes(method)
        ? Effect.tryPromise({
            try: () => import("./permissionApproval"),
            catch: () => ({ code: RPC_ERROR_CODES.internalError, message: "The wallet's permission code could not be loaded." })
          }).pipe(Effect.flatMap((loaded) => loaded.permissionApproval(method, params, network, rpc)))
        : Effect.succeed(undefined)

    // The EVM account in front (what eth_accounts answers) and the accounts the frame listed, kept across switches.
    let evmFront: { address: string } | undefined
    let evmAccounts: ReadonlyArray<Account> = []
    const sameAccounts = (a: ReadonlyArray<Account>, b: ReadonlyArray<Account>) =>
      a.length === b.length && a.every((account, i) => account.address === b[i]?.address && account.type === b[i]?.type)

    const eip155Provider = (accounts: { address: string }): Eip1193Provider => ({
      request: ({ method, params }) =>
        run(
          Effect.gen(function* () {
            const network = current.eip155
            if (network === undefined) return yield* Effect.fail({ code: RPC_ERROR_CODES.disconnected, message: "The embedded wallet is not connected." })
            switch (method) {
              case "eth_accounts":
              case "eth_requestAccounts":
                return [accounts.address]
              case "eth_chainId":
                return `0x${Number(network.id).toString(16)}`
              case "wallet_switchEthereumChain":
              case "wallet_addEthereumChain": {
                const wanted = parseChainId(Array.isArray(params) && isRecord(params[0]) ? params[0]["chainId"] : undefined)
                const target = wanted === undefined ? undefined : networkOf("eip155", wanted)
                if (target === undefined) return yield* Effect.fail({ code: RPC_ERROR_CODES.unrecognizedChain, message: "Chain is not supported" })
                if (method === "wallet_addEthereumChain") return null
                // Spec point 4: an embedded-login chain reconnects on the new chain: the frame's user there.
                yield* switchFrame(target).pipe(Effect.mapError(asWalletError))
                const user = yield* bridge.request("GET_USER", { chainId: frameChainOf(target) }).pipe(Effect.mapError(asWalletError))
                const listed = accountsOfUser(user)
                if (user.address !== accounts.address || !sameAccounts(listed, evmAccounts)) {
                  accounts.address = user.address
                  evmAccounts = listed
                  yield* emit({ _tag: "AccountsChanged", namespace: "eip155", accounts: listed })
                }
                yield* emit({ _tag: "ChainChanged", namespace: "eip155", chainId: target.id })
                return null
              }
            }
            // A send made with a permission the visitor granted: the wallet server checks it against the grant.
            if (permissionTransactionOf(method, params) !== undefined) return yield* rpc(method, params).pipe(Effect.mapError(asWalletError))
            switch (classifyEmbeddedRpcMethod(method)) {
              case "safe":
                return yield* rpc(method, params).pipe(Effect.mapError(asWalletError))
              case "unsafe": {
                // A batch is checked before the visitor is asked: a bad one never reaches ApproveTransaction.
                const sent =
                  method === "wallet_sendCalls"
                    ? yield* checkBatch(params, network, { address: accounts.address, type: evmAccounts.find((a) => a.address === accounts.address)?.type }, (read, args) =>
                        rpc(read, args).pipe(Effect.mapError(asWalletError))
                      )
                    : params
                const summary = (yield* permissionSummary(method, sent, network)) ?? eip155ApprovalSummary(method, sent, network.nativeCurrency)
                return yield* approved({ namespace: "eip155", method, chainId: network.caipNetworkId, summary }, rpc(method, sent))
              }
              case "rejected": {
                const gate = options.gate()
                if (gate === undefined) return yield* Effect.fail({ code: RPC_ERROR_CODES.unsupportedMethod, message: "Requested RPC call is not allowed" })
                return yield* Effect.flatMap(gate, (flows) => flows.disallowed(method)).pipe(
                  Effect.mapError((error) => ({ code: RPC_ERROR_CODES.unsupportedMethod, message: error.message }))
                )
              }
            }
          })
        )
    })

    // The Solana network a Wallet Standard chain name stands for (the frame needs the network's CAIP-2 id).
    const solanaNetworkOf = (chain: string) =>
      config.networks.find((network) => network.chainNamespace === "solana" && walletStandardChainOf(network) === chain) ?? current.solana

    const solanaRequest = <A>(chain: string, method: string, params: unknown, summary: () => ApprovalRequest["summary"], read: (payload: unknown) => A | undefined) =>
      run(
        Effect.gen(function* () {
          const network = solanaNetworkOf(chain)
          if (network === undefined) return yield* Effect.fail({ code: RPC_ERROR_CODES.disconnected, message: "The embedded wallet is not connected." })
          yield* switchFrame(network).pipe(Effect.mapError(asWalletError))
          const payload = yield* approved({ namespace: "solana", method, chainId: network.caipNetworkId, summary: summary() }, rpc(method, params))
          const value = read(payload)
          if (value === undefined) return yield* Effect.fail({ code: RPC_ERROR_CODES.internalError, message: "The embedded wallet answered something unexpected." })
          return value
        })
      )

    const bytesField = (field: string, decode: (text: string) => Uint8Array | undefined) => (payload: unknown) =>
      isRecord(payload) && typeof payload[field] === "string" ? decode(payload[field]) : undefined

    const solanaProvider: SolanaProvider = {
      signMessage: (account, message) =>
        solanaRequest(
          walletStandardChainOf(current.solana ?? { id: "" }),
          "solana_signMessage",
          { message: toBase58(message), pubkey: account },
          () => ({ _tag: "Message", text: printableText(message) ?? toBase58(message) }),
          bytesField("signature", fromBase58)
        ),
      signTransaction: (_account, transaction, chain) =>
        solanaRequest(chain, "solana_signTransaction", { transaction: toBase64(transaction) }, () => solanaApprovalSummary([transaction]), bytesField("transaction", fromBase64)),
      signAndSendTransaction: (_account, transaction, chain, sendOptions) =>
        solanaRequest(
          chain,
          "solana_signAndSendTransaction",
          sendOptions === undefined ? { transaction: toBase64(transaction) } : { transaction: toBase64(transaction), options: sendOptions },
          () => solanaApprovalSummary([transaction]),
          bytesField("signature", fromBase58)
        ),
      signAllTransactions: (_account, transactions, chain) =>
        solanaRequest(
          chain,
          "solana_signAllTransactions",
          { transactions: transactions.map(toBase64) },
          () => solanaApprovalSummary(transactions),
          (payload) => {
            const list = isRecord(payload) && Array.isArray(payload["transactions"]) ? payload["transactions"] : undefined
            const decoded = list?.map((entry) => (typeof entry === "string" ? fromBase64(entry) : undefined))
            return decoded !== undefined && decoded.every((entry) => entry !== undefined) ? (decoded as ReadonlyArray<Uint8Array>) : undefined
          }
        )
    }

    // The networks where the frame runs smart accounts: its answer is kept; a failed ask counts as none, this time only.
    let smartNetworks: ReadonlyArray<number> | undefined
    const smartAccountNetworks = Effect.suspend(() =>
      smartNetworks !== undefined
        ? Effect.succeed(smartNetworks)
        : bridge.request("GET_SMART_ACCOUNT_ENABLED_NETWORKS").pipe(
            Effect.map((answer) => (smartNetworks = answer.smartAccountEnabledNetworks)),
            Effect.catch((error) => Effect.as(Effect.logWarning(`No smart-account networks: ${error.message}`), [] as ReadonlyArray<number>))
          )
    )

    /**
     * Spec 4: on connect, when the user's preferred type differs from the chain's default (the host's
     * `defaultAccountTypes`), one attempt to switch it; smartAccount only where the frame runs smart accounts. A
     * refusal leaves the account the frame had in front. The frame's user afterwards.
     */
    const preferDefaultType = (network: CaipNetwork, user: EmbeddedWalletUser) =>
      Effect.gen(function* () {
        const preferred = user.preferredAccountType ?? accountsOfUser(user)[0]?.type
        const rule = { namespace: network.chainNamespace, preferred, hostDefaults: config.defaultAccountTypes }
        // The frame is asked for its smart-account networks only when a switch to a smart account could be due.
        const wanted = accountTypeToSwitchTo({ ...rule, smartAccountEnabled: true })
        if (wanted === undefined) return user
        const enabled = wanted === "smartAccount" && network.chainNamespace === "eip155" && (yield* smartAccountNetworks).includes(Number(network.id))
        const type = accountTypeToSwitchTo({ ...rule, smartAccountEnabled: enabled })
        if (type === undefined) return user
        const switched = yield* Effect.exit(bridge.request("SET_PREFERRED_ACCOUNT", { type }))
        if (Exit.isFailure(switched)) {
          yield* Effect.logWarning(`The embedded wallet stays on its ${preferred ?? "eoa"} account: ${String(Option.getOrUndefined(Exit.findErrorOption(switched))?.message)}`)
          return user
        }
        return yield* bridge.request("GET_USER", { chainId: frameChainOf(network) })
      })

    const sessionsFor = (networks: ReadonlyArray<CaipNetwork>, fresh: boolean) =>
      Effect.forEach(
        networks.filter((network) => network.chainNamespace === "eip155" || network.chainNamespace === "solana"),
        (network) =>
          Effect.gen(function* () {
            yield* switchFrame(network)
            const asked = yield* bridge.request("GET_USER", { chainId: frameChainOf(network) })
            // A restored session keeps the account the visitor had in front (the frame remembers their choice).
            const user = fresh ? yield* preferDefaultType(network, asked) : asked
            const accounts = accountsOfUser(user)
            if (network.chainNamespace !== "eip155") {
              return { accounts, chainId: network.id, provider: { namespace: "solana", provider: solanaProvider } } satisfies FamilySession
            }
            const front = { address: user.address }
            evmFront = front
            evmAccounts = accounts
            return { accounts, chainId: network.id, provider: { namespace: "eip155", provider: eip155Provider(front) } } satisfies FamilySession
          })
      )

    const connect = (networks: ReadonlyArray<CaipNetwork>) =>
      Effect.gen(function* () {
        const { isConnected } = yield* bridge.request("IS_CONNECTED")
        if (!isConnected) return yield* new SomethingWentWrong({ reason: "Log in with your email first." })
        return yield* sessionsFor(networks, true)
      }).pipe(Effect.mapError((error) => (error._tag === "SomethingWentWrong" ? error : toConnectError(error))))

    // A failed connection check forgets the login (spec 4's login cache); a session the frame no longer has is none.
    const reconnect = (networks: ReadonlyArray<CaipNetwork>) =>
      Effect.gen(function* () {
        const { isConnected } = yield* bridge.request("IS_CONNECTED")
        if (!isConnected) {
          yield* forgetLogin(storage)
          return []
        }
        // With sign-in configured, the restored account is checked for a session as soon as it is connected: the
        // wallet's flows come first (this runs only when an embedded session was stored), so the step they set before
        // signing in (Recover on a device without its share) is there for that check. Flows that cannot load change
        // nothing here: the account is restored all the same.
        const flows = options.gate()
        if (flows !== undefined && (config.siwx ?? config.siweConfig) !== undefined) yield* Effect.exit(flows)
        return yield* sessionsFor(networks, false)
      }).pipe(Effect.tapError(() => forgetLogin(storage)), Effect.mapError(toConnectError))

    const disconnect = Effect.gen(function* () {
      yield* forgetLogin(storage)
      for (const namespace of Object.keys(current) as Array<ChainNamespace>) delete current[namespace]
      yield* bridge.request("SIGN_OUT").pipe(Effect.mapError((error) => new DisconnectFailed({ reason: error.message })))
    })

    const setPreferredAccount = (type: EmbeddedAccountType) =>
      Effect.gen(function* () {
        const network = current.eip155
        const front = evmFront
        if (network === undefined || front === undefined) return yield* Effect.fail({ message: "The embedded wallet is not connected." })
        yield* bridge.request("SET_PREFERRED_ACCOUNT", { type })
        const user = yield* bridge.request("GET_USER", { chainId: frameChainOf(network) })
        const accounts = accountsOfUser(user)
        front.address = user.address
        evmAccounts = accounts
        return accounts
      }).pipe(Effect.withSpan("EmbeddedAuth.setPreferredAccount"))

    return { bridge, connect, reconnect, disconnect, setPreferredAccount }
  })
