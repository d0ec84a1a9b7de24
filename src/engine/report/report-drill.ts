import type { Report } from '../../../schema/kit/report'
import type { AnyEntity } from '../entity-api'
import type { ReportRow } from './report-api'
import { searchOfReport, type ParamValue } from './report-search'

/**
 * Where a report's figure leads (`drill` of defineReport): a record's screen — its entity's
 * form at the id the row carries — or another report's screen with its parameters in the
 * address: the ones this run shares with it by name (the period), then those the drill-down
 * takes from the row or from this run. Nothing when the row has no id, names no entity, or the
 * user may not open what it leads to. Pure: the screen gives the registry and the user's rights.
 */
export type DrillLink = { readonly to: string; readonly search?: Readonly<Record<string, ParamValue>> }

export type DrillContext = {
  entityOf: (name: string) => AnyEntity | undefined
  reportOf: (name: string) => Report | undefined
  mayOpenRecord: (entity: AnyEntity) => boolean
  mayOpenReport: (report: Report) => boolean
}

/** A record's id as the rows give it: a number, or a bigint as its digits. */
function idOf(value: unknown): number | null {
  const id = typeof value === 'string' && /^\d{1,15}$/.test(value) ? Number(value) : value
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : null
}

/** A row's value as a parameter: a reference by its id. */
function paramOf(value: unknown): ParamValue | undefined {
  if (typeof value === 'string') return value === '' ? undefined : value
  if (typeof value === 'number' || typeof value === 'boolean') return value
  if (typeof value === 'object' && value !== null && 'id' in value) return idOf(value.id) ?? undefined
  return undefined
}

export function drillLink(report: Report, column: string, row: ReportRow, params: Readonly<Record<string, ParamValue>>, context: DrillContext): DrillLink | null {
  const drill = report.drill[column]
  if (!drill) return null
  if ('report' in drill) {
    const target = context.reportOf(drill.report)
    if (!target || !context.mayOpenReport(target)) return null
    const next: Record<string, ParamValue> = {}
    for (const name of target.paramNames) if (params[name] !== undefined) next[name] = params[name]
    for (const [name, from] of Object.entries(drill.params ?? {})) {
      const value = from in report.columns || from in report.hidden ? paramOf(row[from]) : params[from]
      if (value === undefined) delete next[name]
      else next[name] = value
    }
    return { to: target.ui.path, search: searchOfReport(target, { params: next }) }
  }
  const name = typeof drill.entity === 'string' ? drill.entity : row[drill.entity.fromColumn]
  const entity = typeof name === 'string' ? context.entityOf(name) : undefined
  const id = idOf(row[drill.id])
  if (!entity || entity.isLine || id === null || !context.mayOpenRecord(entity)) return null
  return { to: `${entity.ui.formPath}/${id}` }
}
