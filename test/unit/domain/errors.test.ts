import { describe, expect, it } from "@effect/vitest"
import { Effect, Schema } from "effect"
import { alertForServiceError, Alerts } from "../../../src/domain/alerts"
import * as E from "../../../src/domain/errors"

describe("error catalogue", () => {
  it("carries the spec's exact texts", () => {
    const cases: ReadonlyArray<readonly [Error, string]> = [
      [new E.InvalidCaip10Address({ value: "eip155:1" }), "Invalid CAIP-10 address: eip155:1"],
      [new E.InvalidCaip2NetworkId({ value: "eip155" }), "Invalid CAIP-2 network id: eip155"],
      [new E.InvalidCaipAddress(), "Invalid CAIP Address"],
      [new E.SiweSiwxConflict(), "Cannot set both `siweConfig` and `siwx` options"],
      [new E.DisconnectFailed({}), "Failed to disconnect"],
      [new E.GasPriceNetworkNotSupported(), "Network not supported for Gas Price"],
      [new E.SwapsNetworkNotSupported(), "Network not supported for Swaps"],
      [new E.SignMessageFailed({}), "Sign message failed"],
      [new E.GasEstimationFailed({}), "error estimating gas"],
      [new E.WalletCapabilitiesInvalid(), "Error parsing wallet capabilities"],
      [new E.RequestAborted(), "Request was aborted"],
      [new E.SomethingWentWrong({}), "Something went wrong"],
      [new E.HttpStatusError({ status: 503 }), "HTTP status code: 503"],
      [new E.FrameError({}), "An error occurred"],
      [new E.FrameError({ reason: "Invalid OTP" }), "Invalid OTP"],
      [new E.FrameNotSet(), "W3mFrame: iframe is not set"],
      [new E.EmailLoginDependencyFailed(), "Unable to load email login dependency"],
      [new E.AdapterForNamespaceMissing({ namespace: "bip122" }), "Adapter for namespace bip122 doesn't exist"],
      [new E.CaipNetworkOrAddressUndefined(), "CaipNetwork or CaipAddress is undefined"],
      [new E.ClientsNotSet(), "ConnectionControllerClient and NetworkControllerClient must be set"],
      [new E.NetworkNotFound({ id: "eip155:5" }), "Network with ID eip155:5 not found"],
      [new E.CannotRemoveLastNetwork(), "Cannot remove last network for a namespace"],
      [new E.ChainNotSupported(), "Chain is not supported"],
      [new E.ProviderNotFound(), "Provider not found."],
      [new E.ProgrammaticSwitchUnsupported({ connector: "Ledger" }), '"Ledger" does not support programmatic chain switching.'],
      [new E.InvalidChainId(), "Invalid chainId"],
      [new E.TransactionReverted({ hash: "0x1", reason: "Insufficient allowance" }), "Insufficient allowance"],
      [new E.TransactionReverted({ hash: "0x1" }), "unknown reason"],
      [new E.SendFormInvalid(), "Please enter a valid amount and receiver address"],
      [new E.EmailRateLimited({ seconds: 17 }), "Please try again after 17 seconds"],
      [new E.RpcMethodNotAllowed({ method: "eth_sign" }), "Requested RPC call is not allowed"]
    ]
    for (const [error, text] of cases) expect(error.message).toBe(text)
  })
  it("name errors prefer the API's description, else the fallback for the operation", () => {
    expect(new E.NameError({ operation: "resolve" }).message).toBe("Error resolving name")
    expect(new E.NameError({ operation: "suggestions" }).message).toBe("Error fetching name suggestions")
    expect(new E.NameError({ operation: "reverse" }).message).toBe("Error fetching names for address")
    expect(new E.NameError({ operation: "register", accountName: "alice" }).message).toBe("Error registering name alice")
    expect(new E.NameError({ operation: "register" }).message).toBe("Error registering name")
    expect(new E.NameError({ operation: "register", accountName: "alice" }).name).toBe("NameError")
    expect(new E.NameError({ operation: "register", description: "Name taken" }).message).toBe("Name taken")
  })
  it.effect("round-trip through the catalogue schema, keeping their message", () =>
    Effect.gen(function* () {
      const error = new E.NetworkNotFound({ id: "eip155:99" })
      const encoded = yield* Schema.encodeEffect(E.CatalogueError)(error)
      expect(encoded).toEqual({ _tag: "NetworkNotFound", id: "eip155:99" })
      const decoded = yield* Schema.decodeUnknownEffect(E.CatalogueError)(JSON.parse(JSON.stringify(encoded)))
      expect(decoded).toBeInstanceOf(E.NetworkNotFound)
      expect(decoded.message).toBe("Network with ID eip155:99 not found")
    })
  )
  it.effect("fail as yieldable typed errors", () =>
    Effect.gen(function* () {
      const program = Effect.gen(function* () {
        return yield* new E.ChainNotSupported()
      })
      const error = yield* Effect.flip(program)
      expect(error._tag).toBe("ChainNotSupported")
    })
  )
})

describe("alerts", () => {
  it("each has a distinct code and a title", () => {
    const codes = Object.values(Alerts).map((a) => a.code)
    expect(new Set(codes).size).toBe(codes.length)
    expect(Alerts.PROJECT_ID_NOT_CONFIGURED.shortMessage).toBe("Project ID Not Configured")
  })
  it("service error texts map to their alerts", () => {
    expect(alertForServiceError("Unauthorized: origin not allowed")?.id).toBe("INVALID_APP_CONFIGURATION")
    expect(alertForServiceError("Unauthorized: invalid key")?.id).toBe("INVALID_PROJECT_ID")
    expect(alertForServiceError("JWT token not yet valid")?.id).toBe("SESSION_EXPIRED")
    expect(alertForServiceError("something else")).toBeUndefined()
  })
})
