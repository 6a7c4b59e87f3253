/**
 * A host page whose runtime has an embedded (email) wallet over a state the test sets: the views render that state,
 * and every call they make to the service is recorded (method and argument), nothing else happens.
 */
import { act, cleanup } from "@testing-library/react"
import { Effect, Layer, SubscriptionRef } from "effect"
import { localChainA, localChainB } from "../../../../src/domain/networks"
import { testLayer } from "../../../../src/layers/Test"
import { makeWalletRuntime, type WalletRuntime } from "../../../../src/runtime"
import {
  type EmbeddedService,
  type EmbeddedState,
  EmbeddedWallet,
  initialEmbeddedState
} from "../../../../src/services/Embedded/EmbeddedWallet"
import { type FakeWallet, makeFakeChainAdapter } from "../../../../src/services/fakes/FakeWallet"
import { type Route, Modal } from "../../../../src/services/Modal"
import { afterEach } from "vitest"
import { findView, renderHost } from "./support"

/** The name of one of the service's methods. */
export type EmbeddedMethod = Exclude<keyof EmbeddedService, "state">

/** A call the views made to the embedded wallet. */
export interface EmbeddedCall {
  readonly method: EmbeddedMethod
  readonly argument?: string | undefined
}

/** A rendered host with an embedded wallet. */
export interface EmbeddedHost {
  readonly runtime: WalletRuntime
  /** The calls so far, in order. */
  readonly calls: Array<EmbeddedCall>
  /** Sets the service's state, as the real service would (the views follow it). */
  readonly setState: (update: (state: EmbeddedState) => EmbeddedState) => Promise<void>
  /** Opens the modal on a view and waits for it. */
  readonly open: (route: Route) => Promise<HTMLElement>
}

/** An embedded wallet over `state` that does nothing but note each call (method and argument) in `calls`. */
const recordingLayer = (state: EmbeddedState, calls: Array<EmbeddedCall>): Layer.Layer<EmbeddedWallet> =>
  Layer.effect(EmbeddedWallet)(
    Effect.map(SubscriptionRef.make(state), (ref): EmbeddedService => {
      const call = (method: EmbeddedMethod, argument?: string) => Effect.sync(() => void calls.push({ method, argument }))
      return {
        state: ref,
        submitEmail: (email) => call("submitEmail", email),
        resend: call("resend"),
        waitForDevice: call("waitForDevice"),
        submitOtp: (otp) => call("submitOtp", otp),
        cancelLogin: call("cancelLogin"),
        startEmailUpdate: (newEmail) => call("startEmailUpdate", newEmail),
        submitEmailUpdateOtp: (otp) => call("submitEmailUpdateOtp", otp),
        cancelEmailUpdate: call("cancelEmailUpdate"),
        connectSocial: (provider) => call("connectSocial", provider),
        cancelSocial: call("cancelSocial"),
        connectFarcaster: call("connectFarcaster"),
        cancelFarcaster: call("cancelFarcaster"),
        connectPasskey: (mode) => call("connectPasskey", mode),
        cancelPasskey: call("cancelPasskey"),
        approve: call("approve"),
        reject: call("reject"),
        setPreferredAccount: (type) => call("setPreferredAccount", type),
        openSecureView: (kind) => call("openSecureView", kind),
        showSecureView: () => call("showSecureView"),
        hideSecureView: call("hideSecureView"),
        refreshRecovery: call("refreshRecovery")
      }
    })
  )

/** The state of an enabled email login, changed by `over`. */
export const embeddedState = (over: Partial<EmbeddedState> = {}): EmbeddedState => ({ ...initialEmbeddedState(true), ...over })

/** Renders a host page over `wallets` whose embedded wallet starts at `state`. */
export const renderEmbeddedHost = (
  wallets: ReadonlyArray<FakeWallet>,
  state: EmbeddedState,
  options: Record<string, unknown> = {}
): EmbeddedHost => {
  const calls: Array<EmbeddedCall> = []
  const runtime = makeWalletRuntime(
    { projectId: "test", networks: [localChainA, localChainB], ...options },
    {
      layer: (decoded, alerts) =>
        Layer.merge(
          // The EVM family is configured even without a wallet on the page (else the modal opens on WalletConnect).
          testLayer(decoded, { wallets, alerts, adapters: [makeFakeChainAdapter("eip155")] }),
          recordingLayer(state, calls)
        )
    }
  )
  renderHost(runtime)
  return {
    runtime,
    calls,
    setState: (update) =>
      act(() => runtime.run(Effect.flatMap(EmbeddedWallet, (embedded) => SubscriptionRef.update(embedded.state, update)))),
    open: async (route) => {
      await act(() => runtime.run(Effect.flatMap(Modal, (modal) => modal.open(route))))
      return findView(route.view)
    }
  }
}

/**
 * `renderEmbeddedHost` for a test file: each test's page is unmounted and its runtime disposed after the test.
 * Call it once at the top of the file.
 */
export const embeddedHostPerTest = (): typeof renderEmbeddedHost => {
  let runtime: WalletRuntime | undefined
  afterEach(async () => {
    cleanup()
    await runtime?.dispose()
    runtime = undefined
  })
  return (...args) => {
    const rendered = renderEmbeddedHost(...args)
    runtime = rendered.runtime
    return rendered
  }
}
