import type { Row } from '../../db/types'

/**
 * A menu's pictures grouped by their heading, as the site reads them (api-contract §4.4):
 * `{<head>: [url, …]}` in the order of the rows given.
 */
export function imagesByHead(rows: readonly Row[]): Record<string, string[]> {
  const out: Record<string, string[]> = {}
  for (const row of rows) {
    if (typeof row.image !== 'string') continue
    ;(out[String(row.head)] ??= []).push(row.image)
  }
  return out
}

/**
 * The same with a heading of one picture given as that picture's URL and one of several as
 * the list (`get_all_menu_content_and_image_by_cms_menu_id`'s shape: `{<head>: url | [urls]}`).
 */
export function imageOrImagesByHead(rows: readonly Row[]): Record<string, string | string[]> {
  return Object.fromEntries(Object.entries(imagesByHead(rows)).map(([head, urls]) => [head, urls.length === 1 ? urls[0]! : urls]))
}

/** A menu's contents as the site reads them: `{<name>: <value>}`, a later row of the same name winning. */
export function valuesByName(rows: readonly Row[]): Record<string, string | null> {
  const out: Record<string, string | null> = {}
  for (const row of rows) out[String(row.name)] = (row.value as string | null) ?? null
  return out
}
