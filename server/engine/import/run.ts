import { randomUUID } from 'node:crypto'
import { sql } from 'kysely'
import { renderMessage, type Entity, type Fields, type Message } from '../../../schema/kit'
import type { Trx } from '../../db/types'
import { translator, type Language } from '../../i18n'
import type { EngineCtx } from '../access'
import { inAuditBatch } from '../audit-scope'
import { HttpError, ValidationError } from '../errors'
import { createRow, inTransaction } from '../service'
import { pgError } from '../operations/transaction'
import type { Values } from '../validate'
import { valueReaders } from './cells'
import type { ColumnMapping } from './fields'
import { rejectedWriter, type RejectedWriter } from './files'
import { referenceResolver } from './references'
import { cellText, isBlankRow, readSheet, type SheetRow } from './sheet'
import type { ImportUpload } from './upload'

/**
 * An import run: every row of the file made a record by the engine's own create — the same
 * validation, rules, hooks, numbering, access check and audit entry as `create/` — never
 * a raw insert. Each row runs inside a savepoint of its transaction, so a row refused
 * (by its fields, a rule, a unique value the database holds — another row of the same file
 * included) is rolled back alone and the others go on.
 *
 * - `dry_run`: every row in one transaction, rolled back at the end: nothing is written, and
 *   every row is judged exactly as the import would judge it.
 * - `all`: every row in one transaction, kept only when no row was refused.
 * - `batches`: `BATCH_SIZE` rows a transaction; the valid rows are kept, the refused ones
 *   written to a file (their cells and the reasons) that the user may download.
 *
 * Memory: one row at a time (a batch's 500 rows in `batches`), the answers of the reference
 * look-ups (bounded), and the first `MAX_ERRORS` errors; counts are kept, rows are not.
 */
export const importModes = ['dry_run', 'all', 'batches'] as const
export type ImportMode = (typeof importModes)[number]

export const BATCH_SIZE = 500
export const PROGRESS_EVERY = 250
/** The errors an answer lists (its counts stay exact). */
export const MAX_ERRORS = 1000

export type RowError = { row: number; fields: Record<string, string[]>; detail?: string }
export type ImportResult = {
  mode: ImportMode
  rows: number
  valid: number
  created: number
  rejected: number
  errors: RowError[]
  rejected_file?: string
}

type Problems = { fields: Record<string, Message[]>; detail?: Message | string }

/** What the database refuses of one row that is no bug: said to the person, the row rolled back alone. */
const DATABASE_REFUSALS: Readonly<Record<string, string>> = {
  '22003': 'detail.number_out_of_range',
  '22021': 'detail.unstorable_character',
  '22P05': 'detail.unstorable_character',
  '57014': 'detail.statement_timeout',
}

/**
 * Lets the event loop turn: on the embedded database every statement runs on this thread, and
 * a long import would otherwise keep other requests — and the news that its caller left — waiting.
 */
const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve))

/** Ends a transaction that must not be kept (a dry run, an import with refused rows, a caller gone). */
class RollBack extends Error {}

export type ImportRun = {
  ctx: EngineCtx
  upload: Pick<ImportUpload, 'path' | 'format'>
  columns: readonly string[]
  mapping: ColumnMapping
  mode: ImportMode
  language: Language
  onProgress: (rows: number) => void
  /** The caller went away: stop (what one transaction holds is rolled back; batches kept stay). */
  isAborted: () => boolean
  /** A row's failure that is a bug, not the row's fault: logged, and the row refused with this id to quote. */
  onUnexpected: (error: unknown) => string
}

