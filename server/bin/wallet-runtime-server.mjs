#!/usr/bin/env node
// The server command: loads the TypeScript sources through tsx's loader (no build step), then runs src/main.ts.
import { register } from "tsx/esm/api"

register()
await import("../src/main.ts")
