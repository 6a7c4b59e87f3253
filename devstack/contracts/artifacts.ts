import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { Schema } from "effect"
import type { Abi, Hex } from "viem"

const HexString = Schema.String.pipe(Schema.check(Schema.isPattern(/^0x[0-9a-f]*$/)))

/** One compiled contract: its ABI (as solc wrote it) and creation bytecode. */
export const Artifact = Schema.Struct({
  abi: Schema.Array(Schema.Record(Schema.String, Schema.Unknown)),
  bytecode: HexString
})

/** The file `artifacts.json` written by `build.ts`: every contract of this folder, by name. */
export const Artifacts = Schema.Struct({
  solcVersion: Schema.String,
  contracts: Schema.Struct({
    StandardToken: Artifact,
    NoReturnToken: Artifact,
    Collectible: Artifact,
    SmartAccount: Artifact,
    SmartAccountFactory: Artifact,
    FarcasterIdRegistry: Artifact,
    VerifyingPaymaster: Artifact,
    WalletAccount: Artifact,
    WalletAccountFactory: Artifact
  })
})

/** The names of the contracts the local stack deploys. */
export type ContractName = keyof (typeof Artifacts.Type)["contracts"]

/** Where `build.ts` writes the compiled contracts. */
export const artifactsPath = fileURLToPath(new URL("./artifacts.json", import.meta.url))

/** Reads and checks the committed artifacts; the ABI is solc's own output, so viem may take it as an `Abi`. */
export const loadArtifacts = (): Record<ContractName, { readonly abi: Abi; readonly bytecode: Hex }> => {
  const decoded = Schema.decodeUnknownSync(Schema.fromJsonString(Artifacts))(readFileSync(artifactsPath, "utf8"))
  const pick = (name: ContractName) => {
    const artifact = decoded.contracts[name]
    return { abi: artifact.abi as unknown as Abi, bytecode: artifact.bytecode as Hex }
  }
  return {
    StandardToken: pick("StandardToken"),
    NoReturnToken: pick("NoReturnToken"),
    Collectible: pick("Collectible"),
    SmartAccount: pick("SmartAccount"),
    SmartAccountFactory: pick("SmartAccountFactory"),
    FarcasterIdRegistry: pick("FarcasterIdRegistry"),
    VerifyingPaymaster: pick("VerifyingPaymaster"),
    WalletAccount: pick("WalletAccount"),
    WalletAccountFactory: pick("WalletAccountFactory")
  }
}
