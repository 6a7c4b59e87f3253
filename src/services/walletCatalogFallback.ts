/**
 * The wallet list bundled with the library, used when the catalogue service cannot be reached or fails, so the
 * modal lists wallets offline. Loaded only then: a page whose catalogue answers never fetches it. Ids are the catalogue's public ids of these wallets (so the host's
 * include/exclude/featured ids apply offline too); icons are generated here (initials on a colour drawn from the
 * id), never a wallet's own logo. Deep links are listed only where they are well known; without one the wallet is
 * reached through the QR code.
 */
import { Schema } from "effect"
import type { ChainNamespace } from "../domain/Caip"
import { WalletCatalogEntry } from "../domain/Wallet"
import { generatedIcon } from "./generatedIcon"

/** The main network of each family, listed as the chains a bundled wallet supports. */
const FAMILY_MAINNET: Readonly<Record<ChainNamespace, string>> = {
  eip155: "eip155:1",
  solana: "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
  bip122: "bip122:000000000019d6689c085ae165831e93",
  polkadot: "polkadot:91b171bb158e2d3848fa23a9f1c25182"
}

interface Seed {
  readonly id: string
  readonly name: string
  readonly rdns?: string
  readonly homepage: string
  readonly mobile?: string
  readonly webapp?: string
  readonly families: ReadonlyArray<ChainNamespace>
}

