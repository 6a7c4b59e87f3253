/**
 * Colours as a page paints them, for the browser tests' contrast checks (WCAG 2.x): any colour the browser computes
 * (`rgb(…)`, a relative colour's `color(xyz-d65 …)`) is drawn on a canvas in the page or frame and read back as sRGB;
 * a control's fill and text as seen through its opacity.
 */
import type { Frame, Locator, Page } from "playwright-core"

/** An sRGB colour, each channel 0 to 255. */
export type Rgb = readonly [number, number, number]

/** Each of `colours` (CSS colours) as `target` paints it. */
export const painted = (target: Page | Frame, colours: ReadonlyArray<string>): Promise<Array<Rgb>> =>
  target.evaluate((list) => {
    const context = document.createElement("canvas").getContext("2d", { willReadFrequently: true })
    if (context === null) throw new Error("no canvas to read colours with")
    return list.map((colour): [number, number, number] => {
      context.clearRect(0, 0, 1, 1)
      context.fillStyle = colour
      context.fillRect(0, 0, 1, 1)
      const [r = 0, g = 0, b = 0] = context.getImageData(0, 0, 1, 1).data
      return [r, g, b]
    })
  }, [...colours])

/**
 * The fill of `control` and its text, as the page paints them: a control made see-through (its opacity) shows what is
 * behind it, the nearest box with a fill of its own (else the white canvas), through both.
 */
export const fillAndText = async (control: Locator): Promise<{ readonly fill: Rgb; readonly text: Rgb }> => {
  const { colours, opacity } = await control.evaluate((element) => {
    const style = getComputedStyle(element)
    let behind = "rgb(255, 255, 255)"
    for (let box = element.parentElement; box !== null; box = box.parentElement) {
      const fill = getComputedStyle(box).backgroundColor
      if (fill !== "rgba(0, 0, 0, 0)") {
        behind = fill
        break
      }
    }
    return { colours: [style.backgroundColor, style.color, behind], opacity: Number(style.opacity) }
  })
  const [fill = [0, 0, 0], text = [0, 0, 0], [r, g, b] = [255, 255, 255]] = await painted(control.page(), colours)
  const through = ([cr, cg, cb]: Rgb): Rgb => [
    opacity * cr + (1 - opacity) * r,
    opacity * cg + (1 - opacity) * g,
    opacity * cb + (1 - opacity) * b
  ]
  return { fill: through(fill), text: through(text) }
}

// A channel in linear light, 0 to 1.
const linear = (c: number): number => {
  const s = c / 255
  return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4
}

/** The relative luminance of `rgb`. */
export const luminance = ([r, g, b]: Rgb): number => 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b)

/** The contrast ratio of two colours, 1 to 21. */
export const contrast = (a: Rgb, b: Rgb): number => {
  const [la, lb] = [luminance(a), luminance(b)]
  return (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05)
}

/**
 * The hue of `rgb` in linear light, in degrees (0 to 360): darkening a colour (scaling it) or lightening it towards
 * white in linear light keeps it, where sRGB's HSL hue drifts.
 */
export const linearHue = (rgb: Rgb): number => {
  const [r, g, b] = rgb.map(linear) as [number, number, number]
  const max = Math.max(r, g, b)
  const range = max - Math.min(r, g, b)
  if (range === 0) return 0
  const h = max === r ? ((g - b) / range) % 6 : max === g ? (b - r) / range + 2 : (r - g) / range + 4
  return (h * 60 + 360) % 360
}
