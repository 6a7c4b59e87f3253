/**
 * Wallet-side WalletConnect clients on our relay. `startDevWalletKit` is a whole wallet over the dev accounts that
 * approves proposals of the four families and answers their requests, signing as the test wallet page does; it runs
 * on our own wallet (`devstack/wallet/wcWallet.ts`) by default, or on WalletConnect's `@reown/walletkit` 1.2.10 (the
 * last Apache-2.0 release, a devDependency) as the independent peer of interop tests (`implementation: "walletkit"`).
 * `initTestWalletKit` is that bare walletkit client: its own storage prefix in memory (a dapp in the same process
 * must not share it) and no request queue (else 1 s between requests).
 */
import { randomUUID } from "node:crypto"
import { WalletKit, type WalletKitTypes } from "@reown/walletkit"
import { Core } from "@walletconnect/core"
import type { ICore } from "@walletconnect/types"
import { toHex } from "viem"
import { devSolanaKey } from "../../../devstack/solana/keys"
import { signAuthRequest } from "../../../devstack/wallet/page/authenticate"
import { promptedMethods, sessionEvents, sessionMethods, solanaSessionMethods } from "../../../devstack/wallet/page/requests"
import { makeSolanaDevSigner, type SolanaDevSigner } from "../../../devstack/wallet/page/solana"
import { type BitcoinTestWallet, makeBitcoinTestWallet } from "../../../devstack/wallet/bitcoin/testWallet"
import { answerPolkadot } from "../../../devstack/wallet/page/polkadot"
import { createPolkadotTestWallet, type PolkadotTestWallet } from "../../../devstack/wallet/polkadot/testWallet"
import { type Approval, makeTestWallet, ProviderRpcError, type TestWallet, type TestWalletOptions } from "../../../devstack/wallet/testWallet"
import { encodeSs58, ss58PrefixOf } from "../../../src/services/polkadot/ss58"
import { BITCOIN_SESSION_METHODS, POLKADOT_SESSION_METHODS } from "../../../src/services/walletconnect/namespaces"
import type { ProposalNamespaces } from "../../../src/services/walletconnect/protocol/sign"
import { approvedNamespaces as approve, type AuthPayload, type Cacao, createWcWallet, sdkError } from "../../../devstack/wallet/wcWallet"
import { NodeWebSocket } from "./wcSettings"

/** Starts a walletkit wallet connected to the relay at `relayUrl`. */
export const initTestWalletKit = (relayUrl: string, name = "Wallet") => {
  const core = new Core({
    projectId: "devstack",
    relayUrl,
    logger: "silent",
    customStoragePrefix: `wallet-${randomUUID()}`,
    storageOptions: { database: ":memory:" }
  })
  // WalletConnect's own class and interface disagree under exactOptionalPropertyTypes only.
  return WalletKit.init({
    core: core as ICore,
    metadata: { name, description: `${name} under test`, url: "http://127.0.0.1", icons: [] },
    signConfig: { disableRequestQueue: true }
  })
}

/** A walletkit client as {@link initTestWalletKit} makes it. */
export type TestWalletKit = Awaited<ReturnType<typeof initTestWalletKit>>

/** The accounts a wallet shares when it approves a proposal, per chain family; chains are CAIP-2 ids. */
export interface SharedAccounts {
  /** A `0x` address on `eip155:…` chains. */
  readonly eip155?: { readonly address: string; readonly chains: ReadonlyArray<string> }
  /** A base58 address on `solana:<genesis ref>` networks (the devstack's is `solana.caipNetworkId`). */
  readonly solana?: { readonly address: string; readonly chains: ReadonlyArray<string> }
  /** An SS58 account on `polkadot:<genesis ref>` networks, written in each network's format. */
  readonly polkadot?: { readonly addressOn: (chain: string) => string; readonly chains: ReadonlyArray<string> }
  /** The payment address (the session's account) on `bip122:<genesis ref>` networks. */
  readonly bip122?: { readonly address: string; readonly chains: ReadonlyArray<string> }
}

