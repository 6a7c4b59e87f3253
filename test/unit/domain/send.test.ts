import { describe, expect, it } from "@effect/vitest"
import { Result } from "effect"
import { localChainA, localSolana } from "../../../src/domain/networks"
import type { TokenBalance } from "../../../src/domain/Portfolio"
import { accountFeatures, explorerAddressUrl } from "../../../src/domain/accountFeatures"
import { validateBitcoinReceiver } from "../../../src/domain/bitcoinAddress"
import {
  checkSend,
  type FungibleAsset,
  fungibleAssetsOf,
  gasInsufficient,
  looksLikeName,
  maxAmount,
  nameRecordAddress,
  type NftAsset,
  parseAmount,
  receiveNetworks,
  reviewOf,
  type SendCheck,
  validateReceiver
} from "../../../src/domain/send"

const BOB = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8"
const SOL_BOB = "9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM"
const WUSD = "0x5FbDB2315678afecb367f032d93F642f64180aa3"
const ETHER = 10n ** 18n

const eth = (balance: bigint, priceUsd = 3000): FungibleAsset => ({
  kind: "native",
  id: "native",
  name: "Ether",
  symbol: "ETH",
  decimals: 18,
  balance,
  priceUsd,
  iconUrl: undefined,
  address: undefined
})
const wusd = (balance: bigint): FungibleAsset => ({
  kind: "token",
  id: WUSD,
  name: "Wallet Runtime USD",
  symbol: "WUSD",
  decimals: 6,
  balance,
  priceUsd: 1,
  iconUrl: undefined,
  address: WUSD
})
const sol = (balance: bigint): FungibleAsset => ({ ...eth(balance, 150), name: "Solana", symbol: "SOL", decimals: 9 })
const nft: NftAsset = {
  kind: "nft",
  id: "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512/2",
  name: "WRC #2",
  collection: "Wallet Runtime Collectibles",
  contract: "0xe7f1725e7734ce288f8367e1bb143e90bb3f0512",
  tokenId: "2",
  imageUrl: null
}

const evmCheck = (patch: Partial<SendCheck>): SendCheck => ({
  namespace: "eip155",
  asset: eth(ETHER),
  amount: "0.5",
  receiver: BOB,
  resolvedAddress: undefined,
  nameError: undefined,
  native: eth(ETHER),
  fee: undefined,
  accountType: "eoa",
  ...patch
})
const solanaCheck = (patch: Partial<SendCheck>): SendCheck =>
  evmCheck({ namespace: "solana", asset: sol(10n ** 9n), native: sol(10n ** 9n), receiver: SOL_BOB, ...patch })

const issuesOf = (check: SendCheck) => {
  const result = checkSend(check)
  return Result.isFailure(result) ? result.failure : undefined
}

describe("what can be sent", () => {
  const token = (patch: Partial<TokenBalance>): TokenBalance => ({
    name: "Wallet Runtime USD",
    symbol: "WUSD",
    chainId: localChainA.caipNetworkId,
    address: `eip155:31337:${WUSD}`,
    price: 1,
    value: 25,
    quantity: { decimals: "6", numeric: "25.5" },
    iconUrl: "",
    ...patch
  })

  it("lists the native coin first (the portfolio's 0xeee… entry), then the tokens with their plain address and exact balance", () => {
    const assets = fungibleAssetsOf(
      [token({}), token({ name: "Ether", symbol: "ETH", address: "eip155:31337:0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee", price: 3000, quantity: { decimals: "18", numeric: "1.000000000000000001" } })],
      localChainA
    )
    expect(assets.map((asset) => [asset.kind, asset.id, asset.balance])).toEqual([
      ["native", "native", ETHER + 1n],
      ["token", WUSD, 25_500_000n]
    ])
    expect(assets[1]?.address).toBe(WUSD)
  })

  it("an account the portfolio lists no native coin for can still choose it, with a zero balance", () => {
    const [first] = fungibleAssetsOf([token({})], localSolana)
    expect(first).toMatchObject({ kind: "native", symbol: "SOL", decimals: 9, balance: 0n })
  })
})

