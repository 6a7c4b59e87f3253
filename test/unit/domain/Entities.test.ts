import { describe, expect, it } from "@effect/vitest"
import { Result, Schema } from "effect"
import {
  Account,
  AccountState,
  AccountType,
  Balance,
  ConnectedWalletInfo,
  ConnectionStatus,
  EmbeddedWalletUser,
  initialAccountState,
  Profile,
  SocialProvider,
  ThemeMode
} from "../../../src/domain/Account"
import { NameMessage, NameMessageJson, NameRegistrationPayload } from "../../../src/domain/Names"
import { CaipNetwork, findNetwork, isUnsupportedNetwork, unsupportedNetwork } from "../../../src/domain/Network"
import { bitcoin, bitcoinRegtest, bitcoinTestnet, ethereum, kusama, localChainA, localChainB, localSolana, polkadot, solana, solanaDevnet, WELL_KNOWN_NETWORKS, westend, withDefaultRpcUrls } from "../../../src/domain/networks"
import { OperationType, TokenBalance, Transaction, TransactionStatus } from "../../../src/domain/Portfolio"
import {
  BitcoinMethod,
  BitcoinSignPsbtRequest,
  SendCallsRequest,
  SolanaSendOptions,
  SolanaSignAllTransactionsRequest,
  SolanaSignMessageRequest,
  SolanaSignTransactionRequest
} from "../../../src/domain/Requests"
import { SiwxSession } from "../../../src/domain/Siwx"
import {
  addRecentWallet,
  ConnectorInfo,
  ConnectorType,
  RecentWallets,
  WalletCatalogEntry
} from "../../../src/domain/Wallet"

const EVM_ADDRESS = "0x52908400098527886E0F7030069857D2E4169EE7"
const SOL_ADDRESS = "9xQeWvG816bUx9EPjHmaT23yvVM2ZWbrrpZb9PusVFin"

const accepts = <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S, input: unknown) => {
  const result = Schema.decodeUnknownResult(schema)(input)
  if (Result.isFailure(result)) throw new Error(result.failure.message)
  return result.success
}

const refuses = <S extends Schema.Top & { readonly DecodingServices: never }>(schema: S, input: unknown): string => {
  const result = Schema.decodeUnknownResult(schema)(input)
  if (Result.isSuccess(result)) throw new Error(`expected ${JSON.stringify(input)} to be refused`)
  return result.failure.message
}

const wallet = (id: string) => ({
  id,
  name: `Wallet ${id}`,
  rdns: `io.wallet.${id}`,
  image_id: `img-${id}`,
  mobile_link: `${id}://`,
  desktop_link: null,
  webapp_link: null,
  chains: ["eip155:1", "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", "cosmos:cosmoshub-4"]
})

