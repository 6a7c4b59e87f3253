// @vitest-environment happy-dom
/**
 * The modal's views over the real embedded wallet service and the real AUTH connector on a scripted frame (not the
 * recording fake of `embeddedHost`): what the visitor reads when the wallet server refuses for now, and that only the
 * mail's own limit holds back the email login.
 */
import { act, cleanup, fireEvent, within } from "@testing-library/react"
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { localChainA } from "../../../../src/domain/networks"
import { decodeOptionsSync } from "../../../../src/domain/Options"
import { makeWalletRuntime, type WalletRuntime } from "../../../../src/runtime"
import { EmbeddedWallet } from "../../../../src/services/Embedded/EmbeddedWallet"
import { Modal } from "../../../../src/services/Modal"
import { embeddedCore, makeScriptedFrame, type ScriptedFrame } from "../../services/embedded/scriptedFrame"
import { findView, renderHost } from "./support"

const TOO_MANY = "Too many attempts from your network. Please try again after 40 seconds."
const hostOptions = { projectId: "test", networks: [localChainA], features: { email: true } }

let runtime: WalletRuntime | undefined
afterEach(async () => {
  cleanup()
  await runtime?.dispose()
  runtime = undefined
})

/** A host page whose embedded wallet talks to a scripted frame, changed by `script`. */
const renderWithFrame = (script: (frame: ScriptedFrame) => void) => {
  const frame = Effect.runSync(makeScriptedFrame)
  script(frame)
  const options = decodeOptionsSync(hostOptions)
  runtime = makeWalletRuntime(hostOptions, { layer: () => embeddedCore(options, frame) })
  renderHost(runtime)
  return { frame, runtime }
}

describe("a refusal for now", () => {
  it("a network's too many tries on a Farcaster start is said in the visitor's words, and the email login still sends a code at once", async () => {
    const { frame, runtime } = renderWithFrame((frame) => {
      frame.answer("GET_FARCASTER_URI", () => ({ error: TOO_MANY, code: "rate_limited", retryAfterSeconds: 40 }))
    })
    await act(() => runtime.run(Effect.flatMap(Modal, (modal) => modal.open({ view: "Connect" }))))
    await findView("Connect")
    await act(() => runtime.run(Effect.flatMap(EmbeddedWallet, (wallet) => wallet.connectFarcaster)))
    const farcaster = await findView("ConnectingFarcaster")
    await within(farcaster).findByText(TOO_MANY)
    expect(within(farcaster).getByRole("button", { name: "Try again" })).toBeTruthy()

    fireEvent.click(within(farcaster).getByRole("button", { name: "Back" }))
    const connect = await findView("Connect")
    fireEvent.change(await within(connect).findByRole("textbox", { name: "Continue with email" }), { target: { value: "ada@example.com" } })
    fireEvent.submit(within(connect).getByRole("form", { name: "Continue with email" }))
    const code = await findView("EmailVerifyOtp")
    expect(frame.names()).toContain("CONNECT_EMAIL")
    expect(within(code).queryByText(/Please try again after/)).toBeNull()
  })
})
