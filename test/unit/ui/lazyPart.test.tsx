// @vitest-environment happy-dom
/**
 * A part of the UI fetched on first use: nothing is fetched while it waits, one fetch however often it renders, shown
 * the moment its code arrives, and a failed fetch tried again on the next render.
 */
import { act, cleanup, render, screen } from "@testing-library/react"
import type { ReactNode } from "react"
import { afterEach, describe, expect, it } from "vitest"
import { lazyPart, useLazyPart } from "../../../src/ui/components/lazyPart"

afterEach(cleanup)

/** An importer whose answer the test gives, counting its calls. */
const controlled = () => {
  const calls: Array<{ resolve: (value: string) => void; reject: (error: Error) => void }> = []
  const importer = () => new Promise<string>((resolve, reject) => calls.push({ resolve, reject }))
  return { calls, importer }
}

function Shows(props: { readonly part: ReturnType<typeof lazyPart<string>>; readonly wait?: boolean }): ReactNode {
  const text = useLazyPart(props.part, props.wait)
  return <p>{text ?? "held"}</p>
}

describe("lazyPart", () => {
  it("waits without fetching, then fetches once and shows the part when it arrives", async () => {
    const { calls, importer } = controlled()
    const part = lazyPart(importer)
    const view = render(<Shows part={part} wait />)
    expect(screen.getByText("held")).toBeTruthy()
    expect(calls).toHaveLength(0)

    view.rerender(<Shows part={part} />)
    view.rerender(<Shows part={part} />)
    expect(calls).toHaveLength(1)
    expect(screen.getByText("held")).toBeTruthy()
    await act(async () => calls[0]!.resolve("the part"))
    expect(screen.getByText("the part")).toBeTruthy()
    expect(part.loaded()).toBe("the part")
    // Once there, a new render shows it at once and asks for nothing.
    cleanup()
    render(<Shows part={part} />)
    expect(screen.getByText("the part")).toBeTruthy()
    expect(calls).toHaveLength(1)
  })

  it("a failed fetch leaves the place held, and a later render tries again", async () => {
    const { calls, importer } = controlled()
    const part = lazyPart(importer)
    render(<Shows part={part} />)
    await act(async () => calls[0]!.reject(new Error("offline")))
    expect(screen.getByText("held")).toBeTruthy()
    expect(part.loaded()).toBeUndefined()

    cleanup()
    render(<Shows part={part} />)
    expect(calls).toHaveLength(2)
    await act(async () => calls[1]!.resolve("back online"))
    expect(screen.getByText("back online")).toBeTruthy()
  })
})
