import { sql } from 'kysely'
import { beforeAll, expect, it } from 'vitest'
import { registry, reportRegistry } from '../../schema'
import type { Db } from '../../server/db/types'
import type { DomainModule } from '../../server/engine/modules'
import { messageFor } from '../../server/i18n'
import { describeEachDatabase, type Reply } from './helpers/app'
import { ledgerUnder } from './helpers/ledgers'
import { multipart } from './helpers/multipart'

/**
 * One guard on what every route behind the API's guard is sent (issue 19): a NUL character
 * (which PostgreSQL cannot store) in a bespoke route's JSON or multipart body, its query or its
 * path, or in a report's parameter, is a 400 — a field map keyed as the engine keys fields, or a
 * `{detail}` naming the parameter — before the route reads it, so nothing is written and nothing
 * answers 500; a bespoke delete of several takes the engine's bounded ids. Table-driven over the
 * modules' routes: vouchers, reports, membership, content, identity, catalogue.
 */
const NUL = '\u0000'
const DAY = '2026-08-03'
const JOURNAL = registry.journal.api.base
const PAYMENT = registry.payment_voucher.api.base
const { change_log: changeLog, ledger_report: ledgerReport, trial_balance: trialBalance } = reportRegistry

const nulField = (lang: 'en' | 'tr' | 'ar' = 'en') => [messageFor(lang, { key: 'validation.nul_character' })]
const nulParameter = (param: string, lang: 'en' | 'tr' | 'ar' = 'en') => ({ detail: messageFor(lang, { key: 'detail.nul_parameter', params: { param } }) })
const idsBody = { detail: messageFor('en', { key: 'detail.ids_body' }) }

/** A route that hands the database a NUL itself: what the error handler answers when one gets past every guard. */
const unguarded: DomainModule = {
  name: 'test-unguarded',
  routes: (app, deps) => {
    app.get('/api/test/unstorable', async () => sql`select ${`a${NUL}b`}::text as v`.execute(deps.db))
  },
}

const WATCHED = ['journal', 'payment_voucher', 'account_log', 'monthly_subscription', 'role_menu', 'cms_blog', 'product', 'audit_log'] as const
const snapshot = async (db: Db) =>
  Object.fromEntries(await Promise.all(WATCHED.map(async (table) => [table, Number((await sql<{ n: number }>`select count(*)::int as n from ${sql.id(table)}`.execute(db)).rows[0]!.n)] as const)))

