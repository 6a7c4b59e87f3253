/**
 * The theme variables a host may override and the CSS values each takes: colours, lengths, a font list, numbers.
 * A value is written into a style attribute (on the server, into the page's HTML), so each grammar leaves out
 * everything that could end the declaration or the attribute (`;`, `{`, `}`, `<`, `>`, `\`, quotes outside a
 * font name) or fetch something (`url(…)`, `image-set(…)`). Plain functions, no Effect: the React shell uses them.
 */

/** What each theme variable holds. */
export const THEME_VARIABLE_KINDS = {
  "--wr-font-family": "fontList",
  "--wr-font-size-master": "length",
  "--wr-border-radius-master": "length",
  "--wr-accent": "colour",
  "--wr-color-mix": "colour",
  "--wr-color-mix-strength": "percentage",
  "--wr-z-index": "integer",
  "--wr-qr-color": "colour"
} as const

/** A theme variable a host may override. */
export type ThemeVariableName = keyof typeof THEME_VARIABLE_KINDS

/** The kinds of value a theme variable takes. */
export type ThemeValueKind = (typeof THEME_VARIABLE_KINDS)[ThemeVariableName]

/** True for a theme variable a host may override. */
export const isThemeVariableName = (name: string): name is ThemeVariableName => Object.hasOwn(THEME_VARIABLE_KINDS, name)

// The longest value of each kind: a font list of a dozen families, any colour or length.
const MAX_VALUE_LENGTH = 256

const NUMBER = String.raw`[+-]?(?:\d+(?:\.\d+)?|\.\d+)`
const UNITS = "px|rem|em|ex|ch|lh|rlh|vw|vh|vmin|vmax|svw|svh|lvw|lvh|dvw|dvh|cqw|cqh|pt|pc|cm|mm|q|in|%"
const LENGTH = new RegExp(`^(?:0|${NUMBER}(?:${UNITS}))$`, "i")
const HEX_COLOUR = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i
// A colour keyword (`red`, `transparent`); a word of letters cannot end a declaration.
const NAMED_COLOUR = /^[a-z]{3,24}$/i
// rgb(), hsl(), oklch(), color(display-p3 …): numbers, percentages, angles and keywords; no nested function, so
// nothing inside can open a url() or close the declaration.
const COLOUR_FUNCTION = /^(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\([-+.,/%\s\w]*\)$/i
// A family: a quoted name (no quote, backslash, angle bracket or brace inside) or words of letters, digits and `-`.
const FAMILY = String.raw`(?:"[^"'\\<>{};\n\r]+"|'[^"'\\<>{};\n\r]+'|-?[\p{L}_][\p{L}\p{N}_-]*(?:\s+-?[\p{L}_][\p{L}\p{N}_-]*)*)`
const FONT_LIST = new RegExp(String.raw`^\s*${FAMILY}(?:\s*,\s*${FAMILY})*\s*$`, "u")
const DECIMAL = new RegExp(`^${NUMBER}$`)
const INTEGER = /^[+-]?\d{1,10}$/

const EXPECTED: { readonly [K in ThemeValueKind]: string } = {
  fontList: 'a font list, such as Inter, "Segoe UI", sans-serif',
  length: "a length, such as 4px or 0.5rem",
  colour: "a colour, such as #3358d4, rgb(51 88 212) or royalblue",
  percentage: "a number from 0 to 100",
  integer: "a whole number (a z-index)"
}

const asNumber = (value: string | number): number | undefined =>
  typeof value === "number" ? value : DECIMAL.test(value.trim()) ? Number(value) : undefined

const ACCEPTS: { readonly [K in ThemeValueKind]: (value: string | number) => boolean } = {
  fontList: (value) => typeof value === "string" && FONT_LIST.test(value),
  length: (value) => (typeof value === "number" ? value === 0 : LENGTH.test(value.trim())),
  colour: (value) =>
    typeof value === "string" && [HEX_COLOUR, NAMED_COLOUR, COLOUR_FUNCTION].some((grammar) => grammar.test(value.trim())),
  percentage: (value) => {
    const number = asNumber(value)
    return number !== undefined && number >= 0 && number <= 100
  },
  integer: (value) =>
    typeof value === "number"
      ? Number.isInteger(value) && Math.abs(value) <= 2_147_483_647
      : INTEGER.test(value.trim()) && Math.abs(Number(value)) <= 2_147_483_647
}

/**
 * What is wrong with `value` for the theme variable `name`, or `undefined` when the variable takes it. Numbers are
 * written as they are (a custom property takes no unit), so a length given as a number must be 0.
 * @example themeValueIssue("--wr-accent", "red; background:url(//x)") // "Expected a colour, such as #3358d4, …"
 */
export const themeValueIssue = (name: ThemeVariableName, value: unknown): string | undefined => {
  const kind = THEME_VARIABLE_KINDS[name]
  const accepted =
    ((typeof value === "string" && value.length <= MAX_VALUE_LENGTH) || (typeof value === "number" && Number.isFinite(value))) &&
    ACCEPTS[kind](value)
  return accepted ? undefined : `Expected ${EXPECTED[kind]}, got ${describe(value)}`
}

// The refused value is named in the error, cut short and quoted, so a long or hostile one stays readable.
const describe = (value: unknown): string => {
  if (typeof value === "number") return String(value)
  if (typeof value !== "string") return typeof value
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)
}
