/**
 * The runtime config of a running local stack: every endpoint, port, account and contract address, written by
 * `devstack/main.ts` to `.devstack/runtime.json` (gitignored) for the demo, the tests and anyone curious.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { dirname } from "node:path"
import { fileURLToPath } from "node:url"
import { Schema } from "effect"
import { CaipNetworkId } from "../src/domain/Caip"

/** A funded EVM dev account (anvil's default mnemonic): public keys, never use them elsewhere. */
export const DevAccountConfig = Schema.Struct({
  index: Schema.Number,
  address: Schema.String,
  privateKey: Schema.String
})

/** One local EVM chain and the contracts deployed on it at start. */
export const EvmChainConfig = Schema.Struct({
  chainId: Schema.Number,
  caipNetworkId: CaipNetworkId,
  rpcUrl: Schema.String,
  /** anvil's process (and process group) id. */
  pid: Schema.Number,
  tokens: Schema.Array(
    Schema.Struct({
      address: Schema.String,
      name: Schema.String,
      symbol: Schema.String,
      decimals: Schema.Number,
      /** `no-return`: `transfer` returns nothing (the USDT kind). */
      kind: Schema.Literals(["standard", "no-return"])
    })
  ),
  collectible: Schema.Struct({
    address: Schema.String,
    name: Schema.String,
    symbol: Schema.String,
    tokenIds: Schema.Array(Schema.Struct({ tokenId: Schema.Number, owner: Schema.String }))
  }),
  /** The collection the services flag as spam (`is_spam`); one token each to the collectible's holders. */
  spamCollectible: Schema.Struct({
    address: Schema.String,
    name: Schema.String,
    symbol: Schema.String,
    tokenIds: Schema.Array(Schema.Struct({ tokenId: Schema.Number, owner: Schema.String }))
  }),
  /**
   * The contract-account factory (CREATE2) and the ERC-1271 account it deployed at start for dev account 0
   * (salt 0); `devstack/evm/smartAccounts.ts` computes other accounts' addresses and ERC-6492 signatures.
   */
  smartAccounts: Schema.Struct({
    factory: Schema.String,
    deployed: Schema.Struct({ address: Schema.String, owner: Schema.String, salt: Schema.String })
  }),
  /** Uniswap v2 (`devstack/evm/uniswap.ts`): WETH9, the factory, Router02 and the pools made at start. */
  uniswap: Schema.Struct({
    weth: Schema.String,
    factory: Schema.String,
    router: Schema.String,
    pairs: Schema.Array(Schema.Struct({ address: Schema.String, tokenA: Schema.String, tokenB: Schema.String }))
  }),
  /**
   * ERC-4337 (`devstack/evm/accountAbstraction.ts`): EntryPoint v0.8, SimpleAccountFactory, the embedded wallet's
   * WalletAccountFactory and the verifying paymaster. Absent from a config written before they were deployed.
   */
  accountAbstraction: Schema.optionalKey(
    Schema.Struct({
      entryPoint: Schema.String,
      simpleAccountFactory: Schema.String,
      walletAccountFactory: Schema.optionalKey(Schema.String),
      paymaster: Schema.String
    })
  )
})
/** One local EVM chain. */
export type EvmChainConfig = typeof EvmChainConfig.Type

/** An SPL token the local Solana RPC creates at start: its mint (base58, the same on every run) and metadata. */
export const SolanaTokenConfig = Schema.Struct({
  address: Schema.String,
  name: Schema.String,
  symbol: Schema.String,
  decimals: Schema.Number
})
/** An SPL token of the local Solana RPC. */
export type SolanaTokenConfig = typeof SolanaTokenConfig.Type

/** A project the services accept, with its origin allow-list. */
export const ProjectConfig = Schema.Struct({
  projectId: Schema.String,
  description: Schema.String,
  allowedOrigins: Schema.Union([Schema.Literal("loopback"), Schema.Array(Schema.String)]),
  analyticsEnabled: Schema.Boolean
})

