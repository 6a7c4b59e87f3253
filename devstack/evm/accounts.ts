import { pbkdf2Sync } from "node:crypto"
import type { Address, Hex } from "viem"
import { HDKey, hdKeyToAccount } from "viem/accounts"

/** anvil's default mnemonic: its first accounts start with 10000 ETH on every chain it runs. */
export const devMnemonic = "test test test test test test test test test test test junk"

/** A funded development account of the local chains. Its key is public knowledge: never use it elsewhere. */
export interface DevAccount {
  readonly index: number
  readonly address: Address
  readonly privateKey: Hex
}

const toHex = (bytes: Uint8Array): Hex => `0x${Buffer.from(bytes).toString("hex")}`

/** The first `count` accounts of the dev mnemonic (path m/44'/60'/0'/0/i, as anvil funds them). */
export const devAccounts = (count = 10): ReadonlyArray<DevAccount> => {
  // BIP-39 seed computed once; viem's mnemonicToAccount would redo the 2048 rounds per account.
  const seed = pbkdf2Sync(devMnemonic.normalize("NFKD"), "mnemonic", 2048, 64, "sha512")
  const root = HDKey.fromMasterSeed(seed)
  return Array.from({ length: count }, (_, index) => {
    const account = hdKeyToAccount(root, { addressIndex: index })
    const key = account.getHdKey().privateKey
    if (key === null) throw new Error("the dev mnemonic gave no private key")
    return { index, address: account.address, privateKey: toHex(key) }
  })
}
