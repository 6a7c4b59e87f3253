/**
 * The test wallet page's WalletConnect side: our own WalletConnect wallet (`../wcWallet`) on the devstack's relay, whose
 * proposals and requests wait in a state the view renders until the visitor approves or rejects them. EVM signing
 * and sending go through the EIP-1193 test wallet (`../testWallet`), which signs with viem local accounts and
 * forwards reads to the local anvil chains; Solana requests go to a dev key's signer (`./solana`), which sends to the
 * local Solana RPC; Polkadot requests to the Polkadot test wallet's dev accounts (`./polkadot`), on whichever
 * `polkadot:` networks the dapp asks for (signing needs no chain). One-click sign-in requests (`wc_sessionAuthenticate`: connect and sign in at once) wait the same
 * way while the page answers them (on by default); switched off, the wallet is one without that support and the
 * dapp's proposal sent beside the request comes instead.
 */
import {
  approvedNamespaces as approve,
  type AuthPayload,
  createWcWallet,
  type ProposeParams,
  sdkError,
  type SessionInfo as WcSessionInfo,
  type WalletEvents,
  type WcWallet
} from "../wcWallet"
import { formatEther, type Hex, toHex } from "viem"
import { SIMPLE_7702_ACCOUNT } from "../calls7702"
import { makeTestWallet, ProviderRpcError } from "../testWallet"
import { type AuthRequestSummary, describeAuthRequest, signAuthRequest } from "./authenticate"
import type { PageChain, PageConfig, PageSolanaAccount } from "./config"
import {
  describeRequest,
  parseChainId,
  promptedMethods,
  type RequestSummary,
  sessionEvents,
  sessionMethods,
  solanaSessionMethods,
  solText
} from "./requests"
import { makePolkadotDevSigner, type PolkadotDevSigner, polkadotPageAccounts, polkadotSessionMethods } from "./polkadot"
import { makeSolanaDevSigner, type SolanaDevSigner } from "./solana"

/** Who asks: the dapp's metadata as it introduced itself. */
export interface DappInfo {
  readonly name: string
  readonly url: string
  readonly description: string
}

/** A session proposal waiting for the visitor. */
export interface PendingProposal {
  readonly id: number
  readonly dapp: DappInfo
  /** CAIP-2 ids the dapp asks for (required and optional). */
  readonly chains: ReadonlyArray<string>
  readonly methods: ReadonlyArray<string>
  readonly events: ReadonlyArray<string>
  /** The chain families (`eip155`, `solana`, `polkadot`) an approval would share an account of. */
  readonly families: ReadonlyArray<string>
  /** Why it cannot be approved (a required network this wallet lacks), if so. */
  readonly problem: string | undefined
}

/** A one-click sign-in request (connect and sign in at once) waiting for the visitor. */
export interface PendingAuthRequest {
  readonly id: number
  readonly dapp: DappInfo
  readonly summary: AuthRequestSummary
  /** The request as it came: approving signs it. */
  readonly payload: AuthPayload
  /** Why it cannot be approved (no network this wallet has), if so. */
  readonly problem: string | undefined
}

/** A session request waiting for the visitor. */
export interface PendingRequest {
  readonly id: number
  readonly topic: string
  readonly dapp: DappInfo
  /** CAIP-2 id of the chain the request is for. */
  readonly chainId: string
  readonly method: string
  readonly params: unknown
  readonly summary: RequestSummary
}

/** A connected session. */
export interface SessionInfo {
  readonly topic: string
  readonly dapp: DappInfo
  readonly chains: ReadonlyArray<string>
  /** The addresses shared, one per chain family. */
  readonly accounts: ReadonlyArray<string>
  /** Expiry, seconds since the epoch. */
  readonly expiry: number
}

/** A line of the activity log. */
export interface Notice {
  readonly id: number
  readonly at: Date
  readonly text: string
  readonly tone: "ok" | "error" | "info"
}

