import { BadRequest } from "../../../src/domain/http/errors"

/**
 * Cursors of the paged endpoints over the EVM index: the sort key of the last item of a page, four numbers
 * (block time, chain id, block number, position in the block), written as `n-n-n-n`. Keys compare across chains,
 * so one cursor pages every chain at once.
 */
export type SortKey = readonly [number, number, number, number]

/** The cursor that continues after an item with this key. */
export const cursorOf = (key: SortKey): string => key.join("-")

/** The key a cursor names; a 400 for text this service would not have given. */
export const parseCursor = (cursor: string): SortKey => {
  const parts = /^(\d+)-(\d+)-(\d+)-(\d+)$/.exec(cursor)
  if (parts === null) throw new BadRequest({ error: `Invalid cursor: ${cursor} is not a cursor this service gave` })
  return [Number(parts[1]), Number(parts[2]), Number(parts[3]), Number(parts[4])]
}

/** Orders keys newest first: negative when `a` comes before `b`. */
export const compareDesc = (a: SortKey, b: SortKey): number => {
  for (let i = 0; i < a.length; i++) {
    const d = (b[i] ?? 0) - (a[i] ?? 0)
    if (d !== 0) return d
  }
  return 0
}

/** One page of `items` (sorted newest first by `keyOf`) after `cursor`, and the cursor of the next page or null. */
export const pageAfter = <A>(
  items: ReadonlyArray<A>,
  keyOf: (item: A) => SortKey,
  cursor: string | undefined,
  pageSize: number
): { readonly page: ReadonlyArray<A>; readonly next: string | null } => {
  const after = cursor === undefined ? undefined : parseCursor(cursor)
  const rest = items
    .filter((item) => after === undefined || compareDesc(keyOf(item), after) > 0)
    .sort((a, b) => compareDesc(keyOf(a), keyOf(b)))
  const page = rest.slice(0, pageSize)
  const last = page.at(-1)
  return { page, next: rest.length > page.length && last !== undefined ? cursorOf(keyOf(last)) : null }
}
