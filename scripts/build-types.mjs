// Emits the .d.ts files of the library next to Vite's output.
import { execFileSync } from "node:child_process"
execFileSync("npx", ["tsc", "-p", "tsconfig.build.json"], { stdio: "inherit" })
