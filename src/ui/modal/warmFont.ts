/**
 * Lays out a few words in the modal's own font, hidden, then removes them. The first text a page draws in a font
 * family it has not used yet costs the browser a font lookup in the middle of that layout; done while the page is
 * idle, the first click's layout does not pay it.
 */
import type { ThemeRootProps } from "../theme/useTheme"

// The weights the modal draws with: body text, rows and buttons, titles.
const WEIGHTS = [400, 600, 700] as const

/** Warms the font of a themed root (its classes and the host's variables, so a host's own font is the one warmed). */
export const warmFont = (theme: Pick<ThemeRootProps, "className" | "style">): void => {
  if (typeof document === "undefined" || document.body === null) return
  const element = document.createElement("div")
  element.className = theme.className
  for (const [name, value] of Object.entries(theme.style)) element.style.setProperty(name, String(value))
  element.setAttribute("aria-hidden", "true")
  element.style.position = "absolute"
  element.style.left = "-10000px"
  element.style.top = "0"
  element.style.visibility = "hidden"
  element.style.pointerEvents = "none"
  for (const weight of WEIGHTS) {
    const words = document.createElement("span")
    words.style.fontWeight = String(weight)
    words.textContent = "Connect a wallet"
    element.appendChild(words)
  }
  document.body.appendChild(element)
  element.getBoundingClientRect()
  element.remove()
}