describe("spec 5: the amount", () => {
  it.each([
    ["", "Enter an amount"],
    ["abc", "Enter the amount as a number, like 0.5"],
    ["1,5", "Enter the amount as a number, like 0.5"],
    ["-1", "Enter the amount as a number, like 0.5"],
    ["0", "Enter an amount above 0"],
    ["0.0000001", "WUSD has at most 6 decimals"]
  ])("%j is refused: %s", (text, words) => {
    expect(parseAmount(text, wusd(10n))).toEqual(Result.fail(words))
  })

  it.each([
    ["0.5", 500_000n],
    [".5", 500_000n],
    ["1.", 1_000_000n],
    [" 10000 ", 10_000_000_000n],
    ["0.000001", 1n]
  ])("%j is %s base units of a 6-decimal token", (text, units) => {
    expect(parseAmount(text, wusd(0n))).toEqual(Result.succeed(units))
  })
})

describe("Max", () => {
  it.each([
    ["the native coin: balance less the fee", eth(ETHER), 10n ** 17n, 9n * 10n ** 17n],
    ["the native coin: never below zero", eth(10n), 11n, 0n],
    ["the native coin: exactly the fee leaves nothing", eth(10n), 10n, 0n],
    ["a token: its whole balance (the native coin pays the fee)", wusd(25n), 10n ** 17n, 25n]
  ])("%s", (_, asset, fee, max) => {
    expect(maxAmount(asset, fee)).toBe(max)
  })
})

describe("spec 5: the gas check", () => {
  const fee = 21_000n * 10n ** 9n // 0.000021 ETH, $0.063 at $3000
  it.each([
    ["a native balance of $0 is insufficient", eth(0n), "eoa" as const, true],
    ["a native balance below the fee in USD is insufficient", eth(fee - 1n), "eoa" as const, true],
    ["a native balance of exactly the fee is enough", eth(fee), "eoa" as const, false],
    ["a smart account is never insufficient, even at $0", eth(0n), "smartAccount" as const, false],
    ["without a price, the coin itself is compared: enough coin is enough", eth(ETHER, 0), "eoa" as const, false],
    ["without a price, no coin is insufficient", eth(0n, 0), "eoa" as const, true]
  ])("%s", (_, native, accountType, insufficient) => {
    expect(gasInsufficient({ native, fee, accountType })).toBe(insufficient)
  })
})

describe("spec 5: the receiver", () => {
  it.each([
    ["eip155", BOB, Result.succeed(BOB)],
    ["eip155", BOB.toLowerCase().slice(2), Result.succeed(BOB)],
    ["eip155", "0x1234", Result.fail("An EVM address is 40 hexadecimal characters, optionally after 0x")],
    ["eip155", BOB.replace("C8", "c8"), Result.fail("The address checksum is wrong: check for a typo")],
    ["eip155", SOL_BOB, Result.fail("An EVM address is 40 hexadecimal characters, optionally after 0x")],
    ["eip155", "  ", Result.fail("Enter the receiver's address or name")],
    ["solana", SOL_BOB, Result.succeed(SOL_BOB)],
    ["solana", BOB, Result.fail("A Solana address is 32 to 44 base58 characters")],
    ["solana", "", Result.fail("Enter the receiver's address")],
    ["polkadot", "15oF4uVJwmo4TdGW7VfQxNLavjCXviqxT9S1MgbjMNHr6Sp5", Result.fail("Sending is not available on this network")],
    // Without a network a Bitcoin address is checked as a test network's.
    ["bip122", "bc1qxy2kgdygjrsqtzq2n0yrf2493p83kkfjhx0wlh", Result.fail("Enter a Bitcoin testnet address")]
  ] as const)("%s %j", (namespace, text, expected) => {
    expect(validateReceiver(text, namespace, undefined, { bip122: validateBitcoinReceiver })).toEqual(expected)
  })

  it("a family whose rule has not been loaded cannot be sent on (Bitcoin's comes with the family, not the form)", () => {
    expect(validateReceiver("bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4", "bip122")).toEqual(Result.fail("Sending is not available on this network"))
  })

  it.each([
    ["bob.wallet.test", "eip155", true],
    ["vitalik.eth", "eip155", true],
    ["bob", "eip155", false],
    [BOB, "eip155", false],
    ["bob.wallet.test", "solana", false],
    ["bob .eth", "eip155", false]
  ] as const)("%j looks like a name on %s: %s", (text, namespace, name) => {
    expect(looksLikeName(text, namespace)).toBe(name)
  })
})

