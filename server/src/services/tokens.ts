import { type Address, erc20Abi, decodeFunctionResult, encodeFunctionData, getAddress, type Hex } from "viem"
import { rpcBatchSettled } from "../lib/jsonRpc"
import type { RpcUpstream } from "../lib/rpcUpstream"

/** What the services know about a token contract, read from the chain once. */
export interface TokenMeta {
  readonly address: Address
  readonly name: string
  readonly symbol: string
  /** `undefined` for an NFT collection. */
  readonly decimals: number | undefined
}

const read = (to: Address, functionName: "name" | "symbol" | "decimals") => ({
  method: "eth_call",
  params: [{ to, data: encodeFunctionData({ abi: erc20Abi, functionName }) }, "latest"]
})

/** Token metadata of one chain: seeded with the deployed contracts, other contracts read on first sight. */
export class TokenRegistry {
  private readonly known = new Map<string, Promise<TokenMeta>>()

  constructor(
    private readonly rpc: RpcUpstream,
    seed: ReadonlyArray<TokenMeta>
  ) {
    for (const meta of seed) this.known.set(meta.address.toLowerCase(), Promise.resolve(meta))
  }

  /** Metadata of the token at `address`; a contract without name/symbol gets its short address as both. */
  get(address: string): Promise<TokenMeta> {
    const key = address.toLowerCase()
    let meta = this.known.get(key)
    if (meta === undefined) {
      meta = this.load(getAddress(address))
      this.known.set(key, meta)
    }
    return meta
  }

  private async load(address: Address): Promise<TokenMeta> {
    const results = await rpcBatchSettled(this.rpc, [
      read(address, "name"),
      read(address, "symbol"),
      read(address, "decimals")
    ]).catch(() => [undefined, undefined, undefined] as const)
    const decode = (functionName: "name" | "symbol" | "decimals", data: unknown): string | number | bigint | undefined => {
      try {
        return typeof data === "string" && data !== "0x"
          ? decodeFunctionResult({ abi: erc20Abi, functionName, data: data as Hex })
          : undefined
      } catch {
        return undefined
      }
    }
    const text = (value: unknown) => (typeof value === "string" && value.length > 0 ? value : undefined)
    const short = `${address.slice(0, 6)}…${address.slice(-4)}`
    const decimals = decode("decimals", results[2])
    return {
      address,
      name: text(decode("name", results[0])) ?? short,
      symbol: text(decode("symbol", results[1])) ?? short,
      decimals: decimals === undefined ? undefined : Number(decimals)
    }
  }
}
