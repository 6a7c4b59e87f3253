import type { DevAccount } from "../evm/accounts"

/** The suffix of the local stack's account names. */
export const nameSuffix = ".wallet.test"

const firstNames = ["alice", "bob", "carol", "dave"] as const

/** A name of the local name table. */
export interface DevName {
  readonly name: string
  readonly address: string
  /** The image id of its avatar, served by `/public/getAssetImage/{id}`. */
  readonly avatarImageId: string
}

/** The local name table: the first dev accounts are alice, bob, carol and dave (`alice.wallet.test`, …). */
export const devNames = (accounts: ReadonlyArray<DevAccount>): ReadonlyArray<DevName> =>
  firstNames.flatMap((first, i) => {
    const account = accounts[i]
    return account === undefined
      ? []
      : [{ name: `${first}${nameSuffix}`, address: account.address, avatarImageId: `avatar-${first}` }]
  })