describe("spec 5: every rule of the form", () => {
  it.each<[string, SendCheck, ReturnType<typeof issuesOf>]>([
    ["nothing chosen", evmCheck({ asset: undefined }), { token: "Choose what to send" }],
    ["no amount (EVM: said beside the field)", evmCheck({ amount: "" }), { amount: "Enter an amount" }],
    ["no receiver (EVM)", evmCheck({ receiver: "" }), { receiver: "Enter the receiver's address or name" }],
    [
      "a Solana address on EVM",
      evmCheck({ receiver: SOL_BOB }),
      { receiver: "An EVM address is 40 hexadecimal characters, optionally after 0x" }
    ],
    [
      "Solana without an amount: the spec's sentence",
      solanaCheck({ amount: "" }),
      { amount: "Enter an amount", form: "Please enter a valid amount and receiver address" }
    ],
    [
      "Solana without a receiver: the spec's sentence",
      solanaCheck({ receiver: "" }),
      { receiver: "Enter the receiver's address", form: "Please enter a valid amount and receiver address" }
    ],
    [
      "an EVM address on Solana: the spec's sentence",
      solanaCheck({ receiver: BOB }),
      { receiver: "A Solana address is 32 to 44 base58 characters", form: "Please enter a valid amount and receiver address" }
    ],
    ["more than the balance", evmCheck({ asset: wusd(1_000_000n), amount: "2" }), { amount: "Not enough WUSD: you have 1" }],
    [
      "the native coin: the amount and the fee above the balance",
      evmCheck({ amount: "1", fee: 1n }),
      { amount: "Not enough ETH for this amount and the network fee: use Max" }
    ],
    [
      "a token with no native coin to pay the fee: the gas check",
      evmCheck({ asset: wusd(10n ** 6n), amount: "1", native: eth(0n), fee: 1n }),
      { form: "Not enough ETH to pay the network fee" }
    ],
    ["a name no one holds", evmCheck({ receiver: "nobody.wallet.test" }), { receiver: "No address found for nobody.wallet.test" }],
    [
      "a name the service could not look up",
      evmCheck({ receiver: "bob.wallet.test", nameError: "Error resolving name" }),
      { receiver: "Error resolving name" }
    ]
  ])("%s", (_, check, issues) => {
    const found = issuesOf(check)
    expect(found).toBeDefined()
    // Only the fields named are wrong: every other one says nothing.
    expect(Object.fromEntries(Object.entries(found ?? {}).filter(([, words]) => words !== undefined))).toEqual(issues)
  })

  it.each<[string, SendCheck, { readonly value: bigint; readonly to: string }]>([
    ["ETH to an address", evmCheck({ fee: 1n }), { value: ETHER / 2n, to: BOB }],
    ["ETH to a lowercase address: the checksummed one", evmCheck({ receiver: BOB.toLowerCase() }), { value: ETHER / 2n, to: BOB }],
    ["WUSD to a resolved name", evmCheck({ asset: wusd(10n ** 7n), amount: "2.5", receiver: "bob.wallet.test", resolvedAddress: BOB }), { value: 2_500_000n, to: BOB }],
    ["an NFT: one, whatever the amount field says", evmCheck({ asset: nft, amount: "" }), { value: 1n, to: BOB }],
    ["a smart account with no ETH sends a token", evmCheck({ asset: wusd(10n ** 6n), amount: "1", native: eth(0n), fee: 1n, accountType: "smartAccount" }), { value: 1_000_000n, to: BOB }],
    ["SOL to a Solana address", solanaCheck({ amount: "0.25", fee: 5000n }), { value: 250_000_000n, to: SOL_BOB }]
  ])("passes: %s", (_, check, expected) => {
    const result = checkSend(check)
    expect(Result.isSuccess(result) && { value: result.success.value, to: result.success.to }).toEqual(expected)
  })
})

describe("names", () => {
  const record = (addresses: Record<string, string>) => ({
    addresses: Object.fromEntries(Object.entries(addresses).map(([coin, address]) => [coin, { address }]))
  })
  it.each([
    ["the network's own coin type (ENSIP-11: 0x80000000 | 31337)", record({ "2147514985": BOB.toLowerCase(), "60": WUSD }), BOB],
    ["Ethereum's (60) when the network has none", record({ "60": BOB }), BOB],
    ["none when neither is there", record({ "501": SOL_BOB }), undefined],
    ["none when the record's address is not an address", record({ "60": "0x1234" }), undefined]
  ])("%s", (_, found, address) => {
    expect(nameRecordAddress(found, 31337)).toBe(address)
  })
})

