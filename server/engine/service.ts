/**
 * The engine's read and write layer, one operation per file under `operations/` (Payload's
 * habit): read, create, update, delete, a document's lines, custom actions, and the
 * transaction they all run in. Every call says who asks (access.ts): the caller's permission
 * and row scope are checked inside these, so no route — generic or a module's — can forget them.
 */
import type { EngineCtx } from './access'

export type Ctx = EngineCtx
export type { Access } from './access'
export type { Action } from '../../schema/kit'
export { inTransaction } from './operations/transaction'
export { countList, notFound, readRow, readList, scopeFilters } from './operations/read'
export { createRow } from './operations/create'
export { updateRow } from './operations/update'
export { deleteRow, deleteRows, deleteImpact, type DeleteImpact } from './operations/delete'
export { runAction, type ActionArgs, type ActionHandler } from './operations/actions'
export { changeLines, documentOfLine } from './operations/line-changes'