/** A proposal's namespaces, as either wallet receives them. */
export interface ProposalLike {
  readonly requiredNamespaces?: ProposalNamespaces | undefined
  readonly optionalNamespaces: ProposalNamespaces
}

/**
 * The namespaces approving `proposal` with `accounts`: each family and chain it asks for (required or optional) that
 * the accounts cover, with the methods the dev wallets answer. Throws when a required one is not covered; is empty
 * when nothing asked for is.
 */
export const approvedNamespaces = (proposal: ProposalLike, accounts: SharedAccounts) => {
  const family = (shared: { readonly address: string; readonly chains: ReadonlyArray<string> }, methods: ReadonlyArray<string>) => ({
    chains: [...shared.chains],
    methods: [...methods],
    events: [...sessionEvents],
    accounts: shared.chains.map((chain) => `${chain}:${shared.address}`)
  })
  return approve(proposal, {
    ...(accounts.eip155 === undefined ? {} : { eip155: family(accounts.eip155, sessionMethods) }),
    ...(accounts.solana === undefined ? {} : { solana: family(accounts.solana, solanaSessionMethods) }),
    ...(accounts.polkadot === undefined
      ? {}
      : {
          polkadot: {
            chains: [...accounts.polkadot.chains],
            methods: [...POLKADOT_SESSION_METHODS],
            events: [...sessionEvents],
            accounts: accounts.polkadot.chains.map((chain) => `${chain}:${accounts.polkadot!.addressOn(chain)}`)
          }
        }),
    ...(accounts.bip122 === undefined ? {} : { bip122: family(accounts.bip122, BITCOIN_SESSION_METHODS) })
  })
}

/** Options of {@link startDevWalletKit}; a family left out is one the wallet lacks. */
export interface DevWalletKitOptions {
  readonly relayUrl: string
  readonly name?: string
  /** The EVM side: a test wallet (`devstack/wallet/testWallet`) over these keys and chains. */
  readonly evm?: TestWalletOptions
  /** The Solana side: the local Solana RPC, its CAIP-2 id, and which `devSolanaKey` signs (0 by default). */
  readonly solana?: { readonly rpcUrl: string; readonly caipNetworkId: string; readonly key?: number }
  /**
   * The Polkadot side: the Polkadot test wallet's dev account (`account`, default 0: //Alice sr25519) on these
   * `polkadot:` networks, answering `polkadot_signMessage` and `polkadot_signTransaction` as the extension does.
   */
  readonly polkadot?: { readonly chains: ReadonlyArray<string>; readonly account?: number }
  /**
   * The Bitcoin side: the Bitcoin test wallet (`devstack/wallet/bitcoin`, dev key set `keyIndex`) on the devstack's
   * regtest node at `apiUrl`, answering WalletConnect's four Bitcoin methods; its payment address is the account.
   */
  readonly bitcoin?: { readonly apiUrl: string; readonly caipNetworkId: string; readonly keyIndex?: number }
  /**
   * One-click sign-in (`wc_sessionAuthenticate`): answered ("approve": one signed CACAO per EVM chain it has; "reject":
   * WalletConnect's 5000) when set; without it the wallet has no such support and gets the session proposal instead.
   */
  readonly oneClick?: Approval
  /** Which wallet runs it: ours (the default) or WalletConnect's walletkit 1.2.10, the independent peer. */
  readonly implementation?: "ours" | "walletkit"
}

/** What the tests ask of either wallet beyond the dev wallet's own answers. */
export interface KitLike {
  readonly getActiveSessions: () => Record<string, { readonly topic: string; readonly namespaces: Record<string, { readonly accounts: ReadonlyArray<string> }> }>
  readonly emitSessionEvent: (params: { topic: string; chainId: string; event: { name: string; data: unknown } }) => Promise<void>
  readonly disconnectSession: (params: { topic: string; reason: { code: number; message: string } }) => Promise<void>
  readonly updateSession?: (params: { topic: string; namespaces: Record<string, { chains?: Array<string>; accounts: Array<string>; methods: Array<string>; events: Array<string> }> }) => Promise<unknown>
}

