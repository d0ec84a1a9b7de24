import { CONTRA, PAYMENT, PURCHASE, RECEIPT, SALES, voucherLines, voucherSummary } from './voucher-reports'
import { sql } from 'kysely'
import { entities } from '../../../schema'
import type { HookRegistry } from '../../engine/hooks'
import type { DomainModule } from '../../engine/modules'
import { registerAccountLogRoutes } from './account-log-routes'
import { autoLedgerHooks } from './auto-ledger'
import { seedChart } from './chart-seed'
import { natureHooks, primaryGroupNature } from './nature'
import { ledgerReportRows } from './ledger-report'
import { accountStatementRows, accountStatementSummaryRows } from './account-statement'
import { trialBalanceRows } from './trial-balance'
import { balanceSheetRows, profitLossRows } from './financial-statements'
import { registerVoucherRoutes } from './voucher-routes'
import { generalLedger } from './general-ledger'
import { cashBankLedgerIds } from './posting'
import { voucherPostings } from './voucher-postings'

const CHART_ENTITIES = ['primary_group', 'group', 'ledger_account'] as const

/**
 * Accounting (issue 10): the chart of accounts — seeded at every start, groups kept a tree,
 * nature and normal balance worked out from the primary group on read — and the automatic
 * ledger accounts of the entities that declare `ledger`.
 */
export function accountingModule(): DomainModule {
  // The app's hook registry, for the ledger accounts this module creates through the engine.
  let engineHooks: HookRegistry | undefined
  return {
    name: 'accounting',
    hooks: {
      primary_group: primaryGroupNature,
      group: natureHooks('group'),
      // Whether a ledger holds money, worked out in SQL: the vouchers' rules read it, their lists prefer such a line.
      ledger_account: { ...natureHooks('ledger_account'), facts: { is_cash_bank: (alias) => sql`${sql.ref(`${alias}.id`)} in (${cashBankLedgerIds})` } },
      ...autoLedgerHooks(entities, () => engineHooks),
    },
    // Where the engine posts the registry's posted documents (`posts`), and what a voucher posts.
    ledger: generalLedger,
    postings: voucherPostings,
    // The general ledger's reports and routes (the posting service, posting.ts, is called by vouchers).
    reports: {
      ledger_report: ledgerReportRows,
      account_statement: accountStatementRows,
      account_statement_summary: accountStatementSummaryRows,
      trial_balance: trialBalanceRows,
      profit_loss: profitLossRows,
      balance_sheet: balanceSheetRows,
      payment_report: voucherLines(PAYMENT),
      payment_summary_report: voucherSummary(PAYMENT),
      receipt_report: voucherLines(RECEIPT),
      receipt_summary_report: voucherSummary(RECEIPT),
      sales_report: voucherLines(SALES),
      sales_summary_report: voucherSummary(SALES),
      purchase_voucher_report: voucherLines(PURCHASE),
      purchase_voucher_summary_report: voucherSummary(PURCHASE),
      contra_report: voucherLines(CONTRA),
    },
    routes(app, deps) {
      engineHooks = deps.hooks
      registerAccountLogRoutes(app, deps)
      registerVoucherRoutes(app, deps)
    },
    async onStart({ db, registry }) {
      // A test's registry of its own may have no chart of accounts.
      if (!CHART_ENTITIES.every((name) => registry.some((e) => e.name === name))) return
      await db.transaction().execute(async (trx) => {
        // Several servers may start at once against one PostgreSQL: one seeds, the others wait.
        await sql`select pg_advisory_xact_lock(724010)`.execute(trx)
        await seedChart(trx)
      })
    },
  }
}
