/**
 * The configuration reference of the README's guide, generated from {@link ServerConfig}'s settings: one Markdown row
 * per setting (variable, file key, type, default, what it is). `server/scripts/config-reference.ts --write` puts it
 * between the README's markers; a unit test fails when the README's copy is not the generated one.
 */
import { type Setting, serverSettings } from "./schema"

/** The line before the generated table in the README. */
export const REFERENCE_START = "<!-- config-reference: generated from server/src/config/schema.ts by `npx tsx server/scripts/config-reference.ts --write` -->"
/** The line after it. */
export const REFERENCE_END = "<!-- /config-reference -->"

const cell = (text: string) => text.replace(/\|/g, "\\|").replace(/\n/g, " ")

const defaultOf = (setting: Setting): string =>
  setting.doc.default !== undefined ? `\`${cell(setting.doc.default)}\`` : setting.optional ? "—" : "**required**"

/** The reference table, in Markdown. */
export const configReference = (settings: ReadonlyArray<Setting> = serverSettings): string =>
  [
    "| Variable | File key | Type | Default | What it is |",
    "| --- | --- | --- | --- | --- |",
    ...settings.map(
      (setting) =>
        `| \`${setting.env}\` | \`${setting.path.join(".")}\` | ${cell(setting.doc.type)}${setting.doc.secret === true ? ", secret" : ""} | ${defaultOf(setting)} | ${cell(setting.doc.description)} |`
    )
  ].join("\n")

/** The generated part of `readme` (between the markers), or `undefined` when the markers are missing. */
export const referenceSectionOf = (readme: string): string | undefined => {
  const start = readme.indexOf(REFERENCE_START)
  const end = readme.indexOf(REFERENCE_END)
  if (start < 0 || end < start) return undefined
  return readme.slice(start + REFERENCE_START.length, end).trim()
}

/** `readme` with the generated part replaced by `table`; throws when the markers are missing. */
export const withReferenceSection = (readme: string, table: string): string => {
  const start = readme.indexOf(REFERENCE_START)
  const end = readme.indexOf(REFERENCE_END)
  if (start < 0 || end < start) throw new Error(`The README has no ${REFERENCE_START} … ${REFERENCE_END} markers`)
  return `${readme.slice(0, start + REFERENCE_START.length)}\n\n${table}\n\n${readme.slice(end)}`
}
