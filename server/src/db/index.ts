/**
 * The services' database: Postgres through `effect/sql` and `@effect/sql-pg`, the same code and migrations whether it
 * is the embedded PGlite (the default, persisted in a data directory) or a real Postgres (`DATABASE_URL`).
 *
 * For promise-based handlers (the services' route handlers under `effect/http-api` call it this way):
 *
 * @example
 * import { Effect } from "effect"
 * import { SqlClient } from "effect/sql"
 * // `state.db` (ServicesState) is the `Database` that `startServices` starts, hands its routes, and stops.
 * const rows = await state.db.run(
 *   Effect.gen(function* () {
 *     const sql = yield* SqlClient.SqlClient
 *     return yield* sql<{ pci: string }>`SELECT pci FROM siwx_sessions WHERE account = ${account}`
 *   })
 * )
 *
 * Schema changes go in `./migrations.ts` (append an `NNNN_name` entry; they run at every start, once per database).
 */
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, ManagedRuntime, Redacted } from "effect"
import { Migrator, SqlClient } from "effect/sql"
import type { Started } from "../lib/Started"
import { migrations } from "./migrations"
import { type RunningPglite, startPglite } from "./pglite"

/**
 * Where the database lives: PGlite in `dataDir` (kept; created on first use), PGlite in memory, empty and gone at
 * stop (`dataDir` absent), or the Postgres at `url` (`postgres://user:password@host:port/database`).
 */
export type DatabaseOptions = { readonly dataDir?: string } | { readonly url: string }

/** A running database the services' routes query. */
export interface Database {
  readonly kind: "pglite" | "postgres"
  /** PGlite's data directory (`undefined` in memory and for a real Postgres). */
  readonly dataDir: string | undefined
  /** Runs an effect that needs the `SqlClient`; rejects with its failure. */
  readonly run: <A, E>(effect: Effect.Effect<A, E, SqlClient.SqlClient>) => Promise<A>
}

/** The database the CLI uses: `DATABASE_URL` when set, else PGlite in `dataDir`. */
export const databaseFromEnv = (dataDir: string, env: NodeJS.ProcessEnv = process.env): DatabaseOptions => {
  const url = env["DATABASE_URL"]
  return url === undefined || url === "" ? { dataDir } : { url }
}

/** The advisory-lock key the migrations run under, the same for every process of every version (any fixed number). */
export const MIGRATIONS_LOCK_KEY = 7_356_120_925_123_001n

/**
 * The migrations, one process at a time: server processes starting together on one Postgres would otherwise race
 * to create the migrations table and run the same migration. The lock is taken with `pg_advisory_xact_lock` inside
 * a transaction around the Migrator (whose own transaction nests as a savepoint): a session-level
 * `pg_advisory_lock` would need the unlock on the same connection, which the pool does not promise, and with
 * PGlite's single connection the Migrator could not get another one. The lock ends with the transaction, when the
 * migrations are committed or have failed, or when the connection dies. PGlite (one process) takes it too: same
 * code path, no contention.
 */
const runMigrations = Effect.gen(function* () {
  const sql = yield* SqlClient.SqlClient
  return yield* sql.withTransaction(
    Effect.andThen(sql`SELECT pg_advisory_xact_lock(${MIGRATIONS_LOCK_KEY})`, Migrator.make({})({ loader: Migrator.fromRecord(migrations) }))
  )
})

/** The number of the last migration this version knows (`NNNN` of the last key of `migrations`). */
const LATEST_MIGRATION = Math.max(...Object.keys(migrations).map((key) => Number(key.slice(0, key.indexOf("_")))))

/** Whether the database answers and every migration this version knows has run in it (`/readyz`). */
export const migrationsApplied = (db: Database): Promise<boolean> =>
  db.run(
    Effect.gen(function* () {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ readonly latest: number | null }>`SELECT max(migration_id) AS latest FROM effect_sql_migrations`
      return Number(rows[0]?.latest ?? 0) >= LATEST_MIGRATION
    })
  )

/** Starts the database (PGlite, or connects to `url`), runs the migrations, and hands back a handle and its stop. */
export const startDatabase = async (options: DatabaseOptions = {}): Promise<Started<Database>> => {
  const url = "url" in options ? options.url : undefined
  const dataDir = "dataDir" in options ? options.dataDir : undefined
  let pglite: RunningPglite | undefined
  let runtime: ManagedRuntime.ManagedRuntime<SqlClient.SqlClient, unknown> | undefined
  const stop = async () => {
    await runtime?.dispose()
    await pglite?.stop()
  }
  try {
    if (url === undefined) pglite = await startPglite(dataDir)
    const client =
      url !== undefined
        ? PgClient.layer({ url: Redacted.make(url), maxConnections: 4 })
        : PgClient.layer({
            host: "127.0.0.1",
            port: pglite?.port ?? 0,
            database: "postgres",
            username: "postgres",
            // One connection: PGlite runs one statement stream at a time (see ./pglite.ts).
            maxConnections: 1
          })
    // Migrations run while the layer is built, so a database that cannot migrate fails the start.
    const layer = Layer.effectDiscard(runMigrations).pipe(Layer.provideMerge(client))
    runtime = ManagedRuntime.make(layer)
    await runtime.context()
    const started = runtime
    let stopping: Promise<void> | undefined
    return {
      info: {
        kind: url === undefined ? "pglite" : "postgres",
        dataDir,
        run: (effect) => started.runPromise(effect)
      },
      stop: () => {
        stopping ??= stop()
        return stopping
      }
    }
  } catch (error) {
    await stop().catch(() => undefined)
    throw error
  }
}

