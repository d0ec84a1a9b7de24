import { sql } from 'kysely'
import type { Executor } from '../db/types'
import { currentAuditScope } from './audit-scope'

/** What was done: a generic write, or the name of a custom action (`confirm`, `post`). */
export type AuditAction = 'create' | 'update' | 'delete' | (string & {})
/** Changed fields with their value before and after: `{name: ["Old", "New"]}`. */
export type Changes = Record<string, [unknown, unknown]>

/** What the audit log shows for a secret (a password): that it was set, never the value or its hash. */
export const MASKED = '***'

const comparable = (v: unknown) => (v instanceof Date ? v.toISOString() : JSON.stringify(v ?? null))

export function diff(before: Record<string, unknown> | null, after: Record<string, unknown> | null, fields: readonly string[]): Changes {
  const changes: Changes = {}
  for (const f of fields) {
    const a = before?.[f] ?? null
    const b = after?.[f] ?? null
    if (comparable(a) !== comparable(b)) changes[f] = [a, b]
  }
  return changes
}

export async function writeAudit(
  db: Executor,
  entry: { actor: { id: number } | null; entity: string; entityId: number; action: AuditAction; changes: Changes },
): Promise<void> {
  const { source, batch } = currentAuditScope()
  await sql`insert into audit_log (actor, entity, entity_id, action, changes, source, batch)
    values (${entry.actor?.id ?? null}, ${entry.entity}, ${entry.entityId}, ${entry.action}, ${JSON.stringify(entry.changes)}::jsonb, ${source ?? null}, ${batch ?? null}::uuid)`.execute(db)
}