describe("networks", () => {
  it("every well-known network carries the CAIP id of its namespace and id", () => {
    expect(WELL_KNOWN_NETWORKS.map((network) => network.caipNetworkId)).toEqual([
      "eip155:1",
      "eip155:31337",
      "eip155:31338",
      "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
      "solana:EtWTRABZaYq6iMfeYKouRu166VU2xqa1",
      "solana:AuCF5cjfQuAmAvgqiCQAJBTxY1RURhk6",
      "bip122:000000000019d6689c085ae165831e93",
      "bip122:000000000933ea01ad0ee984209779ba",
      "bip122:0f9188f13cb7b2c71f2a335e3a4fc328",
      "polkadot:91b171bb158e2d3848fa23a9f1c25182",
      "polkadot:b0a8d493285c2df73290dfb7e61f870f",
      "polkadot:e143f23803ac50e8f6f8e62695d1ce9e"
    ])
    for (const network of WELL_KNOWN_NETWORKS) {
      expect(network.caipNetworkId).toBe(`${network.chainNamespace}:${network.id}`)
      expect(accepts(CaipNetwork, network)).toEqual(network)
    }
  })

  it("names the local chains and uses the spec's decimals", () => {
    expect(localChainA.name).toBe("Local Chain A")
    expect(localChainB.name).toBe("Local Chain B")
    expect(solana.nativeCurrency.decimals).toBe(9)
    expect(bitcoin.nativeCurrency.decimals).toBe(8)
    expect([solanaDevnet, bitcoinTestnet, localSolana].every((network) => network.testnet === true)).toBe(true)
    expect(ethereum.testnet).toBeUndefined()
    expect(polkadot.chainNamespace).toBe("polkadot")
  })

  it("names Bitcoin regtest by the first 32 hex characters of regtest's genesis block hash (CAIP-4), 8 decimals, a testnet", () => {
    const regtestGenesis = "0f9188f13cb7b2c71f2a335e3a4fc328bf5beb436012afca590b1a11466e2206"
    expect(bitcoinRegtest.caipNetworkId).toBe(`bip122:${regtestGenesis.slice(0, 32)}`)
    expect(bitcoinRegtest.nativeCurrency).toEqual({ name: "Bitcoin", symbol: "BTC", decimals: 8 })
    expect(bitcoinRegtest.testnet).toBe(true)
  })

  it("names the Polkadot relay chains by their genesis hash's first 32 hex characters (CAIP-13)", () => {
    const genesis = {
      Polkadot: "0x91b171bb158e2d3848fa23a9f1c25182fb8e20313b2c1eb49219da7a70ce90c3",
      Kusama: "0xb0a8d493285c2df73290dfb7e61f870f17b41801197a149ca93654499ea3dafe",
      Westend: "0xe143f23803ac50e8f6f8e62695d1ce9e4e1d68aa36c1cd2cfd15340213f3423e"
    }
    for (const [network, hash] of [[polkadot, genesis.Polkadot], [kusama, genesis.Kusama], [westend, genesis.Westend]] as const) {
      expect(network.id).toBe(hash.slice(2, 34))
    }
    expect([polkadot, kusama, westend].map((network) => network.nativeCurrency.symbol)).toEqual(["DOT", "KSM", "WND"])
    expect(westend.testnet).toBe(true)
  })

  it("refuses a network whose CAIP id disagrees with namespace and id", () => {
    expect(refuses(CaipNetwork, { ...ethereum, id: 10 })).toContain("Expected eip155:10 (chainNamespace:id), got eip155:1")
    expect(refuses(CaipNetwork, { ...ethereum, id: 10, caipNetworkId: "eip155:10", chainNamespace: "solana" })).toContain(
      'Expected 32 base58 characters (the genesis hash\'s first 32) as the solana chain id, got 10\n  at ["id"]'
    )
    expect(refuses(CaipNetwork, { ...ethereum, caipNetworkId: "eip155" })).toContain("Invalid CAIP-2 network id: eip155")
    expect(refuses(CaipNetwork, { ...ethereum, nativeCurrency: { ...ethereum.nativeCurrency, decimals: 1.5 } })).toContain(
      '["nativeCurrency"]["decimals"]'
    )
  })

  it("keeps other named RPC sets beside the default one", () => {
    const network = accepts(CaipNetwork, {
      ...ethereum,
      rpcUrls: { default: { http: ["https://a"] }, archive: { http: ["https://b"], webSocket: ["wss://b"] } }
    })
    expect(network.rpcUrls["archive"]?.webSocket).toEqual(["wss://b"])
  })

  it("points a local chain at the port the stack got", () => {
    const moved = withDefaultRpcUrls(localChainA, { http: ["http://127.0.0.1:40111"] })
    expect(moved.rpcUrls.default.http).toEqual(["http://127.0.0.1:40111"])
    expect(localChainA.rpcUrls.default.http).toEqual(["http://127.0.0.1:8545"])
  })

  it("finds networks by CAIP id", () => {
    expect(findNetwork(WELL_KNOWN_NETWORKS, "eip155:31338")).toBe(localChainB)
    expect(findNetwork(WELL_KNOWN_NETWORKS, "eip155:5")).toBeUndefined()
  })

  it("builds the unsupported-network placeholder for a chain outside the list", () => {
    const placeholder = unsupportedNetwork("eip155", 137)
    expect(placeholder.caipNetworkId).toBe("eip155:137")
    expect(placeholder.name).toBe("Unsupported Network")
    expect(placeholder.rpcUrls.default.http).toEqual([])
    expect(isUnsupportedNetwork(placeholder)).toBe(true)
    expect(isUnsupportedNetwork(ethereum)).toBe(false)
    // Nothing is sent to it, and a host cannot configure a network like it: a host's network needs an endpoint
    // and a currency symbol.
    const refused = Schema.decodeUnknownResult(CaipNetwork)(placeholder, { errors: "all" })
    expect(Result.isFailure(refused) && refused.failure.message).toContain('at ["rpcUrls"]["default"]["http"]')
    expect(Result.isFailure(refused) && refused.failure.message).toContain('at ["nativeCurrency"]["symbol"]')
    const reachable = {
      ...placeholder,
      nativeCurrency: { ...placeholder.nativeCurrency, symbol: "POL" },
      rpcUrls: { default: { http: ["https://polygon.example"] } }
    }
    expect(accepts(CaipNetwork, reachable)).toEqual(reachable)
  })
})

