// The browser tests drive Debian's Chromium (no browser download exists offline): install it with apt when missing.
import { execSync } from "node:child_process"
import { existsSync } from "node:fs"

const CHROMIUM = "/usr/bin/chromium"
if (existsSync(CHROMIUM)) process.exit(0)
const root = typeof process.getuid === "function" && process.getuid() === 0
const sudo = root ? "" : "sudo "
console.log(`Chromium is missing: installing Debian's chromium package (${sudo}apt-get)…`)
try {
  execSync(`${sudo}apt-get update -qq && ${sudo}apt-get install -y -qq chromium`, {
    stdio: "inherit",
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" }
  })
} catch {
  console.error(`Could not install chromium with apt. Install it by hand (${sudo}apt-get install chromium), then run npm test again.`)
  process.exit(1)
}
if (!existsSync(CHROMIUM)) {
  console.error(`apt installed chromium but ${CHROMIUM} is not there.`)
  process.exit(1)
}