/** A walletkit wallet over the dev accounts, with what a test needs to steer and observe it. */
export interface DevWalletKit {
  readonly kit: KitLike
  /** The EVM test wallet that signs (`address()`, `requests`, `selectAccount`, …), if the wallet has the family. */
  readonly evm: TestWallet | undefined
  /** The Solana dev key's signer (`address`), if the wallet has the family. */
  readonly solana: SolanaDevSigner | undefined
  /** The Polkadot test wallet that signs (`pairs`, `setApproval`), if the wallet has the family. */
  readonly polkadot: PolkadotTestWallet | undefined
  /** The Bitcoin test wallet that signs and sends (`key`, `sent`, `setApproval`), if the wallet has the family. */
  readonly bitcoin: BitcoinTestWallet | undefined
  /** Every proposal received, in order. */
  readonly proposals: ReadonlyArray<ProposalLike>
  /** Every one-click sign-in request received (`wc_sessionAuthenticate`): the chains it asked for, in order. */
  readonly authRequests: ReadonlyArray<{ readonly chains: ReadonlyArray<string> }>
  /** Every session request received (method and CAIP-2 chain), in order. */
  readonly requests: ReadonlyArray<{ readonly method: string; readonly chainId: string }>
  /** How many sessions the other side ended. */
  readonly deleted: () => number
  /** How proposals are answered from now on; "reject" reaches the dapp as WalletConnect's 5000. */
  readonly setProposalApproval: (approval: Approval) => void
  /** How requests to sign or send, of either family, are answered from now on; "reject" is 5000. */
  readonly setApproval: (approval: Approval) => void
  readonly pair: (uri: string) => Promise<void>
  /** Closes its relay connection and timers. */
  readonly close: () => Promise<void>
}

