/**
 * The local stack's account names: `label.wallet.test`, and the seed names alice, bob, carol and dave, held by the
 * first dev accounts without a registration (`alice.wallet.test`, …). A host's server has its own suffix and no seeds.
 */
import type { NamesConfig } from "../server/src/services/names"

/** The suffix of the local stack's names (the demo passes it as the runtime's `nameSuffix`). */
export const devNameSuffix = ".wallet.test"

const firstNames = ["alice", "bob", "carol", "dave"] as const

/** The local stack's names: its suffix, and the seed names of the first dev accounts. */
export const devNames = (accounts: ReadonlyArray<{ readonly address: string }>): NamesConfig => ({
  suffix: devNameSuffix,
  seeds: firstNames.flatMap((first, i) => {
    const account = accounts[i]
    return account === undefined ? [] : [{ name: `${first}${devNameSuffix}`, address: account.address }]
  })
})
