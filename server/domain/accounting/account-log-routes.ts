import type { FastifyInstance } from 'fastify'
import { sql } from 'kysely'
import type { Report } from '../../../schema/kit'
import { ConflictError, ValidationError } from '../../engine/errors'
import type { ModuleDeps } from '../../engine/modules'
import { filtersOf, orderingOf, pageOf } from '../../engine/request'
import { actionConfig, requestContext } from '../../engine/routes'
import { readList } from '../../engine/service'
import { validateShape, type Values } from '../../engine/validate'
import { paramsShape } from '../../engine/reports'
import { nestedRef } from '../../engine/list-query'
import { linesStart, statementBalances, statementParamsOf, statementRows, type LedgerStatementParams } from './ledger-report'
import { accountStatementTotals, statementOf, type AccountType } from './account-statement'

/**
 * The general ledger's routes that are not the engine's (api-contract §4.7 AccountLog, §6):
 * - `search/` takes the contract's `date_after`/`date_before` (the engine's own names for
 *   the same range are `log_date_after`/`log_date_before`, which work too);
 * - `delete/{id}` and `delete_multiple/` answer 409: the ledger is append-only, a voucher is
 *   undone by cancelling it, which posts reversing rows;
 * - `account_log_report/api/v1/account_log_report/general/`: the ledger report in the
 *   contract's envelope, `{account_logs, previous_balance, page, size, total_pages, total_elements}`.
 */
type Query = Record<string, unknown>

const CONTRACT_DATE_PARAMS: Readonly<Record<string, string>> = { date_after: 'log_date_after', date_before: 'log_date_before' }

export function registerAccountLogRoutes(app: FastifyInstance, deps: ModuleDeps): void {
  const entity = deps.registry.find((e) => e.name === 'account_log')
  // A test's registry of its own may have no general ledger.
  if (!entity) return
  const base = entity.api.base
  const engine = { db: deps.db, registry: deps.registry, hooks: deps.hooks, mediaDir: deps.mediaDir }

  app.get(`${base}/search/`, { config: actionConfig(entity, 'LIST') }, async (request) => {
    const sent = request.query as Query
    const query = Object.fromEntries(Object.entries(sent).map(([key, value]) => [CONTRACT_DATE_PARAMS[key] ?? key, value]))
    const result = await readList(requestContext(engine, entity, request), {
      filters: inContractNames(sent, () => filtersOf(entity, query)),
      ordering: orderingOf(entity, query),
      page: pageOf(query),
    })
    return { [entity.listKey]: result.rows, page: result.page, size: result.size, total_pages: result.totalPages, total_elements: result.total }
  })

  const refuse = async () => {
    throw new ConflictError({ key: 'detail.account_log_append_only' })
  }
  app.delete(`${base}/delete/:id`, { config: actionConfig(entity, 'DELETE', true) }, refuse)
  app.delete(`${base}/delete_multiple/`, { config: actionConfig(entity, 'DELETE') }, refuse)

  registerContractStatements(app, deps)
}

/** A 400 about a date parameter names it as the client sent it (`date_after`, not the engine's `log_date_after`). */
function inContractNames<T>(sent: Query, work: () => T): T {
  try {
    return work()
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e
    const contractName = (key: string) => Object.keys(CONTRACT_DATE_PARAMS).find((name) => CONTRACT_DATE_PARAMS[name] === key && name in sent) ?? key
    throw new ValidationError(Object.fromEntries(Object.entries(e.fields).map(([key, messages]) => [contractName(key), messages])))
  }
}

/** Other ledgers of a voucher as the contract lists them: a name for one, the names for several. */
const relatedLedgers = (names: readonly string[] | null): string | string[] | null => (!names || names.length === 0 ? null : names.length === 1 ? names[0]! : [...names])

type StatementOf = (query: Query) => Promise<LedgerStatementParams>

const CONTRACT = '/account_log_report/api/v1/account_log_report'

/**
 * The general ledger's statements at the contract's routes (api-contract §6): one ledger's
 * (`general/`, `for_person_or_company_ledger/`), the cash or bank book (`by_ledger_type/`,
 * `for_cash_ledger/`, `for_bank_ledger_or_bank_account_group/`), a sub-ledger's across every
 * ledger (`for_sub_ledger/`) — the ledger report's and the account statement's rows, in the
 * contract's envelope with `previous_balance`.
 */
