/**
 * Where rows stood in a list the last time a deep page of it was read: per list (entity,
 * filters, ordering), the id of the row at some positions, under the versions of the tables
 * the list reads. A later page of the same list seeks from the nearest remembered row before
 * it (`(sort key, id) > that row's`) instead of counting every earlier row again (OFFSET):
 * the next page after page N costs what page 2 does. Any write moves a version, and rows
 * remembered under another version are never used — the page is then what OFFSET gives.
 */

const envInt = (name: string, fallback: number) => {
  const raw = process.env[name]
  return raw !== undefined && /^\d{1,9}$/.test(raw) ? Number(raw) : fallback
}

/**
 * The list read's thresholds. Tests lower them to reach the bounded count and the seeks with a
 * few rows; the environment may move them for a deployment (LIST_EXACT_COUNT_UP_TO,
 * LIST_SEEK_FROM).
 */
export const listTuning = {
  /**
   * A text search counts at most this many matching rows (or a page's end, if further): past
   * it, `total_elements` says "more than this many" (`total_is_lower_bound`). Counting every
   * match of a common term is what made a new search slow; no list shows more than a page.
   */
  exactCountUpTo: envInt('LIST_EXACT_COUNT_UP_TO', 1_000),
  /** From this many rows before a page, the page's first and last rows are remembered and later pages seek from them. */
  seekFrom: envInt('LIST_SEEK_FROM', 1_000),
}

/** Pages sought from a remembered row, and seeks that found the versions moved (then cut by OFFSET): what tests and the bench check. */
export const seekCounts = { sought: 0, missed: 0 }

type Remembered = { versions: string; at: Map<number, number> }

const LISTS_MAX = 1_000
const POSITIONS_MAX = 64
const lists = new Map<string, Remembered>()

/** The remembered row nearest before (or at) `offset`, 0-based, under these versions. */
export function nearestRow(key: string, versions: string, offset: number): { position: number; id: number } | undefined {
  const list = lists.get(key)
  if (!list || list.versions !== versions) return undefined
  let best: { position: number; id: number } | undefined
  for (const [position, id] of list.at) if (position <= offset && (!best || position > best.position)) best = { position, id }
  return best
}

/** Remembers the first and last rows of a page read at `offset` (ids in the list's order). */
export function rememberRows(key: string, versions: string, offset: number, ids: readonly number[]): void {
  if (ids.length === 0) return
  let list = lists.get(key)
  if (!list || list.versions !== versions) list = { versions, at: new Map() }
  // Most recently used last: the oldest list goes first when full.
  lists.delete(key)
  if (lists.size >= LISTS_MAX) lists.delete(lists.keys().next().value!)
  lists.set(key, list)
  for (const [position, id] of [[offset, ids[0]!], [offset + ids.length - 1, ids[ids.length - 1]!]] as const) {
    list.at.delete(position)
    if (list.at.size >= POSITIONS_MAX) list.at.delete(list.at.keys().next().value!)
    list.at.set(position, id)
  }
}

/** Forgets every remembered row (tests that compare seeks with OFFSET from a clean start). */
export function forgetPositions(): void {
  lists.clear()
}
