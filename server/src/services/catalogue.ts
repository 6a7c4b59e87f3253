/**
 * The wallet catalogue a server serves (spec 7.3's `/getWallets`): by default the library's bundled list (well-known
 * wallets under their public catalogue ids, icons drawn from their initials as `data:` images), or the entries of a
 * JSON file the host writes. Either answers the same queries (include, exclude, chains, badge, search, pages).
 */
import { Data, Effect, FileSystem, Result, Schema, SchemaIssue } from "effect"
import type { GetWalletsQuery, GetWalletsResponse } from "../../../src/domain/Api"
import { WALLETS_DEFAULT_ENTRIES } from "../../../src/domain/Api"
import { WalletCatalogEntry } from "../../../src/domain/Wallet"
import { fallbackCatalogue } from "../../../src/services/walletCatalogFallback"

/** A catalogue entry as the server keeps it: the public entry plus the facts used only for filtering. */
export interface CatalogueWallet {
  readonly entry: WalletCatalogEntry
  /** Listed by `badge_type=certified`. */
  readonly certified: boolean
}

/** The library's bundled wallet list (`fallbackCatalogue`), none of it marked certified: the default catalogue. */
export const bundledCatalogue = (): ReadonlyArray<CatalogueWallet> => fallbackCatalogue().map((entry) => ({ entry, certified: false }))

/** Answers a `/getWallets` query: filters (include, exclude, chains, badge, search), then the 1-based page. */
export const queryCatalogue = (catalogue: ReadonlyArray<CatalogueWallet>, query: GetWalletsQuery): GetWalletsResponse => {
  const search = query.search?.trim().toLowerCase() ?? ""
  const include = query.include === undefined ? undefined : new Set(query.include)
  const exclude = new Set(query.exclude ?? [])
  const chains = query.chains === undefined ? undefined : new Set<string>(query.chains)
  const matching = catalogue.filter(
    ({ entry, certified }) =>
      (include === undefined || include.has(entry.id)) &&
      !exclude.has(entry.id) &&
      (chains === undefined || chains.size === 0 || entry.chains.some((chain) => chains.has(chain))) &&
      (query.badge_type !== "certified" || certified) &&
      (search === "" || entry.name.toLowerCase().includes(search))
  )
  const entries = query.entries ?? WALLETS_DEFAULT_ENTRIES
  const start = ((query.page ?? 1) - 1) * entries
  return { data: matching.slice(start, start + entries).map(({ entry }) => entry), count: matching.length }
}

// -- a catalogue file ----------------------------------------------------------------------------------------------

/** The catalogue file cannot be used: the message names the setting, the file and each bad entry. */
export class CatalogueFileError extends Data.TaggedError("CatalogueFileError")<{ readonly message: string }> {}

/** One entry of a catalogue file: a catalogue entry (spec 7.3's fields), and whether `badge_type=certified` lists it. */
const FileEntry = Schema.Struct({ ...WalletCatalogEntry.fields, certified: Schema.optionalKey(Schema.Boolean) })

const decodeEntry = Schema.decodeUnknownResult(FileEntry, { onExcessProperty: "error", errors: "all" })
const formatIssues = SchemaIssue.makeFormatterStandardSchemaV1()

// Fields the entry's Schema empties when their value is unsafe to show or follow: in a host's own file that is a mistake.
const checkedLinks = ["homepage", "mobile_link", "desktop_link", "webapp_link", "app_store", "play_store"] as const

const fieldOf = (path: ReadonlyArray<PropertyKey>) => path.map((segment) => (typeof segment === "number" ? `[${segment}]` : `.${String(segment)}`)).join("").replace(/^\./, "")

/** What is wrong with one entry of the file, as sentences naming its fields. */
const entryProblems = (input: unknown): { readonly entry?: CatalogueWallet; readonly problems: ReadonlyArray<string> } => {
  const decoded = decodeEntry(input)
  if (Result.isFailure(decoded)) {
    return {
      problems: formatIssues(decoded.failure.issue).issues.map(({ path, message }) => {
        const field = fieldOf((path ?? []).map((segment) => (typeof segment === "object" ? segment.key : segment)))
        if (message === "Missing key") return `${field} is missing`
        if (message === "Expected no excess property") return `${field} is not a field of a catalogue entry`
        return `${field === "" ? "" : `${field}: `}${message.charAt(0).toLowerCase()}${message.slice(1)}`
      })
    }
  }
  const { certified, ...entry } = decoded.success
  const given = input as Record<string, unknown>
  const dropped = [
    ...checkedLinks.filter((key) => typeof given[key] === "string" && entry[key] === null).map((key) => `${key} ${JSON.stringify(given[key])} is not a safe link (http(s), or a wallet's own scheme for its apps)`),
    ...(typeof given["image_url"] === "string" && entry.image_url === undefined
      ? [`image_url ${JSON.stringify(given["image_url"])} is not an http(s) or data:image URL`]
      : [])
  ]
  return dropped.length > 0 ? { problems: dropped } : { entry: { entry, certified: certified ?? false }, problems: [] }
}

/**
 * The catalogue in the JSON file at `path`: a list of catalogue entries (`WalletCatalogEntry`, plus an optional
 * `certified`). Any problem fails with every bad entry named by its place and id; `setting` names the setting.
 */
export const readCatalogueFile = Effect.fn("readCatalogueFile")(function* (path: string, setting: string) {
  const fail = (why: string) => new CatalogueFileError({ message: `${setting}: ${path} ${why}` })
  const fs = yield* FileSystem.FileSystem
  const text = yield* fs.readFileString(path).pipe(Effect.mapError((error) => fail(`cannot be read: ${error.message}`)))
  const json = yield* Effect.try({
    try: (): unknown => JSON.parse(text),
    catch: (error) => fail(`is not JSON: ${error instanceof Error ? error.message : String(error)}`)
  })
  if (!Array.isArray(json)) return yield* fail("must hold a JSON list of catalogue entries")
  const problems: Array<string> = []
  const wallets: Array<CatalogueWallet> = []
  const seen = new Set<string>()
  for (const [i, item] of json.entries()) {
    const id = typeof item === "object" && item !== null && typeof (item as { id?: unknown }).id === "string" ? (item as { id: string }).id : undefined
    const where = `entry [${i}]${id === undefined ? "" : ` (id ${JSON.stringify(id)})`}`
    const checked = entryProblems(item)
    problems.push(...checked.problems.map((problem) => `${where}: ${problem}`))
    if (checked.entry === undefined) continue
    if (seen.has(checked.entry.entry.id)) problems.push(`${where}: the id is given twice`)
    seen.add(checked.entry.entry.id)
    wallets.push(checked.entry)
  }
  if (problems.length > 0) return yield* fail(`is not a valid catalogue:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`)
  return wallets as ReadonlyArray<CatalogueWallet>
})
