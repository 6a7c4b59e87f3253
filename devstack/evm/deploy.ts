import { type Address, createWalletClient, getContractAddress, type Hex, http, publicActions } from "viem"
import { loadArtifacts } from "../contracts/artifacts"
import type { DevAccount } from "./accounts"
import { devChain } from "./chains"
import { type DevAccountAbstraction, deployAccountAbstraction } from "./accountAbstraction"
import { type DevSmartAccounts, saltHex, smartAccountAddress, smartAccountFactoryAbi } from "./smartAccounts"
import { type DevUniswap, deployUniswap, LIQUIDITY_MINT_LISTINGS, liquidityAccount } from "./uniswap"

/** A fungible token the devstack deploys on every local chain. */
export interface DevToken {
  readonly address: Address
  readonly name: string
  readonly symbol: string
  readonly decimals: number
  /** `standard`: transfer returns true; `no-return`: transfer returns nothing (the USDT kind). */
  readonly kind: "standard" | "no-return"
}

/** An ERC-721 collection the devstack deploys on every local chain, with the token ids minted at start. */
export interface DevCollection {
  readonly address: Address
  readonly name: string
  readonly symbol: string
  readonly tokenIds: ReadonlyArray<{ readonly tokenId: number; readonly owner: Address }>
}

/** The contracts deployed on one local chain. */
export interface DevContracts {
  readonly tokens: ReadonlyArray<DevToken>
  readonly collectible: DevCollection
  /** An unsolicited collection (one token "airdropped" to each collectible holder) that the services flag as spam. */
  readonly spamCollectible: DevCollection
  /** The contract-account factory and one account it deployed (ERC-1271, ERC-6492): see `smartAccounts.ts`. */
  readonly smartAccounts: DevSmartAccounts
  /** Uniswap v2 (WETH9, factory, Router02) and its three pools: see `uniswap.ts`. */
  readonly uniswap: DevUniswap
  /** ERC-4337: the EntryPoint v0.8, the SimpleAccountFactory, the WalletAccountFactory, the paymaster and the bundler's keys: see `accountAbstraction.ts`. */
  readonly accountAbstraction: DevAccountAbstraction
}

// Token amounts minted at start, in whole units, to every dev account.
const mintedPerAccount = 10_000n
// Collectibles minted at start to each of the first `collectibleHolders` dev accounts.
const collectiblesPerHolder = 3
const collectibleHolders = 3

/**
 * Deploys the two ERC-20s, the two ERC-721s and the contract-account factory from dev account 0 (unlocked on anvil),
 * then has the factory deploy dev account 0's contract account (salt 0), then Uniswap v2 and its pools
 * (`uniswap.ts`, from the liquidity account), then ERC-4337 (`accountAbstraction.ts`): same addresses on every fresh
 * chain.
 */
export const deployContracts = async (
  chainId: number,
  rpcUrl: string,
  accounts: ReadonlyArray<DevAccount>
): Promise<DevContracts> => {
  const deployer = accounts[0]
  if (deployer === undefined) throw new Error("no dev account to deploy from")
  const client = createWalletClient({ chain: devChain(chainId, rpcUrl), transport: http(rpcUrl) }).extend(publicActions)
  const artifacts = loadArtifacts()
  const holders = accounts.map((account) => account.address)
  const nfts = holders.slice(0, collectibleHolders)
  // The AMM's liquidity is minted to an account of its own, listed after the dev accounts so theirs stay as they were.
  const tokenHolders = [...holders, ...Array.from({ length: LIQUIDITY_MINT_LISTINGS }, () => liquidityAccount.address)]
  const wusd = { name: "Wallet Runtime USD", symbol: "WUSD", decimals: 6, kind: "standard" } as const
  const wusdt = { name: "Wallet Runtime Tether", symbol: "WUSDT", decimals: 6, kind: "no-return" } as const
  const collectible = { name: "Wallet Runtime Collectibles", symbol: "WRC" } as const
  const spam = { name: "Claim Your Reward", symbol: "CLAIM" } as const
  const nonce = await client.getTransactionCount({ address: deployer.address })
  const at = (offset: number) => getContractAddress({ from: deployer.address, nonce: BigInt(nonce + offset) })
  const factory = at(4)
  const accountSalt = saltHex(0)

  // anvil mines each transaction on arrival, so the six are sent back to back and checked after.
  const hashes: Array<Hex> = [
    await client.deployContract({
      account: deployer.address,
      abi: artifacts.StandardToken.abi,
      bytecode: artifacts.StandardToken.bytecode,
      args: [wusd.name, wusd.symbol, wusd.decimals, tokenHolders, mintedPerAccount * 10n ** BigInt(wusd.decimals)]
    }),
    await client.deployContract({
      account: deployer.address,
      abi: artifacts.NoReturnToken.abi,
      bytecode: artifacts.NoReturnToken.bytecode,
      args: [wusdt.name, wusdt.symbol, wusdt.decimals, tokenHolders, mintedPerAccount * 10n ** BigInt(wusdt.decimals)]
    }),
    await client.deployContract({
      account: deployer.address,
      abi: artifacts.Collectible.abi,
      bytecode: artifacts.Collectible.bytecode,
      args: [collectible.name, collectible.symbol, nfts, BigInt(collectiblesPerHolder)]
    }),
    await client.deployContract({
      account: deployer.address,
      abi: artifacts.Collectible.abi,
      bytecode: artifacts.Collectible.bytecode,
      args: [spam.name, spam.symbol, nfts, 1n]
    }),
    await client.deployContract({
      account: deployer.address,
      abi: artifacts.SmartAccountFactory.abi,
      bytecode: artifacts.SmartAccountFactory.bytecode
    }),
    // The factory may not be mined yet when this is sent: a fixed gas limit spares an estimate against no code.
    await client.writeContract({
      account: deployer.address,
      address: factory,
      abi: smartAccountFactoryAbi,
      functionName: "createAccount",
      args: [deployer.address, accountSalt],
      gas: 1_000_000n
    })
  ]
  for (const hash of hashes) {
    // anvil may answer the send before its block exists: wait for the receipt rather than read it at once.
    const receipt = await client.waitForTransactionReceipt({ hash, pollingInterval: 20 })
    if (receipt.status !== "success") throw new Error(`deployment ${hash} on chain ${chainId} reverted`)
  }
  const uniswap = await deployUniswap(chainId, rpcUrl, { wusd: at(0), wusdt: at(1) })
  const accountAbstraction = await deployAccountAbstraction(client, deployer)
  // The constructor mints `perHolder` ids to each holder in turn, counting from 1.
  const minted = (perHolder: number) =>
    nfts.flatMap((owner, i) => Array.from({ length: perHolder }, (_, j) => ({ tokenId: i * perHolder + j + 1, owner })))
  return {
    tokens: [
      { ...wusd, address: at(0) },
      { ...wusdt, address: at(1) }
    ],
    collectible: { ...collectible, address: at(2), tokenIds: minted(collectiblesPerHolder) },
    spamCollectible: { ...spam, address: at(3), tokenIds: minted(1) },
    smartAccounts: {
      factory,
      deployed: {
        address: smartAccountAddress({ factory, owner: deployer.address, salt: accountSalt }),
        owner: deployer.address,
        salt: accountSalt
      }
    },
    uniswap,
    accountAbstraction
  }
}
