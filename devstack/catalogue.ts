/**
 * The local stack's generated wallet catalogue: 575 invented wallets with generated icons, three of them
 * ("Devstack Test Wallet") deep-linking to the stack's own test wallet page. The devstack's services serve it; a host's
 * server serves the library's bundled list or its own file instead (`server/src/services/catalogue.ts`).
 */
import { createHash } from "node:crypto"
import type { CatalogueWallet } from "../server/src/services/catalogue"

// Invented words only: no name here is, or imitates, a real wallet's brand.
const adjectives = [
  "Amber", "Azure", "Birch", "Brisk", "Cedar", "Cobalt", "Coral", "Crimson", "Dune", "Ember", "Fern", "Frost",
  "Garnet", "Harbor", "Indigo", "Jasper", "Juniper", "Kestrel", "Lunar", "Maple", "Meadow", "Nimbus", "Onyx",
  "Opal", "Quartz", "Saffron"
] as const
const nouns = [
  "Pouch", "Vault", "Keep", "Purse", "Pocket", "Chest", "Coffer", "Locker", "Satchel", "Haven", "Nest", "Burrow",
  "Cellar", "Drawer", "Casket", "Hollow", "Lantern", "Compass", "Anchor", "Beacon", "Cairn", "Quill"
] as const

const evmMainnets = ["eip155:1", "eip155:10", "eip155:137", "eip155:8453", "eip155:42161"] as const
const localEvm = ["eip155:31337", "eip155:31338"] as const
const otherMainnets = [
  "solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp",
  "bip122:000000000019d6689c085ae165831e93",
  "polkadot:91b171bb158e2d3848fa23a9f1c25182"
] as const

const digestOf = (text: string) => createHash("sha256").update(text).digest()

const uuidOf = (digest: Buffer) => {
  const hex = digest.toString("hex")
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`
}

const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, "-")

/** The ids of the entries that open the devstack's own test wallet page. */
export const testWalletIds = {
  web: digestOf("devstack test wallet web").toString("hex"),
  desktop: digestOf("devstack test wallet desktop").toString("hex"),
  mobile: digestOf("devstack test wallet mobile").toString("hex")
} as const

/**
 * The generated catalogue: three entries deep-linking to the local test wallet (`testWalletUrl` ends with `/`),
 * then one entry per adjective × noun (572), each with a generated icon served at `imageBase/{image_id}`.
 * `localSolana` is the local Solana network's id, listed by the test wallets and some generated ones.
 */
export const makeCatalogue = (opts: {
  readonly imageBase: string
  readonly testWalletUrl: string
  readonly localSolana?: string
}): ReadonlyArray<CatalogueWallet> => {
  const others = [...otherMainnets, ...(opts.localSolana === undefined ? [] : [opts.localSolana])]
  const allChains = [...localEvm, ...evmMainnets, ...(opts.localSolana === undefined ? [] : [opts.localSolana])]
  const testWallet = (key: keyof typeof testWalletIds, name: string, link: "webapp_link" | "desktop_link" | "mobile_link"): CatalogueWallet => {
    const imageId = uuidOf(digestOf(`image ${name}`))
    return {
      certified: true,
      entry: {
        id: testWalletIds[key],
        name,
        rdns: `test.wallet-runtime.devstack-${key}`,
        image_id: imageId,
        image_url: `${opts.imageBase}/${imageId}`,
        homepage: opts.testWalletUrl,
        mobile_link: link === "mobile_link" ? opts.testWalletUrl : null,
        desktop_link: link === "desktop_link" ? opts.testWalletUrl : null,
        webapp_link: link === "webapp_link" ? opts.testWalletUrl : null,
        app_store: null,
        play_store: null,
        chains: allChains
      }
    }
  }
  const generated = adjectives.flatMap((adjective) =>
    nouns.map((noun): CatalogueWallet => {
      const name = `${adjective} ${noun}`
      const digest = digestOf(name)
      const pick = (i: number) => digest[i] ?? 0
      const imageId = uuidOf(digestOf(`image ${name}`))
      const host = `${slug(name)}.example`
      const chains = [
        ...evmMainnets.filter((_, i) => (pick(1) >> i) & 1 || i === 0),
        ...(pick(2) % 2 === 0 ? localEvm : []),
        ...others.filter((_, i) => (pick(3) >> i) & 1)
      ]
      return {
        certified: pick(4) % 5 === 0,
        entry: {
          id: digest.toString("hex"),
          name,
          rdns: `example.${slug(name)}`,
          image_id: imageId,
          image_url: `${opts.imageBase}/${imageId}`,
          homepage: `https://${host}/`,
          mobile_link: pick(5) % 3 === 0 ? null : `${slug(name)}://`,
          desktop_link: pick(6) % 4 === 0 ? `${slug(name)}-desktop://` : null,
          webapp_link: pick(7) % 4 === 0 ? `https://app.${host}/` : null,
          app_store: pick(8) % 2 === 0 ? `https://apps.example/${slug(name)}` : null,
          play_store: pick(9) % 2 === 0 ? `https://play.example/${slug(name)}` : null,
          chains
        }
      }
    })
  )
  return [
    testWallet("web", "Devstack Test Wallet", "webapp_link"),
    testWallet("desktop", "Devstack Test Wallet Desktop", "desktop_link"),
    testWallet("mobile", "Devstack Test Wallet Mobile", "mobile_link"),
    ...generated
  ]
}