/** The shape of `.devstack/runtime.json`; a part that was not started is `null`. */
export const RuntimeConfig = Schema.Struct({
  version: Schema.Literal(1),
  /** The process that runs the stack. */
  pid: Schema.Number,
  startedAt: Schema.String,
  startupMs: Schema.Number,
  evm: Schema.NullOr(
    Schema.Struct({
      mnemonic: Schema.String,
      accounts: Schema.Array(DevAccountConfig),
      chains: Schema.Array(EvmChainConfig)
    })
  ),
  solana: Schema.NullOr(
    Schema.Struct({
      caipNetworkId: CaipNetworkId,
      rpcUrl: Schema.String,
      wsUrl: Schema.String,
      funded: Schema.Array(Schema.Struct({ address: Schema.String, secretKey: Schema.String })),
      /** The test SPL token (WSUSD), 10000 of it in each funded key's associated token account. */
      tokens: Schema.Array(SolanaTokenConfig)
    })
  ),
  /**
   * The regtest node (`devstack/bitcoin`): its Esplora-style API and the dev keys funded at start (public, hex).
   * Absent from a config written before the part existed.
   */
  bitcoin: Schema.optionalKey(
    Schema.NullOr(
      Schema.Struct({
        caipNetworkId: CaipNetworkId,
        url: Schema.String,
        funded: Schema.Array(
          Schema.Struct({
            index: Schema.Number,
            paymentPrivateKey: Schema.String,
            paymentPublicKey: Schema.String,
            paymentAddress: Schema.String,
            ordinalsPrivateKey: Schema.String,
            ordinalsPublicKey: Schema.String,
            ordinalsAddress: Schema.String
          })
        )
      })
    )
  ),
  relay: Schema.NullOr(Schema.Struct({ url: Schema.String })),
  services: Schema.NullOr(
    Schema.Struct({
      /** Catalogue (spec 7.3) and blockchain service (7.4) base URL. */
      url: Schema.String,
      /** The RPC proxy: `{rpcProxyUrl}?chainId=eip155:31337&projectId=…`. */
      rpcProxyUrl: Schema.String,
      defaultProjectId: Schema.String,
      projects: Schema.Array(ProjectConfig),
      /** The test wallet page the catalogue's test entries deep-link to. */
      testWalletUrl: Schema.String,
      /** The local on-ramp's card-payment page (its own origin), when the EVM chains run. */
      onrampUrl: Schema.optionalKey(Schema.String)
    })
  ),
  mail: Schema.NullOr(
    Schema.Struct({
      smtpHost: Schema.String,
      smtpPort: Schema.Number,
      /** The inbox page; JSON at `{inboxUrl}inbox?to=`. */
      inboxUrl: Schema.String
    })
  ),
  /**
   * The ERC-4337 bundler and paymaster (`server/src/bundler`): a chain's endpoint is `{url}/rpc/{chainId}`; it
   * sponsors every operation. Absent from a config written before the part existed.
   */
  bundler: Schema.optionalKey(Schema.NullOr(Schema.Struct({ url: Schema.String, chainIds: Schema.Array(Schema.Number) }))),
  /** The embedded wallet: its frame origin (the runtime's `endpoints.frame`), where the wallet server also answers. */
  embedded: Schema.optionalKey(Schema.NullOr(Schema.Struct({ frameUrl: Schema.String }))),
  /** The local identity providers of the social login: one issuer per provider (`devstack/identity`). */
  identity: Schema.optionalKey(
    Schema.NullOr(
      Schema.Struct({
        providers: Schema.Array(Schema.Struct({ provider: Schema.String, kind: Schema.Literals(["oidc", "oauth"]), issuer: Schema.String }))
      })
    )
  ),
  /** Farcaster's stand-in: the test Farcaster client page and the id registry on the first local chain (`devstack/farcaster`). */
  farcaster: Schema.optionalKey(
    Schema.NullOr(Schema.Struct({ clientUrl: Schema.String, idRegistry: Schema.String, caipNetworkId: Schema.String }))
  ),
  demo: Schema.NullOr(
    Schema.Struct({
      url: Schema.String,
      /** `vite`: the demo app's dev server; `status`: the status page shown until `demo/` exists. */
      kind: Schema.Literals(["vite", "status"])
    })
  )
})
/** The runtime config of a running local stack. */
export type RuntimeConfig = typeof RuntimeConfig.Type

/** Where `npm run devstack` and `npm start` write the runtime config (`DEVSTACK_RUNTIME_CONFIG` overrides it). */
export const runtimeConfigPath =
  process.env["DEVSTACK_RUNTIME_CONFIG"] ?? fileURLToPath(new URL("../.devstack/runtime.json", import.meta.url))

const codec = Schema.fromJsonString(RuntimeConfig)

const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM"
  }
}

/** Reads and checks the runtime config of the running stack; throws a clear error when no stack is running. */
export const readRuntimeConfig = (path: string = runtimeConfigPath): RuntimeConfig => {
  if (!existsSync(path)) throw new Error(`No runtime config at ${path}: start the stack with \`npm run devstack\` first`)
  const config = Schema.decodeUnknownSync(codec)(readFileSync(path, "utf8"))
  if (!isAlive(config.pid)) {
    throw new Error(`The runtime config at ${path} is stale: the stack that wrote it (pid ${config.pid}) is not running`)
  }
  return config
}

/** Writes the runtime config atomically (readers never see half a file). */
export const writeRuntimeConfig = (config: RuntimeConfig, path: string = runtimeConfigPath): void => {
  mkdirSync(dirname(path), { recursive: true })
  const temporary = `${path}.${process.pid}.tmp`
  writeFileSync(temporary, `${JSON.stringify(Schema.encodeSync(RuntimeConfig)(config), null, 2)}\n`)
  renameSync(temporary, path)
}

/** Removes the runtime config if it is the one process `pid` wrote. */
export const removeRuntimeConfig = (pid: number, path: string = runtimeConfigPath): void => {
  try {
    if (Schema.decodeUnknownSync(codec)(readFileSync(path, "utf8")).pid === pid) rmSync(path, { force: true })
  } catch {
    // Missing or unreadable: nothing of ours to remove.
  }
}