/** Everything the view shows. */
export interface WalletState {
  readonly phase: "starting" | "ready" | "failed"
  /** Why the wallet could not start (no relay, a failed init). */
  readonly problem: string | undefined
  /** The EVM dev account the next connection shares. */
  readonly accountIndex: number
  /** The Solana dev key the next connection shares. */
  readonly solanaAccountIndex: number
  /** The Polkadot dev account (0 //Alice, 1 //Bob, 2 //Charlie) the next connection shares. */
  readonly polkadotAccountIndex: number
  /** Native balance of the selected accounts per CAIP-2 network id, as text ("10000 ETH", "1000 SOL"), when known. */
  readonly balances: ReadonlyMap<string, string>
  readonly proposals: ReadonlyArray<PendingProposal>
  readonly authRequests: ReadonlyArray<PendingAuthRequest>
  readonly requests: ReadonlyArray<PendingRequest>
  /** The wallet answers one-click sign-in requests; off, it is a wallet without that support. */
  readonly oneClick: boolean
  readonly sessions: ReadonlyArray<SessionInfo>
  /** Newest first. */
  readonly notices: ReadonlyArray<Notice>
  /** Ids of proposals and requests whose answer is on its way (their buttons are disabled). */
  readonly busy: ReadonlySet<number>
  /** The last pairing attempt's failure, shown beside the URI field. */
  readonly pairingError: string | undefined
  readonly pairing: boolean
}

/** What the view can ask of the wallet. */
export interface WalletActions {
  readonly selectAccount: (index: number) => void
  readonly selectSolanaAccount: (index: number) => void
  readonly selectPolkadotAccount: (index: number) => void
  readonly pair: (uri: string) => Promise<void>
  readonly approveProposal: (id: number) => Promise<void>
  readonly rejectProposal: (id: number) => Promise<void>
  /** Connects and signs in: one signed message per network asked for that this wallet has. */
  readonly approveAuthRequest: (id: number) => Promise<void>
  readonly rejectAuthRequest: (id: number) => Promise<void>
  /** Answers one-click sign-in requests from now on, or not (the dapp's proposal comes instead). */
  readonly setOneClick: (on: boolean) => void
  readonly approveRequest: (id: number) => Promise<void>
  readonly rejectRequest: (id: number) => Promise<void>
  readonly disconnect: (topic: string) => Promise<void>
  /** Adds a line to the activity log (the page reports what it noticed itself, such as a blocked request). */
  readonly report: (text: string, tone: Notice["tone"]) => void
}

/** The wallet: its current state, change notifications and actions. */
export interface PageWallet extends WalletActions {
  readonly state: () => WalletState
  readonly subscribe: (listener: (state: WalletState) => void) => () => void
}

const maxNotices = 30

const dappOf = (metadata: { name?: string; url?: string; description?: string } | undefined): DappInfo => ({
  name: metadata?.name || "An unnamed dapp",
  url: metadata?.url ?? "",
  description: metadata?.description ?? ""
})

const requestedNamespaces = (proposal: ProposeParams) => {
  const all = [...Object.entries(proposal.requiredNamespaces ?? {}), ...Object.entries(proposal.optionalNamespaces ?? {})]
  const unique = (values: ReadonlyArray<string>) => [...new Set(values)]
  return {
    chains: unique(all.flatMap(([key, ns]) => ns.chains ?? (key.includes(":") ? [key] : []))),
    methods: unique(all.flatMap(([, ns]) => ns.methods)),
    events: unique(all.flatMap(([, ns]) => ns.events))
  }
}

// Four decimals are plenty to follow what a dev account spends; gas leaves long tails.
const ethText = (wei: bigint): string => {
  const [whole, fraction = ""] = formatEther(wei).split(".")
  const shown = fraction.slice(0, 4).replace(/0+$/, "")
  return `${whole}${shown === "" ? "" : `.${shown}`} ETH`
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error))