describe("accounts", () => {
  it("decode a connected account state", () => {
    const state = accepts(AccountState, {
      caipAddress: `eip155:31337:${EVM_ADDRESS}`,
      address: EVM_ADDRESS,
      balance: "10000.0",
      balanceSymbol: "ETH",
      profileName: "ada.wr.id",
      profileImage: null,
      status: "connected",
      preferredAccountType: "eoa",
      socialProvider: "github",
      user: { email: "ada@example.com", username: "ada" },
      tokenBalance: [],
      allAccounts: [{ address: EVM_ADDRESS, type: "eoa" }]
    })
    expect(state.status).toBe("connected")
    expect(accepts(AccountState, initialAccountState)).toEqual({ status: "disconnected", allAccounts: [] })
  })

  it("refuse a malformed CAIP address in the state", () => {
    expect(refuses(AccountState, { status: "connected", allAccounts: [], caipAddress: EVM_ADDRESS })).toContain(
      `Invalid CAIP-10 address: ${EVM_ADDRESS}`
    )
  })

  it.each([
    [AccountType, "eoa", "contract"],
    [ConnectionStatus, "reconnecting", "paused"],
    [SocialProvider, "discord", "myspace"],
    [ThemeMode, "dark", "sepia"],
    [ConnectorType, "WALLET_CONNECT", "BLUETOOTH"],
    [OperationType, "borrow", "stake-everything"],
    [TransactionStatus, "pending", "lost"],
    [BitcoinMethod, "signPsbt", "eth_sendTransaction"]
  ] as const)("an enum accepts its value and refuses another (%#)", (schema, good, bad) => {
    expect(accepts(schema, good)).toBe(good)
    expect(refuses(schema, bad)).toContain("Expected")
  })

  it("decode the embedded-wallet user, with optional and nullable fields", () => {
    const user = accepts(EmbeddedWalletUser, {
      email: null,
      address: EVM_ADDRESS,
      chainId: "eip155:31337",
      accounts: [
        { address: EVM_ADDRESS, type: "eoa" },
        { address: "0x0000000000000000000000000000000000000001", type: "smartAccount" }
      ],
      smartAccountDeployed: true,
      preferredAccountType: "smartAccount"
    })
    expect(user.accounts).toHaveLength(2)
    expect(refuses(EmbeddedWalletUser, { ...user, accounts: [{ address: EVM_ADDRESS, type: "payment" }] })).toContain(
      '["accounts"][0]["type"]'
    )
  })

  it("decode account, wallet info, balance and profile", () => {
    expect(accepts(Account, { address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", type: "payment" }).type).toBe("payment")
    expect(
      accepts(ConnectedWalletInfo, { name: "Test Wallet", icon: "data:image/svg+xml,x", type: "ANNOUNCED" }).name
    ).toBe("Test Wallet")
    expect(accepts(Balance, { balance: "1.5", symbol: "SOL" })).toEqual({ balance: "1.5", symbol: "SOL" })
    expect(accepts(Profile, { profileName: null, profileImage: null })).toEqual({ profileName: null, profileImage: null })
  })
})

describe("portfolio", () => {
  it("decode a token balance", () => {
    const token = accepts(TokenBalance, {
      name: "USD Coin",
      symbol: "USDC",
      chainId: "eip155:31337",
      address: "eip155:31337:0x5FbDB2315678afecb367f032d93F642f64180aa3",
      value: 12.5,
      price: 1,
      quantity: { decimals: "6", numeric: "12.5" },
      iconUrl: "http://127.0.0.1/usdc.png"
    })
    expect(token.quantity.numeric).toBe("12.5")
    expect(refuses(TokenBalance, { ...token, chainId: "31337" })).toContain("Invalid CAIP-2 network id: 31337")
  })

  it("decode a transaction with an NFT and a fungible transfer", () => {
    const transaction = accepts(Transaction, {
      id: "0xabc",
      metadata: {
        minedAt: "2024-05-01T10:00:00Z",
        chain: "eip155:31337",
        operationType: "trade",
        status: "confirmed",
        sentFrom: EVM_ADDRESS,
        sentTo: "0x5FbDB2315678afecb367f032d93F642f64180aa3",
        hash: "0xabc"
      },
      transfers: [
        {
          nft_info: { name: "Ape #1", content: { preview: { url: "http://127.0.0.1/ape.png" } }, flags: { is_spam: false } },
          quantity: { numeric: "1" },
          direction: "out"
        },
        { fungible_info: { symbol: "ETH", icon: { url: "http://127.0.0.1/eth.png" } }, quantity: { numeric: "0.5" }, direction: "in" }
      ]
    })
    expect(transaction.transfers).toHaveLength(2)
    expect(
      refuses(Transaction, { ...transaction, metadata: { ...transaction.metadata, operationType: "teleport" } })
    ).toContain('["metadata"]["operationType"]')
  })
})

describe("wallets", () => {
  it("decode a catalogue entry, keeping chains of other ecosystems", () => {
    const entry = accepts(WalletCatalogEntry, { ...wallet("a"), image_url: "http://127.0.0.1/a.png" })
    expect(entry.chains).toContain("cosmos:cosmoshub-4")
    expect(refuses(WalletCatalogEntry, { ...entry, chains: ["ethereum"] })).toContain("CAIP-2")
  })

  it("decode a connector's serialisable part", () => {
    const connector = accepts(ConnectorInfo, {
      id: "io.metamask",
      name: "MetaMask",
      type: "ANNOUNCED",
      chain: "eip155",
      chains: ["eip155:31337", "eip155:31338"],
      imageUrl: "data:image/svg+xml,x",
      info: { rdns: "io.metamask" }
    })
    expect(connector.info?.rdns).toBe("io.metamask")
    expect(refuses(ConnectorInfo, { ...connector, chain: "cosmos" })).toContain('["chain"]')
  })

  it("keep at most 2 recent wallets, newest first, without duplicates", () => {
    const a = accepts(WalletCatalogEntry, wallet("a"))
    const b = accepts(WalletCatalogEntry, wallet("b"))
    const c = accepts(WalletCatalogEntry, wallet("c"))
    expect(accepts(RecentWallets, [a, b])).toHaveLength(2)
    expect(refuses(RecentWallets, [a, b, c])).toContain("at most 2")
    expect(addRecentWallet([a, b], c).map((entry) => entry.id)).toEqual(["c", "a"])
    expect(addRecentWallet([a, b], b).map((entry) => entry.id)).toEqual(["b", "a"])
    expect(addRecentWallet([], a).map((entry) => entry.id)).toEqual(["a"])
  })
})

describe("sign-in and names", () => {
  it("decode a sign-in session", () => {
    const session = accepts(SiwxSession, {
      data: {
        domain: "127.0.0.1:5173",
        uri: "http://127.0.0.1:5173",
        version: "1",
        chainId: "eip155:31337",
        accountAddress: EVM_ADDRESS,
        nonce: "k3j4h5",
        issuedAt: "2024-05-01T10:00:00Z",
        expirationTime: "2024-05-02T10:00:00Z",
        statement: "Sign in to Demo",
        resources: []
      },
      message: "127.0.0.1:5173 wants you to sign in…",
      signature: `0x${"ab".repeat(65)}`
    })
    expect(session.data.chainId).toBe("eip155:31337")
    expect(refuses(SiwxSession, { ...session, signature: "" })).toContain('["signature"]')
  })

  it("the name message round-trips through its signed JSON text, timestamp in seconds", () => {
    const text = Schema.encodeSync(NameMessageJson)({ name: "ada.wr.id", attributes: {}, timestamp: 1714557600 })
    expect(JSON.parse(text)).toEqual({ name: "ada.wr.id", attributes: {}, timestamp: 1714557600 })
    expect(Schema.decodeSync(NameMessageJson)(text).name).toBe("ada.wr.id")
    expect(refuses(NameMessage, { name: "ada", attributes: {}, timestamp: 1714557600.5 })).toContain('["timestamp"]')
  })

  it("decode a name-registration payload", () => {
    const payload = accepts(NameRegistrationPayload, {
      coin_type: 2147514985,
      address: EVM_ADDRESS,
      message: '{"name":"ada.wr.id","attributes":{},"timestamp":1714557600}',
      signature: `0x${"ab".repeat(65)}`
    })
    expect(payload.coin_type).toBe(0x8000_0000 + 31337)
    expect(refuses(NameRegistrationPayload, { ...payload, coin_type: -1 })).toContain('["coin_type"]')
  })
})

describe("wallet requests", () => {
  it("send-calls: to and data start with 0x", () => {
    const request = {
      version: "2.0.0",
      chainId: "0x7a69",
      from: EVM_ADDRESS,
      calls: [{ to: "0x5FbDB2315678afecb367f032d93F642f64180aa3", data: "0xa9059cbb", value: "0x0" }],
      capabilities: {}
    }
    expect(accepts(SendCallsRequest, request).calls).toHaveLength(1)
    expect(accepts(SendCallsRequest, { ...request, calls: [{ to: EVM_ADDRESS }] }).calls[0]?.data).toBeUndefined()
    expect(refuses(SendCallsRequest, { ...request, calls: [{ to: EVM_ADDRESS.slice(2) }] })).toContain('["calls"][0]["to"]')
    expect(refuses(SendCallsRequest, { ...request, calls: [{ to: EVM_ADDRESS, data: "a9059cbb" }] })).toContain(
      '["calls"][0]["data"]'
    )
    expect(refuses(SendCallsRequest, { ...request, calls: [] })).toContain('["calls"]')
  })

  it("Solana send options accept the listed commitments only", () => {
    expect(accepts(SolanaSendOptions, { skipPreflight: true, preflightCommitment: "singleGossip", maxRetries: 3 })).toEqual({
      skipPreflight: true,
      preflightCommitment: "singleGossip",
      maxRetries: 3
    })
    expect(refuses(SolanaSendOptions, { preflightCommitment: "eventually" })).toContain('["preflightCommitment"]')
    expect(refuses(SolanaSendOptions, { maxRetries: -1 })).toContain('["maxRetries"]')
  })

  it("Solana signing requests need their fields", () => {
    expect(accepts(SolanaSignMessageRequest, { message: "3yZe7d", pubkey: SOL_ADDRESS }).pubkey).toBe(SOL_ADDRESS)
    expect(refuses(SolanaSignMessageRequest, { message: "3yZe7d" })).toContain('["pubkey"]')
    expect(refuses(SolanaSignMessageRequest, { message: "3yZe7d", pubkey: EVM_ADDRESS })).toContain("Solana address")
    expect(refuses(SolanaSignTransactionRequest, {})).toContain('["transaction"]')
    expect(accepts(SolanaSignAllTransactionsRequest, { transactions: ["AQAB", "AQAC"] }).transactions).toHaveLength(2)
    expect(refuses(SolanaSignAllTransactionsRequest, { transactions: "AQAB" })).toContain('["transactions"]')
  })

  it("a Bitcoin PSBT request names its inputs", () => {
    const request = accepts(BitcoinSignPsbtRequest, {
      account: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq",
      psbt: "cHNidP8B",
      signInputs: [{ address: "bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq", index: 0, sighashTypes: [1] }],
      broadcast: false
    })
    expect(request.signInputs[0]?.index).toBe(0)
  })
})