function registerContractStatements(app: FastifyInstance, deps: ModuleDeps): void {
  const ledgerReport = deps.reports.find((r) => r.name === 'ledger_report')
  if (ledgerReport) {
    const ofLedger: StatementOf = async (query) => statementParamsOf(validateShape(paramsShape(ledgerReport), query as Values))
    registerStatementRoute(app, deps, `${CONTRACT}/general/`, ledgerReport, ofLedger)
    registerStatementRoute(app, deps, `${CONTRACT}/for_person_or_company_ledger/`, ledgerReport, ofLedger)
  }
  const statement = deps.reports.find((r) => r.name === 'account_statement')
  if (!statement) return
  const ofType =
    (type?: AccountType): StatementOf =>
    (query) =>
      statementOf(deps.db, validateShape(paramsShape(statement), (type ? { ...query, account_type: type } : query) as Values))
  registerStatementRoute(app, deps, `${CONTRACT}/by_ledger_type/`, statement, ofType())
  registerStatementRoute(app, deps, `${CONTRACT}/for_cash_ledger/`, statement, ofType('Cash'))
  // A bank ledger named, or every ledger under Bank Accounts (the group).
  registerStatementRoute(app, deps, `${CONTRACT}/for_bank_ledger_or_bank_account_group/`, statement, ofType('Bank'))
  registerStatementRoute(app, deps, `${CONTRACT}/for_sub_ledger/`, statement, async (query) => {
    const params = validateShape(paramsShape(statement, false), query as Values)
    if (params.sub_ledger == null) throw new ValidationError({ sub_ledger: [{ key: 'validation.required', params: { label: statement.fieldLabelKey('sub_ledger') } }] })
    return statementOf(deps.db, params, true)
  })

  const summary = deps.reports.find((r) => r.name === 'account_statement_summary')
  if (summary) {
    app.get(`${CONTRACT}/get_total_cash_dr_cr_bank_dr_cr/`, { config: { permission: summary.permission } }, async (request) => {
      const params = validateShape(paramsShape(summary), request.query as Values)
      const rows = await sql<{ account_type: AccountType; debit_amount: string; credit_amount: string }>`${accountStatementTotals(params)}`.execute(deps.db)
      const of = (type: AccountType) => rows.rows.find((r) => r.account_type === type)
      return { cash_dr_total: of('Cash')?.debit_amount ?? '0.00', cash_cr_total: of('Cash')?.credit_amount ?? '0.00', bank_dr_total: of('Bank')?.debit_amount ?? '0.00', bank_cr_total: of('Bank')?.credit_amount ?? '0.00' }
    })
  }
}

function registerStatementRoute(app: FastifyInstance, deps: ModuleDeps, path: string, report: Report, paramsOf: StatementOf): void {
  app.get(path, { config: { permission: report.permission } }, async (request) => {
    const query = request.query as Query
    const params = await paramsOf(query)
    const { page: asked, size } = pageOf(query)
    const { opening, rows: total } = await statementBalances(deps.db, params)
    const totalPages = Math.max(1, Math.ceil(total / size))
    const page = Math.min(asked, totalPages)
    const first = (page - 1) * size + 1
    const rows = statementRows(params, opening, { first, last: page * size, start: await linesStart(deps.db, params, first) })
    const logs = await sql<Record<string, unknown> & { related: string[] | null }>`
      select r.id, ${nestedRef('l')} as ledger, ${nestedRef('s')} as sub_ledger, ${nestedRef('b')} as branch, r.reference_no, r.log_type,
        r.debit_amount, r.credit_amount, r.log_date, r.details, r.reverses, r.created_at, r.updated_at, r.related, r.balance
      from (${rows}) r
      join ledger_account l on l.id = r.ledger
      left join sub_ledger_account s on s.id = r.sub_ledger
      left join branch b on b.id = r.branch
      order by r.line_no`.execute(deps.db)
    return {
      account_logs: logs.rows.map(({ related, ...log }) => ({ ...log, related_ledgers: relatedLedgers(related) })),
      previous_balance: opening,
      page,
      size,
      total_pages: totalPages,
      total_elements: total,
    }
  })
}