/** Starts the wallet on the stack described by `config`: it connects to the relay and restores stored sessions. */
export const startPageWallet = (config: PageConfig): PageWallet => {
  const listeners = new Set<(state: WalletState) => void>()
  let state: WalletState = {
    phase: "starting",
    problem: undefined,
    accountIndex: config.accounts[0]?.index ?? 0,
    solanaAccountIndex: config.solana?.accounts[0]?.index ?? 0,
    polkadotAccountIndex: 0,
    balances: new Map(),
    proposals: [],
    authRequests: [],
    requests: [],
    oneClick: true,
    sessions: [],
    notices: [],
    busy: new Set(),
    pairingError: undefined,
    pairing: false
  }
  let noticeId = 0
  const set = (patch: Partial<WalletState>) => {
    state = { ...state, ...patch }
    for (const listener of listeners) listener(state)
  }
  const notify = (text: string, tone: Notice["tone"]) =>
    set({ notices: [{ id: ++noticeId, at: new Date(), text, tone }, ...state.notices].slice(0, maxNotices) })
  const setBusy = (id: number, busy: boolean) => {
    const next = new Set(state.busy)
    if (busy) next.add(id)
    else next.delete(id)
    set({ busy: next })
  }

  const chainByCaip = (caip: string): PageChain | undefined => config.chains.find((chain) => chain.caipNetworkId === caip)
  const chainName = (chainId: number): string =>
    config.chains.find((chain) => chain.chainId === chainId)?.name ?? `an unknown chain`
  const networkName = (caip: string): string =>
    chainByCaip(caip)?.name ?? (caip === config.solana?.caipNetworkId ? config.solana.name : caip)
  const selected = () => config.accounts.find((account) => account.index === state.accountIndex) ?? config.accounts[0]
  const selectedSolana = (): PageSolanaAccount | undefined =>
    config.solana?.accounts.find((account) => account.index === state.solanaAccountIndex) ?? config.solana?.accounts[0]

  // One signer per Solana dev key, made when first needed (importing a key into WebCrypto is asynchronous).
  const solanaSigners = new Map<string, Promise<SolanaDevSigner>>()
  const solanaSigner = (account: PageSolanaAccount, rpcUrl: string): Promise<SolanaDevSigner> => {
    let signer = solanaSigners.get(account.address)
    if (signer === undefined) {
      signer = makeSolanaDevSigner(account.secretKey, rpcUrl)
      solanaSigners.set(account.address, signer)
    }
    return signer
  }

  const signer =
    config.accounts.length === 0 || config.chains.length === 0
      ? undefined
      : makeTestWallet({
          privateKeys: config.accounts.map((account) => account.privateKey as Hex),
          chains: config.chains.map((chain) => ({ chainId: chain.chainId, name: chain.name, rpcUrl: chain.rpcUrl })),
          chainId: config.chains[0]?.chainId ?? 0,
          batchExecutor: SIMPLE_7702_ACCOUNT
        })
  // The page itself asks the visitor; the test wallet only signs, so it is authorised once and approves everything.
  const authorised = signer?.request({ method: "eth_requestAccounts" })

  const readBalance = async (rpcUrl: string, method: string, params: ReadonlyArray<unknown>): Promise<bigint | undefined> => {
    try {
      const response = await fetch(rpcUrl, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params })
      })
      const body = (await response.json()) as { result?: string | { value?: number } }
      const value = typeof body.result === "object" ? body.result.value : body.result
      return value === undefined ? undefined : BigInt(value)
    } catch {
      return undefined
    }
  }

  const refreshBalances = async () => {
    const account = selected()
    const solanaAccount = selectedSolana()
    const entries = await Promise.all([
      ...config.chains.map(async (chain): Promise<readonly [string, string] | undefined> => {
        const wei = account === undefined ? undefined : await readBalance(chain.rpcUrl, "eth_getBalance", [account.address, "latest"])
        return wei === undefined ? undefined : [chain.caipNetworkId, ethText(wei)]
      }),
      (async (): Promise<readonly [string, string] | undefined> => {
        if (config.solana === null || solanaAccount === undefined) return undefined
        const lamports = await readBalance(config.solana.rpcUrl, "getBalance", [solanaAccount.address])
        return lamports === undefined ? undefined : [config.solana.caipNetworkId, solText(lamports)]
      })()
    ])
    if (selected()?.address !== account?.address || selectedSolana()?.address !== solanaAccount?.address) return
    set({ balances: new Map(entries.filter((entry) => entry !== undefined)) })
  }

  let kit: WcWallet | undefined
  // Made at start (the keyring's WASM loads first); without it the wallet has no Polkadot side.
  let polkadot: PolkadotDevSigner | undefined

  const sessionInfo = (session: WcSessionInfo): SessionInfo => {
    const namespaces = Object.values(session.namespaces)
    return {
      topic: session.topic,
      dapp: dappOf(session.peer.metadata),
      chains: namespaces.flatMap(
        (namespace) => namespace.chains ?? [...new Set(namespace.accounts.map((account) => account.split(":").slice(0, 2).join(":")))]
      ),
      accounts: namespaces.flatMap((namespace) => {
        const address = namespace.accounts[0]?.split(":")[2]
        return address === undefined ? [] : [address]
      }),
      expiry: session.expiry
    }
  }
  const refreshSessions = () => {
    if (kit === undefined) return
    set({ sessions: Object.values(kit.getActiveSessions()).map(sessionInfo) })
  }

  // The accounts shared: the selected EVM account on every local chain, the selected Solana key on the local network,
  // the selected Polkadot account on the `polkadot:` networks asked for (in each one's address format).
  const supportedNamespaces = (address: string | undefined, solanaAddress: string | undefined, polkadotChains: ReadonlyArray<string>) => ({
    ...(address === undefined || config.chains.length === 0
      ? {}
      : {
          eip155: {
            chains: config.chains.map((chain) => chain.caipNetworkId),
            methods: [...sessionMethods],
            events: [...sessionEvents],
            accounts: config.chains.map((chain) => `${chain.caipNetworkId}:${address}`)
          }
        }),
    ...(config.solana === null || solanaAddress === undefined
      ? {}
      : {
          solana: {
            chains: [config.solana.caipNetworkId],
            methods: [...solanaSessionMethods],
            events: [...sessionEvents],
            accounts: [`${config.solana.caipNetworkId}:${solanaAddress}`]
          }
        }),
    ...(polkadot === undefined || polkadotChains.length === 0
      ? {}
      : {
          polkadot: {
            chains: [...polkadotChains],
            methods: [...polkadotSessionMethods],
            events: [...sessionEvents],
            accounts: polkadotChains.map((chain) => `${chain}:${polkadot!.addressOn(state.polkadotAccountIndex, chain)}`)
          }
        })
  })

  const approvedNamespaces = (proposal: ProposeParams) => {
    const namespaces = approve(
      proposal,
      supportedNamespaces(
        selected()?.address,
        selectedSolana()?.address,
        requestedNamespaces(proposal).chains.filter((chain) => chain.startsWith("polkadot:"))
      )
    )
    if (Object.keys(namespaces).length === 0) {
      throw new Error("The dapp asks for no network this wallet has (it has only the devstack's local chains and Polkadot networks).")
    }
    return namespaces
  }

  const onProposal = ({ id, params }: Pick<WalletEvents["session_proposal"], "id" | "params">) => {
    const requested = requestedNamespaces(params)
    let problem: string | undefined
    let families: ReadonlyArray<string> = []
    try {
      families = Object.keys(approvedNamespaces(params))
    } catch (error) {
      problem = errorText(error)
    }
    const proposal: PendingProposal = { id, dapp: dappOf(params.proposer.metadata), ...requested, families, problem }
    set({ proposals: [...state.proposals.filter((p) => p.id !== id), proposal] })
    notify(`${proposal.dapp.name} asks to connect.`, "info")
  }

  const sessionAddress = (topic: string, namespace: "eip155" | "solana" | "polkadot"): string | undefined => {
    const session = kit?.getActiveSessions()[topic]
    return session?.namespaces[namespace]?.accounts[0]?.split(":")[2]
  }

  const respond = async (topic: string, id: number, outcome: { result: unknown } | { error: { code: number; message: string } }) => {
    if (kit === undefined) return
    await kit.respondSessionRequest({ topic, response: "result" in outcome ? { id, result: outcome.result } : { id, error: outcome.error } })
  }

  const isSwitch = (method: string) => method === "wallet_switchEthereumChain" || method === "wallet_addEthereumChain"
  const switchTarget = (params: unknown): number | undefined =>
    parseChainId((Array.isArray(params) ? (params[0] as { chainId?: unknown } | undefined) : undefined)?.chainId)

  const switchChain = async (request: PendingRequest): Promise<null> => {
    const target = switchTarget(request.params)
    const chain = config.chains.find((c) => c.chainId === target)
    if (target === undefined || chain === undefined) {
      throw new ProviderRpcError(4902, `Unrecognized chain ID ${target ?? "(none)"}: this wallet has only the devstack's local chains.`)
    }
    const session = kit?.getActiveSessions()[request.topic]
    const eip155 = session?.namespaces["eip155"]
    const address = sessionAddress(request.topic, "eip155")
    if (kit === undefined || session === undefined || eip155 === undefined || address === undefined) {
      throw new ProviderRpcError(4100, "This session is gone.")
    }
    if (!(eip155.chains ?? []).includes(chain.caipNetworkId)) {
      await kit.updateSession({
        topic: request.topic,
        namespaces: {
          ...session.namespaces,
          eip155: {
            ...eip155,
            chains: [...(eip155.chains ?? []), chain.caipNetworkId],
            accounts: [...eip155.accounts, `${chain.caipNetworkId}:${address}`]
          }
        }
      })
    }
    return null
  }

  // The test wallet has one current account and chain: requests that use it run one after another, each pointing it
  // at its own session's account and chain first (a transaction reads the chain id after awaiting the node).
  let signerQueue: Promise<unknown> = Promise.resolve()
  const withSigner = <A>(task: () => Promise<A>): Promise<A> => {
    const run = signerQueue.then(task, task)
    signerQueue = run.catch(() => undefined)
    return run
  }

  /** Runs an approved Solana request: the session's dev key signs, and sends to the local Solana RPC. */
  const performSolana = async (request: PendingRequest): Promise<unknown> => {
    const solana = config.solana
    if (solana === null || request.chainId !== solana.caipNetworkId) {
      throw new ProviderRpcError(4901, `This wallet cannot reach ${request.chainId}.`)
    }
    const address = sessionAddress(request.topic, "solana")
    const account = solana.accounts.find((a) => a.address === address)
    if (account === undefined) throw new ProviderRpcError(4100, "The session's Solana account is not one of this wallet's keys.")
    return (await solanaSigner(account, solana.rpcUrl)).request(request.method, request.params)
  }

  /** Runs an approved Polkadot request: the session's dev account signs (the address asked for must be it). */
  const performPolkadot = async (request: PendingRequest): Promise<unknown> => {
    const session = kit?.getActiveSessions()[request.topic]
    if (polkadot === undefined || !(session?.namespaces["polkadot"]?.chains ?? []).includes(request.chainId)) {
      throw new ProviderRpcError(4901, `This wallet cannot reach ${request.chainId}.`)
    }
    const asked = (request.params as { address?: unknown } | undefined)?.address
    if (asked !== sessionAddress(request.topic, "polkadot")) {
      throw new ProviderRpcError(4100, `${String(asked)} is not the session's Polkadot account.`)
    }
    return polkadot.request(request.method, request.params)
  }

  /** Runs an approved (or unprompted) request: the test wallet signs or sends on the request's chain. */
  const perform = async (request: PendingRequest): Promise<unknown> => {
    if (request.chainId.startsWith("solana:")) return performSolana(request)
    if (request.chainId.startsWith("polkadot:")) return performPolkadot(request)
    if (isSwitch(request.method)) return switchChain(request)
    const chain = chainByCaip(request.chainId)
    if (signer === undefined || chain === undefined) {
      throw new ProviderRpcError(4901, `This wallet cannot reach ${request.chainId}.`)
    }
    const address = sessionAddress(request.topic, "eip155")
    const account = config.accounts.find((a) => a.address.toLowerCase() === address?.toLowerCase())
    if (account === undefined) throw new ProviderRpcError(4100, "The session's account is not one of this wallet's accounts.")
    return withSigner(async () => {
      await authorised
      signer.selectAccount(config.accounts.indexOf(account))
      if (signer.chainId() !== chain.chainId) signer.moveToChain(chain.chainId)
      return signer.request({ method: request.method, params: request.params })
    })
  }

  const outcomeText = (request: PendingRequest, result: unknown): string => {
    const chain = networkName(request.chainId)
    switch (request.method) {
      case "personal_sign":
      case "solana_signMessage":
      case "polkadot_signMessage":
        return `Signed a message for ${request.dapp.name}.`
      case "polkadot_signTransaction":
        return `Signed a transaction on ${chain} for ${request.dapp.name}.`
      case "solana_signTransaction":
        return `Signed a transaction on ${chain} for ${request.dapp.name}.`
      case "solana_signAllTransactions":
        return `Signed ${request.summary.title.replace(/^Sign /, "")} on ${chain} for ${request.dapp.name}.`
      case "solana_signAndSendTransaction":
        return `Sent transaction ${String((result as { signature?: unknown } | null)?.signature)} on ${chain} for ${request.dapp.name}.`
      case "eth_signTypedData":
      case "eth_signTypedData_v4":
        return `Signed typed data for ${request.dapp.name}.`
      case "eth_sendTransaction":
        return `Sent transaction ${String(result)} on ${chain} for ${request.dapp.name}.`
      case "wallet_sendCalls":
        return `Sent ${request.summary.title.replace(/^Send /, "")} on ${chain} for ${request.dapp.name}.`
      case "wallet_switchEthereumChain":
      case "wallet_addEthereumChain":
        return `Switched ${request.dapp.name} to ${request.summary.fields[0]?.value ?? "another network"}.`
      default:
        return `Answered ${request.method} for ${request.dapp.name}.`
    }
  }

  const answer = async (request: PendingRequest) => {
    try {
      const result = await perform(request)
      await respond(request.topic, request.id, { result })
      notify(outcomeText(request, result), "ok")
      if (isSwitch(request.method)) {
        const chain = config.chains.find((c) => c.chainId === switchTarget(request.params))
        if (chain !== undefined && kit !== undefined) {
          await kit.emitSessionEvent({
            topic: request.topic,
            event: { name: "chainChanged", data: chain.chainId },
            chainId: chain.caipNetworkId
          })
        }
        refreshSessions()
      }
      if (["eth_sendTransaction", "wallet_sendCalls", "solana_signAndSendTransaction"].includes(request.method)) void refreshBalances()
    } catch (error) {
      const code = error instanceof ProviderRpcError ? error.code : -32603
      await respond(request.topic, request.id, { error: { code, message: errorText(error) } }).catch(() => undefined)
      notify(`${request.method} for ${request.dapp.name} failed: ${errorText(error)}`, "error")
    }
  }

  const onRequest = ({ id, topic, params }: Pick<WalletEvents["session_request"], "id" | "topic" | "params">) => {
    const session = kit?.getActiveSessions()[topic]
    const request: PendingRequest = {
      id,
      topic,
      dapp: dappOf(session?.peer.metadata),
      chainId: params.chainId,
      method: params.request.method,
      params: params.request.params,
      summary: describeRequest(params.request.method, params.request.params, chainName)
    }
    const target = switchTarget(request.params)
    const unknownChain = isSwitch(request.method) && !config.chains.some((chain) => chain.chainId === target)
    if (!promptedMethods.has(request.method) || unknownChain) {
      // Reads and unknown chains need no decision: a wallet answers them at once.
      void answer(request)
      return
    }
    set({ requests: [...state.requests.filter((r) => r.id !== id), request] })
    notify(`${request.dapp.name}: ${request.summary.title.toLowerCase()}.`, "info")
  }

  const onAuthRequest = ({ id, params }: Pick<WalletEvents["session_authenticate"], "id" | "params">) => {
    const summary = describeAuthRequest(params.authPayload)
    const ours = summary.chains.filter((chain) => chainByCaip(chain) !== undefined)
    const problem =
      signer === undefined || ours.length === 0
        ? "The dapp asks to sign in on no network this wallet has (it has only the devstack's local EVM chains)."
        : undefined
    const request: PendingAuthRequest = { id, dapp: dappOf(params.requester.metadata), summary, payload: params.authPayload, problem }
    set({ authRequests: [...state.authRequests.filter((r) => r.id !== id), request] })
    notify(`${request.dapp.name} asks to connect and sign in.`, "info")
  }

  const dropProposal = (id: number) => set({ proposals: state.proposals.filter((p) => p.id !== id) })
  const dropAuthRequest = (id: number) => set({ authRequests: state.authRequests.filter((r) => r.id !== id) })
  const dropRequest = (id: number) => set({ requests: state.requests.filter((r) => r.id !== id) })

  const init = async () => {
    if (config.relayUrl === null) {
      set({ phase: "failed", problem: "This devstack runs without its WalletConnect relay: start it with the relay part." })
      return
    }
    if (signer === undefined && config.solana === null) {
      set({ phase: "failed", problem: "This devstack runs without its chains: start it with the evm or solana part." })
      return
    }
    polkadot = await makePolkadotDevSigner().catch((error: unknown) => {
      notify(`No Polkadot accounts: ${errorText(error)}`, "error")
      return undefined
    })
    kit = await createWcWallet({
      projectId: config.projectId,
      relayUrl: config.relayUrl,
      metadata: {
        name: "Devstack Test Wallet",
        description: "The local stack's WalletConnect test wallet (public dev keys)",
        url: location.origin,
        icons: []
      },
      oneClick: state.oneClick,
      // Sessions outlive a reload of the page, in its origin's storage.
      storage: localStorage,
      storagePrefix: "devstack-test-wallet:"
    })
    kit.on("session_proposal", onProposal)
    kit.on("session_authenticate", onAuthRequest)
    kit.on("session_request", onRequest)
    kit.on("session_delete", ({ topic }) => {
      const gone = state.sessions.find((s) => s.topic === topic)
      refreshSessions()
      set({ requests: state.requests.filter((r) => r.topic !== topic) })
      notify(`${gone?.dapp.name ?? "A dapp"} disconnected.`, "info")
    })
    refreshSessions()
    // What waited for a decision before a reload of the page waits again (the wallet kept it, as walletkit did).
    for (const params of kit.getPendingSessionProposals()) onProposal({ id: params.id, params })
    for (const request of kit.getPendingAuthenticateRequests()) onAuthRequest(request)
    for (const request of kit.getPendingSessionRequests()) onRequest(request)
    set({ phase: "ready" })
  }

  const actions: WalletActions = {
    report: notify,
    selectAccount: (index) => {
      set({ accountIndex: index, balances: new Map() })
      void refreshBalances()
    },
    selectSolanaAccount: (index) => {
      set({ solanaAccountIndex: index, balances: new Map() })
      void refreshBalances()
    },
    selectPolkadotAccount: (index) => {
      if (polkadotPageAccounts.some((account) => account.index === index)) set({ polkadotAccountIndex: index })
    },
    pair: async (text) => {
      const uri = text.trim()
      if (!uri.startsWith("wc:")) {
        set({ pairingError: "A pairing URI starts with wc: — copy it from the dapp's WalletConnect view." })
        return
      }
      if (kit === undefined) {
        set({ pairingError: state.problem ?? "The wallet is still starting; try again in a moment." })
        return
      }
      set({ pairing: true, pairingError: undefined })
      try {
        await kit.pair({ uri })
        notify("Paired; waiting for the dapp's connection request.", "info")
      } catch (error) {
        set({ pairingError: `Could not pair: ${errorText(error)}` })
      } finally {
        set({ pairing: false })
      }
    },
    approveProposal: async (id) => {
      const proposal = kit === undefined ? undefined : kit.getPendingSessionProposals().find((p) => p.id === id)
      if (kit === undefined || proposal === undefined) {
        dropProposal(id)
        return
      }
      setBusy(id, true)
      try {
        const namespaces = approvedNamespaces(proposal)
        const session = await kit.approveSession({ id, namespaces })
        dropProposal(id)
        refreshSessions()
        const shared = [
          ...(namespaces["eip155"] === undefined ? [] : [`account #${selected()?.index}`]),
          ...(namespaces["solana"] === undefined ? [] : [`Solana account #${selectedSolana()?.index}`]),
          ...(namespaces["polkadot"] === undefined ? [] : [`Polkadot account ${polkadotPageAccounts[state.polkadotAccountIndex]?.uri}`])
        ]
        notify(`Connected to ${dappOf(session.peer.metadata).name} as ${shared.join(" and ")}.`, "ok")
      } catch (error) {
        notify(`Could not connect: ${errorText(error)}`, "error")
      } finally {
        setBusy(id, false)
      }
    },
    approveAuthRequest: async (id) => {
      const request = state.authRequests.find((r) => r.id === id)
      const account = selected()
      if (kit === undefined || request === undefined || signer === undefined || account === undefined) {
        dropAuthRequest(id)
        return
      }
      const walletKit = kit
      setBusy(id, true)
      try {
        const auths = await signAuthRequest(
          request.payload,
          { chains: config.chains.map((chain) => chain.caipNetworkId), address: account.address },
          (message) =>
            withSigner(async () => {
              await authorised
              signer.selectAccount(config.accounts.indexOf(account))
              return String(await signer.request({ method: "personal_sign", params: [toHex(message), account.address] }))
            })
        )
        await walletKit.approveSessionAuthenticate({ id, auths })
        dropAuthRequest(id)
        refreshSessions()
        const networks = auths.map((auth) => networkName(auth.p.iss.split(":").slice(2, 4).join(":"))).join(", ")
        notify(`Connected to ${request.dapp.name} as account #${account.index} and signed in on ${networks}.`, "ok")
      } catch (error) {
        notify(`Could not sign in: ${errorText(error)}`, "error")
      } finally {
        setBusy(id, false)
      }
    },
    rejectAuthRequest: async (id) => {
      const request = state.authRequests.find((r) => r.id === id)
      setBusy(id, true)
      try {
        await kit?.rejectSessionAuthenticate({ id, reason: sdkError("USER_REJECTED") })
        notify(`Refused to sign in to ${request?.dapp.name ?? "a dapp"}.`, "info")
      } catch (error) {
        notify(`Could not reject: ${errorText(error)}`, "error")
      } finally {
        dropAuthRequest(id)
        setBusy(id, false)
      }
    },
    setOneClick: (on) => {
      if (on === state.oneClick) return
      set({ oneClick: on })
      kit?.setOneClick(on)
    },
    rejectProposal: async (id) => {
      const proposal = state.proposals.find((p) => p.id === id)
      setBusy(id, true)
      try {
        await kit?.rejectSession({ id, reason: sdkError("USER_REJECTED") })
        notify(`Rejected the connection request of ${proposal?.dapp.name ?? "a dapp"}.`, "info")
      } catch (error) {
        notify(`Could not reject: ${errorText(error)}`, "error")
      } finally {
        dropProposal(id)
        setBusy(id, false)
      }
    },
    approveRequest: async (id) => {
      const request = state.requests.find((r) => r.id === id)
      if (request === undefined) return
      setBusy(id, true)
      await answer(request)
      dropRequest(id)
      setBusy(id, false)
    },
    rejectRequest: async (id) => {
      const request = state.requests.find((r) => r.id === id)
      if (request === undefined) return
      setBusy(id, true)
      try {
        // A wallet's refusal travels as WalletConnect's USER_REJECTED: code 5000.
        await respond(request.topic, id, { error: sdkError("USER_REJECTED") })
        notify(`Rejected: ${request.summary.title.toLowerCase()} for ${request.dapp.name}.`, "info")
      } catch (error) {
        notify(`Could not reject: ${errorText(error)}`, "error")
      } finally {
        dropRequest(id)
        setBusy(id, false)
      }
    },
    disconnect: async (topic) => {
      const session = state.sessions.find((s) => s.topic === topic)
      try {
        await kit?.disconnectSession({ topic, reason: sdkError("USER_DISCONNECTED") })
        notify(`Disconnected from ${session?.dapp.name ?? "the dapp"}.`, "info")
      } catch (error) {
        notify(`Could not disconnect: ${errorText(error)}`, "error")
      } finally {
        refreshSessions()
        set({ requests: state.requests.filter((r) => r.topic !== topic) })
      }
    }
  }

  void refreshBalances()
  init().catch((error: unknown) => set({ phase: "failed", problem: `The wallet could not start: ${errorText(error)}` }))

  return {
    ...actions,
    state: () => state,
    subscribe: (listener) => {
      listeners.add(listener)
      return () => listeners.delete(listener)
    }
  }
}