describeEachDatabase(
  'the API guard on what a request sends',
  (t) => {
    let db: Db
    let rent: number
    let vendor: number
    let cash: number
    let invoice: string
    let member: number
    let product: number

    beforeAll(async () => {
      db = t.current.db
      rent = await ledgerUnder(db, 'Guard Rent', 'Indirect Expenses')
      vendor = await ledgerUnder(db, 'Guard Vendor', 'Sundry Creditors')
      cash = (await sql<{ id: number }>`select id from ledger_account where name = 'Cash' and is_deletable = false`.execute(db)).rows[0]!.id
      const made = await t.current.call({ method: 'POST', url: `${JOURNAL}/create/`, payload: { journal_date: DAY, items: [{ ledger: rent, debit_amount: '5.00' }, { ledger: vendor, credit_amount: '5.00' }] } })
      expect(made.status, made.raw).toBe(201)
      invoice = made.body.journals[0].invoice_no
      const m = await t.current.call({ method: 'POST', url: `${registry.member.api.base}/create/`, payload: { first_name: 'Guard', last_name: 'Member', username: 'guardmember', email: 'guard-member@example.com', password: 'secret123' } })
      expect(m.status, m.raw).toBe(201)
      member = m.body.id
      const p = await t.current.call({ method: 'POST', url: `${registry.product.api.base}/create/`, payload: { name: 'Guarded product' } })
      expect(p.status, p.raw).toBe(201)
      product = p.body.id
    })

    type Case = { what: string; send: () => Promise<Reply>; answer: () => Record<string, unknown> }
    const json = (method: 'POST' | 'PUT' | 'DELETE', url: string, payload: unknown, lang = 'en') =>
      t.current.call({ method, url, payload: JSON.stringify(payload), headers: { 'content-type': 'application/json', 'accept-language': lang } })
    const get = (url: string, lang = 'en') => t.current.call({ method: 'GET', url, headers: { 'accept-language': lang } })
    const form = (url: string, fields: Record<string, string>) => {
      const body = multipart(fields)
      return t.current.call({ method: 'POST', url, payload: body.payload, headers: body.headers })
    }
    const lines = () => [{ ledger: rent, debit_amount: '1.00' }, { ledger: vendor, credit_amount: '1.00' }]

    const cases = (): Case[] => [
      // Vouchers (server/domain/accounting/voucher-routes.ts).
      { what: "a journal's details", send: () => json('POST', `${JOURNAL}/create/`, { journal_date: DAY, details: `a${NUL}b`, items: lines() }), answer: () => ({ details: nulField() }) },
      { what: "a journal line's amount", send: () => json('POST', `${JOURNAL}/create/`, { journal_date: DAY, items: [{ ledger: rent, debit_amount: `1${NUL}` }, { ledger: vendor, credit_amount: '1.00' }] }), answer: () => ({ 'items.0.debit_amount': nulField() }) },
      { what: "a voucher update's invoice number", send: () => json('PUT', `${JOURNAL}/update/`, { invoice_no: `${invoice}${NUL}`, journal_date: DAY, items: lines() }), answer: () => ({ invoice_no: nulField() }) },
      { what: "a voucher update's details (Turkish)", send: () => json('PUT', `${JOURNAL}/update/`, { invoice_no: invoice, details: `x${NUL}`, items: lines() }, 'tr'), answer: () => ({ details: nulField('tr') }) },
      {
        what: "a multipart payment's ref_invoice_no",
        send: () => form(`${PAYMENT}/create/`, { payment_date: DAY, ref_invoice_no: `SA1${NUL}`, 'items[0][ledger]': String(rent), 'items[0][debit_amount]': '2', 'items[1][ledger]': String(cash), 'items[1][credit_amount]': '2' }),
        answer: () => ({ ref_invoice_no: nulField() }),
      },
      { what: 'a multipart line field', send: () => form(`${PAYMENT}/create/`, { payment_date: DAY, 'items[0][ledger]': `${rent}${NUL}`, 'items[0][debit_amount]': '2', 'items[1][ledger]': String(cash), 'items[1][credit_amount]': '2' }), answer: () => ({ 'items.0.ledger': nulField() }) },
      { what: 'the by-invoice read', send: () => get(`${JOURNAL}/journal_by_invoice_no/${invoice}%00`), answer: () => nulParameter('invoice_no') },
      { what: 'delete_multiple of 1e19', send: () => t.current.call({ method: 'DELETE', url: `${PAYMENT}/delete_multiple/`, payload: '{"ids":[1e19]}', headers: { 'content-type': 'application/json' } }), answer: () => idsBody },
      { what: 'delete_multiple of 1.5', send: () => t.current.call({ method: 'DELETE', url: `${JOURNAL}/delete_multiple/`, payload: '{"ids":[1.5]}', headers: { 'content-type': 'application/json' } }), answer: () => idsBody },
      { what: 'delete_multiple of "1e19"', send: () => json('DELETE', `${JOURNAL}/delete_multiple/`, { ids: ['1e19'] }), answer: () => idsBody },
      { what: 'delete_multiple with a NUL', send: () => json('DELETE', `${JOURNAL}/delete_multiple/`, { ids: [`1${NUL}`] }), answer: () => ({ 'ids': nulField() }) },
      // Reports (server/engine/reports.ts and the accounting module's contract route).
      { what: "the change log's record", send: () => get(`${changeLog.api.base}/?record=a%00b`), answer: () => nulParameter('record') },
      { what: "the change log's CSV (Arabic)", send: () => get(`${changeLog.api.base}/csv?record=a%00b`, 'ar'), answer: () => nulParameter('record', 'ar') },
      { what: "the ledger report's ledger", send: () => get(`${ledgerReport.api.base}/?ledger=${rent}%00`), answer: () => nulParameter('ledger') },
      { what: "the trial balance's choice", send: () => get(`${trialBalance.api.base}/?show_zero=yes%00`), answer: () => nulParameter('show_zero') },
      { what: "the contract's ledger report", send: () => get(`/account_log_report/api/v1/account_log_report/general/?ledger=${rent}&date_after=2026-01-01%00`), answer: () => nulParameter('date_after') },
      { what: "a parameter's name", send: () => get(`${changeLog.api.base}/?rec%00ord=1`), answer: () => nulParameter('rec\uFFFDord') },
      // Membership.
      { what: "a subscription's note", send: () => json('POST', `${registry.monthly_subscription.api.base}/create/`, { members: [member], amount: '10.00', note: `n${NUL}` }), answer: () => ({ note: nulField() }) },
      { what: "a subscription's member", send: () => json('POST', `${registry.monthly_subscription.api.base}/create/`, { members: [`${member}${NUL}`], amount: '10.00' }), answer: () => ({ members: nulField() }) },
      { what: "a member's own subscriptions", send: () => get(`${registry.monthly_subscription.api.base}/get_all_by_member/?x=%00`), answer: () => nulParameter('x') },
      { what: "a cause's contents", send: () => get(`${registry.cause.api.base}/get_all_content_and_image_by_cause_id/1%00`), answer: () => nulParameter('id') },
      // Content.
      { what: "meta data by a content's slug", send: () => get(`${registry.cms_meta_data.api.base}/get_meta_data_by_cms_content_slug/a%00b/`), answer: () => nulParameter('slug') },
      { what: "pictures by a menu's name", send: () => get(`/cms_menu_content_image/api/v1/get_all_cms_menu_content_image_list_by_menu_name/a%00b`), answer: () => nulParameter('name') },
      { what: "a blog picture's upload", send: () => form(`${registry.cms_blog.api.base}/image_upload/`, { [`na${NUL}me`]: 'x' }), answer: () => ({ non_field_errors: nulField() }) },
      // Identity.
      { what: 'a uniqueness check', send: () => get(`${registry.user.api.base}/check_email_when_create/?email=a%00b@example.com`), answer: () => nulParameter('email') },
      { what: "a role menu's items", send: () => json('POST', `${registry.role_menu.api.base}/create/`, { role: 1, menu_items: [`1${NUL}`] }), answer: () => ({ menu_items: nulField() }) },
      { what: "the sign-in's e-mail", send: () => t.current.call({ method: 'POST', url: '/user/api/v1/user/login/', payload: { email: `admin${NUL}@example.com`, password: 'x' }, asAnonymous: true }), answer: () => ({ email: nulField() }) },
      // Catalogue.
      { what: "a product's colours", send: () => json('POST', '/productcolor/api/v1/productcolor/create/', { product, color: [`1${NUL}`] }), answer: () => ({ color: nulField() }) },
      { what: 'a key of a body', send: () => json('POST', `${JOURNAL}/create/`, { journal_date: DAY, [`x${NUL}`]: 1, items: lines() }), answer: () => ({ non_field_errors: nulField() }) },
    ]

    it('refuses a NUL anywhere a bespoke route or a report is sent it, and bad ids of a bespoke delete of several: 400, never a 500, nothing written', async () => {
      const before = await snapshot(db)
      const failures: string[] = []
      for (const c of cases()) {
        const res = await c.send()
        if (res.status !== 400 || JSON.stringify(res.body) !== JSON.stringify(c.answer())) failures.push(`${c.what}: ${res.status} ${res.raw.slice(0, 200)}`)
      }
      expect(failures).toEqual([])
      expect(await snapshot(db)).toEqual(before)
      // The voucher read as it was.
      const stored = await get(`${JOURNAL}/journal_by_invoice_no/${invoice}`)
      expect(stored.body.items.map((i: { debit_amount: string }) => i.debit_amount)).toEqual(['5.00', '0.00'])
    })

    it('answers a character the database cannot store that reaches it all the same with 400 {detail}, not a 500', async () => {
      const res = await get('/api/test/unstorable', 'tr')
      expect(res.status, res.raw).toBe(400)
      expect(res.body).toEqual({ detail: messageFor('tr', { key: 'detail.unstorable_character' }) })
    })
  },
  { modules: [unguarded] },
)