const failureOf = (error: unknown): { readonly code: number; readonly message: string } => {
  if (error instanceof ProviderRpcError) return error.code === 4001 ? sdkError("USER_REJECTED") : { code: error.code, message: error.message }
  return { code: -32603, message: error instanceof Error ? error.message : String(error) }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null

/** WalletConnect's Bitcoin methods (src/services/walletconnect/namespaces.ts), answered by the Bitcoin test wallet. */
const performBitcoin = async (wallet: BitcoinTestWallet, method: string, params: unknown): Promise<unknown> => {
  if (!isRecord(params)) throw new ProviderRpcError(-32602, `${method}: params are required.`)
  const { backend } = wallet
  switch (method) {
    case "getAccountAddresses":
      return (await backend.connect(true)).map((entry) => ({
        address: entry.address,
        publicKey: entry.publicKey,
        intention: entry.purpose === "ordinals" ? "ordinal" : "payment"
      }))
    case "signMessage": {
      const address = typeof params["address"] === "string" ? params["address"] : String(params["account"])
      if (typeof params["message"] !== "string") throw new ProviderRpcError(-32602, "signMessage: a message is required.")
      const signature = await backend.signMessage(address, new TextEncoder().encode(params["message"]))
      return { address, signature: Buffer.from(signature).toString("base64") }
    }
    case "signPsbt": {
      const signInputs = Array.isArray(params["signInputs"]) ? params["signInputs"] : []
      const byAddress = new Map<string, Array<number>>()
      for (const entry of signInputs) {
        if (!isRecord(entry)) continue
        byAddress.set(String(entry["address"]), [...(byAddress.get(String(entry["address"])) ?? []), Number(entry["index"])])
      }
      const signed = await backend.signPsbt(
        new Uint8Array(Buffer.from(String(params["psbt"]), "base64")),
        [...byAddress].map(([address, indexes]) => ({ address, indexes })),
        "bitcoin:regtest"
      )
      return { psbt: Buffer.from(signed).toString("base64") }
    }
    case "sendTransfer": {
      const amount = String(params["amount"])
      if (!/^[0-9]+$/.test(amount)) throw new ProviderRpcError(-32602, "sendTransfer: amount must be satoshis.")
      const txid = await backend.sendTransfer(String(params["account"]), [{ address: String(params["recipientAddress"]), amount: BigInt(amount) }], "bitcoin:regtest")
      return { txid }
    }
    default:
      throw new ProviderRpcError(4200, `The wallet does not answer ${method}.`)
  }
}

/**
 * Starts a wallet on the relay at `relayUrl` that approves proposals with the dev accounts it has (EVM: the test
 * wallet's selected account on its chains; Solana: `devSolanaKey(key)` on the local network) and answers `eip155`
 * and `solana` requests: signatures with the dev keys, transactions sent to the local chains.
 */
export const startDevWalletKit = async (options: DevWalletKitOptions): Promise<DevWalletKit> => {
  const evm = options.evm === undefined ? undefined : makeTestWallet(options.evm)
  const evmChains = options.evm?.chains.map((chain) => `eip155:${chain.chainId}`) ?? []
  const solanaOptions = options.solana
  const solana =
    solanaOptions === undefined ? undefined : await makeSolanaDevSigner(devSolanaKey(solanaOptions.key ?? 0).secretKey, solanaOptions.rpcUrl)
  const polkadotOptions = options.polkadot
  const polkadot = polkadotOptions === undefined ? undefined : await createPolkadotTestWallet({ authorised: true })
  if (polkadot !== undefined) polkadot.selectAccount(polkadotOptions?.account ?? 0)
  const polkadotAddressOn = (chain: string) =>
    encodeSs58(polkadot!.pairs[polkadotOptions?.account ?? 0]!.publicKey, ss58PrefixOf({ id: chain.slice(chain.indexOf(":") + 1) }))
  const bitcoinOptions = options.bitcoin
  const bitcoin =
    bitcoinOptions === undefined
      ? undefined
      : makeBitcoinTestWallet({ apiUrl: bitcoinOptions.apiUrl, authorised: true, ...(bitcoinOptions.keyIndex === undefined ? {} : { keyIndex: bitcoinOptions.keyIndex }) })
  // The wallet decides on each request itself (setApproval); the test wallet is authorised once, as the page does.
  await evm?.request({ method: "eth_requestAccounts" })
  const side = options.implementation === "walletkit" ? await walletkitSide(options) : await ourSide(options)
  const kit = side.kit
  const proposals: Array<ProposalLike> = []
  const authRequests: Array<{ readonly chains: ReadonlyArray<string> }> = []
  const requests: Array<{ readonly method: string; readonly chainId: string }> = []
  let deleted = 0
  let proposalApproval: Approval = "approve"
  let approval: Approval = "approve"

  const onProposal = async (id: number, params: ProposalLike) => {
    proposals.push(params)
    if (proposalApproval === "reject") return side.rejectSession(id, sdkError("USER_REJECTED"))
    try {
      const namespaces = approvedNamespaces(params, {
        ...(evm === undefined ? {} : { eip155: { address: evm.address(), chains: evmChains } }),
        ...(solana === undefined || solanaOptions === undefined
          ? {}
          : { solana: { address: solana.address, chains: [solanaOptions.caipNetworkId] } }),
        ...(polkadot === undefined || polkadotOptions === undefined
          ? {}
          : { polkadot: { addressOn: polkadotAddressOn, chains: polkadotOptions.chains } }),
        ...(bitcoin === undefined || bitcoinOptions === undefined
          ? {}
          : { bip122: { address: bitcoin.key.paymentAddress, chains: [bitcoinOptions.caipNetworkId] } })
      })
      if (Object.keys(namespaces).length === 0) return side.rejectSession(id, sdkError("UNSUPPORTED_CHAINS"))
      await side.approveSession(id, namespaces)
    } catch {
      await side.rejectSession(id, sdkError("UNSUPPORTED_NAMESPACE_KEY"))
    }
  }

  const perform = async (method: string, params: unknown, chainId: string): Promise<unknown> => {
    if (chainId.startsWith("polkadot:")) {
      if (polkadot === undefined || !polkadotOptions?.chains.includes(chainId)) throw new ProviderRpcError(4901, `This wallet cannot reach ${chainId}.`)
      return answerPolkadot(polkadot, method, params).catch((error: unknown) => {
        // The extension's words for a refusal ('Cancelled') are WalletConnect's 5000 here.
        throw error instanceof Error && error.message === "Cancelled" ? new ProviderRpcError(4001, "User rejected the request.") : error
      })
    }
    if (chainId.startsWith("bip122:")) {
      if (bitcoin === undefined || chainId !== bitcoinOptions?.caipNetworkId) throw new ProviderRpcError(4901, `This wallet cannot reach ${chainId}.`)
      return performBitcoin(bitcoin, method, params).catch((error: unknown) => {
        // The test wallet's coded errors (4001 refused, 4100, -32602) keep their code on the way to the dapp.
        const code = (error as { code?: unknown }).code
        throw typeof code === "number" && error instanceof Error ? new ProviderRpcError(code, error.message) : error
      })
    }
    if (chainId.startsWith("solana:")) {
      if (solana === undefined || chainId !== solanaOptions?.caipNetworkId) throw new ProviderRpcError(4901, `This wallet cannot reach ${chainId}.`)
      if (approval === "reject" && promptedMethods.has(method)) throw new ProviderRpcError(4001, "User rejected the request.")
      return solana.request(method, params)
    }
    if (evm === undefined || !evmChains.includes(chainId)) throw new ProviderRpcError(4901, `This wallet cannot reach ${chainId}.`)
    evm.moveToChain(Number(chainId.split(":")[1]))
    return evm.request({ method, params })
  }

  const onRequest = async ({ topic, id, method, params, chainId }: SideRequest) => {
    requests.push({ method, chainId })
    try {
      const result = await perform(method, params, chainId)
      await side.respond(topic, { id, result })
    } catch (error) {
      await side.respond(topic, { id, error: failureOf(error) })
    }
  }

  const onAuthenticate = async (id: number, payload: AuthPayload) => {
    authRequests.push({ chains: payload.chains })
    if (options.oneClick === "reject" || evm === undefined) return side.rejectAuthenticate(id, sdkError("USER_REJECTED"))
    try {
      const auths = await signAuthRequest(
        payload,
        { chains: evmChains, address: evm.address() },
        async (message) => String(await evm.request({ method: "personal_sign", params: [toHex(message), evm.address()] }))
      )
      await side.approveAuthenticate(id, auths)
    } catch (error) {
      await side.rejectAuthenticate(id, { code: 5100, message: error instanceof Error ? error.message : String(error) })
    }
  }

  // What the wallet is still answering: closing waits for it, so an answer cut off by the close (its relay gone) ends
  // there instead of as a rejection nobody hears. A failed answer leaves the dapp without one, which its test sees.
  const answering = new Set<Promise<unknown>>()
  const answer = (work: Promise<unknown>) => {
    const settled = work.catch(() => undefined).finally(() => answering.delete(settled))
    answering.add(settled)
  }
  side.onProposal((id, params) => answer(onProposal(id, params)))
  if (options.oneClick !== undefined) side.onAuthenticate((id, payload) => answer(onAuthenticate(id, payload)))
  side.onRequest((request) => answer(onRequest(request)))
  side.onDelete(() => {
    deleted++
  })

  return {
    kit,
    evm,
    solana,
    polkadot,
    bitcoin,
    proposals,
    authRequests,
    requests,
    deleted: () => deleted,
    setProposalApproval: (next) => {
      proposalApproval = next
    },
    setApproval: (next) => {
      approval = next
      evm?.setApproval(next)
      polkadot?.setApproval(next)
      bitcoin?.setApproval(next)
    },
    pair: (uri) => side.pair(uri),
    close: async () => {
      await Promise.all(answering)
      await side.close()
    }
  }
}

/** A request to the wallet, as either implementation hands it over. */
interface SideRequest {
  readonly topic: string
  readonly id: number
  readonly method: string
  readonly params: unknown
  readonly chainId: string
}

/** One wallet implementation, seen through what the dev wallet does with it. */
interface Side {
  readonly kit: KitLike
  readonly pair: (uri: string) => Promise<void>
  readonly approveSession: (id: number, namespaces: ReturnType<typeof approvedNamespaces>) => Promise<unknown>
  readonly rejectSession: (id: number, reason: { code: number; message: string }) => Promise<void>
  readonly approveAuthenticate: (id: number, auths: Array<Cacao>) => Promise<unknown>
  readonly rejectAuthenticate: (id: number, reason: { code: number; message: string }) => Promise<void>
  readonly respond: (topic: string, response: { id: number; result: unknown } | { id: number; error: { code: number; message: string } }) => Promise<void>
  readonly onProposal: (listener: (id: number, params: ProposalLike) => void) => void
  readonly onAuthenticate: (listener: (id: number, payload: AuthPayload) => void) => void
  readonly onRequest: (listener: (request: SideRequest) => void) => void
  readonly onDelete: (listener: () => void) => void
  readonly close: () => Promise<void>
}

/** Our own wallet (devstack/wallet/wcWallet.ts). */
const ourSide = async (options: DevWalletKitOptions): Promise<Side> => {
  const name = options.name ?? "Wallet"
  const wallet = await createWcWallet({
    relayUrl: options.relayUrl,
    projectId: "devstack",
    metadata: { name, description: `${name} under test`, url: "http://127.0.0.1", icons: [] },
    oneClick: options.oneClick !== undefined,
    storagePrefix: `wallet-${randomUUID()}`,
    WebSocket: NodeWebSocket
  })
  return {
    kit: wallet,
    pair: (uri) => wallet.pair({ uri }),
    approveSession: (id, namespaces) => wallet.approveSession({ id, namespaces }),
    rejectSession: (id, reason) => wallet.rejectSession({ id, reason }),
    approveAuthenticate: (id, auths) => wallet.approveSessionAuthenticate({ id, auths }),
    rejectAuthenticate: (id, reason) => wallet.rejectSessionAuthenticate({ id, reason }),
    respond: (topic, response) => wallet.respondSessionRequest({ topic, response }),
    onProposal: (listener) => wallet.on("session_proposal", ({ id, params }) => listener(id, { ...params, optionalNamespaces: params.optionalNamespaces ?? {} })),
    onAuthenticate: (listener) => wallet.on("session_authenticate", ({ id, params }) => listener(id, params.authPayload)),
    onRequest: (listener) =>
      wallet.on("session_request", ({ topic, id, params }) => listener({ topic, id, method: params.request.method, params: params.request.params, chainId: params.chainId })),
    onDelete: (listener) => wallet.on("session_delete", () => listener()),
    close: wallet.close
  }
}

/** WalletConnect's walletkit 1.2.10: the independent wallet of interop tests. */
const walletkitSide = async (options: DevWalletKitOptions): Promise<Side> => {
  const kit = await initTestWalletKit(options.relayUrl, options.name)
  return {
    kit: kit as unknown as KitLike,
    pair: (uri) => kit.pair({ uri }).then(() => undefined),
    approveSession: (id, namespaces) => kit.approveSession({ id, namespaces }),
    rejectSession: (id, reason) => kit.rejectSession({ id, reason }),
    approveAuthenticate: (id, auths) => kit.approveSessionAuthenticate({ id, auths: auths as unknown as Parameters<typeof kit.approveSessionAuthenticate>[0]["auths"] }),
    rejectAuthenticate: (id, reason) => kit.rejectSessionAuthenticate({ id, reason }),
    respond: (topic, response) => kit.respondSessionRequest({ topic, response: { ...response, jsonrpc: "2.0" } }),
    onProposal: (listener) => kit.on("session_proposal", ({ id, params }: WalletKitTypes.SessionProposal) => listener(id, params as unknown as ProposalLike)),
    onAuthenticate: (listener) =>
      kit.on("session_authenticate", ({ id, params }: WalletKitTypes.SessionAuthenticate) => listener(id, params.authPayload as unknown as AuthPayload)),
    onRequest: (listener) =>
      kit.on("session_request", ({ topic, id, params }: WalletKitTypes.SessionRequest) =>
        listener({ topic, id, method: params.request.method, params: params.request.params, chainId: params.chainId })
      ),
    onDelete: (listener) => kit.on("session_delete", () => listener()),
    close: async () => {
      await kit.core.relayer.transportClose().catch(() => undefined)
      kit.core.heartbeat.stop()
    }
  }
}
