import { describe, expect, it } from "vitest"
import { type AttemptContext, type Decision, decide, type Outcome } from "../../../src/services/RpcTransport/retryPolicy"

const status = (code: number): Outcome => ({ _tag: "HttpStatus", status: code })
const rpc = (code: number, message = "error"): Outcome => ({ _tag: "RpcError", code, message })

const first: AttemptContext = { retriesOnEndpoint: 0, endpointsLeft: 2 }
const last: AttemptContext = { retriesOnEndpoint: 0, endpointsLeft: 0 }

const next: Decision = { _tag: "next-endpoint" }
const stop: Decision = { _tag: "stop" }
const retryAfter = (delayMs: number): Decision => ({ _tag: "retry-same", delayMs })

describe("RPC retry policy", () => {
  it.each<[string, Outcome, Decision, Decision]>([
    // what failed, outcome, with endpoints left, on the last endpoint (first try)
    ["time-out", { _tag: "Timeout" }, next, retryAfter(150)],
    ["network failure (refused, reset, DNS)", { _tag: "NetworkFailure" }, next, retryAfter(150)],
    ["HTTP 408", status(408), next, retryAfter(150)],
    ["HTTP 429", status(429), next, retryAfter(150)],
    ["HTTP 500", status(500), next, retryAfter(150)],
    ["HTTP 502", status(502), next, retryAfter(150)],
    ["HTTP 503", status(503), next, retryAfter(150)],
    ["HTTP 599", status(599), next, retryAfter(150)],
    ["JSON-RPC -32603 internal error", rpc(-32603, "Internal error"), next, retryAfter(150)],
    ["JSON-RPC -32005 limit exceeded", rpc(-32005, "Limit exceeded"), next, retryAfter(150)],
    ["JSON-RPC -1 unknown error", rpc(-1), next, retryAfter(150)],
    ["an answer that is not JSON-RPC", { _tag: "InvalidResponse" }, next, stop],
    ["user rejected (4001)", rpc(4001, "User rejected the request."), stop, stop],
    ["user rejected over WalletConnect (5000)", rpc(5000, "User rejected."), stop, stop],
    ["transaction rejected (-32003)", rpc(-32003, "Transaction rejected"), stop, stop],
    ["revert (code 3)", rpc(3, "execution reverted: Not enough balance"), stop, stop],
    ["revert reported as -32603", rpc(-32603, "execution reverted"), stop, stop],
    ["revert reported as -32000", rpc(-32000, "VM Exception while processing transaction: revert"), stop, stop],
    ["other JSON-RPC error: invalid params", rpc(-32602, "invalid argument 0"), stop, stop],
    ["other JSON-RPC error: method not found", rpc(-32601, "the method does not exist"), stop, stop],
    ["other JSON-RPC error: nonce too low", rpc(-32000, "nonce too low"), stop, stop],
    ["HTTP 400", status(400), stop, stop],
    ["HTTP 401", status(401), stop, stop],
    ["HTTP 403", status(403), stop, stop],
    ["HTTP 404", status(404), stop, stop],
    ["aborted", { _tag: "Aborted" }, stop, stop]
  ])("%s", (_, outcome, withEndpointsLeft, onLastEndpoint) => {
    expect(decide(outcome, first)).toEqual(withEndpointsLeft)
    expect(decide(outcome, last)).toEqual(onLastEndpoint)
  })

  it.each<[number, Decision]>([
    [0, retryAfter(150)],
    [1, retryAfter(300)],
    [2, stop]
  ])("a transient failure on the last endpoint after %i retries: %j", (retriesOnEndpoint, expected) => {
    expect(decide({ _tag: "Timeout" }, { retriesOnEndpoint, endpointsLeft: 0 })).toEqual(expected)
  })

  it("moves on rather than retrying while another endpoint is left, whatever the retries", () => {
    expect(decide(status(503), { retriesOnEndpoint: 5, endpointsLeft: 1 })).toEqual(next)
  })

  it("follows its settings", () => {
    const settings = { maxRetriesOnEndpoint: 3, baseDelayMs: 10 }
    expect(decide(status(429), { retriesOnEndpoint: 2, endpointsLeft: 0 }, settings)).toEqual(retryAfter(40))
    expect(decide(status(429), { retriesOnEndpoint: 3, endpointsLeft: 0 }, settings)).toEqual(stop)
  })
})
