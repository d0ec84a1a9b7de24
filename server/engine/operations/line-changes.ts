import { sql } from 'kysely'
import { lineLinkColumn, type Entity, type Fields } from '../../../schema/kit'
import type { Executor, Row } from '../../db/types'
import type { EngineCtx } from '../access'
import { notFound, readRow } from './read'
import { updateRow } from './update'

/**
 * The contract's routes on one line of a document by the line's id (`update_item/{itemId}`,
 * `delete_item/{itemId}`): the document it belongs to, and its lines changed through the
 * document's own update — its workflow's lock, its rules, the stock it moves and what it posts.
 */

/** The document a line belongs to, or a 404 naming the line. */
export async function documentOfLine(db: Executor, line: Entity<string, Fields>, lineId: number): Promise<number> {
  const found = await sql<{ parent: number }>`select ${sql.ref(lineLinkColumn(line))} as parent from ${sql.id(line.name)} where id = ${lineId}`.execute(db)
  if (!found.rows[0]) throw notFound(line, lineId)
  return Number(found.rows[0].parent)
}

/**
 * The document's lines `field` changed: `change` gets the stored lines and answers those to
 * keep — each stored one by its `id` alone, with what changes (the engine merges the rest).
 */
export async function changeLines(ctx: EngineCtx, documentId: number, field: string, change: (stored: readonly Row[]) => Row[]): Promise<Row> {
  const stored = ((await readRow(ctx, documentId))[field] as Row[] | undefined) ?? []
  return updateRow(ctx, documentId, { [field]: change(stored) })
}
