// The Redis suites (relay nodes over Redis, test/support/redis.ts) start throw-away servers of Debian's redis-server:
// install it with apt when it is missing. WR_REDIS_SERVER names another redis-server binary (Redis 7 or later).
import { execSync } from "node:child_process"
import { existsSync } from "node:fs"

const BINARY = "/usr/bin/redis-server"
const given = process.env.WR_REDIS_SERVER
if (given !== undefined && given !== "") {
  if (existsSync(given)) process.exit(0)
  console.error(`WR_REDIS_SERVER=${given} does not exist: point it at a redis-server binary, or unset it.`)
  process.exit(1)
}
if (existsSync(BINARY)) process.exit(0)
const root = typeof process.getuid === "function" && process.getuid() === 0
const sudo = root ? "" : "sudo "
console.log(`Redis's server is missing (no ${BINARY}): installing Debian's redis-server package (${sudo}apt-get)…`)
try {
  execSync(`${sudo}apt-get update -qq && ${sudo}apt-get install -y -qq --no-install-recommends redis-server`, {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" }
  })
} catch {
  console.error(`Could not install redis-server with apt. Install it by hand (${sudo}apt-get install redis-server), then run the tests again.`)
  process.exit(1)
}
if (!existsSync(BINARY)) {
  console.error(`apt installed redis-server but ${BINARY} is not there.`)
  process.exit(1)
}
