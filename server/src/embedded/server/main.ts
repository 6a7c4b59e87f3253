/**
 * Runs the wallet server on its own, from the repository root: `npx tsx server/src/embedded/server/main.ts`.
 * Environment: `WALLET_SERVER_MASTER_KEY` (64 hex digits, required), `DATABASE_URL` or `WALLET_SERVER_DATA_DIR`
 * (PGlite, default `.devstack/wallet-server`), `SMTP_HOST` / `SMTP_PORT` (default 127.0.0.1:2525), `WALLET_SERVER_PORT`
 * (default 0), `WALLET_SERVER_PUBLIC_URL`, `WALLET_SERVER_EVM_CHAINS` (JSON
 * `[{"caipNetworkId":"eip155:31337","rpcUrl":"…"}]`) and `WALLET_SERVER_SOLANA` (JSON
 * `{"caipNetworkId":"solana:…","rpcUrl":"…"}`). It serves `/healthz`, `/readyz` and `/openapi.json`; SIGTERM lets the
 * requests in flight finish, then exits.
 */
import { Schema } from "effect"
import { databaseFromEnv } from "../../db/index"
import { startWalletServer } from "./index"

const Chain = Schema.Struct({ caipNetworkId: Schema.String, rpcUrl: Schema.String })
const env = process.env
const hex = env["WALLET_SERVER_MASTER_KEY"] ?? ""
if (!/^(0x)?[0-9a-fA-F]{64}$/.test(hex)) {
  console.error("WALLET_SERVER_MASTER_KEY must be 32 bytes as 64 hex digits (e.g. `openssl rand -hex 32`)")
  process.exit(1)
}
const json = <A>(name: string, schema: Schema.Codec<A, unknown>, fallback: A): A => {
  const text = env[name]
  return text === undefined || text === "" ? fallback : Schema.decodeUnknownSync(schema)(JSON.parse(text))
}
const server = await startWalletServer({
  masterKey: Buffer.from(hex.replace(/^0x/, ""), "hex"),
  database: databaseFromEnv(env["WALLET_SERVER_DATA_DIR"] ?? ".devstack/wallet-server", env),
  smtp: { host: env["SMTP_HOST"] ?? "127.0.0.1", port: Number(env["SMTP_PORT"] ?? 2525) },
  port: Number(env["WALLET_SERVER_PORT"] ?? 0),
  ...(env["WALLET_SERVER_PUBLIC_URL"] ? { publicUrl: env["WALLET_SERVER_PUBLIC_URL"] } : {}),
  chains: {
    evm: json("WALLET_SERVER_EVM_CHAINS", Schema.Array(Chain), []),
    solana: json("WALLET_SERVER_SOLANA", Schema.UndefinedOr(Chain), undefined)
  }
})
console.log(`wallet server on ${server.info.url} (database: ${server.info.database.kind})`)
const stop = () => void server.stop().then(() => process.exit(0))
process.on("SIGINT", stop)
process.on("SIGTERM", stop)
