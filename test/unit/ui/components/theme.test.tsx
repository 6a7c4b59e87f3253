// @vitest-environment happy-dom
import { act, cleanup, screen, waitFor } from "@testing-library/react"
import { Effect } from "effect"
import { afterEach, describe, expect, it } from "vitest"
import { THEME_VARIABLE_NAMES } from "../../../../src/domain/Options"
import type { WalletRuntime } from "../../../../src/runtime"
import { Modal } from "../../../../src/services/Modal"
import { useTheme, type UseTheme } from "../../../../src/ui/react/hooks"
import { vars } from "../../../../src/ui/theme/contract.css"
import { root } from "../../../../src/ui/theme/contract.css"
import { darkTheme, lightTheme } from "../../../../src/ui/theme/theme.css"
import { findView, renderHost, runtimeFor, testWallet } from "./support"

let runtime: WalletRuntime | undefined

afterEach(async () => {
  cleanup()
  await runtime?.dispose()
  runtime = undefined
})

const contractNames = (contract: unknown): ReadonlyArray<string> =>
  typeof contract === "string"
    ? [contract.slice("var(".length, -1)]
    : Object.values(contract as Record<string, unknown>).flatMap(contractNames)

const openModal = async (options: Record<string, unknown>) => {
  runtime = runtimeFor(testWallet(), { options })
  renderHost(runtime)
  await act(() => runtime!.run(Effect.flatMap(Modal, (m) => m.open())))
  const dialog = await findView("Connect")
  return dialog.closest<HTMLElement>("[data-wallet-runtime]")!
}

describe("theme", () => {
  it("every variable a host may set is a variable of the theme contract", () => {
    const names = contractNames(vars)
    expect(names.every((name) => name.startsWith("--wr-"))).toBe(true)
    for (const name of THEME_VARIABLE_NAMES) expect(names).toContain(name)
    expect(vars.zIndex).toBe("var(--wr-z-index)")
  })

  it("the modal and the buttons carry the dark theme when the host asks for it", async () => {
    const modal = await openModal({ themeMode: "dark" })
    expect(modal.classList.contains(root)).toBe(true)
    expect(modal.classList.contains(darkTheme)).toBe(true)
    expect(modal.classList.contains(lightTheme)).toBe(false)
    expect(modal.getAttribute("data-wr-theme")).toBe("dark")
    const button = screen.getByRole("button", { name: "Connect wallet", hidden: true })
    expect(button.classList.contains(darkTheme)).toBe(true)
  })

  it("light theme when the host asks for it, and the system's choice (light here) when it does not", async () => {
    const modal = await openModal({ themeMode: "light" })
    expect(modal.classList.contains(lightTheme)).toBe(true)
    cleanup()
    await runtime?.dispose()
    const unset = await openModal({})
    expect(unset.getAttribute("data-wr-theme")).toBe("light")
  })

  it("the host's themeVariables override the theme on the modal and the buttons", async () => {
    const modal = await openModal({ themeVariables: { "--wr-accent": "#ff0066", "--wr-z-index": 5000, "--wr-font-family": "Georgia, serif" } })
    expect(modal.style.getPropertyValue("--wr-accent")).toBe("#ff0066")
    expect(modal.style.getPropertyValue("--wr-z-index")).toBe("5000")
    expect(modal.style.getPropertyValue("--wr-font-family")).toBe("Georgia, serif")
    const button = screen.getByRole("button", { name: "Connect wallet", hidden: true })
    expect(button.style.getPropertyValue("--wr-accent")).toBe("#ff0066")
  })

  it("a host's theme toggle (useTheme) re-themes the open modal and the buttons at once; a bad variable changes nothing", async () => {
    let theme: UseTheme | undefined
    const Toggle = () => {
      theme = useTheme()
      return null
    }
    runtime = runtimeFor(testWallet(), { options: { themeMode: "light" } })
    renderHost(runtime, <Toggle />)
    await act(() => runtime!.run(Effect.flatMap(Modal, (m) => m.open())))
    const modal = (await findView("Connect")).closest<HTMLElement>("[data-wallet-runtime]")!
    await waitFor(() => expect(theme?.requestedThemeMode).toBe("light"))

    await act(() => theme!.setThemeMode("dark"))
    expect(modal.getAttribute("data-wr-theme")).toBe("dark")
    expect(modal.classList.contains(darkTheme)).toBe(true)
    expect(screen.getByRole("button", { name: "Connect wallet", hidden: true }).classList.contains(darkTheme)).toBe(true)
    expect(theme!.themeMode).toBe("dark")

    await act(() => theme!.setThemeVariables({ "--wr-accent": "#00aa55" }))
    expect(modal.style.getPropertyValue("--wr-accent")).toBe("#00aa55")
    const refused = await act(() => theme!.setThemeVariables({ "--not-ours": "red" } as never).then(() => undefined, (error: unknown) => error))
    expect((refused as { readonly _tag?: string })._tag).toBe("InvalidOptions")
    expect(modal.style.getPropertyValue("--wr-accent")).toBe("#00aa55")

    // No mode: the visitor's system preference (light here) again.
    await act(() => theme!.setThemeMode(undefined))
    expect(modal.getAttribute("data-wr-theme")).toBe("light")
    expect(theme!.requestedThemeMode).toBeUndefined()
  })
})
