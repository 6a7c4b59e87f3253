// @vitest-environment happy-dom
import { cleanup, render, screen } from "@testing-library/react"
import { Effect } from "effect"
import * as Atom from "effect/reactivity/Atom"
import * as AtomRegistry from "effect/reactivity/AtomRegistry"
import { afterEach, describe, expect, it, vi } from "vitest"
import { RegistryProvider, useAtomValue } from "../../../src/ui/atom-react/hooks"

afterEach(cleanup)

describe("atoms changed while another component renders", () => {
  it("re-render the reader without React's update-while-rendering warning", async () => {
    const message = Atom.make("none")
    // Reading this atom runs an effect that, failing, writes another atom (as a failed balance shows a snackbar).
    const failing = Atom.make((get) => {
      get.set(message, "Token Balance Unavailable")
      return Effect.fail("offline")
    })
    function Reader() {
      return <p data-testid="message">{useAtomValue(message)}</p>
    }
    function Failing() {
      useAtomValue(failing)
      return null
    }
    const errors = vi.spyOn(console, "error").mockImplementation(() => undefined)
    const page = (withFailing: boolean) => (
      <RegistryProvider registry={registry}>
        <Reader />
        {withFailing && <Failing />}
      </RegistryProvider>
    )
    const registry = AtomRegistry.make()
    const { rerender } = render(page(false))
    expect(await screen.findByText("none")).toBeTruthy()
    // The reader is subscribed now; the failing reader mounts later, as a view opening in the modal does.
    rerender(page(true))
    expect(await screen.findByText("Token Balance Unavailable")).toBeTruthy()
    const warnings = errors.mock.calls.map((call) => String(call[0])).filter((text) => text.includes("while rendering a different component"))
    errors.mockRestore()
    expect(warnings).toEqual([])
  })
})
