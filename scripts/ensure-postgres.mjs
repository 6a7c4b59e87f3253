// The Postgres suites start throw-away clusters of Debian's PostgreSQL server (test/support/postgres.ts): install its
// binaries with apt when they are missing. WR_POSTGRES_BINDIR names another folder holding `postgres` and `initdb`.
import { execSync } from "node:child_process"
import { existsSync, readdirSync } from "node:fs"
import { join } from "node:path"

const ROOT = "/usr/lib/postgresql"
const hasServer = (bin) => existsSync(join(bin, "postgres")) && existsSync(join(bin, "initdb"))
const installed = () => existsSync(ROOT) && readdirSync(ROOT).some((version) => hasServer(join(ROOT, version, "bin")))

const given = process.env.WR_POSTGRES_BINDIR
if (given !== undefined && given !== "") {
  if (hasServer(given)) process.exit(0)
  console.error(`WR_POSTGRES_BINDIR=${given} holds no postgres and initdb: point it at a PostgreSQL bin folder, or unset it.`)
  process.exit(1)
}
if (installed()) process.exit(0)
const root = typeof process.getuid === "function" && process.getuid() === 0
const sudo = root ? "" : "sudo "
console.log(`PostgreSQL's server is missing (no ${ROOT}/*/bin/postgres): installing Debian's postgresql package (${sudo}apt-get)…`)
try {
  execSync(`${sudo}apt-get update -qq && ${sudo}apt-get install -y -qq --no-install-recommends postgresql`, {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" }
  })
} catch {
  console.error(
    `Could not install postgresql with apt. Install it by hand (${sudo}apt-get install postgresql), then run the tests again.`
  )
  process.exit(1)
}
if (!installed()) {
  console.error(`apt installed postgresql but no ${ROOT}/*/bin/postgres and initdb are there.`)
  process.exit(1)
}