describe("the review", () => {
  it("the native coin: amount, fee and their total, each with its USD value", () => {
    const review = reviewOf({ asset: eth(ETHER), value: ETHER / 2n, to: BOB }, eth(ETHER), 21_000n * 10n ** 9n)
    expect(review).toEqual({
      amount: { text: "0.5 ETH", usd: "$1,500.00" },
      fee: { text: "0.000021 ETH", usd: "$0.06" },
      total: { text: "0.500021 ETH", usd: "$1,500.06" }
    })
  })
  it("a token: its amount, and the fee in the native coin; no total of two currencies", () => {
    const review = reviewOf({ asset: wusd(10n ** 8n), value: 25_000_000n, to: BOB }, eth(ETHER), 10n ** 14n)
    expect(review).toEqual({ amount: { text: "25 WUSD", usd: "$25.00" }, fee: { text: "0.0001 ETH", usd: "$0.30" }, total: undefined })
  })
  it("an NFT: its name and collection", () => {
    expect(reviewOf({ asset: nft, value: 1n, to: BOB }, eth(0n, 0), 1n).amount).toEqual({ text: "WRC #2 (Wallet Runtime Collectibles)", usd: undefined })
  })
})

describe("the account view", () => {
  it.each([
    ["the spec's order, those that exist (no network: no swap)", { onramp: true, swaps: true, receive: true, send: true }, "eip155", ["receive", "send"]],
    ["a feature turned off is not shown", { receive: true, send: false }, "eip155", ["receive"]],
    ["the host's order", { receive: true, send: true, walletFeaturesOrder: ["send" as const] }, "eip155", ["send", "receive"]],
    ["Solana sends too", { receive: true, send: true }, "solana", ["receive", "send"]],
    ["Bitcoin sends too", { receive: true, send: true }, "bip122", ["receive", "send"]],
    ["a family that cannot send still receives", { receive: true, send: true }, "polkadot", ["receive"]]
  ] as const)("%s", (_, features, namespace, shown) => {
    expect(accountFeatures(features, namespace)).toEqual(shown)
  })

  it.each([
    ["on a network the services swap on and the on-ramp delivers on, all four in the spec's order", { onramp: true, swaps: true, receive: true, send: true }, "eip155", "eip155:31337", { swaps: true, onramp: true }, ["onramp", "swaps", "receive", "send"]],
    ["Buy on an EVM network the swap service does not serve", { onramp: true, swaps: true }, "eip155", "eip155:11155111", { swaps: false, onramp: true }, ["onramp"]],
    ["no Buy where the on-ramp provider does not deliver (or the host configured none)", { onramp: true, swaps: true, send: true }, "eip155", "eip155:31338", { swaps: true, onramp: false }, ["swaps", "send"]],
    ["the host's order", { swaps: true, send: true, walletFeaturesOrder: ["send" as const, "swaps" as const] }, "eip155", "eip155:1", { swaps: true, onramp: true }, ["send", "swaps"]],
    ["swaps turned off", { swaps: false, send: true }, "eip155", "eip155:31337", { swaps: true, onramp: true }, ["send"]],
    ["a network the swap service does not serve (a local chain its host left out)", { swaps: true, send: true }, "eip155", "eip155:31338", { swaps: false, onramp: true }, ["send"]],
    ["not outside EVM", { onramp: true, swaps: true, send: true }, "solana", "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", { swaps: true, onramp: true }, ["send"]]
  ] as const)("%s", (_, features, namespace, network, served, shown) => {
    expect(accountFeatures(features, namespace, network, served)).toEqual(shown)
  })

  it.each([
    ["eip155", "https://etherscan.io/", `https://etherscan.io/address/${BOB}`],
    ["solana", "https://solscan.io", `https://solscan.io/account/${BOB}`],
    ["eip155", undefined, undefined]
  ] as const)("%s explorer %s", (namespace, explorer, url) => {
    expect(explorerAddressUrl(explorer, namespace, BOB)).toBe(url)
  })

  it("an address receives on the host's networks of its family", () => {
    expect(receiveNetworks([localChainA, localSolana], "eip155")).toEqual([localChainA])
  })
})
