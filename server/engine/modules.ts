import type { FastifyInstance } from 'fastify'
import type { Report } from '../../schema/kit'
import type { Db } from '../db/types'
import type { EntityHooks, HookRegistry } from './hooks'
import type { Registry } from './list-query'
import type { ReportRun } from './reports'
import type { WidgetRun } from './widgets'
import type { ActionHandler } from './service'
import type { Ledger, PostingOf } from './posting'
import type { StockKeeper, StockMovesOf } from './stock-moves'

/**
 * A domain module (server/domain/<module>): the rules and routes of one part of the
 * business that the generic engine does not know. The app assembles them: hooks run
 * inside the engine's writes, routes are registered behind the same guard as the
 * engine's, and `onStart` brings the module's own data up to date at every start.
 */
export type ModuleDeps = {
  db: Db
  /** The app's registry (references resolve here). */
  registry: Registry
  /** Every module's hooks, for the engine writes a module makes itself. */
  hooks: HookRegistry
  /** The app's reports. */
  reports: readonly Report[]
  mediaDir: string
  jwtSecret: string
  isDemo: boolean
}

export interface DomainModule {
  readonly name: string
  /** Rules by entity name; an entity extending another also runs its parent's. */
  readonly hooks?: Readonly<Record<string, EntityHooks>>
  /** What the registry's custom actions do, by entity and action name (the engine checks, locks, audits). */
  readonly actions?: Readonly<Record<string, Readonly<Record<string, ActionHandler>>>>
  /** What the records of entities that post (`posts` of the registry) post, by entity: the lines, the day, the header. */
  readonly postings?: Readonly<Record<string, PostingOf>>
  /** The general ledger the engine posts into (the accounting module keeps it; one module gives it). */
  readonly ledger?: Ledger
  /** What the records of entities that move stock (`moves` of the registry) move, by entity. */
  readonly stockMoves?: Readonly<Record<string, StockMovesOf>>
  /** The stock the engine moves documents' goods in and out of (the inventory module keeps it; one module gives it). */
  readonly stock?: StockKeeper
  /** The data of the registry's dashboard widgets, by widget name: one query each (the engine serves and batches them). */
  readonly widgets?: Readonly<Record<string, WidgetRun>>
  /** The rows of the registry's reports, by report name: one SQL query each (the engine pages, totals, streams). */
  readonly reports?: Readonly<Record<string, ReportRun>>
  /**
   * Bespoke routes, behind the guard: each sets `config.permission` (one name or a list of
   * which any will do), or `config.isPublic`, or neither for any signed-in user.
   */
  readonly routes?: (app: FastifyInstance, deps: ModuleDeps) => void | Promise<void>
  /** Runs at every start, before the server answers (seeds, sync of derived rows). */
  readonly onStart?: (deps: ModuleDeps) => Promise<void>
}