const SEEDS: ReadonlyArray<Seed> = [
  { id: "c57ca95b47569778a828d19178114f4db188b89b763c899ba0be274e97267d96", name: "MetaMask", rdns: "io.metamask", homepage: "https://metamask.io/", mobile: "metamask://", families: ["eip155", "solana"] },
  { id: "4622a2b2d6af1c9844944291e5e7351a6aa24cd7b23099efac1b2fd875da31a0", name: "Trust Wallet", rdns: "com.trustwallet.app", homepage: "https://trustwallet.com/", mobile: "trust://", families: ["eip155", "solana", "bip122"] },
  { id: "fd20dc426fb37566d803205b19bbc1d4096b248ac04548e3cfb6b3a38bd033aa", name: "Coinbase Wallet", rdns: "com.coinbase.wallet", homepage: "https://www.coinbase.com/wallet", mobile: "cbwallet://", families: ["eip155", "solana"] },
  { id: "1ae92b26df02f0abca6304df07debccd18262fdf5fe82daa81593582dac9a369", name: "Rainbow", rdns: "me.rainbow", homepage: "https://rainbow.me/", mobile: "rainbow://", families: ["eip155"] },
  { id: "18388be9ac2d02726dbac9777c96efaac06d744b2f6d580fccdd4127a6d01fd1", name: "Rabby Wallet", rdns: "io.rabby", homepage: "https://rabby.io/", families: ["eip155"] },
  { id: "a797aa35c0fadbfc1a53e7f675162ed5226968b44a19ee3d24385c64d1d3c393", name: "Phantom", rdns: "app.phantom", homepage: "https://phantom.com/", families: ["solana", "eip155", "bip122"] },
  { id: "ecc4036f814562b41a5268adc86270fba1365471402006302e70169465b7ac18", name: "Zerion", rdns: "io.zerion.wallet", homepage: "https://zerion.io/", mobile: "zerion://", families: ["eip155", "solana"] },
  { id: "19177a98252e07ddfc9af2083ba8e07ef627cb6103467ffebb3f8f4205fd7927", name: "Ledger Live", homepage: "https://www.ledger.com/ledger-live", mobile: "ledgerlive://", families: ["eip155", "solana", "bip122", "polkadot"] },
  { id: "38f5d18bd8522c244bdd70cb4a68e0e718865155811c043f052fb9f1c51de662", name: "Bitget Wallet", rdns: "com.bitget.web3", homepage: "https://web3.bitget.com/", families: ["eip155", "solana", "bip122"] },
  { id: "8a0ee50d1f22f6651afcae7eb4253e52a3310b90af5daef78a8c4929a9bb99d4", name: "Binance Wallet", homepage: "https://www.binance.com/en/web3wallet", families: ["eip155", "solana", "bip122"] },
  { id: "971e689d0a5be527bac79629b4ee9b925e82208e5168b733496a09c0faed0709", name: "OKX Wallet", rdns: "com.okex.wallet", homepage: "https://www.okx.com/web3", families: ["eip155", "solana", "bip122", "polkadot"] },
  { id: "0b415a746fb9ee99cce155c2ceca0c6f6061b1dbca2d722b3ba16381d0562150", name: "SafePal", homepage: "https://www.safepal.com/", mobile: "safepalwallet://", families: ["eip155", "solana", "bip122"] },
  { id: "1ca0bdd4747578705b1939af023d120677c64fe6ca76add81fda36e350605e79", name: "Solflare", homepage: "https://solflare.com/", families: ["solana"] },
  { id: "2bd8c14e035c2d48f184aaa168559e86b0e3433228d3c4075900a221785019b0", name: "Backpack", rdns: "app.backpack", homepage: "https://backpack.app/", families: ["solana", "eip155"] },
  { id: "225affb176778569276e484e1b92637ad061b01e13a048b35a9d280c3b58970f", name: "Safe", homepage: "https://safe.global/", webapp: "https://app.safe.global/", families: ["eip155"] },
  { id: "c03dfee351b6fcc421b4494ea33b9d4b92a984f87aa76d1663bb28705e95034a", name: "Uniswap Wallet", homepage: "https://wallet.uniswap.org/", mobile: "uniswap://", families: ["eip155"] },
  { id: "ef333840daf915aafdc4a004525502d6d49d77bd9c65e0642dbaefb3c2893bef", name: "imToken", homepage: "https://token.im/", families: ["eip155", "bip122"] },
  { id: "20459438007b75f4f4acb98bf29aa3b800550309646d375da5fd4aac6c2a2c66", name: "TokenPocket", homepage: "https://www.tokenpocket.pro/", families: ["eip155", "solana", "bip122", "polkadot"] },
  { id: "e9ff15be73584489ca4a66f64d32c4537711797e30b6660dbcb71ea72a42b1f4", name: "Exodus", rdns: "com.exodus.web3", homepage: "https://www.exodus.com/", families: ["eip155", "solana", "bip122"] },
  { id: "bc949c5d968ae81310268bf9193f9c9fb7bb4e1283e1284af8f2bd4992535fd6", name: "Argent", homepage: "https://www.argent.xyz/", mobile: "argent://", families: ["eip155"] },
  { id: "9ce87712b99b3eb57396cc8621db8900ac983c712236f48fb70ad28760be3f6a", name: "SubWallet", rdns: "app.subwallet", homepage: "https://www.subwallet.app/", families: ["polkadot", "eip155"] },
  { id: "c286eebc742a537cd1d6818363e9dc53b21759a1e8e5d9b263d0c03ec7703576", name: "1inch Wallet", homepage: "https://1inch.io/wallet/", families: ["eip155", "solana"] },
  { id: "f2436c67184f158d1beda5df53298ee84abfc367581e4505134b5bcf5f46697d", name: "Crypto.com Onchain", homepage: "https://crypto.com/onchain", families: ["eip155", "solana", "bip122"] },
  { id: "8837dd9413b1d9b585ee937d27a816590248386d9dbf59f5cd3422dbbb65683e", name: "Robinhood Wallet", homepage: "https://robinhood.com/web3-wallet/", families: ["eip155", "solana", "bip122"] }
]

/** The families a catalogue entry supports, from its chains. */
export const familiesOf = (entry: Pick<WalletCatalogEntry, "chains">): ReadonlyArray<string> => [
  ...new Set(entry.chains.map((chain) => chain.split(":")[0] ?? ""))
]

let built: ReadonlyArray<WalletCatalogEntry> | undefined

/** The bundled wallets, in order of how widely they are used (built on first call, then kept). */
export const fallbackCatalogue = (): ReadonlyArray<WalletCatalogEntry> => {
  built ??= SEEDS.map((seed) =>
    Schema.decodeUnknownSync(WalletCatalogEntry)({
      id: seed.id,
      name: seed.name,
      rdns: seed.rdns ?? null,
      image_id: `bundled-${seed.id.slice(0, 16)}`,
      image_url: generatedIcon(seed.id, seed.name),
      homepage: seed.homepage,
      mobile_link: seed.mobile ?? null,
      desktop_link: null,
      webapp_link: seed.webapp ?? null,
      chains: seed.families.map((family) => FAMILY_MAINNET[family])
    })
  )
  return built
}
