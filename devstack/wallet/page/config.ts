/**
 * What the services server tells the test wallet page about the stack: the relay, the projectId, the dev accounts,
 * the local EVM chains and the local Solana network. The server writes it into the HTML (no extra request); the page
 * decodes it with this Schema.
 */
import { Schema } from "effect"

/** A dev account the page can sign with (anvil's public keys). */
export const PageAccount = Schema.Struct({
  index: Schema.Number,
  address: Schema.String.pipe(Schema.check(Schema.isPattern(/^0x[0-9a-fA-F]{40}$/))),
  privateKey: Schema.String.pipe(Schema.check(Schema.isPattern(/^0x[0-9a-fA-F]{64}$/)))
})
/** A dev account the page can sign with. */
export type PageAccount = typeof PageAccount.Type

/** A local EVM chain the page signs and sends on. */
export const PageChain = Schema.Struct({
  chainId: Schema.Number,
  caipNetworkId: Schema.String,
  name: Schema.String,
  rpcUrl: Schema.String
})
/** A local EVM chain the page signs and sends on. */
export type PageChain = typeof PageChain.Type

/** A Solana dev key the page can sign with (the devstack's public `devSolanaKey`s). */
export const PageSolanaAccount = Schema.Struct({
  index: Schema.Number,
  address: Schema.String.pipe(Schema.check(Schema.isPattern(/^[1-9A-HJ-NP-Za-km-z]{32,44}$/))),
  /** base58 of the 64 bytes (seed, then public key). */
  secretKey: Schema.String.pipe(Schema.check(Schema.isPattern(/^[1-9A-HJ-NP-Za-km-z]{64,90}$/)))
})
/** A Solana dev key the page can sign with. */
export type PageSolanaAccount = typeof PageSolanaAccount.Type

/** The local Solana network the page signs and sends on. */
export const PageSolana = Schema.Struct({
  /** `solana:<genesis ref>`. */
  caipNetworkId: Schema.String.pipe(Schema.check(Schema.isPattern(/^solana:[1-9A-HJ-NP-Za-km-z]{1,32}$/))),
  name: Schema.String,
  rpcUrl: Schema.String,
  accounts: Schema.Array(PageSolanaAccount)
})
/** The local Solana network the page signs and sends on. */
export type PageSolana = typeof PageSolana.Type

/**
 * The test wallet page's configuration; `relayUrl` is null when the stack runs without its relay, `solana` when it
 * runs without its Solana part.
 */
export const PageConfig = Schema.Struct({
  relayUrl: Schema.NullOr(Schema.String),
  projectId: Schema.String,
  accounts: Schema.Array(PageAccount),
  chains: Schema.Array(PageChain),
  solana: Schema.NullOr(PageSolana)
})
/** The test wallet page's configuration. */
export type PageConfig = typeof PageConfig.Type

/** The id of the `<script type="application/json">` element carrying the config. */
export const configElementId = "test-wallet-config"

/** The config as a JSON `<script>` element, safe inside HTML (`<` is escaped so no text can close the element). */
export const configScriptTag = (config: PageConfig): string =>
  `<script type="application/json" id="${configElementId}">${JSON.stringify(Schema.encodeSync(PageConfig)(config)).replace(
    /</g,
    "\\u003c"
  )}</script>`

/** Decodes the config element's text; throws with the Schema's message when it is malformed. */
export const decodePageConfig = (json: string): PageConfig => Schema.decodeUnknownSync(Schema.fromJsonString(PageConfig))(json)