export async function runImport(run: ImportRun): Promise<ImportResult> {
  const { ctx, mode, language } = run
  const entity: Entity<string, Fields> = ctx.entity
  const t = translator(language)
  const say = (m: Message | string) => (typeof m === 'string' ? m : renderMessage(t, m))

  const mapped = run.columns.flatMap((column, index) => (run.mapping[column] ? [{ index, field: run.mapping[column] }] : []))
  const fields = mapped.map((m) => m.field)
  const readers = valueReaders(entity, fields)
  const resolver = referenceResolver(ctx, ctx.registry, entity, fields)

  const problemsOf = (e: unknown): Problems => {
    if (e instanceof ValidationError) return { fields: e.fields }
    if (e instanceof HttpError && 'detail' in e) return { fields: {}, detail: (e as HttpError & { detail: string | Message }).detail }
    const refusal = DATABASE_REFUSALS[pgError(e).code ?? '']
    if (refusal) return { fields: {}, detail: { key: refusal } }
    return { fields: {}, detail: { key: 'detail.internal_quote_id', params: { request_id: run.onUnexpected(e) } } }
  }

  /** One row made a record in `trx`, or rolled back to where it began. */
  async function importRow(trx: Trx, row: SheetRow): Promise<Problems | undefined> {
    const values: Values = {}
    const texts = new Map<string, string>()
    for (const { index, field } of mapped) {
      const cell = row.cells[index] ?? null
      if (cell === null || (typeof cell === 'string' && cell.trim() === '')) continue
      const reader = readers.get(field)
      if (reader) values[field] = reader(cell)
      else texts.set(field, cellText(cell).trim())
    }
    await sql`savepoint bo_import_row`.execute(trx)
    let unresolved: Record<string, Message[]> = {}
    try {
      unresolved = await resolver.resolve(trx, texts, values)
      // Judged all the same, so that every problem of the row is told at once; a label not found is its field's only message.
      await createRow({ ...ctx, db: trx }, values)
      if (Object.keys(unresolved).length === 0) {
        await sql`release savepoint bo_import_row`.execute(trx)
        return undefined
      }
      await sql`rollback to savepoint bo_import_row`.execute(trx)
      return { fields: unresolved }
    } catch (e) {
      await sql`rollback to savepoint bo_import_row`.execute(trx)
      const problems = problemsOf(e)
      return { ...problems, fields: { ...problems.fields, ...unresolved } }
    }
  }

  const totals = { rows: 0, valid: 0, rejected: 0 }
  const errors: RowError[] = []
  const rendered = (problems: Problems) => ({
    fields: Object.fromEntries(Object.entries(problems.fields).map(([field, messages]) => [field, messages.map(say)])),
    ...(problems.detail !== undefined ? { detail: say(problems.detail) } : {}),
  })
  const tally = (row: SheetRow, problems: Problems | undefined) => {
    totals.rows++
    if (totals.rows % PROGRESS_EVERY === 0) run.onProgress(totals.rows)
    if (!problems) {
      totals.valid++
      return undefined
    }
    totals.rejected++
    const said = rendered(problems)
    if (errors.length < MAX_ERRORS) errors.push({ row: row.row, ...said })
    return said
  }

  async function* dataRows(): AsyncGenerator<SheetRow> {
    let isHeader = true
    for await (const row of readSheet(run.upload)) {
      if (isBlankRow(row.cells)) continue
      if (isHeader) {
        isHeader = false
        continue
      }
      yield row
    }
  }

  const batch = randomUUID()
  const tx = { db: ctx.db, entity }
  let created = 0
  let rejectedFile: string | undefined

  if (mode === 'batches') {
    const labelOf = (field: string) => (entity.fields[field] ? t(entity.fieldLabelKey(field)) : '')
    const reasonsOf = (said: ReturnType<typeof rendered>) =>
      [...(said.detail ? [said.detail] : []), ...Object.entries(said.fields).map(([field, messages]) => `${labelOf(field) ? `${labelOf(field)}: ` : ''}${messages.join(' ')}`)].join('; ')
    const writer: RejectedWriter = await rejectedWriter({ user: ctx.actor?.id ?? 0, entity: entity.name }, [...run.columns, t('detail.import_reasons_column')])
    const importBatch = async (rows: SheetRow[]) => {
      let outcomes: Array<Problems | undefined>
      try {
        outcomes = await inAuditBatch(batch, () =>
          inTransaction(tx, async (trx) => {
            const out: Array<Problems | undefined> = []
            for (const row of rows) out.push(await importRow(trx, row))
            return out
          }),
        )
      } catch (e) {
        // The batch as a whole failed (its commit): none of its rows was kept.
        const problems = problemsOf(e)
        outcomes = rows.map(() => problems)
      }
      for (const [i, row] of rows.entries()) {
        const said = tally(row, outcomes[i])
        if (said) await writer.add(run.columns.map((_, c) => cellText(row.cells[c] ?? null)), reasonsOf(said))
        else created++
      }
    }
    try {
      let pending: SheetRow[] = []
      for await (const row of dataRows()) {
        pending.push(row)
        if (pending.length < BATCH_SIZE) continue
        await yieldToEventLoop()
        if (run.isAborted()) break
        await importBatch(pending)
        pending = []
      }
      await yieldToEventLoop()
      if (pending.length > 0 && !run.isAborted()) await importBatch(pending)
    } finally {
      rejectedFile = await writer.close()
    }
  } else {
    let hasRun = false
    try {
      await inAuditBatch(batch, () =>
        inTransaction(tx, async (trx) => {
          // Rows are read once, from the file: a transaction run again would find none.
          if (hasRun) throw new Error('an import transaction is not run twice')
          hasRun = true
          for await (const row of dataRows()) {
            if (totals.rows % PROGRESS_EVERY === 0) await yieldToEventLoop()
            if (run.isAborted()) throw new RollBack()
            tally(row, await importRow(trx, row))
          }
          if (mode === 'dry_run' || totals.rejected > 0) throw new RollBack()
        }),
      )
      created = totals.valid
    } catch (e) {
      if (!(e instanceof RollBack)) throw e
    }
  }
  run.onProgress(totals.rows)
  return { mode, ...totals, created, errors, ...(rejectedFile ? { rejected_file: rejectedFile } : {}) }
}
