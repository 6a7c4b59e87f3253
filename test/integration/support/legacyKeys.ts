/**
 * A user of before split keys (issue 30, item 6): keys made and sealed by the wallet server at the first login, as it
 * did until keys were made in the frame. The migration's tests give a user such keys, straight into `wallet_keys`, and
 * read what the login left of them.
 */
import { randomBytes, randomUUID } from "node:crypto"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { Database } from "../../../server/src/db/index"
import { evmAddressOf, solanaAddressOf } from "../../../server/src/embedded/frame/keyShares"
import { sealKey } from "../../../server/src/embedded/server/keys"
import { insertUser } from "../../../server/src/embedded/server/store"

/** Seals a new eip155 key and a new solana seed for `userId` under `masterKey`, as the server did; answers the addresses. */
export const sealLegacyKeys = async (
  database: Database,
  masterKey: Uint8Array,
  userId: string
): Promise<{ readonly evmAddress: string; readonly solanaAddress: string }> => {
  const evm = new Uint8Array(randomBytes(32))
  const solana = new Uint8Array(randomBytes(32))
  const keys = [
    { family: "eip155" as const, address: evmAddressOf(evm), ...sealKey(masterKey, userId, "eip155", evm) },
    { family: "solana" as const, address: solanaAddressOf(solana), ...sealKey(masterKey, userId, "solana", solana) }
  ]
  evm.fill(0)
  solana.fill(0)
  await database.run(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      for (const key of keys) {
        yield* sql`INSERT INTO wallet_keys (user_id, family, address, ciphertext, iv, auth_tag, created_at)
          VALUES (${userId}, ${key.family}, ${key.address}, ${key.ciphertext}, ${key.iv}, ${key.authTag}, ${new Date()})`
      }
    })
  )
  return { evmAddress: keys[0]!.address, solanaAddress: keys[1]!.address }
}

/** Makes the user of `email` (lower case) as a login of before did, with sealed keys; answers its id and addresses. */
export const legacyUser = async (
  database: Database,
  masterKey: Uint8Array,
  email: string
): Promise<{ readonly userId: string; readonly evmAddress: string; readonly solanaAddress: string }> => {
  const userId = randomUUID()
  await database.run(insertUser({ id: userId, email }, new Date()))
  return { userId, ...(await sealLegacyKeys(database, masterKey, userId)) }
}

/** What the database holds of `userId`'s keys: the sealed ones left, and the split ones' family and address. */
export const keysInDatabase = (
  database: Database,
  userId: string
): Promise<{ readonly sealed: ReadonlyArray<string>; readonly split: ReadonlyArray<{ readonly family: string; readonly address: string }> }> =>
  database.run(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const sealed = yield* sql<{ readonly family: string }>`SELECT family FROM wallet_keys WHERE user_id = ${userId} ORDER BY family`
      const split = yield* sql<{ readonly family: string; readonly address: string }>`SELECT family, address FROM wallet_key_shares
        WHERE user_id = ${userId} ORDER BY family`
      return { sealed: sealed.map((row) => row.family), split: split.map((row) => ({ family: row.family, address: row.address })) }
    })
  )
